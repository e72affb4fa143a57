// Reads temporal-dev.yaml, the one place the embedded Temporal settings live.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const DevConfigSchema = z.object({
  address: z.string(),
  ui_port: z.number().int(),
  namespace: z.string(),
  retention: z.string(),
  db_filename: z.string(),
  search_attributes: z.record(z.string(), z.enum(['Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList'])),
  dynamic_config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
});
export type TemporalDevConfig = z.infer<typeof DevConfigSchema>;

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

let cached: TemporalDevConfig | undefined;
export function temporalDevConfig(): TemporalDevConfig {
  cached ??= DevConfigSchema.parse(parse(readFileSync(new URL('../temporal-dev.yaml', import.meta.url), 'utf8')));
  return cached;
}
