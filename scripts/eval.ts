// Accuracy of table extraction against reference CSVs (NAME.pdf + NAME.expected.csv).
//   npm run eval -- DIR [--direct] [--no-ocr] [--only NAME] [--skew DEGREES] [--dpi N] [--shade FRACTION] [--grain GREYS] [--photo TILT]
// --direct reads in process (engine + the pipeline's table planning); the default goes through
// the REST API (DISTILL_URL, DISTILL_API_KEY or a new workspace). Each document is scored as the
// digital PDF and, for OCR, as its first page rendered at 300 dpi (--dpi N: at N) to PNG (the
// references all come from page 1); --skew makes that picture a scan fed in askew by DEGREES
// (clockwise): the page rendered at twice the resolution, turned, and halved, so its pixels are
// sampled once, as a scanner's are, stating its resolution as a scanner does. --shade darkens
// that picture from left to right, by FRACTION at the right edge (a photo's shadow); --grain
// greys its paper by GREYS (of 255) and scatters every pixel by up to GREYS either way (grainy
// paper, a camera's noise), saved as a JPEG (quality 75); --photo makes it a phone's photo of the
// page on a desk, the camera tilted by TILT (scripts/eval/photo.ts). Template
// and expected rows: scripts/eval/template.ts (header rows found by matching the reference's leading rows, merged, against the emitted tables' headers; a further
// header starts a second template table). Scoring: scripts/eval/score.ts (cells compared after
// NFKC, one dash, collapsed whitespace and no padding inside brackets; rows aligned in order).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { parseCsv } from './eval/csv.js';
import { differences, scoreRows, type Score } from './eval/score.js';
import { buildTemplate, type EvalTemplate } from './eval/template.js';
import { grainy } from './eval/noise.js';
import { photographed } from './eval/photo.js';
import { extractRows, readTables } from './eval/direct.js';
import { apiKey, extractViaApi, type ApiClient } from './eval/api.js';
import { runTool } from '../activities/documents/ocr/run-tool.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { direct: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false }, 'no-ocr': { type: 'boolean', default: false }, only: { type: 'string' }, skew: { type: 'string' }, dpi: { type: 'string' }, shade: { type: 'string' }, grain: { type: 'string' }, photo: { type: 'string' } },
});
const dir = positionals[0];
if (!dir) {
  console.error('usage: npm run eval -- DIR [--direct] [--no-ocr] [--only NAME] [--skew DEGREES] [--dpi N] [--shade FRACTION] [--grain GREYS] [--photo TILT]');
  process.exit(2);
}
const skew = Number(values.skew ?? 0);
const dpi = Number(values.dpi ?? 300);
const shade = Number(values.shade ?? 0);
const grain = Number(values.grain ?? 0);
const photo = values.photo === undefined ? undefined : Number(values.photo);
if (!Number.isFinite(skew) || !(dpi >= 50 && dpi <= 1200) || !(shade >= 0 && shade < 1) || !(grain >= 0 && grain <= 60) || (photo !== undefined && !(photo >= 0 && photo <= 0.2)) || [skew, shade, grain, photo !== undefined].filter(Boolean).length > 1) {
  console.error('--skew takes a number of degrees, --dpi a resolution from 50 to 1200, --shade a fraction below 1, --grain greys from 0 to 60, --photo a tilt from 0 to 0.2 (one of the four at a time)');
  process.exit(2);
}

const client: ApiClient | undefined = values.direct ? undefined : { base: process.env.DISTILL_URL ?? 'http://127.0.0.1:8080', key: await apiKey() };

async function extract(file: string, kind: 'pdf' | 'image', name: string, reference: string[][]): Promise<{ template: EvalTemplate; rows: string[][]; note: string; seconds: number }> {
  const started = performance.now();
  const samples = await readTables(file, kind);
  const template = buildTemplate(reference, samples.map((s) => s.rows[0] ?? []));
  if (!client) {
    const r = extractRows(samples, template.tables);
    return { template, rows: r.rows, note: r.note, seconds: (performance.now() - started) / 1000 };
  }
  const t0 = performance.now();
  const rows = await extractViaApi(client, file, `eval ${name} ${kind} ${Date.now()}`, template.tables);
  return { template, rows, note: 'api', seconds: (performance.now() - t0) / 1000 };
}

function showDifferences(expected: string[][], produced: string[][]): void {
  for (const d of differences(expected, produced).slice(0, 40)) console.log(`    ${d}`);
}

function line(name: string, pass: string, mode: string, s: Score, seconds: number, note: string): string {
  return `${name.padEnd(62)} ${pass.padEnd(7)} ${mode.padEnd(8)} ${s.accuracy.toFixed(3)}  rows ${String(s.alignedRows).padStart(3)}/${String(s.expectedRows).padEnd(3)} produced ${String(s.producedRows).padStart(3)} unjudged ${String(s.unjudgedRows).padStart(3)}  ${seconds.toFixed(2)}s  ${note}`;
}

/** Page 1 of `pdf` as the picture the OCR pass reads (at --dpi, and --skew, --shade, --grain or --photo); its path. */
async function scanOf(pdf: string, prefix: string): Promise<string> {
  await runTool('pdftoppm', ['-r', String(skew ? 2 * dpi : dpi), '-f', '1', '-l', '1', '-png', '-singlefile', pdf, prefix], { timeoutMs: 120_000 });
  if (shade) {
    const { data, info } = await sharp(`${prefix}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
    const darkened = Uint8Array.from(data, (v, i) => Math.round(v * (1 - (shade * (i % info.width)) / info.width)));
    await sharp(darkened, { raw: { width: info.width, height: info.height, channels: 1 } }).withMetadata({ density: dpi }).png().toFile(`${prefix}-shaded.png`);
    return `${prefix}-shaded.png`;
  }
  if (grain) {
    const { data, info } = await sharp(`${prefix}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
    await sharp(grainy(data, grain), { raw: { width: info.width, height: info.height, channels: 1 } }).withMetadata({ density: dpi }).jpeg({ quality: 75 }).toFile(`${prefix}-grainy.jpg`);
    return `${prefix}-grainy.jpg`;
  }
  if (photo !== undefined) {
    const { data, info } = await sharp(`${prefix}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
    const picture = photographed(data, info.width, info.height, photo);
    await sharp(picture.data, { raw: { width: picture.width, height: picture.height, channels: 1 } }).jpeg({ quality: 85 }).toFile(`${prefix}-photo.jpg`);
    return `${prefix}-photo.jpg`;
  }
  if (!skew) return `${prefix}.png`;
  const turned = await sharp(`${prefix}.png`).rotate(skew, { background: '#ffffff' }).toBuffer({ resolveWithObject: true });
  await sharp(turned.data).resize(Math.round(turned.info.width / 2)).withMetadata({ density: dpi }).toFile(`${prefix}-skewed.png`);
  return `${prefix}-skewed.png`;
}

const names = (await readdir(dir)).filter((f) => f.endsWith('.expected.csv')).map((f) => f.replace(/\.expected\.csv$/u, '')).filter((n) => existsSync(join(dir, `${n}.pdf`))).filter((n) => !values.only || n.includes(values.only)).sort();
const results: Record<'digital' | 'ocr', number[]> = { digital: [], ocr: [] };
const tmp = await mkdtemp(join(tmpdir(), 'distill-eval-'));
try {
  for (const name of names) {
    const pdf = join(dir, `${name}.pdf`);
    const reference = parseCsv(await readFile(join(dir, `${name}.expected.csv`), 'utf8'));
    // One pass: extract, score against the reference, print; a failure scores 0.
    const pass = async (label: 'digital' | 'ocr', source: () => Promise<{ path: string; kind: 'pdf' | 'image' }>) => {
      try {
        const { path, kind } = await source();
        const r = await extract(path, kind, name, reference);
        const s = scoreRows(r.template.expectedRows, r.rows);
        results[label].push(s.accuracy);
        console.log(line(name, label, r.template.mode, s, r.seconds, r.note));
        if (values.verbose) showDifferences(r.template.expectedRows, r.rows);
      } catch (error) {
        results[label].push(0);
        console.log(`${name.padEnd(62)} ${label.padEnd(7)} FAILED ${(error as Error).message}`);
      }
    };
    await pass('digital', async () => ({ path: pdf, kind: 'pdf' }));
    if (values['no-ocr']) continue;
    await pass('ocr', async () => ({ path: await scanOf(pdf, join(tmp, name)), kind: 'image' }));
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}
const mean = (xs: number[]): string => (xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3) : 'n/a');
console.log(`\nmean cell accuracy: digital ${mean(results.digital)} (${results.digital.length} documents)` + (values['no-ocr'] ? '' : `, ocr ${mean(results.ocr)} (${results.ocr.length} documents)`));
