// A streaming CSV/TSV state machine over decoded text. It is fed chunks of any size and split
// anywhere (inside a quoted cell, between CR and LF, between the two quotes of an escape) and
// returns the rows each chunk completes. Written by hand because it is the hot loop of a
// 500,000-row import: it scans with charCodeAt/indexOf and slices whole cells at once.
import { DocumentError } from '../errors.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

// A cell still growing after this many characters is almost surely an unclosed quote swallowing
// the rest of a large file; stopping with a clear message beats running out of memory.
const MAX_CELL_CHARS = 32 * 1024 * 1024;
const MAX_ROW_CELLS = 1_000_000;

export class CsvParser {
  private readonly delimiter: number;
  private row: string[] = [];
  /** Text of the current cell carried over from earlier chunks. */
  private cell = '';
  /** The current cell opened with a quote, so a later quote in it is not another opening. */
  private cellQuoted = false;
  private inQuotes = false;
  /** The last chunk ended on a quote inside quotes: the next character says escape or close. */
  private quotePending = false;
  /** The last chunk ended on CR: an LF starting the next chunk is the same line end. */
  private skipLineFeed = false;

  constructor(delimiter: string) {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
      throw new Error(`Unusable CSV delimiter: ${JSON.stringify(delimiter)}`);
    }
    this.delimiter = delimiter.charCodeAt(0);
  }

  /**
   * Feeds the next piece of text; returns the rows completed by it (blank rows left out),
   * appended to `rows` when given, which spares a streaming caller a copy of every row.
   */
  push(chunk: string, rows: string[][] = []): string[][] {
    const n = chunk.length;
    if (n === 0) return rows;
    let i = 0;
    if (this.skipLineFeed) {
      this.skipLineFeed = false;
      if (chunk.charCodeAt(0) === LF) i = 1;
    }
    if (this.quotePending && i < n) {
      this.quotePending = false;
      if (chunk.charCodeAt(i) === QUOTE) {
        this.cell += '"';
        i++;
      } else {
        this.inQuotes = false;
      }
    }

    const delimiter = this.delimiter;
    let row = this.row;
    let cell = this.cell;
    let cellQuoted = this.cellQuoted;
    let inQuotes = this.inQuotes;

    while (i < n) {
      if (inQuotes) {
        const q = chunk.indexOf('"', i);
        if (q === -1) {
          cell += chunk.slice(i);
          break;
        }
        cell += chunk.slice(i, q);
        if (q + 1 === n) {
          this.quotePending = true;
          break;
        }
        if (chunk.charCodeAt(q + 1) === QUOTE) {
          cell += '"';
          i = q + 2;
        } else {
          inQuotes = false;
          i = q + 1;
        }
        continue;
      }

      let j = i;
      let c = 0;
      while (j < n) {
        c = chunk.charCodeAt(j);
        if (c === delimiter || c === LF || c === CR || c === QUOTE) break;
        j++;
      }
      if (j === n) {
        cell += chunk.slice(i);
        break;
      }
      if (c === QUOTE) {
        if (j === i && cell === '' && !cellQuoted) {
          cellQuoted = true;
          inQuotes = true;
        } else {
          // A quote inside an unquoted cell (or after a closed one) is kept as text, like Excel.
          cell += chunk.slice(i, j + 1);
        }
        i = j + 1;
        continue;
      }

      row.push(cell === '' ? chunk.slice(i, j) : cell + chunk.slice(i, j));
      cell = '';
      cellQuoted = false;
      i = j + 1;
      if (c === delimiter) continue;

      if (c === CR) {
        if (i < n) {
          if (chunk.charCodeAt(i) === LF) i++;
        } else {
          this.skipLineFeed = true;
        }
      }
      if (!isBlankRow(row)) rows.push(row);
      row = [];
    }

    this.row = row;
    this.cell = cell;
    this.cellQuoted = cellQuoted;
    this.inQuotes = inQuotes;
    if (cell.length > MAX_CELL_CHARS) {
      throw new DocumentError(
        'The CSV file could not be read: a cell is longer than 32 million characters (is a quote left unclosed?)',
      );
    }
    if (row.length > MAX_ROW_CELLS) {
      throw new DocumentError('The CSV file could not be read: a row has more than a million cells');
    }
    return rows;
  }

  /** Ends the input; returns the last row if the text did not end with a line break. */
  end(): string[][] {
    // An unclosed quote at the end keeps its text as the last cell rather than failing the file.
    const pending = this.row.length > 0 || this.cell !== '' ? [...this.row, this.cell] : undefined;
    this.row = [];
    this.cell = '';
    this.cellQuoted = false;
    this.inQuotes = false;
    this.quotePending = false;
    this.skipLineFeed = false;
    return pending && !isBlankRow(pending) ? [pending] : [];
  }
}

// Blank lines, and lines of nothing but delimiters, carry no data; spreadsheets skip empty rows too.
function isBlankRow(row: string[]): boolean {
  for (let k = 0; k < row.length; k++) if (row[k] !== '') return false;
  return true;
}
