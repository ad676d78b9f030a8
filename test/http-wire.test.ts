// What a client sees on the wire from `fleetops serve` (node:http through @whatwg-node/server): every answer has a
// reason phrase on its status line, its X-Request-Id, and, for the JSON bodies the app makes (REST, GraphQL,
// problems), a Content-Length: the body is written whole, not streamed in chunks (src/http/response.ts).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { onPostgres, seedDataDir } from './helpers.js';

let dir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = await seedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-wire-')));
  server = await startServer(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }, { dotenv: false }));
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** One request over a socket: the status line's parts, the raw headers and the body as sent. */
function raw(method: string, p: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; reason: string; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(`${server.url}${p}`, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, reason: res.statusMessage!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(onPostgres)('HTTP answers on the wire', () => {
  it('REST, GraphQL and problem answers: reason phrase, request id, a Content-Length matching the whole body', async () => {
    const cases = [
      { call: () => raw('GET', '/healthz'), status: 200, reason: 'OK' },
      { call: () => raw('GET', '/api/v1/aircraft'), status: 401, reason: 'Unauthorized' },
      { call: () => raw('GET', '/api/v1/no-such-route', undefined, { authorization: 'Bearer fo_live_wrongwrongwrongwrongwrongwrongwr' }), status: 401, reason: 'Unauthorized' },
      { call: () => raw('POST', '/graphql', JSON.stringify({ query: '{ __typename }' })), status: 401, reason: 'Unauthorized' },
      { call: () => raw('GET', '/readyz'), status: 200, reason: 'OK' },
    ];
    for (const c of cases) {
      const r = await c.call();
      expect(`${r.status} ${r.reason}`).toBe(`${c.status} ${c.reason}`);
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers['transfer-encoding']).toBeUndefined();
      expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
      expect(() => JSON.parse(r.body)).not.toThrow();
    }
  });

  it('a browser origin gets the CORS headers with the request id, added to the answer as made', async () => {
    const r = await raw('GET', '/healthz', undefined, { origin: 'https://console.example', 'x-request-id': 'trace-123' });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['access-control-expose-headers']).toContain('x-request-id');
    expect(r.headers['x-request-id']).toBe('trace-123');
    expect(JSON.parse(r.body)).toEqual({ status: 'ok' });
  });
});
