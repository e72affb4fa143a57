// A small streaming XML tokenizer for the machine-written parts of an XLSX file. It reports
// start tags, end tags and text as chunks arrive, carrying an incomplete token over to the next
// chunk, so a worksheet part of a gigabyte is read in constant memory. It does not validate:
// Excel's parts are well-formed, and a damaged one fails later on missing content instead.

export interface XmlHandler {
  /** `name` is the local name (any `x:` prefix removed); `attributes` is the raw text after it. */
  open(name: string, attributes: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Raw character data: entities are not decoded yet (see decodeXmlText), as most is skipped. */
  text(raw: string): void;
}

const LT = 0x3c;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

export class XmlScanner {
  private rest = '';

  constructor(private readonly handler: XmlHandler) {}

  push(chunk: string): void {
    const s = this.rest === '' ? chunk : this.rest + chunk;
    const n = s.length;
    const handler = this.handler;
    let pos = 0;
    while (pos < n) {
      const lt = s.indexOf('<', pos);
      if (lt === -1) break; // text running on into the next chunk
      if (lt > pos) handler.text(s.slice(pos, lt));
      pos = lt;
      if (lt + 1 >= n) break;
      const next = s.charCodeAt(lt + 1);
      if (next === SLASH) {
        const end = s.indexOf('>', lt + 2);
        if (end === -1) break;
        handler.close(localName(s.slice(lt + 2, end).trim()));
        pos = end + 1;
      } else if (next === QUESTION) {
        const end = s.indexOf('?>', lt + 2);
        if (end === -1) break;
        pos = end + 2;
      } else if (next === BANG) {
        const consumed = this.special(s, lt);
        if (consumed === -1) break;
        pos = consumed;
      } else {
        const end = findTagEnd(s, lt + 1);
        if (end === -1) break;
        const selfClosing = s.charCodeAt(end - 1) === SLASH;
        const innerEnd = selfClosing ? end - 1 : end;
        const nameEnd = findNameEnd(s, lt + 1, innerEnd);
        handler.open(localName(s.slice(lt + 1, nameEnd)), nameEnd === innerEnd ? '' : s.slice(nameEnd, innerEnd), selfClosing);
        pos = end + 1;
      }
    }
    this.rest = pos < n ? s.slice(pos) : '';
  }

  end(): void {
    // Text after the last tag is whitespace in a well-formed part; an unfinished tag is dropped.
    if (this.rest !== '' && this.rest.charCodeAt(0) !== LT) this.handler.text(this.rest);
    this.rest = '';
  }

  /** Comments, CDATA and declarations; returns where the token ends, or -1 if it is incomplete. */
  private special(s: string, lt: number): number {
    if (s.length - lt < 9 && ('<![CDATA['.startsWith(s.slice(lt)) || '<!--'.startsWith(s.slice(lt)))) return -1;
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      return end === -1 ? -1 : end + 3;
    }
    if (s.startsWith('<![CDATA[', lt)) {
      const end = s.indexOf(']]>', lt + 9);
      if (end === -1) return -1;
      // Escaped so that the handler's decoding of entities leaves CDATA text as it was.
      this.handler.text(s.slice(lt + 9, end).replace(/&/g, '&amp;').replace(/</g, '&lt;'));
      return end + 3;
    }
    const end = s.indexOf('>', lt + 2);
    return end === -1 ? -1 : end + 1;
  }
}

/** Where a start tag ends, skipping `>` inside quoted attribute values; -1 if not in `s` yet. */
function findTagEnd(s: string, from: number): number {
  let i = from;
  for (;;) {
    const gt = s.indexOf('>', i);
    if (gt === -1) return -1;
    let quote = -1;
    for (let k = i; k < gt; k++) {
      const c = s.charCodeAt(k);
      if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        quote = k;
        break;
      }
    }
    if (quote === -1) return gt;
    const close = s.indexOf(s.charAt(quote), quote + 1);
    if (close === -1) return -1;
    i = close + 1;
  }
}

function findNameEnd(s: string, from: number, to: number): number {
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return k;
  }
  return to;
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXmlText(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(ENTITY, (_, entity: string) => {
    if (entity.charCodeAt(0) !== 0x23) return NAMED[entity] ?? '';
    const code = entity.charCodeAt(1) === 0x78 ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Attributes by local name (`r:id` becomes `id`), values decoded. */
export function parseAttributes(raw: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (raw.length === 0) return attributes;
  for (const match of raw.matchAll(ATTRIBUTE)) {
    const name = localName(match[1] ?? '');
    attributes[name] = decodeXmlText(match[2] ?? match[3] ?? '');
  }
  return attributes;
}

