// Extraction activities: thin adapters from Temporal to the document, mapping, validation and
// row-writing modules. Each is safe to run again after a crash (retries, worker restarts).
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { activityInfo, ApplicationFailure, heartbeat } from '@temporalio/activity';
import type { Extraction as ExtractionRecord } from '../generated/prisma/index.js';
import type { Database } from '../lib/db.js';
import { log } from '../lib/log.js';
import type { Storage } from '../lib/storage.js';
import { statusEntry } from '../lib/status.js';
import type { TemplateSnapshot } from '../lib/template.js';
import { snapshotOf } from '../lib/template-snapshot.js';
import { DocumentError, LongRead } from './documents/errors.js';
import { parseGuidance } from './documents/guidance.js';
import { openDocument, spreadsheetReaders } from './documents/open.js';
import type { ByteSource } from './documents/spreadsheet/csv.js';
import { SNIFF_BYTES } from './documents/spreadsheet/encoding.js';
import { isPaged, type DocumentContent, type FileKind, type Guidance, type OcrSettings, type ReadLimit, type SheetSource, type TextLine } from './documents/types.js';
import { chooseTemplate } from './mapping/choose-template.js';
import { findCellFields } from './mapping/cell-fields.js';
import { plannedRow, planTables, sheetSamples, type SheetSample } from './mapping/plan.js';
import { deleteExtractionTables, recordWrittenTables, TableWriter, type TableWriteResult } from './rows/table-writer.js';
import { TableValidator } from './validation/validate.js';

/** The columns of an extraction that its activities read. */
type ExtractionToRead = Pick<ExtractionRecord, 'id' | 'workspaceId' | 'templateId' | 'template' | 'guidance' | 'fileKind' | 'fileSize' | 'objectKey' | 'fileName' | 'fileExtension'>;

export interface ExtractionDeps {
  db: Database;
  storage: Storage;
  /** the worker's OCR languages and page concurrency; defaults otherwise (English, two pages) */
  ocr?: OcrSettings;
}

/** A document as read: what its tables and fields are mapped from. Spreadsheets keep samples only. */
interface Analysis {
  kind: FileKind;
  pageCount: number;
  /** full rows for paged documents, the first SAMPLE_ROWS rows for spreadsheets */
  sheets: SheetSample[];
  lines: TextLine[];
}

const SAMPLE_ROWS = 60;
/** Well inside the document activities' 30 s heartbeat timeout (workflows/extraction.ts). */
const WAITING_HEARTBEAT_MS = 5_000;
/** Smaller loads are left to autovacuum (workflows/extraction.ts skips the call below it too). */
const OPTIMIZE_MIN_ROWS = 50_000;

const analysisKey = (extractionId: string) => `extractions/${extractionId}/analysis.json`;
const workDir = (extractionId: string) => join(tmpdir(), 'distill-work', extractionId);
// Loaded on first use and kept (an import() of a loaded module still asks the module loader).
let documentFields: Promise<typeof import('./documents/fields.js')> | undefined;

const READ_AHEAD_BYTES = 8 * 1024 * 1024;

// A small document is read as a local activity, within the workflow task that asks for it: no
// round trip through the server and no task of its own there, which for a document read in tens
// of milliseconds was a tenth of the service's CPU. Local activities cannot heartbeat, so the read
// must stay short: a file of at most SMALL_BYTES, not a picture, at most SMALL_READ.maxPages pages, none
// needing OCR (beyond that it stops, and extractDocument reads it with heartbeats).
const SMALL_BYTES = 2 * 1024 * 1024;
const SMALL_READ: ReadLimit = { maxPages: 20 };

/** A local activity's liveness is its workflow task's: it has no heartbeat of its own to send. */
function beat(details?: unknown): void {
  if (!activityInfo().isLocal) heartbeat(details);
}

/** Lets the download run ahead of the parser instead of pausing at every 16 KB the parser has not taken yet. */
function readAhead(source: Readable): Readable {
  const buffered = new PassThrough({ highWaterMark: READ_AHEAD_BYTES });
  pipeline(source, buffered, () => {});
  return buffered;
}

function missingFile(): never {
  throw ApplicationFailure.nonRetryable('The uploaded file is missing from storage', 'NotFound');
}

function permanent(error: unknown): never {
  if (error instanceof DocumentError) throw ApplicationFailure.nonRetryable(error.message, 'DocumentError');
  throw error;
}

export function createExtractionActivities({ db, storage, ocr }: ExtractionDeps) {
  const { prisma, pool } = db;

  /**
   * What reading and writing an extraction need, in plain SQL: it runs for every extraction, and
   * Prisma 6 compiles each query it is given.
   */
  async function load(extractionId: string): Promise<ExtractionToRead> {
    const { rows } = await pool.query<Omit<ExtractionToRead, 'fileSize'> & { fileSize: string }>(
      `SELECT id, workspace_id AS "workspaceId", template_id AS "templateId", template, guidance, file_kind AS "fileKind",
              file_size AS "fileSize", object_key AS "objectKey", file_name AS "fileName", file_extension AS "fileExtension"
       FROM extractions WHERE id = $1`,
      [extractionId],
    );
    const row = rows[0];
    if (!row) throw ApplicationFailure.nonRetryable(`Extraction ${extractionId} does not exist`, 'NotFound');
    return { ...row, fileSize: BigInt(row.fileSize) };
  }

  /**
   * The outcome in one statement (plain SQL: it runs for every extraction, and Prisma 6 compiles
   * each query it is given). An outcome already recorded, by an earlier attempt, is left as it is.
   */
  async function recordOutcome(extractionId: string, status: 'completed' | 'failed', message: string, error: string | null): Promise<void> {
    const { rowCount } = await pool.query(
      'UPDATE extractions SET status = $2, error = $3, status_history = status_history || $4::jsonb, updated_at = now() WHERE id = $1 AND status <> $2',
      [extractionId, status, error, JSON.stringify([statusEntry(status, message)])],
    );
    if (!rowCount) await load(extractionId); // NotFound when it does not exist
    await rm(workDir(extractionId), { recursive: true, force: true });
  }

  /** The original file on this worker's disk (downloaded again after a move or restart). */
  async function localCopy(extraction: { id: string; objectKey: string; fileExtension: string; fileSize: bigint }): Promise<string> {
    const dir = workDir(extraction.id);
    const path = join(dir, `original.${extraction.fileExtension || 'bin'}`);
    // A copy left by an earlier attempt is whole (downloads land by rename) and the object never
    // changes: the size recorded at upload confirms it without asking S3.
    const local = await stat(path).catch(() => null);
    if (local?.size === Number(extraction.fileSize)) return path;
    await mkdir(dir, { recursive: true });
    if (!(await storage.downloadTo(extraction.objectKey, path))) missingFile();
    return path;
  }

  /** CSV and TSV are read straight from S3 (one pass, no disk); null when the bytes are a workbook. */
  async function openTextFromStorage(extraction: { objectKey: string; fileName: string; fileExtension: string; fileKind: string }): Promise<DocumentContent | null> {
    if (extraction.fileKind !== 'csv' && extraction.fileKind !== 'tsv') return null;
    const stored = (await storage.stat(extraction.objectKey)) ?? missingFile();
    // The readers look at the first bytes twice (workbook or text, then encoding and delimiter):
    // one ranged read serves both.
    let first: Promise<Buffer> | undefined;
    const source: ByteSource = {
      size: stored.size,
      head: async (length) => {
        if (stored.size === 0) return Buffer.alloc(0);
        if (length > SNIFF_BYTES) return storage.getHead(extraction.objectKey, Math.min(length, stored.size));
        first ??= storage.getHead(extraction.objectKey, Math.min(SNIFF_BYTES, stored.size));
        return (await first).subarray(0, length);
      },
      stream: async (start) => readAhead(await storage.getStream(extraction.objectKey, start)),
    };
    const { openTextSpreadsheet, sheetNameFromPath } = await spreadsheetReaders();
    const sheets = await openTextSpreadsheet(source, extraction.fileKind, sheetNameFromPath(extraction.fileName, extraction.fileExtension));
    return sheets && { kind: extraction.fileKind, pageCount: sheets.length, sheets, lines: [] };
  }

  async function open(extraction: Parameters<typeof localCopy>[0] & Parameters<typeof openTextFromStorage>[0], guidance: Guidance, onPage?: (done: number, total: number) => void, limit?: ReadLimit): Promise<DocumentContent> {
    try {
      const text = await openTextFromStorage(extraction);
      if (text) return text;
      const path = await localCopy(extraction);
      return await openDocument(path, extraction.fileKind as FileKind, extraction.fileExtension, { guidance, onProgress: onPage, ocrSettings: ocr, limit });
    } catch (error) {
      return permanent(error);
    }
  }

  /** Reads the document (OCR included) and settles its template: chosen here for `auto`. */
  async function readDocument(extraction: ExtractionToRead, guidance: Guidance, limit?: ReadLimit): Promise<{ doc: DocumentContent; analysis: Analysis; template: TemplateSnapshot }> {
    const started = performance.now();
    const extractionId = extraction.id;
    // At most one progress write a second, the first a second in: a document read sooner has
    // completed before anyone could poll its progress, and the write would only cost it time.
    const readingSince = Date.now();
    let lastWrite = readingSince;
    let pages: { done: number; total: number } | undefined;
    // Pages may wait for the worker's page slots (OCR_CONCURRENCY, shared by every document it
    // reads) longer than the heartbeat timeout: beats while waiting tell the wait from a hang,
    // which stops the event loop (and these beats) or is a tool that runTool's time limit kills.
    const beats = setInterval(() => beat(pages), WAITING_HEARTBEAT_MS);
    const doc = await open(extraction, guidance, (done, total) => {
      pages = { done, total };
      beat(pages);
      const now = Date.now();
      if (now - lastWrite < 1000 && (done < total || now - readingSince < 1000)) return;
      lastWrite = now;
      void prisma.extraction
        .update({ where: { id: extractionId }, data: { progress: { pages_done: done, pages_total: total } } })
        .catch(() => {});
    }, limit).finally(() => clearInterval(beats));
    const paged = isPaged(doc.kind);
    const sheets = await sheetSamples(doc.sheets, paged ? Infinity : SAMPLE_ROWS);
    beat();
    const analysis: Analysis = { kind: doc.kind, pageCount: doc.pageCount, sheets, lines: doc.lines };
    log.info('document analyzed', { extraction_id: extractionId, kind: doc.kind, pages: doc.pageCount, sheets: sheets.length, ms: Math.round(performance.now() - started) });
    if (extraction.templateId !== 'auto') return { doc, analysis, template: extraction.template as unknown as TemplateSnapshot };

    const templates = await prisma.template.findMany({ where: { workspaceId: extraction.workspaceId }, orderBy: { createdAt: 'asc' } });
    const texts = [...doc.lines.map((l) => l.text), ...sheets.flatMap((s) => s.rows.slice(0, SAMPLE_ROWS).flat())];
    const { best, scores } = chooseTemplate(templates.map(snapshotOf), doc.kind, sheets, texts);
    if (!best) {
      const top = Math.max(0, ...scores.map((s) => s.score));
      throw ApplicationFailure.nonRetryable(
        `No template matches this document well enough (best score ${top.toFixed(2)} of ${templates.length} template(s)); upload it with an explicit template_id`,
        'NoTemplateMatch',
      );
    }
    await prisma.extraction.update({
      where: { id: extractionId },
      data: { templateId: best.id, templateName: best.name, template: best as object, updatedAt: new Date() },
    });
    return { doc, analysis, template: best };
  }

  /**
   * Maps, validates and writes every template table and the fields in one transaction.
   * `sources` streams a spreadsheet's sheets in full (the analysis holds samples of them); paged
   * documents pass null, their analysis holding every row.
   */
  async function writeTables(extraction: ExtractionToRead, guidance: Guidance, template: TemplateSnapshot, analysis: Analysis, sources: SheetSource[] | null): Promise<number> {
    const started = performance.now();
    const extractionId = extraction.id;
    const plans = planTables(analysis.sheets, template.tables, guidance.tableStart);
    const typeOptions = { decimalSeparator: guidance.decimalSeparator, dateFormat: guidance.dateFormat };

    const fieldValues = sources
      ? findCellFields(analysis.sheets.map((s) => s.rows), template.fields)
      : (await (documentFields ??= import('./documents/fields.js'))).findFieldValues(analysis.lines, template.fields);
    const fieldValidator = new TableValidator(template.fields, typeOptions);
    const fieldCheck = fieldValidator.validateRow(template.fields.map((f) => fieldValues[f.key] ?? ''));
    const fieldIssues = fieldCheck.issues ?? {};

    const client = await pool.connect();
    let total = 0;
    const written: TableWriteResult[] = [];
    const tableStats: Record<string, { rows: { valid: number; invalid: number; total: number }; columns: { total: number } }> = {};
    try {
      await client.query('BEGIN');
      await deleteExtractionTables(client, extractionId);
      for (const table of template.tables) {
        const writer = await TableWriter.open(client, extractionId, table, typeOptions);
        const plan = plans.find((p) => p.tableKey === table.key);
        for (const source of plan?.sources ?? []) {
          let rowIndex = 0;
          const batches = sources ? sources[source.sheet]!.batches() : (async function* () { yield analysis.sheets[source.sheet]!.rows; })();
          for await (const batch of batches) {
            for (const cells of batch) {
              const at = rowIndex++;
              const row = plannedRow(source, at, cells);
              if (row && writer.add(row)) await writer.flush();
            }
            beat();
          }
        }
        const result = await writer.finish();
        written.push(result);
        total += result.rowCount;
        const valid = result.maskCounts[0]!;
        tableStats[table.key] = { rows: { valid, invalid: result.rowCount - valid, total: result.rowCount }, columns: { total: table.columns.length } };
      }
      const invalidFields = Object.keys(fieldIssues).length;
      const stats = { fields: { valid: template.fields.length - invalidFields, invalid: invalidFields, total: template.fields.length }, tables: tableStats };
      await recordWrittenTables(client, extractionId, written, { fields: { values: fieldValues, validations: fieldIssues }, stats });
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    log.info('tables loaded', { extraction_id: extractionId, rows: total, ms: Math.round(performance.now() - started) });
    return total;
  }

  async function extract(extraction: ExtractionToRead, limit?: ReadLimit): Promise<ExtractedDocument> {
    const guidance = parseGuidance(extraction.guidance);
    const { doc, analysis, template } = await readDocument(extraction, guidance, limit);
    const rows = await writeTables(extraction, guidance, template, analysis, isPaged(doc.kind) ? null : doc.sheets);
    return { templateId: template.id, rows };
  }

  return {
    /**
     * The whole extraction of one document: read, settle the template, write its rows. One
     * activity, so the analysis stays in memory: no trip through S3 and the server between a
     * read and its write. A retry reads the document again, as one on another worker would.
     */
    async extractDocument({ extractionId }: { extractionId: string }): Promise<ExtractedDocument> {
      return extract(await load(extractionId));
    },

    /**
     * extractDocument for a small document, run as a local activity (see SMALL_BYTES); null,
     * having written nothing, when the document turns out not to be small.
     */
    async extractSmallDocument({ extractionId }: { extractionId: string }): Promise<ExtractedDocument | null> {
      const extraction = await load(extractionId);
      if (extraction.fileKind === 'image' || extraction.fileSize > SMALL_BYTES) return null;
      try {
        return await extract(extraction, SMALL_READ);
      } catch (error) {
        if (error instanceof LongRead) return null;
        throw error;
      }
    },

    /** Runs started before extractDocument: the read, its analysis stored in S3 for loadTables. */
    async analyzeDocument({ extractionId }: { extractionId: string }): Promise<{ pageCount: number; sheetCount: number; templateId: string }> {
      const extraction = await load(extractionId);
      const { analysis, template } = await readDocument(extraction, parseGuidance(extraction.guidance));
      await storage.putBuffer(analysisKey(extractionId), Buffer.from(JSON.stringify(analysis)), 'application/json');
      return { pageCount: analysis.pageCount, sheetCount: analysis.sheets.length, templateId: template.id };
    },

    /** Runs started before extractDocument: the write, from the analysis analyzeDocument stored. */
    async loadTables({ extractionId }: { extractionId: string }): Promise<{ rows: number }> {
      const extraction = await load(extractionId);
      const guidance = parseGuidance(extraction.guidance);
      const analysis = JSON.parse((await storage.getBuffer(analysisKey(extractionId))).toString('utf8')) as Analysis;
      const paged = isPaged(analysis.kind);
      const sources = paged ? null : (await open(extraction, guidance)).sheets;
      return { rows: await writeTables(extraction, guidance, extraction.template as unknown as TemplateSnapshot, analysis, sources) };
    },

    /**
     * After completion, so it never delays it: sets the visibility map of freshly loaded pages,
     * which lets filtered row pages use index-only scans. Best effort.
     */
    async optimizeRows({ rows }: { rows: number }): Promise<void> {
      if (rows < OPTIMIZE_MIN_ROWS) return;
      const started = performance.now();
      await pool.query('VACUUM (ANALYZE) extraction_rows').catch((error: Error) => log.warn('vacuum failed', { error: error.message }));
      log.info('rows vacuumed', { ms: Math.round(performance.now() - started) });
    },

    async completeExtraction({ extractionId }: { extractionId: string }): Promise<void> {
      await recordOutcome(extractionId, 'completed', 'Extraction completed', null);
    },

    async failExtraction({ extractionId, message }: { extractionId: string; message: string }): Promise<void> {
      await recordOutcome(extractionId, 'failed', message, message);
    },
  };
}

export interface ExtractedDocument {
  /** the template the rows were mapped to: chosen by the read for `auto` */
  templateId: string;
  rows: number;
}

export type ExtractionActivities = ReturnType<typeof createExtractionActivities>;
