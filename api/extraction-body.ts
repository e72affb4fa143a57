// Builds the spec's extraction shapes (2.1 full, 2.2 summary) from the Postgres projection.
import type { Database } from '../lib/db.js';
import { unixSeconds } from '../lib/ids.js';
import { parseRowFilter } from '../lib/row-filter.js';
import { rowsPage, storedTableOf, type StoredTable } from '../lib/rows.js';
import type { StatusEntry } from '../lib/status.js';
import type { TemplateSnapshot } from '../lib/template.js';
import type { Extraction as ExtractionRecord } from '../generated/prisma/index.js';

export const FIRST_ROWS = 100;

/** What a summary (spec 2.2) reads: lists select these columns, not the stored template and fields. */
export const SUMMARY_COLUMNS = {
  id: true, status: true, templateId: true, metadata: true, createdAt: true, updatedAt: true, fileName: true, fileExtension: true,
} as const;

export function extractionSummary(e: Omit<Pick<ExtractionRecord, keyof typeof SUMMARY_COLUMNS>, 'metadata'> & { metadata: unknown }) {
  return {
    id: e.id,
    status: e.status as 'processing' | 'completed' | 'failed',
    template_id: e.templateId,
    metadata: (e.metadata as Record<string, unknown> | null) ?? null,
    created_at: unixSeconds(e.createdAt),
    updated_at: unixSeconds(e.updatedAt),
    file_info: { file_name: e.fileName, file_type: e.fileExtension },
  };
}

/**
 * A page of summaries, newest first, and the number of all that match, in one statement: lists
 * are polled, and each statement is a round trip (plain SQL: Prisma compiles every query it is
 * given). The count is kept even for a page past the end.
 */
export async function summariesPage(db: Database, where: { workspaceId: string; templateId?: string }, limit: number, offset: number) {
  const params: unknown[] = [where.workspaceId, limit, offset];
  let match = 'workspace_id = $1';
  if (where.templateId !== undefined) match += ` AND template_id = $${params.push(where.templateId)}`;
  const { rows } = await db.pool.query<{ total: string; id: string | null; status: string; template_id: string; metadata: unknown; created: Date; updated: Date; file_name: string; file_extension: string }>(
    `SELECT c.total, p.* FROM (SELECT count(*) AS total FROM extractions WHERE ${match}) c
     LEFT JOIN LATERAL (
       SELECT id, status, template_id, metadata, created_at AT TIME ZONE 'UTC' AS created, updated_at AT TIME ZONE 'UTC' AS updated, file_name, file_extension
       FROM extractions WHERE ${match} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3
     ) p ON true`,
    params,
  );
  const summaries = rows
    .filter((r) => r.id !== null)
    .map((r) => extractionSummary({ id: r.id!, status: r.status, templateId: r.template_id, metadata: r.metadata, createdAt: r.created, updatedAt: r.updated, fileName: r.file_name, fileExtension: r.file_extension }));
  return { summaries, total: Number(rows[0]?.total ?? 0) };
}

function snapshotForResponse(t: TemplateSnapshot | null, e: ExtractionRecord) {
  if (!t) return { id: e.templateId, name: e.templateName, fields: [], tables: [] };
  const column = (c: { key: string; name: string; data_type: string }) => ({ key: c.key, name: c.name, data_type: c.data_type });
  return {
    id: t.id,
    name: t.name,
    fields: t.fields.map(column),
    tables: t.tables.map((table) => ({ key: table.key, name: table.name, columns: table.columns.map(column) })),
  };
}

/** null while template_id=auto has not chosen yet (the record holds {}). */
function snapshotOf(e: ExtractionRecord): TemplateSnapshot | null {
  const t = e.template as Partial<TemplateSnapshot> | null;
  return t && Array.isArray(t.tables) && Array.isArray(t.fields) ? (t as TemplateSnapshot) : null;
}

export async function extractionFull(db: Database, e: ExtractionRecord) {
  const template = snapshotOf(e);
  const stored = await db.prisma.extractionTable.findMany({ where: { extractionId: e.id } });
  const all = parseRowFilter('all');
  const tables: Record<string, { pagination: { offset: number; limit: number; total: number; next_offset: number | null; filter: string }; rows: Awaited<ReturnType<typeof rowsPage>> }> = {};
  const emptyStats: Record<string, { rows: { valid: number; invalid: number; total: number }; columns: { total: number } }> = {};
  for (const table of template?.tables ?? []) {
    const record = stored.find((s) => s.key === table.key);
    const keys = table.columns.map((c) => c.key);
    const storedTable: StoredTable | null = record ? storedTableOf(record) : null;
    const rows = storedTable ? await rowsPage(db.pool, storedTable, keys, { filter: all, columns: [] }, 0, FIRST_ROWS) : [];
    const total = storedTable?.rowCount ?? 0;
    tables[table.key] = {
      pagination: { offset: 0, limit: FIRST_ROWS, total, next_offset: total > FIRST_ROWS ? FIRST_ROWS : null, filter: 'all' },
      rows,
    };
    emptyStats[table.key] = { rows: { valid: 0, invalid: 0, total: 0 }, columns: { total: table.columns.length } };
  }
  const fields = (e.fields as { values: Record<string, string>; validations: Record<string, never[]> } | null) ?? {
    values: Object.fromEntries((template?.fields ?? []).map((f) => [f.key, ''])),
    validations: {},
  };
  const stats = (e.stats as { fields: { valid: number; invalid: number; total: number }; tables: typeof emptyStats } | null) ?? {
    fields: { valid: 0, invalid: 0, total: template?.fields?.length ?? 0 },
    tables: emptyStats,
  };
  const progress = e.progress as { pages_done: number; pages_total: number } | null;
  return {
    id: e.id,
    workspace_id: e.workspaceId,
    template_id: e.templateId,
    template_name: e.templateName,
    name: e.name,
    guidance: e.guidance,
    file_name: e.fileName,
    file_size: Number(e.fileSize),
    file_type: { key: e.fileKind, extension: e.fileExtension, mime_type: e.mimeType },
    status: e.status as 'processing' | 'completed' | 'failed',
    status_history: e.statusHistory as unknown as StatusEntry[],
    ...(e.error ? { error: e.error } : {}),
    ...(progress && e.status === 'processing' ? { progress } : {}),
    metadata: (e.metadata as Record<string, unknown> | null) ?? {},
    created_at: unixSeconds(e.createdAt),
    updated_at: unixSeconds(e.updatedAt),
    data: { fields, tables },
    stats,
    template: snapshotForResponse(template, e),
  };
}
