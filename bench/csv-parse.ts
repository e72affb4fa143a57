// Times the CSV reader on a generated 500,000 x 10 file (about 50 MB, written once to /tmp).
// Prints, does not assert: machines differ. Run: node --import tsx bench/csv-parse.ts
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { readCsvBatches, sniffCsvFormat } from '../activities/documents/spreadsheet/csv.js';

export interface CsvParseBenchResult {
  rows: number;
  megabytes: number;
  seconds: number;
  /** CPU time of the process (all threads) over the same span: steadier on a busy machine. */
  cpuSeconds: number;
  megabytesPerSecond: number;
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

/** Writes `rows` data rows of 10 columns (plus a header), some cells quoted, like real exports. */
export async function generateCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,name,amount,customer,date,qty,status,code,city,note\n');
  let chunk = '';
  for (let r = 0; r < rows; r++) {
    const w = WORDS[r % WORDS.length];
    chunk +=
      `${r},${w},${(r * 1.37).toFixed(2)},"${w}, ${WORDS[(r >> 3) % 8]}",2024-03-${String((r % 28) + 1).padStart(2, '0')},` +
      `${r % 97},${r % 3 === 0 ? 'open' : 'closed'},C${r % 10007},Berlin,"said ""hi"" on ${WORDS[(r >> 5) % 8]}"\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

export async function benchCsvParse(path = '/tmp/distill-bench-500k.csv', rows = 500_000): Promise<CsvParseBenchResult> {
  if (!existsSync(path)) await generateCsv(path, rows);
  const megabytes = statSync(path).size / 1e6;
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  const format = await sniffCsvFormat(path);
  let count = 0;
  for await (const batch of readCsvBatches(path, format)) count += batch.length;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return { rows: count, megabytes, seconds, cpuSeconds, megabytesPerSecond: megabytes / seconds };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.env.RUNS ?? 5);
  const seconds: number[] = [];
  for (let k = 0; k < runs; k++) {
    const r = await benchCsvParse();
    seconds.push(r.seconds);
    console.log(
      `csv-parse run ${k + 1}: ${r.rows} rows, ${r.megabytes.toFixed(1)} MB in ${r.seconds.toFixed(3)} s ` +
        `(${r.megabytesPerSecond.toFixed(0)} MB/s, ${r.cpuSeconds.toFixed(3)} s CPU)`,
    );
  }
  // The first run includes JIT warm-up; the median is what a long-lived worker sees.
  const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)] ?? 0;
  console.log(`csv-parse median: ${median.toFixed(3)} s`);
}
