// A small JSON client for the API under test. With `validate` on, every response is checked
// against the server's own /openapi.json (status documented, JSON body matches its schema).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** Checks responses against an OpenAPI 3.1 document; schemas are compiled on first use. */
export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { path: string; pattern: RegExp; params: number }[];

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(doc as object, 'openapi');
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`),
        params: (path.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params || b.path.length - a.path.length);
  }

  static async load(baseUrl: string): Promise<ResponseValidator> {
    const res = await fetch(`${baseUrl}/openapi.json`);
    if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
    return new ResponseValidator((await res.json()) as OpenApiDocument);
  }

  /** The documented path template a concrete path falls under (fewest parameters wins). */
  templateOf(path: string): string | null {
    const bare = path.split('?')[0]!;
    return this.templates.find((t) => t.pattern.test(bare))?.path ?? null;
  }

  /** Problems with one response; empty when it matches the document (or the route is not in it). */
  check(method: string, path: string, status: number, contentType: string, body: unknown, text: string): string[] {
    const template = this.templateOf(path);
    const verb = method.toLowerCase();
    if (!template || !HTTP_METHODS.has(verb)) return [];
    const operation = this.doc.paths[template]![verb];
    if (!operation) return [];
    const responses = operation.responses ?? {};
    const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : 'default' in responses ? 'default' : null;
    if (!key) return status >= 500 ? [] : [`status ${status} is not documented for ${method} ${template}`];
    const declared = responses[key]!.content;
    if (!declared) return text.length ? [`${method} ${template} ${status} is documented without a body but returned one`] : [];
    const isJson = contentType.includes('json');
    const jsonType = Object.keys(declared).find((t) => t.includes('json'));
    if (!isJson) return [];
    if (!jsonType) return [`${method} ${template} ${status} returned JSON where the document declares ${Object.keys(declared).join(', ')}`];
    const pointer = ['paths', template, verb, 'responses', key, 'content', jsonType, 'schema'].map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(`openapi#/${pointer}`);
      if (!validate) return [`no schema at ${pointer}`];
      this.compiled.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${method} ${template} ${status}: body${e.instancePath} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }
}

const validators = new Map<string, Promise<ResponseValidator>>();

/** One validator per server, built from its /openapi.json on first use. */
export function validatorFor(baseUrl: string): Promise<ResponseValidator> {
  let v = validators.get(baseUrl);
  if (!v) {
    v = ResponseValidator.load(baseUrl);
    v.catch(() => validators.delete(baseUrl));
    validators.set(baseUrl, v);
  }
  return v;
}

// Every response the integration tests receive is checked against /openapi.json (opt out with API_VALIDATE_RESPONSES=0).
const VALIDATE_BY_DEFAULT = process.env.API_VALIDATE_RESPONSES !== '0';

export interface ApiClientOptions {
  /** check every response against /openapi.json and throw on a mismatch */
  validate?: boolean;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export class ApiClient {
  readonly validate: boolean;

  constructor(readonly baseUrl: string, readonly key?: string, options: ApiClientOptions = {}) {
    this.validate = options.validate ?? VALIDATE_BY_DEFAULT;
  }

  withKey(key: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, key, { validate: this.validate });
  }

  /** The same client with response validation on (or off). */
  validated(on = true): ApiClient {
    return new ApiClient(this.baseUrl, this.key, { validate: on });
  }

  async request<T = any>(method: string, path: string, init: { json?: unknown; form?: FormData; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    let body: RequestInit['body'];
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) body = init.form;
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.includes('application/json')) parsed = text ? JSON.parse(text) : null;
    if (this.validate) {
      const problems = (await validatorFor(this.baseUrl)).check(method, path, res.status, contentType, parsed, text);
      if (problems.length) throw new Error(`The response does not match the OpenAPI document:\n  ${problems.join('\n  ')}\n  body: ${text.slice(0, 500)}`);
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = any>(path: string, json?: unknown) {
    return this.request<T>('POST', path, { json });
  }
  patch<T = any>(path: string, json: unknown) {
    return this.request<T>('PATCH', path, { json });
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }
  upload<T = any>(path: string, form: FormData) {
    return this.request<T>('POST', path, { form });
  }

  /** Polls an extraction until it leaves `processing`. */
  async waitForExtraction(id: string, timeoutMs = 120_000, pollMs = 200): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.get(`/v2/extractions/${id}`);
      if (res.status !== 200) throw new Error(`GET extraction ${id}: ${res.status} ${res.text}`);
      if (res.body.status !== 'processing') return res.body;
      if (Date.now() > deadline) throw new Error(`extraction ${id} still processing after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}

export function fileForm(fields: Record<string, string>, file?: { name: string; content: string | Uint8Array; type?: string }): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.content as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }), file.name);
  return form;
}
