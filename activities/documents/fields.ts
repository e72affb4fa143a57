// Labelled values on document pages: "Invoice number: 123", "Invoice number    123", or the value
// on the line below its label. A typed field (date, amount, ...) takes the nearest value of its
// type around the label.
import { labelSimilarity, normalizeLabel } from '../mapping/header-match.js';
import type { TextLine, WordBox } from './types.js';
import { withoutLeaders } from './layout/cells.js';

export interface FieldSpec {
  key: string;
  name: string;
  data_type: string;
  description?: string;
}

const LABEL_THRESHOLD = 0.7;
const MAX_LABEL_WORDS = 6;
// A gap wider than this many character heights ends a value (the next column of a form).
const VALUE_GAP = 2.5;

const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
// Not a figure inside a word or a code: the digits of "DE123456789" (a VAT id), "NW-2024-0193"
// (an invoice number) or "2024-03-14" (a date) are no amount.
const NUMBER = String.raw`(?<![\p{L}\d.,/-])(?:[-+(]?\s?(?:[$€£¥]\s?)?\d[\d.,' \u00a0]*\d(?:\s?[$€£¥%])?\)?|[-+(]?(?:[$€£¥]\s?)?\d(?:\s?[$€£¥%])?\)?)(?![-/]?\d)`;
const TYPE_PATTERNS: Record<string, RegExp> = {
  date: new RegExp(String.raw`\b(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}(?:st|nd|rd|th)?[ -](?:${MONTHS})\.?,?[ -]\d{2,4}|(?:${MONTHS})\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4})\b`, 'iu'),
  datetime: new RegExp(String.raw`\b(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?`, 'iu'),
  currency: new RegExp(NUMBER, 'u'),
  number: new RegExp(NUMBER, 'u'),
  integer: /[-+]?\b\d[\d,. ]*\b/u,
  percent: /[-+]?\d[\d.,]*\s?%/u,
  email: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/u,
  url: /\b(?:https?:\/\/|www\.)[^\s]+/iu,
  phone: /\+?\d[\d\s().-]{6,}\d/u,
  boolean: /\b(?:yes|no|true|false|y|n|x|✓|✔)\b/iu,
};

interface LabelHit {
  line: number;
  /** index of the first word after the label */
  after: number;
  box: { x0: number; y0: number; x1: number; y1: number };
  similarity: number;
  /** letters of the label matched: "Total due" over a bare "Total" elsewhere */
  span: number;
}

function labelsOf(field: FieldSpec): string[] {
  const labels = [field.name, field.key.replace(/_/gu, ' ')];
  if (field.description) labels.push(field.description);
  return labels.filter((l) => normalizeLabel(l).length > 0);
}

function findLabels(lines: readonly TextLine[], labels: readonly string[]): LabelHit[] {
  const hits: LabelHit[] = [];
  lines.forEach((line, index) => {
    const words = line.words;
    let best: LabelHit | undefined;
    for (let start = 0; start < words.length; start++) {
      let text = '';
      for (let end = start; end < Math.min(words.length, start + MAX_LABEL_WORDS); end++) {
        text += (text ? ' ' : '') + words[end]!.text;
        // "Total: 12" in one word: the label is the part before the colon.
        const colon = text.indexOf(':');
        const label = colon > 0 ? text.slice(0, colon) : text;
        const span = normalizeLabel(label).length;
        const similarity = bestSimilarity(label, labels);
        // At equal similarity the longer label wins: "Total due" over "Total".
        if (similarity >= LABEL_THRESHOLD && (!best || similarity >= best.similarity)) {
          best = { line: index, after: end + 1, box: spanBox(words.slice(start, end + 1)), similarity, span };
          if (colon > 0 && colon < text.length - 1) best.after = -(end + 1); // value glued after the colon
        }
        if (colon >= 0) break;
      }
    }
    if (best) hits.push(best);
  });
  return hits.sort((a, b) => b.similarity - a.similarity || b.span - a.span || a.line - b.line);
}

/** How well `text` reads as one of `labels`; a fragment of a longer label ("number" of "VAT number") is none. */
function bestSimilarity(text: string, labels: readonly string[]): number {
  const span = normalizeLabel(text).length;
  let similarity = 0;
  for (const l of labels) {
    if (span < 0.75 * normalizeLabel(l).length) continue;
    similarity = Math.max(similarity, labelSimilarity(text, l));
  }
  return similarity;
}

function spanBox(words: readonly WordBox[]): LabelHit['box'] {
  return {
    x0: Math.min(...words.map((w) => w.x0)),
    y0: Math.min(...words.map((w) => w.y0)),
    x1: Math.max(...words.map((w) => w.x1)),
    y1: Math.max(...words.map((w) => w.y1)),
  };
}

/** The chunks after the label on its line, up to the next label ("Due date:" of a form's next column). */
function valuesRight(line: TextLine, hit: LabelHit): string[] {
  const glued = hit.after < 0;
  const from = glued ? -hit.after - 1 : hit.after;
  const words = line.words;
  const chunks: string[][] = [[]];
  if (glued) {
    const w = words[from]!.text;
    chunks[0]!.push(w.slice(w.indexOf(':') + 1));
  }
  let prev: WordBox | undefined = glued ? words[from] : undefined;
  for (let i = glued ? from + 1 : from; i < words.length; i++) {
    const w = words[i]!;
    const height = w.y1 - w.y0 || 10;
    const current = chunks[chunks.length - 1]!;
    if (prev && w.x0 - prev.x1 > VALUE_GAP * height && current.join('').replace(/[:\s]/gu, '') !== '') chunks.push([]);
    chunks[chunks.length - 1]!.push(w.text);
    prev = w;
  }
  const texts = chunks.map((c) => clean(c.join(' '))).filter((t) => t !== '');
  const label = texts.findIndex(isLabel);
  return label < 0 ? texts : texts.slice(0, label);
}

/** Text ending in a colon names a value; it is none. */
function isLabel(text: string): boolean {
  return /:$/u.test(text);
}

/** Text on the next line under the label (words overlapping the label's columns). */
function valueBelow(lines: readonly TextLine[], hit: LabelHit): string {
  const line = lines[hit.line]!;
  const next = lines[hit.line + 1];
  if (!next || next.page !== line.page) return '';
  const height = hit.box.y1 - hit.box.y0 || 10;
  const top = Math.min(...next.words.map((w) => w.y0));
  if (top - hit.box.y1 > 2 * height) return '';
  const words = next.words.filter((w) => w.x1 > hit.box.x0 - height && w.x0 < hit.box.x1 + 2 * height);
  if (words.length === 0) return '';
  // Extend to the whole chunk the overlapping words belong to.
  const first = next.words.indexOf(words[0]!);
  let last = next.words.indexOf(words[words.length - 1]!);
  while (last + 1 < next.words.length && next.words[last + 1]!.x0 - next.words[last]!.x1 < VALUE_GAP * height) last++;
  return clean(next.words.slice(first, last + 1).map((w) => w.text).join(' '));
}

function clean(text: string): string {
  return withoutLeaders(text).replace(/^[\s:=#\-–—]+/u, '');
}

function typedValue(text: string, dataType: string): string | undefined {
  const pattern = TYPE_PATTERNS[dataType];
  if (!pattern) return undefined;
  const m = pattern.exec(text);
  if (!m) return undefined;
  const value = m[0].trim();
  // "VAT 20%   11.10": the rate is no amount.
  if ((dataType === 'currency' || dataType === 'number') && value.endsWith('%')) return undefined;
  return value;
}

export function findFieldValues(lines: TextLine[], fields: { key: string; name: string; data_type: string; description?: string }[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    const otherLabels = fields.filter((f) => f.key !== field.key).flatMap(labelsOf);
    values[field.key] = findField(lines, field, otherLabels);
  }
  return values;
}

/**
 * `otherLabels`: the other fields' labels. Text reading as one of them is no value: in a form's
 * row of boxes ("Invoice number  Invoice date" over "INV-0042  14/03/2024") the next label sits
 * right of a label whose value is below it.
 */
function findField(lines: readonly TextLine[], field: FieldSpec, otherLabels: readonly string[]): string {
  const hits = findLabels(lines, labelsOf(field));
  const typed = TYPE_PATTERNS[field.data_type] !== undefined;
  const value = (text: string): string => (isLabel(text) || bestSimilarity(text, otherLabels) >= LABEL_THRESHOLD ? '' : text);
  let fallback = '';
  for (const hit of hits) {
    const [right = '', ...further] = valuesRight(lines[hit.line]!, hit);
    const below = valueBelow(lines, hit);
    // Nearest first: the text right of the label, the line below, then further along the line.
    const candidates = [right, below, ...further].map(value);
    if (!typed) {
      const found = candidates.slice(0, 2).find((c) => c !== '');
      if (found) return found;
      continue;
    }
    for (const c of candidates) {
      const v = typedValue(c, field.data_type);
      if (v) return v;
    }
    fallback ||= candidates.find((c) => c !== '') ?? '';
  }
  return fallback;
}
