-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_status_created_at_id_idx" ON "flow_runs"("workspace_id", "status", "created_at" DESC, "id" DESC);

