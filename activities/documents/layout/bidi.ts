// Bidirectional text: the readers give right-to-left text in logical order (as typed), but a
// paired bracket in a right-to-left run still has its visual form: a page shows the logical "("
// of "(ללא)" as the glyph ")" at the run's right end, and that glyph's character is U+0029. The
// Unicode bidi algorithm mirrors such characters (Bidi_Mirrored, BidiMirroring.txt) when it
// lays text out; reading back, they are mirrored again. pdf.js reorders right-to-left text
// without mirroring, and the line builder puts separate bracket words into logical order: both
// mirror here.
import { isRtlText } from './geometry.js';

// Bidi_Mirroring_Glyph pairs that occur in documents: brackets, quotation marks, comparisons.
const PAIRS = [
  '()', '[]', '{}', '<>', '«»', '‹›', '⁅⁆', '⁽⁾', '₍₎', '≤≥', '≪≫', '⟨⟩', '⟦⟧', '⟪⟫', '⦃⦄', '⦅⦆',
  '\u2329\u232a', '〈〉', '《》', '「」', '『』', '【】', '〔〕', '〖〗', '〘〙', '〚〛',
  '﹙﹚', '﹛﹜', '﹝﹞', '﹤﹥', '（）', '＜＞', '［］', '｛｝', '｟｠', '｢｣',
];
const MIRROR = new Map<string, string>();
for (const pair of PAIRS) {
  const [a, b] = Array.from(pair) as [string, string];
  MIRROR.set(a, b);
  MIRROR.set(b, a);
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** The character's mirrored counterpart ("(" -> ")"), or the character itself. */
export function mirrorChar(c: string): string {
  return MIRROR.get(c) ?? c;
}

export function hasMirrored(text: string): boolean {
  for (const c of text) if (MIRROR.has(c)) return true;
  return false;
}

/** Punctuation and symbols only: no letters, no digits (a figure keeps its own order). */
export function isMarks(text: string): boolean {
  return !LETTER.test(text) && !DIGIT.test(text);
}

/**
 * Marks (see isMarks) standing in a right-to-left run, from visual order (left to right on the
 * page) to logical order: reversed, paired brackets mirrored. "(" at the left end of a Hebrew
 * word closes it: ")".
 */
export function marksToLogical(text: string): string {
  return Array.from(text).reverse().map(mirrorChar).join('');
}

type Strong = 'L' | 'R';

// Bidi_Paired_Bracket pairs: both brackets of a pair take one direction (rule N0).
const BRACKETS = ['()', '[]', '{}', '⁅⁆', '⁽⁾', '₍₎', '⟨⟩', '⟦⟧', '⟪⟫', '⦃⦄', '⦅⦆', '\u2329\u232a', '〈〉', '《》', '「」', '『』', '【】', '〔〕', '〖〗', '〘〙', '〚〛', '﹙﹚', '﹛﹜', '﹝﹞', '（）', '［］', '｛｝', '｟｠', '｢｣'];
const FAMILY = new Map<string, number>();
BRACKETS.forEach((pair, k) => {
  for (const c of pair) FAMILY.set(c, k);
});

/**
 * Text that a reader has already put into logical order without mirroring (pdf.js does so for
 * text holding right-to-left characters), with each paired bracket of a right-to-left run
 * mirrored. Following the bidi algorithm: a bracket pair takes the text's direction when it
 * encloses text of that direction, else the other direction when it encloses that and follows it
 * (N0); any other mark takes the direction of the strong text on both sides of it, or the text's
 * own when they differ (N1, N2). Figures count as right-to-left unless left-to-right text
 * precedes them (W7). The pair is found whichever way round its unmirrored brackets stand.
 */
export function mirrorRtlRuns(text: string, rtl: boolean): string {
  const chars = Array.from(text);
  if (!chars.some((c) => MIRROR.has(c))) return text;
  const base: Strong = rtl ? 'R' : 'L';
  const types: (Strong | undefined)[] = [];
  let last: Strong = base;
  for (const c of chars) {
    let t: Strong | undefined;
    if (isRtlText(c)) t = 'R';
    else if (LETTER.test(c)) t = 'L';
    else if (DIGIT.test(c)) t = last === 'L' ? 'L' : 'R';
    if (t && !DIGIT.test(c)) last = t;
    types.push(t);
  }
  const strongBefore = (i: number): Strong => {
    for (let j = i - 1; j >= 0; j--) if (types[j]) return types[j]!;
    return base;
  };
  const strongAfter = (i: number): Strong => {
    for (let j = i + 1; j < types.length; j++) if (types[j]) return types[j]!;
    return base;
  };
  const direction = new Map<number, Strong>();
  // N0: pairs, innermost first; a pair is two different brackets of one family.
  const open: number[] = [];
  chars.forEach((c, i) => {
    const family = FAMILY.get(c);
    if (family === undefined) return;
    const top = open[open.length - 1];
    if (top !== undefined && FAMILY.get(chars[top]!) === family && chars[top] !== c) {
      open.pop();
      const inside = new Set(types.slice(top + 1, i).filter((t): t is Strong => t !== undefined));
      let dir: Strong | undefined;
      if (inside.has(base)) dir = base;
      else if (inside.size > 0) dir = strongBefore(top) === base ? base : (base === 'R' ? 'L' : 'R');
      if (dir) {
        direction.set(top, dir);
        direction.set(i, dir);
      }
    } else {
      open.push(i);
    }
  });
  return chars
    .map((c, i) => {
      if (!MIRROR.has(c)) return c;
      let dir = direction.get(i);
      if (!dir) {
        const before = strongBefore(i);
        dir = before === strongAfter(i) ? before : base;
      }
      return dir === 'R' ? mirrorChar(c) : c;
    })
    .join('');
}
