// Tesseract word boxes (TSV output). Called as a child process rather than through
// node-tesseract-ocr, which runs a shell command line with no time limit and no way to set
// OMP_THREAD_LIMIT for the child alone.
import { rm, writeFile } from 'node:fs/promises';
import { isLanguageName } from '../../../lib/languages.js';
import { DocumentError } from '../errors.js';
import { BAND_INCHES, bandImage, blankRowBands } from './bands.js';
import { writePgm, type GrayImage } from './gray-image.js';
import { restoreMisreads } from './misreads.js';
import { runTool } from './run-tool.js';

export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  conf: number;
  /** block.paragraph.line: words of one line of text as tesseract read it */
  line: string;
}

export interface OcrPage {
  width: number;
  height: number;
  words: OcrWord[];
  /** the resolution tesseract put on the picture from its text's size, when the file stated none (PGM) */
  estimatedDpi?: number;
}

const TIMEOUT_MS = 120_000;

// One thread per tesseract process is 3-4x faster per page than OpenMP's default on small
// machines; parallelism comes from running pages side by side.
const env = { ...process.env, OMP_THREAD_LIMIT: '1' };

type Psm = 1 | 3 | 6 | 11;

/**
 * psm 11 (sparse text) finds every word of a table: the default layout analysis (psm 3) drops
 * short isolated columns. psm 1 is layout analysis with orientation detection, for pages turned
 * sideways or upside down.
 */
export async function recognize(imagePath: string, psm: Psm = 11, lang = 'eng', opts: { darkOnLight?: boolean } = {}): Promise<OcrPage> {
  return runTesseract(imagePath, psm, lang, opts, [0]);
}

/**
 * `image` read as one picture, handed to tesseract in bands of about BAND_INCHES at `dpi`
 * (bands.ts), written as `${prefix}-N.pgm` and listed in `${prefix}.txt`, removed afterwards.
 */
export async function recognizePicture(image: GrayImage, prefix: string, dpi: number, psm: Psm, lang: string, opts: { darkOnLight?: boolean } = {}): Promise<OcrPage> {
  const bands = blankRowBands(image, Math.round(BAND_INCHES * dpi));
  const files = bands.map((_, i) => `${prefix}-${i + 1}.pgm`);
  const list = `${prefix}.txt`;
  try {
    await Promise.all(bands.map((band, i) => writePgm(files[i]!, bandImage(image, band))));
    if (files.length > 1) await writeFile(list, `${files.join('\n')}\n`);
    return await runTesseract(files.length > 1 ? list : files[0]!, psm, lang, opts, bands.map((b) => b.top));
  } finally {
    await Promise.all([list, ...files].map((f) => rm(f, { force: true })));
  }
}

/** tesseract on a picture or a list of bands (`tops`: each band's first row in the picture). */
async function runTesseract(input: string, psm: Psm, lang: string, opts: { darkOnLight?: boolean }, tops: readonly number[]): Promise<OcrPage> {
  // darkOnLight: the picture's shaded areas were cleared to dark text on white (raster-rulings.ts),
  // so tesseract's second look at every poorly read line as light-on-dark text is wasted time.
  const config = opts.darkOnLight ? ['-c', 'tessedit_do_invert=0'] : [];
  const { stdout, stderr } = await runTool('tesseract', [input, 'stdout', '-l', lang, '--psm', String(psm), ...config, 'tsv'], { timeoutMs: TIMEOUT_MS, env });
  const page = restoreMisreads(parseTsv(stdout.toString('utf8'), tops), lang);
  // one estimate a band: the middle one
  const estimates = [...stderr.matchAll(/Estimating resolution as (\d+)/gu)].map((m) => Number(m[1])).filter((n) => n > 0).sort((a, b) => a - b);
  const estimated = estimates[Math.floor(estimates.length / 2)];
  return estimated !== undefined ? { ...page, estimatedDpi: estimated } : page;
}

// Rules and borders come out of tesseract as strokes of punctuation.
const NOISE = /^[|_\-—–=~.,:;'"`!^*¦‖│┃]+$/u;

/** Words of tesseract's TSV; `tops`: where each of its pages (bands of one picture) starts. */
export function parseTsv(tsv: string, tops: readonly number[] = [0]): OcrPage {
  const words: OcrWord[] = [];
  let width = 0;
  let height = 0;
  for (const row of tsv.split('\n')) {
    const f = row.split('\t');
    if (f.length < 12 || f[0] === 'level') continue;
    const level = Number(f[0]);
    const band = Number(f[1]) - 1;
    const left = Number(f[6]);
    const top = Number(f[7]) + (tops[band] ?? 0);
    const w = Number(f[8]);
    const h = Number(f[9]);
    if (level === 1) {
      width = Math.max(width, left + w);
      height = Math.max(height, top + h);
      continue;
    }
    if (level !== 5) continue;
    const text = f.slice(11).join('\t').trim();
    const conf = Number(f[10]);
    if (!text || conf < 0) continue;
    if (NOISE.test(text) && conf < 80) continue;
    words.push({ text, x0: left, y0: top, x1: left + w, y1: top + h, conf, line: band > 0 ? `${band + 1}.${f[2]}.${f[3]}.${f[4]}` : `${f[2]}.${f[3]}.${f[4]}` });
  }
  return { width, height, words };
}

export function meanConfidence(page: OcrPage): number {
  if (page.words.length === 0) return 0;
  return page.words.reduce((s, w) => s + w.conf, 0) / page.words.length;
}


export interface PageOrientation {
  /** clockwise degrees that turn the page upright */
  rotate: 0 | 90 | 180 | 270;
  rotateConfidence: number;
  /** writing system: Latin, Han, Japanese, Hebrew, Arabic, Cyrillic, ... */
  script: string;
  scriptConfidence: number;
}

/** Tesseract's orientation and script detection (psm 0); undefined when it finds too little text. */
export async function detectOrientation(imagePath: string): Promise<PageOrientation | undefined> {
  try {
    const { stdout } = await runTool('tesseract', [imagePath, 'stdout', '--psm', '0'], { timeoutMs: TIMEOUT_MS, env });
    const text = stdout.toString('utf8');
    const num = (re: RegExp): number => Number(re.exec(text)?.[1] ?? NaN);
    const rotate = num(/^Rotate:\s*(\d+)/mu);
    const script = /^Script:\s*(\S+)/mu.exec(text)?.[1];
    if (!script || !(rotate === 0 || rotate === 90 || rotate === 180 || rotate === 270)) return undefined;
    return { rotate, rotateConfidence: num(/^Orientation confidence:\s*([\d.]+)/mu), script, scriptConfidence: num(/^Script confidence:\s*([\d.]+)/mu) };
  } catch {
    return undefined;
  }
}

let installed: Promise<Set<string>> | undefined;

/** Language data installed for tesseract (cached for the process). */
export function installedLanguages(): Promise<Set<string>> {
  installed ??= runTool('tesseract', ['--list-langs'], { timeoutMs: 30_000, env }).then(
    ({ stdout, stderr }) => new Set(`${stdout.toString('utf8')}\n${stderr}`.split('\n').map((l) => l.trim()).filter(isLanguageName)),
    () => new Set<string>(),
  );
  return installed;
}

/** `languages` as tesseract's -l argument, or a DocumentError naming those this machine lacks. */
export async function languageArgument(languages: readonly string[]): Promise<string> {
  const installed = await installedLanguages();
  if (installed.size === 0) throw new DocumentError('OCR is not available: tesseract is not installed on the worker');
  const missing = languages.filter((l) => !installed.has(l));
  if (missing.length > 0) {
    const have = [...installed].filter((l) => l !== 'osd').sort();
    throw new DocumentError(`OCR language${missing.length > 1 ? 's' : ''} ${missing.map((l) => `'${l}'`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not installed on the worker (installed: ${have.join(', ') || 'none'})`);
  }
  return languages.join('+');
}

// Languages that read a writing system, in order of preference (the first installed wins).
const SCRIPT_LANGUAGES: Record<string, string[]> = {
  Han: ['jpn', 'chi_sim', 'chi_tra'],
  Japanese: ['jpn'],
  Hangul: ['kor'],
  Korean: ['kor'],
  Hebrew: ['heb'],
  Arabic: ['ara'],
  Cyrillic: ['rus', 'ukr', 'bul', 'srp'],
  Greek: ['ell'],
  Thai: ['tha'],
  Devanagari: ['hin'],
};

/** The installed language that reads `script`, when it is not Latin (read with eng already). */
export function languageForScript(script: string, languages: ReadonlySet<string>): string | undefined {
  return (SCRIPT_LANGUAGES[script] ?? []).find((l) => languages.has(l));
}
