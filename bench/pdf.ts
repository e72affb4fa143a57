// Pages per second of the PDF engine beside the reference tools, in one run on the same pages:
//   digital: readPagedDocument on each PDF, one after another (median of three passes, after one
//   warm-up document), beside `pdftotext -layout`;
//   OCR: readPagedDocument on each page rendered to PNG at 300 dpi (pdftoppm, rendered before
//   timing), two pages at a time, beside plain `tesseract IMAGE stdout` on the same PNGs, two at
//   a time, OMP_THREAD_LIMIT=1 for both.
// Wall time and CPU time (this process plus the tools it ran) are both reported: the machines
// are shared, and CPU time is the steadier of the two.
// Run: node --import tsx bench/pdf.ts [FILES...]   (default: ../shared/datasets/pdf-tables/*.pdf)
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readPagedDocument } from '../activities/documents/pages.js';
import { mapLimited } from '../activities/documents/ocr/pool.js';
import { runTool } from '../activities/documents/ocr/run-tool.js';

export interface PdfBenchResult {
  digitalPagesPerSecond: number;
  pdftotextPagesPerSecond: number;
  ocrSecondsPerPage: number;
  tesseractSecondsPerPage: number;
  /** the same four figures from CPU time (process and child tools) instead of wall time */
  digitalCpuPagesPerSecond: number;
  pdftotextCpuPagesPerSecond: number;
  ocrCpuSecondsPerPage: number;
  tesseractCpuSecondsPerPage: number;
  digitalPages: number;
  ocrPages: number;
}

const PARALLEL = 2;
const DIGITAL_PASSES = 3;
const guidance = { tableStart: {} };
const tesseractEnv = { ...process.env, OMP_THREAD_LIMIT: '1' };

/** CPU seconds of this process and of the children it has waited for (Linux /proc; 0 elsewhere for children). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[13], fields[14] are cutime and cstime (fields 16 and 17 of stat), in clock ticks
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    children = 0;
  }
  return (own.user + own.system) / 1e6 + children;
}

async function timed(run: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  await run();
  return { wall: (performance.now() - t0) / 1000, cpu: cpuSeconds() - cpu0 };
}

async function pageCount(file: string): Promise<number> {
  const { stdout } = await runTool('pdfinfo', [file], { timeoutMs: 60_000 });
  return Number(/^Pages:\s+(\d+)/mu.exec(stdout.toString('utf8'))?.[1] ?? 0);
}

export async function benchPdf(files: string[]): Promise<PdfBenchResult> {
  const pdfs = files.filter((f) => f.toLowerCase().endsWith('.pdf'));
  const counts = await Promise.all(pdfs.map(pageCount));
  const digitalPages = counts.reduce((a, b) => a + b, 0);
  // Warm-up: pdf.js and its worker code load once per process, not per document.
  if (pdfs[0]) await readPagedDocument(pdfs[0], 'pdf', { guidance });

  // Three passes over the files; the median pass is what a long-lived worker sees.
  const passes: { wall: number; cpu: number }[] = [];
  for (let k = 0; k < DIGITAL_PASSES; k++) {
    passes.push(
      await timed(async () => {
        for (const f of pdfs) await readPagedDocument(f, 'pdf', { guidance, ocr: 'auto' });
      }),
    );
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const digital = { wall: median(passes.map((p) => p.wall)), cpu: median(passes.map((p) => p.cpu)) };
  const pdftotext = await timed(async () => {
    for (const f of pdfs) await runTool('pdftotext', ['-layout', f, '-'], { timeoutMs: 120_000 });
  });

  const tmp = await mkdtemp(join(tmpdir(), 'bench-pdf-'));
  try {
    const images: string[] = [];
    for (const [i, f] of pdfs.entries()) {
      for (let p = 1; p <= counts[i]!; p++) {
        const prefix = join(tmp, `doc${i}-page${p}`);
        await runTool('pdftoppm', ['-r', '300', '-f', String(p), '-l', String(p), '-png', '-singlefile', f, prefix], { timeoutMs: 120_000 });
        images.push(`${prefix}.png`);
      }
    }
    const ocr = await timed(async () => {
      await mapLimited(images, PARALLEL, (image) => readPagedDocument(image, 'image', { guidance }));
    });
    const tesseract = await timed(async () => {
      await mapLimited(images, PARALLEL, (image) => runTool('tesseract', [image, 'stdout'], { timeoutMs: 300_000, env: tesseractEnv }));
    });
    const n = Math.max(1, images.length);
    return {
      digitalPagesPerSecond: digitalPages / digital.wall,
      pdftotextPagesPerSecond: digitalPages / pdftotext.wall,
      ocrSecondsPerPage: ocr.wall / n,
      tesseractSecondsPerPage: tesseract.wall / n,
      digitalCpuPagesPerSecond: digitalPages / digital.cpu,
      pdftotextCpuPagesPerSecond: digitalPages / pdftotext.cpu,
      ocrCpuSecondsPerPage: ocr.cpu / n,
      tesseractCpuSecondsPerPage: tesseract.cpu / n,
      digitalPages,
      ocrPages: images.length,
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let files = process.argv.slice(2);
  if (files.length === 0) {
    const dir = fileURLToPath(new URL('../../shared/datasets/pdf-tables/', import.meta.url));
    files = readdirSync(dir).filter((f) => f.endsWith('.pdf')).map((f) => join(dir, f));
  }
  const r = await benchPdf(files);
  const f = (x: number, d = 2): string => x.toFixed(d);
  console.log(`digital   ${r.digitalPages} pages: ${f(r.digitalPagesPerSecond, 1)} pages/s wall, ${f(r.digitalCpuPagesPerSecond, 1)} pages/s CPU (goal >= 20)`);
  console.log(`pdftotext -layout       ${f(r.pdftotextPagesPerSecond, 1)} pages/s wall, ${f(r.pdftotextCpuPagesPerSecond, 1)} pages/s CPU`);
  console.log(`OCR       ${r.ocrPages} pages: ${f(r.ocrSecondsPerPage)} s/page wall, ${f(r.ocrCpuSecondsPerPage)} s/page CPU`);
  console.log(`tesseract (plain)       ${f(r.tesseractSecondsPerPage)} s/page wall, ${f(r.tesseractCpuSecondsPerPage)} s/page CPU`);
  console.log(
    `ratios: digital / pdftotext ${f(r.digitalPagesPerSecond / r.pdftotextPagesPerSecond)} (CPU ${f(r.digitalCpuPagesPerSecond / r.pdftotextCpuPagesPerSecond)}); ` +
      `OCR / tesseract ${f(r.ocrSecondsPerPage / r.tesseractSecondsPerPage)} (CPU ${f(r.ocrCpuSecondsPerPage / r.tesseractCpuSecondsPerPage)}; goal <= 1.2)`,
  );
}
