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

export async function createExtractionRecord(db: Database, input: NewExtraction) {
  const now = new Date();
  return db.prisma.extraction.create({
    data: {
      id: input.id,
      workspaceId: input.workspaceId,
      templateId: input.template?.id ?? 'auto',
      templateName: input.template?.name ?? '',
      template: input.template ? (snapshotOf(input.template) as object) : {},
      name: input.name ?? null,
      guidance: input.guidance ?? null,
      metadata: (input.metadata ?? undefined) as object | undefined,
      fileName: input.fileName,
      fileSize: BigInt(input.fileSize),
      fileKind: input.fileType.key,
      fileExtension: input.fileType.extension,
      mimeType: input.fileType.mimeType,
      objectKey: input.objectKey,
      status: 'processing',
      statusHistory: [statusEntry('processing', 'Extraction started', now)] as object[],
      flowRunId: input.flowRunId ?? null,
      createdAt: now,
      updatedAt: now,
    },
  });
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
