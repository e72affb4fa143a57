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

  async finish(client: pg.PoolClient): Promise<TableWriteResult> {
    await this.flush();
    this.stream.end();
    await this.done;
    await client.query('UPDATE extraction_tables SET row_count = $2, mask_counts = $3, block_mask_counts = $4 WHERE id = $1', [
      this.tableId.toString(),
      this.rowIndex,
      this.maskCounts,
      this.blockMaskCounts,
    ]);
    return { tableId: this.tableId, rowCount: this.rowIndex, maskCounts: this.maskCounts };
  }
}

/** Removes what an earlier, interrupted attempt may have committed for this extraction. */
export async function deleteExtractionTables(client: pg.PoolClient, extractionId: string): Promise<void> {
  await client.query('DELETE FROM extraction_rows WHERE table_id IN (SELECT id FROM extraction_tables WHERE extraction_id = $1)', [extractionId]);
  await client.query('DELETE FROM extraction_tables WHERE extraction_id = $1', [extractionId]);
}
