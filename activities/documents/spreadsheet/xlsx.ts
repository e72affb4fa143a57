// XLSX (and XLSM) workbooks, streamed. The small parts (workbook, relationships, styles) are
// read first through the zip's central directory; shared strings are read once on first use and
// kept; each worksheet part is inflated and scanned chunk by chunk on every batches() call, so
// memory is the shared strings plus one batch of rows however many rows a sheet has.
import { posix } from 'node:path';
import type { SheetSource } from '../types.js';
import { createChunkDecoder } from './encoding.js';
import { asExcelError, excelError } from './excel-error.js';
import { builtInNumberFormat } from './format.js';
import { SheetRowsHandler, unescapeOoxml, type SheetContext } from './xlsx-sheet.js';
import { decodeXmlText, parseAttributes, XmlScanner, type XmlHandler } from './xml.js';
import { ZipArchive, type ZipEntry } from './zip.js';

export const XLSX_BATCH_ROWS = 4000;

interface WorksheetPart {
  name: string;
  entry: ZipEntry;
}

interface Relationship {
  type: string;
  /** The target as a part name inside the zip, resolved against the source part's folder. */
  target: string;
}

export class XlsxWorkbook {
  private sharedStrings?: Promise<string[]>;

  private constructor(
    private readonly zip: ZipArchive,
    readonly worksheets: readonly WorksheetPart[],
    private readonly sharedStringsEntry: ZipEntry | undefined,
    private readonly styleFormats: readonly string[],
    private readonly date1904: boolean,
  ) {}

  /**
   * Opens the workbook's structure. Resolves to undefined for a zip that is not an XML
   * spreadsheet (XLSB, ODS), which another reader may still understand.
   */
  static async open(path: string): Promise<XlsxWorkbook | undefined> {
    const zip = await ZipArchive.open(path);
    const rootRelationships = await readRelationships(zip, '');
    const workbookPath =
      rootRelationships.get(findId(rootRelationships, '/officeDocument') ?? '')?.target ?? 'xl/workbook.xml';
    const workbookEntry = zip.find(workbookPath);
    if (!workbookEntry || !workbookPath.toLowerCase().endsWith('.xml')) return undefined;

    const workbook = await readWorkbookPart(zip, workbookEntry);
    const relationships = await readRelationships(zip, workbookPath);
    const worksheets: WorksheetPart[] = [];
    for (const sheet of workbook.sheets) {
      const relationship = relationships.get(sheet.relationshipId);
      // Chart sheets and dialog sheets hold no cells.
      if (!relationship || !relationship.type.endsWith('/worksheet')) continue;
      const entry = zip.find(relationship.target);
      if (!entry) throw excelError(`the sheet "${sheet.name}" is missing from the file`);
      worksheets.push({ name: sheet.name, entry });
    }

    const byType = (suffix: string): ZipEntry | undefined => {
      const id = findId(relationships, suffix);
      const target = id === undefined ? undefined : relationships.get(id)?.target;
      return target === undefined ? undefined : zip.find(target);
    };
    const stylesEntry = byType('/styles');
    const styleFormats = stylesEntry ? await readStyleFormats(zip, stylesEntry) : [];
    return new XlsxWorkbook(zip, worksheets, byType('/sharedStrings'), styleFormats, workbook.date1904);
  }

  /** The sheet's rows from the top, in batches of `batchRows`. */
  async *rows(sheet: WorksheetPart, batchRows: number = XLSX_BATCH_ROWS): AsyncGenerator<string[][]> {
    let handler: SheetRowsHandler;
    try {
      const context: SheetContext = {
        sharedStrings: await this.loadSharedStrings(),
        styleFormats: this.styleFormats,
        date1904: this.date1904,
      };
      handler = new SheetRowsHandler(context);
    } catch (error) {
      throw asExcelError(error);
    }
    let batch: string[][] = [];
    for await (const rows of scanPart(this.zip, sheet.entry, handler, () => handler.rows.splice(0))) {
      for (const row of rows) {
        batch.push(row);
        if (batch.length === batchRows) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length > 0) yield batch;
  }

  private loadSharedStrings(): Promise<string[]> {
    if (!this.sharedStrings) {
      const entry = this.sharedStringsEntry;
      this.sharedStrings = entry ? readSharedStrings(this.zip, entry) : Promise.resolve([]);
      // A failed read is not kept, so that a later batches() call tries again.
      this.sharedStrings.catch(() => (this.sharedStrings = undefined));
    }
    return this.sharedStrings;
  }
}

export async function openXlsx(path: string): Promise<SheetSource[] | undefined> {
  let book: XlsxWorkbook | undefined;
  try {
    book = await XlsxWorkbook.open(path);
  } catch (error) {
    throw asExcelError(error);
  }
  if (!book) return undefined;
  const workbook = book;
  return workbook.worksheets.map((sheet) => ({ name: sheet.name, batches: () => workbook.rows(sheet) }));
}

/**
 * Streams a part through the XML scanner, yielding what `take` collects after each chunk.
 * Stopping early (the consumer breaks) closes the file.
 */
async function* scanPart<T>(zip: ZipArchive, entry: ZipEntry, handler: XmlHandler, take: () => T): AsyncGenerator<T> {
  const scanner = new XmlScanner(handler);
  const decoder = createChunkDecoder('utf-8');
  let stream;
  try {
    stream = await zip.stream(entry);
  } catch (error) {
    throw asExcelError(error);
  }
  try {
    const chunks = stream[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = (await chunks.next()) as IteratorResult<Buffer>;
        scanner.push(next.done ? decoder.end() : decoder.write(next.value));
        if (next.done) scanner.end();
      } catch (error) {
        throw asExcelError(error);
      }
      yield take();
      if (next.done) return;
    }
  } finally {
    stream.destroy();
  }
}

async function scanWholePart(zip: ZipArchive, entry: ZipEntry, handler: XmlHandler): Promise<void> {
  for await (const _ of scanPart(zip, entry, handler, () => undefined));
}

/** Relationships of a part by id; `source` '' means the package itself (_rels/.rels). */
async function readRelationships(zip: ZipArchive, source: string): Promise<Map<string, Relationship>> {
  const folder = posix.dirname(source);
  const relsPath = source === '' ? '_rels/.rels' : posix.join(folder, '_rels', `${posix.basename(source)}.rels`);
  const relationships = new Map<string, Relationship>();
  const entry = zip.find(relsPath);
  if (!entry) return relationships;
  await scanWholePart(zip, entry, {
    open(name, attributes) {
      if (name !== 'Relationship') return;
      const a = parseAttributes(attributes);
      if (a.TargetMode === 'External' || !a.Id || !a.Target) return;
      const target = a.Target.startsWith('/')
        ? a.Target.slice(1)
        : posix.normalize(posix.join(source === '' ? '' : folder, a.Target));
      relationships.set(a.Id, { type: a.Type ?? '', target });
    },
    close() {},
    text() {},
  });
  return relationships;
}

function findId(relationships: Map<string, Relationship>, typeSuffix: string): string | undefined {
  for (const [id, relationship] of relationships) if (relationship.type.endsWith(typeSuffix)) return id;
  return undefined;
}

interface WorkbookPart {
  sheets: { name: string; relationshipId: string }[];
  date1904: boolean;
}

async function readWorkbookPart(zip: ZipArchive, entry: ZipEntry): Promise<WorkbookPart> {
  const workbook: WorkbookPart = { sheets: [], date1904: false };
  await scanWholePart(zip, entry, {
    open(name, attributes) {
      if (name === 'sheet') {
        const a = parseAttributes(attributes);
        workbook.sheets.push({ name: a.name ?? `Sheet${workbook.sheets.length + 1}`, relationshipId: a.id ?? '' });
      } else if (name === 'workbookPr') {
        const flag = parseAttributes(attributes).date1904;
        workbook.date1904 = flag === '1' || flag === 'true';
      }
    },
    close() {},
    text() {},
  });
  return workbook;
}

/** The number format code of each cell style (index = the `s` attribute of a cell). */
async function readStyleFormats(zip: ZipArchive, entry: ZipEntry): Promise<string[]> {
  const customFormats = new Map<number, string>();
  const styleFormatIds: number[] = [];
  let section = '';
  await scanWholePart(zip, entry, {
    open(name, attributes, selfClosing) {
      if (name === 'numFmts' || name === 'cellXfs') {
        if (!selfClosing) section = name;
      } else if (name === 'numFmt' && section === 'numFmts') {
        const a = parseAttributes(attributes);
        customFormats.set(Number(a.numFmtId), a.formatCode ?? 'General');
      } else if (name === 'xf' && section === 'cellXfs') {
        styleFormatIds.push(Number(parseAttributes(attributes).numFmtId ?? 0));
      }
    },
    close(name) {
      if (name === section) section = '';
    },
    text() {},
  });
  return styleFormatIds.map((id) => customFormats.get(id) ?? builtInNumberFormat(id));
}

async function readSharedStrings(zip: ZipArchive, entry: ZipEntry): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inItem = false;
  let inText = false;
  let inPhonetic = false;
  await scanWholePart(zip, entry, {
    open(name, _attributes, selfClosing) {
      if (name === 'si') {
        current = '';
        inItem = !selfClosing;
        if (selfClosing) strings.push('');
      } else if (name === 'rPh') {
        inPhonetic = !selfClosing;
      } else if (name === 't') {
        inText = inItem && !inPhonetic && !selfClosing;
      }
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'si') {
        strings.push(unescapeOoxml(decodeXmlText(current)));
        inItem = false;
      }
    },
    text(raw) {
      if (inText) current += raw;
    },
  });
  return strings;
}
