// The one environment schema, parsed once at start. A bad value stops start-up naming the variable.
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { temporalDevConfig } from './dev-config.js';
import { parseLanguageList } from './languages.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

function envSchema() {
  const dev = temporalDevConfig();
  return z.object({
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/distill'),
    TEMPORAL_ADDRESS: z.string().min(1).default(dev.address),
    TEMPORAL_NAMESPACE: z.string().min(1).default(dev.namespace),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('distill'),
    /** Set for Temporal Cloud or any TLS endpoint; with TEMPORAL_API_KEY for API-key auth. */
    TEMPORAL_TLS: bool.default(false),
    TEMPORAL_API_KEY: z.string().optional(),
    S3_ENDPOINT: z.url().default('http://127.0.0.1:9000'),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().min(3).default('distill'),
    S3_ACCESS_KEY: z.string().min(1).default('distill'),
    S3_SECRET_KEY: z.string().min(8).default('distill-dev-secret'),
    /** Where the embedded stack keeps its data (Temporal history file, S3 objects). */
    DISTILL_DATA_DIR: z.string().default(join(homedir(), '.local', 'share', 'distill')),
    /** Where go-built tools (temporal, minio) are cached, outside the clone. */
    DISTILL_TOOLS_DIR: z.string().default(join(homedir(), '.cache', 'distill')),
    MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(1024 ** 3),
    /** Tables longer than this are refused by CSV download (spec: 500000). */
    CSV_DOWNLOAD_ROW_LIMIT: z.coerce.number().int().positive().default(500_000),
    /** Deliver webhooks to loopback/private addresses too (tests, trusted networks). */
    WEBHOOK_ALLOW_PRIVATE: bool.default(false),
    /** First webhook retry interval; doubled up to 1 h between attempts, for 25 h in all. */
    WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
    /** One delivery attempt's deadline, connect to last byte. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    /**
     * Pages OCRed at once per worker; tesseract runs single-threaded per page, so one per core the
     * worker may use (a fixed 2 left a larger machine's other cores idle).
     */
    OCR_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(Math.min(64, availableParallelism())),
    /** Tesseract languages scans are read in unless an upload's guidance names others ("spa+eng"). */
    OCR_LANGUAGES: z
      .string()
      .default('eng')
      .transform((text, ctx) => parseLanguageList(text) ?? (ctx.addIssue({ code: 'custom', message: 'expected tesseract language names joined with + (for example spa+eng)' }), z.NEVER)),
    WORKER_MAX_ACTIVITIES: z.coerce.number().int().min(1).default(8),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  });
}
export type Env = z.infer<ReturnType<typeof envSchema>>;

let parsed: Env | undefined;

/** Parses process.env once; exits the process with a message naming each bad variable. */
export function env(): Env {
  if (parsed) return parsed;
  const result = envSchema().safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    process.stderr.write(`Invalid configuration:\n${lines.join('\n')}\n`);
    process.exit(78);
  }
  parsed = result.data;
  return parsed;
}
