// A local webhook receiver for tests: records every request and answers what the test says
// (a status, or 'hang' to never answer). Listens on 127.0.0.1 only.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  /** 1-based over the receiver's life */
  n: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
  /** what the receiver answered */
  answered: number | 'hang';
}

export type Answer = number | 'hang';
export type Responder = (request: Omit<ReceivedRequest, 'answered'>) => Answer;

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** changes how later requests are answered */
  respond(responder: Responder | Answer): void;
  /** resolves once `predicate` holds for the recorded requests */
  waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(initial: Responder | Answer = 200): Promise<Receiver> {
  let responder: Responder = typeof initial === 'function' ? initial : () => initial;
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  let n = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // not JSON
      }
      const base = { n: ++n, method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
      const answer = responder(base);
      requests.push({ ...base, answered: answer });
      for (const wake of waiters) wake();
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end(answer >= 200 && answer < 300 ? 'ok' : `answered ${answer}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    respond(next) {
      responder = typeof next === 'function' ? next : () => next;
    },
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(requests)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met within ${timeoutMs} ms; got ${requests.length} requests: ${requests.map((r) => `${r.json?.type ?? r.path} -> ${r.answered}`).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
