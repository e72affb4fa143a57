-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "workspaces" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "templates" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "file_types" TEXT[],
    "fields" JSONB NOT NULL,
    "tables" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "extractions" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "template_id" TEXT NOT NULL,
    "template_name" TEXT NOT NULL,
    "template" JSONB NOT NULL,
    "name" TEXT,
    "guidance" TEXT,
    "metadata" JSONB,
    "file_name" TEXT NOT NULL,
    "file_size" BIGINT NOT NULL,
    "file_kind" TEXT NOT NULL,
    "file_extension" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "object_key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "status_history" JSONB NOT NULL,
    "error" TEXT,
    "fields" JSONB,
    "stats" JSONB,
    "progress" JSONB,
    "flow_run_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "extractions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "extraction_tables" (
    "id" BIGSERIAL NOT NULL,
    "extraction_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "row_count" INTEGER NOT NULL,
    "mask_counts" INTEGER[],

    CONSTRAINT "extraction_tables_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "extraction_rows" (
    "table_id" BIGINT NOT NULL,
    "row_index" INTEGER NOT NULL,
    "mask" SMALLINT NOT NULL,
    "issue_columns" TEXT[],
    "values" JSON NOT NULL,
    "validations" JSON,

    CONSTRAINT "extraction_rows_pkey" PRIMARY KEY ("table_id","row_index") INCLUDE ("mask")
);

-- CreateTable
CREATE TABLE "flows" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "file_input_config" JSONB NOT NULL,
    "steps" JSONB NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "deleted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_runs" (
    "id" TEXT NOT NULL,
    "flow_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT,
    "status" TEXT NOT NULL,
    "status_history" JSONB NOT NULL,
    "error" TEXT,
    "metadata" JSONB,
    "trigger_method" TEXT NOT NULL,
    "start_time" TIMESTAMP(3) NOT NULL,
    "end_time" TIMESTAMP(3),
    "duration_ms" INTEGER NOT NULL DEFAULT 0,
    "drive_files" JSONB NOT NULL DEFAULT '{}',
    "flow" JSONB NOT NULL,
    "current_attempt" INTEGER NOT NULL DEFAULT 1,
    "flow_attempts" JSONB NOT NULL DEFAULT '[]',
    "input_files" JSONB NOT NULL DEFAULT '{}',
    "steps" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flow_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "active" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "importers" (
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "template_id" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "importers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");

-- CreateIndex
CREATE INDEX "templates_workspace_id_created_at_idx" ON "templates"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "extractions_workspace_id_created_at_id_idx" ON "extractions"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "extractions_workspace_id_template_id_created_at_id_idx" ON "extractions"("workspace_id", "template_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "extractions_flow_run_id_idx" ON "extractions"("flow_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "extraction_tables_extraction_id_key_key" ON "extraction_tables"("extraction_id", "key");

-- CreateIndex
CREATE INDEX "flows_workspace_id_created_at_idx" ON "flows"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_created_at_id_idx" ON "flow_runs"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "flow_runs_flow_id_created_at_idx" ON "flow_runs"("flow_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "webhooks_workspace_id_idx" ON "webhooks"("workspace_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_created_at_idx" ON "webhook_deliveries"("webhook_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "importers_workspace_id_idx" ON "importers"("workspace_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "extraction_tables" ADD CONSTRAINT "extraction_tables_extraction_id_fkey" FOREIGN KEY ("extraction_id") REFERENCES "extractions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (not expressible in schema.prisma): filtered row pages walk this index in
-- row order without touching the heap; see activities/rows/queries.ts.
CREATE INDEX "extraction_rows_flagged_idx" ON "extraction_rows"("table_id", "row_index") INCLUDE ("mask") WHERE "mask" <> 0;
