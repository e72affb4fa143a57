// The API reference: GET /docs is a self-contained page rendered on the server from the OpenAPI
// document (no scripts, no CDN: it works on a machine without internet); GET /docs/scalar is
// the interactive Scalar reference (its script comes from a CDN, so it needs internet).
import { Scalar } from '@scalar/hono-api-reference';
import { Hono } from 'hono';
import type { AppEnv } from './context.js';

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** Minimal inline markdown: `code`, **bold**, paragraphs. Input is escaped first. */
function md(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${esc(para).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\n/g, ' ')}</p>`)
    .join('');
}

function anchor(...parts: string[]): string {
  return parts.join('-').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

class Renderer {
  constructor(private readonly doc: Json) {}

  resolve(schema: Json | undefined): Json {
    let current = schema ?? {};
    for (let i = 0; i < 10 && typeof current.$ref === 'string'; i++) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = this.doc.components?.schemas?.[name] ?? {};
    }
    return current;
  }

  typeName(schema: Json | undefined): string {
    if (!schema) return 'any';
    if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
    if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return alternatives.map((s: Json) => this.typeName(s)).join(' | ');
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    return (
      types
        .map((t) => (t === 'array' ? `array of ${this.typeName(schema.items)}` : t === 'object' && schema.additionalProperties && !schema.properties ? `map of ${this.typeName(schema.additionalProperties === true ? undefined : schema.additionalProperties)}` : t))
        .join(' | ') || 'any'
    );
  }

  /** Nested property list of an object schema (refs expanded to a few levels). */
  properties(schema: Json | undefined, depth = 0): string {
    const resolved = this.resolve(schema);
    const target = resolved.type === 'array' || (Array.isArray(resolved.type) && resolved.type.includes('array')) ? this.resolve(resolved.items) : resolved;
    const props = target.properties as Json | undefined;
    if (!props || depth > 4) return '';
    const required = new Set<string>(target.required ?? []);
    const items = Object.entries(props).map(([name, raw]) => {
      const prop = raw as Json;
      const inner = this.resolve(prop);
      const description = prop.description ?? inner.description;
      const nested = this.properties(prop, depth + 1);
      const extras = [
        required.has(name) ? '<span class="req">required</span>' : '',
        inner.default !== undefined ? `<span class="meta">default ${esc(JSON.stringify(inner.default))}</span>` : '',
        inner.minimum !== undefined ? `<span class="meta">min ${esc(inner.minimum)}</span>` : '',
        inner.maximum !== undefined ? `<span class="meta">max ${esc(inner.maximum)}</span>` : '',
        inner.format ? `<span class="meta">${esc(inner.format)}</span>` : '',
      ].join('');
      return `<li><code class="prop">${esc(name)}</code> <span class="type">${esc(this.typeName(prop))}</span>${extras}${description ? `<div class="desc">${md(description)}</div>` : ''}${nested}</li>`;
    });
    return `<ul class="props">${items.join('')}</ul>`;
  }

  /** An example value: the schema's own, or one built from its properties. */
  example(schema: Json | undefined, depth = 0): unknown {
    if (!schema || depth > 6) return null;
    if (schema.example !== undefined) return schema.example;
    if (schema.examples?.[0] !== undefined) return schema.examples[0];
    if (schema.$ref) return this.example(this.resolve(schema), depth + 1);
    if (schema.default !== undefined) return schema.default;
    if (schema.enum) return schema.enum[0];
    if (schema.const !== undefined) return schema.const;
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return this.example(alternatives.find((s: Json) => s.type !== 'null') ?? alternatives[0], depth + 1);
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
    switch (type) {
      case 'object': {
        if (!schema.properties) return {};
        return Object.fromEntries(Object.entries(schema.properties as Json).map(([k, v]) => [k, this.example(v as Json, depth + 1)]));
      }
      case 'array':
        return [this.example(schema.items, depth + 1)];
      case 'integer':
      case 'number':
        return 0;
      case 'boolean':
        return true;
      case 'string':
        return schema.format === 'binary' ? '<file>' : 'string';
      default:
        return null;
    }
  }

  body(content: Json | undefined): string {
    if (!content) return '';
    return Object.entries(content)
      .map(([type, media]) => {
        const schema = (media as Json).schema as Json | undefined;
        const props = this.properties(schema);
        const ex = (media as Json).example ?? this.example(schema);
        const exampleBlock = type.includes('json') && ex !== undefined && ex !== null ? `<pre>${esc(JSON.stringify(ex, null, 2))}</pre>` : '';
        return `<div class="media"><div class="ctype">${esc(type)} <span class="type">${esc(this.typeName(schema))}</span></div>${props}${exampleBlock}</div>`;
      })
      .join('');
  }

  parameters(params: Json[] | undefined): string {
    if (!params?.length) return '';
    const rows = params.map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${esc(this.typeName(p.schema))}</td><td>${p.required ? 'yes' : 'no'}</td><td>${md(p.description ?? p.schema?.description ?? '')}${p.schema?.default !== undefined ? `<span class="meta">default ${esc(JSON.stringify(p.schema.default))}</span>` : ''}</td></tr>`,
    );
    return `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Notes</th></tr>${rows.join('')}</table>`;
  }

  operation(method: string, path: string, op: Json, idPrefix = 'op'): string {
    const id = anchor(idPrefix, method, path);
    const responses = Object.entries((op.responses ?? {}) as Json)
      .map(([status, r]) => `<div class="resp"><div><span class="status s${esc(status[0])}">${esc(status)}</span> ${esc((r as Json).description ?? '')}</div>${this.body((r as Json).content)}</div>`)
      .join('');
    const auth = op.security?.length ? '<span class="auth">Bearer API key</span>' : '';
    return `<section class="op" id="${id}">
<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code> ${auth}</h3>
${op.summary ? `<p class="summary">${esc(op.summary)}</p>` : ''}${md(op.description)}
${this.parameters(op.parameters)}
${op.requestBody ? `<h4>Request body</h4>${this.body(op.requestBody.content)}` : ''}
<h4>Responses</h4>${responses}
</section>`;
  }

  page(): string {
    const info = this.doc.info ?? {};
    const byTag = new Map<string, { method: string; path: string; op: Json }[]>();
    for (const [path, item] of Object.entries((this.doc.paths ?? {}) as Json)) {
      for (const method of METHODS) {
        const op = (item as Json)[method] as Json | undefined;
        if (!op) continue;
        const tag = op.tags?.[0] ?? 'Other';
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag)!.push({ method, path, op });
      }
    }
    const tagOrder = [...((this.doc.tags ?? []) as Json[]).map((t) => t.name as string), ...byTag.keys()].filter((t, i, all) => all.indexOf(t) === i && byTag.has(t));
    const tagInfo = new Map(((this.doc.tags ?? []) as Json[]).map((t) => [t.name as string, t.description as string | undefined]));
    const webhooks = Object.entries((this.doc.webhooks ?? {}) as Json).flatMap(([name, item]) => METHODS.filter((m) => (item as Json)[m]).map((m) => ({ name, method: m, op: (item as Json)[m] as Json })));

    const nav = [
      ...tagOrder.map(
        (tag) =>
          `<div class="navtag"><a href="#${anchor('tag', tag)}">${esc(tag)}</a></div>` +
          byTag.get(tag)!.map(({ method, path }) => `<a class="navop" href="#${anchor('op', method, path)}"><span class="method ${method}">${method.toUpperCase()}</span> ${esc(path)}</a>`).join(''),
      ),
      webhooks.length ? `<div class="navtag"><a href="#webhook-events">Webhook events</a></div>${webhooks.map((w) => `<a class="navop" href="#${anchor('event', w.name)}">${esc(w.name)}</a>`).join('')}` : '',
      '<div class="navtag"><a href="#schemas">Schemas</a></div>',
    ].join('');

    const sections = tagOrder
      .map((tag) => `<h2 id="${anchor('tag', tag)}">${esc(tag)}</h2>${md(tagInfo.get(tag))}${byTag.get(tag)!.map(({ method, path, op }) => this.operation(method, path, op)).join('')}`)
      .join('');
    const events = webhooks.length
      ? `<h2 id="webhook-events">Webhook events</h2><p>POSTed to each subscribed webhook's URL.</p>${webhooks.map((w) => this.operation(w.method, w.name, w.op, 'event').replace(`id="${anchor('event', w.method, w.name)}"`, `id="${anchor('event', w.name)}"`)).join('')}`
      : '';
    const schemas = Object.entries((this.doc.components?.schemas ?? {}) as Json)
      .map(([name, schema]) => `<section class="schema" id="${anchor('schema', name)}"><h3>${esc(name)} <span class="type">${esc(this.typeName(schema as Json))}</span></h3>${md((schema as Json).description)}${this.properties(schema as Json)}</section>`)
      .join('');

    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title ?? 'API')} reference</title>
<style>${CSS}</style></head>
<body><nav>${nav}</nav><main>
<h1>${esc(info.title ?? 'API')} <span class="version">${esc(info.version ?? '')}</span></h1>
<p class="links"><a href="/openapi.json">openapi.json</a> · <a href="/docs/scalar">interactive reference</a> (loads Scalar from a CDN)</p>
${md(info.description)}
${sections}${events}
<h2 id="schemas">Schemas</h2>${schemas}
</main></body></html>`;
  }
}

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2328;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:320px;flex:none;padding:16px;background:#f6f8fa;border-right:1px solid #d0d7de;font-size:13px}
nav a{display:block;color:#1f2328;text-decoration:none;padding:2px 0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav a:hover{color:#0969da}.navtag{margin-top:12px;font-weight:600}
main{flex:1;min-width:0;padding:24px 40px;max-width:1100px}
h1 .version{font-size:14px;color:#656d76;font-weight:400}h2{border-bottom:1px solid #d0d7de;padding-bottom:6px;margin-top:40px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}p code,li code,td code{background:#eff1f3;padding:1px 4px;border-radius:4px}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;overflow:auto;max-height:420px}
.op,.schema{border:1px solid #d0d7de;border-radius:8px;padding:4px 16px 12px;margin:16px 0}
.op h3{font-size:16px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}.summary{font-weight:600}
.method{display:inline-block;min-width:56px;text-align:center;border-radius:4px;color:#fff;font:600 11px/20px system-ui;padding:0 6px}
.get{background:#1a7f37}.post{background:#0969da}.patch{background:#9a6700}.put{background:#8250df}.delete{background:#cf222e}
.auth{font-size:11px;font-weight:500;border:1px solid #d0d7de;border-radius:10px;padding:0 8px;color:#656d76}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}td p{margin:0}
.props{list-style:none;padding-left:16px;margin:4px 0;border-left:2px solid #eaeef2}.props li{margin:4px 0}
.type{color:#8250df;font-size:12px;font-family:ui-monospace,monospace}.req{color:#cf222e;font-size:11px;margin-left:6px}.meta{color:#656d76;font-size:11px;margin-left:6px}
.desc p{margin:0;color:#57606a;font-size:13px}.ctype{font-weight:600;font-size:13px;margin-top:6px}
.status{display:inline-block;font-weight:700;padding:0 6px;border-radius:4px;background:#eaeef2}.s2{color:#1a7f37}.s4{color:#9a6700}.s5{color:#cf222e}
.resp{margin:8px 0}.links{color:#656d76}
@media (max-width:800px){body{display:block}nav{position:static;width:auto;height:auto}main{padding:16px}}
`;

/** Renders the self-contained reference page for an OpenAPI 3.1 document. */
export function referencePage(doc: Json): string {
  return new Renderer(doc).page();
}

/** GET /docs and GET /docs/scalar; `document` yields the app's OpenAPI document for a request. */
export function docsRoutes(document: (url: string) => Json) {
  const app = new Hono<AppEnv>();
  const pages = new WeakMap<object, string>();
  app.get('/docs', (c) => {
    const doc = document(c.req.url);
    let html = pages.get(doc);
    if (!html) {
      html = referencePage(doc);
      pages.set(doc, html);
    }
    return c.html(html);
  });
  app.get('/docs/scalar', Scalar({ url: '/openapi.json', pageTitle: 'Distill API reference' }));
  return app;
}
