// Streams validated rows into Postgres with COPY inside the caller's transaction, in ~64 KB
// writes (one write per row is 4x slower).
import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ROW_BLOCK } from '../../lib/rows.js';
import type { TemplateTable } from '../../lib/template.js';
import { TableValidator } from '../validation/validate.js';
import type { TypeOptions } from '../validation/data-types.js';
import { copyRowLine } from './copy-format.js';

const FLUSH_BYTES = 64 * 1024;
const PENDING_BYTES = 8 * 1024 * 1024;

export interface TableWriteResult {
  tableId: bigint;
  rowCount: number;
  maskCounts: number[];
  /** maskCounts per block of ROW_BLOCK rows, [block * 8 + mask] */
  blockMaskCounts: number[];
}

export class TableWriter {
  private readonly validator: TableValidator;
  private readonly stream: ReturnType<typeof copyFrom>;
  private readonly done: Promise<void>;
  private buffer = '';
  private rowIndex = 0;
  private readonly tableIdText: string;
  readonly maskCounts = [0, 0, 0, 0, 0, 0, 0, 0];
  /** maskCounts per block of ROW_BLOCK rows, [block * 8 + mask] */
  private readonly blockMaskCounts: number[] = [];

  private constructor(client: pg.PoolClient, private readonly tableId: bigint, table: TemplateTable, options: TypeOptions) {
    this.validator = new TableValidator(table.columns, options);
    this.tableIdText = tableId.toString();
    this.stream = client.query(
      // Up to 8 MB may wait for Postgres, so neither side idles while the other has a slow moment.
      copyFrom('COPY extraction_rows (table_id, row_index, mask, issue_columns, "values", validations) FROM STDIN', { highWaterMark: PENDING_BYTES }),
    );
    this.done = new Promise((resolve, reject) => {
      this.stream.on('finish', resolve);
      this.stream.on('error', reject);
    });
  }

  static async open(client: pg.PoolClient, extractionId: string, table: TemplateTable, options: TypeOptions): Promise<TableWriter> {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO extraction_tables (extraction_id, key, row_count, mask_counts) VALUES ($1, $2, 0, '{0,0,0,0,0,0,0,0}') RETURNING id`,
      [extractionId, table.key],
    );
    return new TableWriter(client, BigInt(rows[0]!.id), table, options);
  }

  /** Validates and buffers one row; true when the buffer is due to be flushed (a promise per row would cost more than the row). */
  add(values: string[]): boolean {
    const { issues, mask } = this.validator.validateRow(values);
    this.maskCounts[mask]!++;
    const at = Math.floor(this.rowIndex / ROW_BLOCK) * 8;
    if (at === this.blockMaskCounts.length) this.blockMaskCounts.push(0, 0, 0, 0, 0, 0, 0, 0);
    this.blockMaskCounts[at + mask]!++;
    this.buffer += copyRowLine(this.tableIdText, this.rowIndex++, values, issues, mask);
    return this.buffer.length >= FLUSH_BYTES;
  }

  async flush(): Promise<void> {
    if (!this.buffer) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Ends the COPY; the counts are recorded with the extraction's (recordWrittenTables). */
  async finish(): Promise<TableWriteResult> {
    await this.flush();
    this.stream.end();
    await this.done;
    return { tableId: this.tableId, rowCount: this.rowIndex, maskCounts: this.maskCounts, blockMaskCounts: this.blockMaskCounts };
  }
}

/**
 * Each written table's counts and the extraction's fields and stats, in one statement: one round
 * trip to Postgres whatever the number of tables (each costs a write and a wake-up on both sides,
 * which for a one-page document weighs as much as the statement).
 */
export async function recordWrittenTables(client: pg.PoolClient, extractionId: string, tables: readonly TableWriteResult[], extraction: { fields: unknown; stats: unknown }): Promise<void> {
  const counts = tables.map((t) => ({ id: t.tableId.toString(), row_count: t.rowCount, mask_counts: t.maskCounts, block_mask_counts: t.blockMaskCounts }));
  await client.query(
    `WITH counted AS (
       UPDATE extraction_tables AS t SET row_count = c.row_count, mask_counts = c.mask_counts, block_mask_counts = c.block_mask_counts
       FROM jsonb_to_recordset($4::jsonb) AS c(id bigint, row_count integer, mask_counts integer[], block_mask_counts integer[])
       WHERE t.id = c.id
     )
     UPDATE extractions SET fields = $2, stats = $3, updated_at = now() WHERE id = $1`,
    [extractionId, JSON.stringify(extraction.fields), JSON.stringify(extraction.stats), JSON.stringify(counts)],
  );
}

/** Removes what an earlier, interrupted attempt may have committed for this extraction. */
export async function deleteExtractionTables(client: pg.PoolClient, extractionId: string): Promise<void> {
  // One statement: rows have no foreign key to their table (COPY speed), and both deletes see
  // the same snapshot.
  await client.query(
    'WITH gone AS (DELETE FROM extraction_tables WHERE extraction_id = $1 RETURNING id) DELETE FROM extraction_rows WHERE table_id IN (SELECT id FROM gone)',
    [extractionId],
  );
}
