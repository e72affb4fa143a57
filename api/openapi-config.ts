// The OpenAPI document's front matter (info, servers, tags) and the document as served: routes add
// paths and schemas, api/openapi-examples.ts the examples.
import { addExamples } from './openapi-examples.js';
export const API_DESCRIPTION = [
  'Documents in, validated structured data out.',
  '',
  'Upload a PDF, spreadsheet or image with a template; the service extracts its fields and tables asynchronously, validates every',
  'cell and keeps the rows for paging, filtering and CSV download. Flows chain extraction, reconciliation and review steps.',
  '',
  '**Authentication.** Every `/v2` and `/v1` request carries `Authorization: Bearer <API key>`. A key belongs to one workspace',
  'and sees only that workspace\'s data: ids from other workspaces answer 404 like unknown ids. Create a workspace and its key',
  'with `npm run cli -- workspace create --name <name>`.',
  '',
  '**Errors** are JSON `{"error": "<message>"}` with the status code: 400 for an invalid request, 401 for a missing or invalid',
  'key, 404 for an unknown id, 409 for a state conflict, 503 when a dependency is unavailable.',
  '',
  '**Timestamps** are Unix seconds; flow-run `duration` is milliseconds.',
  '',
  '**Webhooks** notify a receiver of finished extractions and flow runs; see the `webhooks` section for the payloads and the',
  'Standard Webhooks signature headers.',
].join('\n');

export const TAGS = [
  { name: 'Extractions', description: 'Upload documents and read what was extracted (spec 4.1–4.6).' },
  { name: 'Templates', description: 'Named fields and tables with columns, data types and validation rules.' },
  { name: 'Flows', description: 'Multi-step flow definitions and running them (spec 2.5, 4.7, 4.8, 4.11).' },
  { name: 'Flow runs', description: 'Runs of flows: polling, listing, human review, reruns, exported files (spec 2.6, 4.9, 4.10).' },
  { name: 'Webhooks', description: 'Signed, retried notifications of finished extractions and flow runs.' },
  { name: 'Importer (v1)', description: 'The legacy importer resource (spec 2.7, 4.12). Its template is usable as an extraction template.' },
  { name: 'Health', description: 'Readiness probe.' },
];

/** The document's front matter for a server reached at `origin`. */
export function openApiConfig(origin: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Distill API',
      version: '2.0.0',
      description: API_DESCRIPTION,
      license: { name: 'Proprietary' },
    },
    servers: [{ url: origin, description: 'This server' }],
    tags: TAGS,
  };
}

interface DocumentSource {
  getOpenAPI31Document(config: ReturnType<typeof openApiConfig>): object;
}

/** The full document for a server reached at `origin`, examples included; built once per origin. */
export function documentBuilder(app: DocumentSource): (origin: string) => Record<string, any> {
  const built = new Map<string, Record<string, any>>();
  return (origin) => {
    let doc = built.get(origin);
    if (!doc) {
      doc = addExamples(app.getOpenAPI31Document(openApiConfig(origin)) as Record<string, any>);
      if (built.size < 16) built.set(origin, doc);
    }
    return doc;
  };
}
