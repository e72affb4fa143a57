// Creating an extraction record: the upload endpoint and flow steps both do it.
import type { Database } from './db.js';
import type { FileType } from './file-types.js';
import { statusEntry } from './status.js';
import { snapshotOf, type TemplateRecord } from './template-snapshot.js';

export interface NewExtraction {
  id: string;
  workspaceId: string;
  /** null for template_id=auto: the workflow chooses and records it */
  template: TemplateRecord | null;
  name?: string | null;
  guidance?: string | null;
  metadata?: Record<string, unknown> | null;
  fileName: string;
  fileSize: number;
  fileType: FileType;
  objectKey: string;
  flowRunId?: string | null;
}

export function uploadObjectKey(workspaceId: string, extractionId: string): string {
  return `uploads/${workspaceId}/${extractionId}/original`;
}

/**
 * The record of a new extraction, in plain SQL (every upload makes one, and Prisma 6 compiles each
 * query it is given); returns the columns a summary shows. Timestamps are stored in UTC, as
 * Prisma stores them.
 */
export async function createExtractionRecord(db: Database, input: NewExtraction) {
  const now = new Date();
  const record = {
    id: input.id,
    status: 'processing',
    templateId: input.template?.id ?? 'auto',
    metadata: input.metadata ?? null,
    fileName: input.fileName,
    fileExtension: input.fileType.extension,
    createdAt: now,
    updatedAt: now,
  };
  const at = now.toISOString();
  await db.pool.query(
    `INSERT INTO extractions (id, workspace_id, template_id, template_name, template, name, guidance, metadata, file_name, file_size,
       file_kind, file_extension, mime_type, object_key, status, status_history, flow_run_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)`,
    [
      record.id, input.workspaceId, record.templateId, input.template?.name ?? '', JSON.stringify(input.template ? snapshotOf(input.template) : {}),
      input.name ?? null, input.guidance ?? null, record.metadata === null ? null : JSON.stringify(record.metadata), record.fileName, input.fileSize,
      input.fileType.key, record.fileExtension, input.fileType.mimeType, input.objectKey, record.status,
      JSON.stringify([statusEntry('processing', 'Extraction started', now)]), input.flowRunId ?? null, at.slice(0, -1),
    ],
  );
  return record;
}

/** A template of the workspace, or null (plain SQL, as for the record above). */
export async function workspaceTemplate(db: Database, workspaceId: string, id: string): Promise<TemplateRecord | null> {
  const { rows } = await db.pool.query<TemplateRecord>(
    'SELECT id, name, file_types AS "fileTypes", fields, tables FROM templates WHERE id = $1 AND workspace_id = $2',
    [id, workspaceId],
  );
  return rows[0] ?? null;
}

/** A metadata part must be a JSON object; returns null when absent. */
export function parseMetadata(raw: string | undefined, parameter = 'metadata'): Record<string, unknown> | null | Error {
  if (raw === undefined || raw.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return new Error(`The parameter '${parameter}' must be a JSON object`);
}
