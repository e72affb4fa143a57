// Turns the XML events of one worksheet part into rows of display strings. Cells are placed by
// their reference (B7 lands at index 1), gaps become "", trailing blanks are dropped and rows
// without any value are skipped. Merged areas need no handling: Excel stores the value in the
// top-left cell only, and the others are empty or absent.
import { dateToSerial, formatBoolean, formatNumber, isDateFormat } from './format.js';
import { decodeXmlText, type XmlHandler } from './xml.js';

/** What a worksheet needs from its workbook to render its cells. */
export interface SheetContext {
  sharedStrings: readonly string[];
  /** Number format code for each cell style index (`s` attribute). */
  styleFormats: readonly string[];
  date1904: boolean;
}

const MAX_COLUMNS = 16384; // Excel's limit (XFD); references beyond it are damage, not data.

/** Which text the scanner is inside of: a cell's <v>, an inline string's <t>, or neither. */
type Capture = 'none' | 'value' | 'inlineText';

export class SheetRowsHandler implements XmlHandler {
  /** Completed rows; the reader takes them after each chunk and empties the list. */
  rows: string[][] = [];

  private inSheetData = false;
  private cells: string[] = [];
  private rowHasValue = false;
  private nextColumn = 0;
  private column = 0;
  private cellType = '';
  private cellStyle = 0;
  private capture: Capture = 'none';
  private value = '';
  private inlineText = '';
  private inInlineString = false;
  private inPhonetic = false;

  constructor(private readonly context: SheetContext) {}

  open(name: string, attributes: string, selfClosing: boolean): void {
    switch (name) {
      case 'sheetData':
        this.inSheetData = !selfClosing;
        break;
      case 'row':
        if (!this.inSheetData) return;
        this.cells = [];
        this.rowHasValue = false;
        this.nextColumn = 0;
        if (selfClosing) this.endRow();
        break;
      case 'c':
        if (!this.inSheetData) return;
        this.startCell(attributes);
        if (selfClosing) this.endCell();
        break;
      case 'v':
        if (!selfClosing) this.capture = 'value';
        break;
      case 'is':
        this.inInlineString = !selfClosing;
        break;
      case 'rPh':
        // Phonetic guides (furigana) are not part of the cell's text.
        this.inPhonetic = !selfClosing;
        break;
      case 't':
        if (this.inInlineString && !this.inPhonetic && !selfClosing) this.capture = 'inlineText';
        break;
    }
  }

  text(raw: string): void {
    if (this.capture === 'value') this.value += raw;
    else if (this.capture === 'inlineText') this.inlineText += raw;
  }

  close(name: string): void {
    switch (name) {
      case 'v':
      case 't':
        this.capture = 'none';
        break;
      case 'is':
        this.inInlineString = false;
        break;
      case 'rPh':
        this.inPhonetic = false;
        break;
      case 'c':
        if (this.inSheetData) this.endCell();
        break;
      case 'row':
        if (this.inSheetData) this.endRow();
        break;
      case 'sheetData':
        this.inSheetData = false;
        break;
    }
  }

  // Runs once per cell, so it reads r, s and t straight from the attribute text instead of
  // building an attribute object.
  private startCell(attributes: string): void {
    this.cellType = '';
    this.cellStyle = 0;
    let column = -1;
    let at = 0;
    for (;;) {
      const equals = attributes.indexOf('=', at);
      if (equals === -1) break;
      let open = equals + 1;
      while (open < attributes.length && attributes.charCodeAt(open) !== 0x22 && attributes.charCodeAt(open) !== 0x27) open++;
      const close = attributes.indexOf(attributes.charAt(open), open + 1);
      if (open >= attributes.length || close === -1) break;
      let nameEnd = equals;
      while (nameEnd > at && isSpace(attributes.charCodeAt(nameEnd - 1))) nameEnd--;
      // The attributes that matter here are one letter long, without a prefix.
      if (nameEnd >= 1 && isSpace(attributes.charCodeAt(nameEnd - 2))) {
        const name = attributes.charCodeAt(nameEnd - 1);
        if (name === 0x72 /* r */) column = columnIndexAt(attributes, open + 1, close);
        else if (name === 0x74 /* t */) this.cellType = attributes.slice(open + 1, close);
        else if (name === 0x73 /* s */) this.cellStyle = Number(attributes.slice(open + 1, close)) || 0;
      }
      at = close + 1;
    }
    this.column = column >= 0 ? column : this.nextColumn;
    this.nextColumn = this.column + 1;
    this.value = '';
    this.inlineText = '';
  }

  private endCell(): void {
    this.capture = 'none';
    const text = this.render();
    if (text !== '' && this.column < MAX_COLUMNS) {
      this.cells[this.column] = text;
      this.rowHasValue = true;
    }
  }

  private endRow(): void {
    if (this.rowHasValue) {
      const cells = this.cells;
      // Cells were set by column index; the holes between them are empty cells.
      for (let k = 0; k < cells.length; k++) if (cells[k] === undefined) cells[k] = '';
      this.rows.push(cells);
    }
    this.cells = [];
    this.rowHasValue = false;
  }

  private render(): string {
    const { sharedStrings, styleFormats, date1904 } = this.context;
    switch (this.cellType) {
      case 's':
        return this.value === '' ? '' : (sharedStrings[Number(this.value)] ?? '');
      case 'inlineStr':
        return unescapeOoxml(decodeXmlText(this.inlineText));
      case 'str':
        return unescapeOoxml(decodeXmlText(this.value));
      case 'b':
        return this.value === '' ? '' : formatBoolean(this.value === '1' || this.value === 'true');
      case 'e':
        return decodeXmlText(this.value);
      case 'd':
        return renderIsoDate(this.value, styleFormats[this.cellStyle] ?? 'General', date1904);
      default: {
        if (this.value === '') return '';
        const number = Number(this.value);
        if (Number.isNaN(number)) return decodeXmlText(this.value);
        return formatNumber(number, styleFormats[this.cellStyle] ?? 'General', date1904);
      }
    }
  }
}

/** Zero-based column of a reference like "AB12"; -1 if it has no letters. */
export function columnIndex(reference: string): number {
  return columnIndexAt(reference, 0, reference.length);
}

function columnIndexAt(text: string, from: number, to: number): number {
  let column = 0;
  let k = from;
  for (; k < to; k++) {
    const c = text.charCodeAt(k) | 0x20; // lower-case
    if (c < 0x61 || c > 0x7a) break;
    column = column * 26 + (c - 0x60);
  }
  return k === from ? -1 : column - 1;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || Number.isNaN(code);
}

const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** OOXML writes characters XML cannot hold (a carriage return, say) as _x000D_. */
export function unescapeOoxml(text: string): string {
  if (text.indexOf('_x') === -1) return text;
  return text.replace(OOXML_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// Cells of type "d" hold an ISO 8601 date instead of a serial (rare: strict OOXML writers).
function renderIsoDate(iso: string, format: string, date1904: boolean): string {
  if (iso === '') return '';
  const hasZone = /(?:Z|[+-]\d\d:?\d\d)$/.test(iso);
  const millis = Date.parse(/^\d{4}-\d\d-\d\d$/.test(iso) || hasZone ? iso : `${iso}Z`);
  if (Number.isNaN(millis)) return iso;
  const serial = dateToSerial(new Date(millis), date1904);
  const shown = isDateFormat(format) ? format : Number.isInteger(serial) ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss';
  return formatNumber(serial, shown, date1904);
}
