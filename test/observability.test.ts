// Observability and operating safely (docs/contract/gaps.md §11): X-Request-Id on every response, Prometheus /metrics (with its
// token), problem+json for headers over Node's limit, and graceful shutdown: a request in flight when the server
// is told to stop still gets its answer, new connections are refused.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { importData } from '../src/modules/companies/import.js';
import { startServer, type RunningServer } from '../src/server.js';
import { companyFixture, createTestEnv, newKey, onPostgres, seedDataDir, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ config: { metricsToken: 'metrics-secret' } });
});
afterAll(async () => {
  await env?.close();
});

describe('X-Request-Id', () => {
  it('every response has one; a well-formed client id is kept, a malformed one replaced', async () => {
    const a = await env.request('GET', '/api/v1/aircraft');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const b = await env.request('GET', '/api/v1/aircraft/nope', { headers: { 'x-request-id': 'client-42.abc' } });
    expect(b.status).toBe(404);
    expect(b.headers.get('x-request-id')).toBe('client-42.abc');
    const c = await env.request('GET', '/healthz', { key: null, headers: { 'x-request-id': 'bad id with spaces' } });
    expect(c.headers.get('x-request-id')).not.toBe('bad id with spaces');
    expect(c.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /metrics', () => {
  it('needs the token when one is set, and counts requests by route template and status', async () => {
    expect((await env.request('GET', '/metrics', { key: null })).status).toBe(401);
    await env.request('GET', '/api/v1/aircraft/acme-ac-1');
    await env.request('GET', '/api/v1/aircraft/nope');
    await env.gql('{ users { count } }');
    const res = await env.request('GET', '/metrics', { key: 'metrics-secret' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/fleetops_http_requests_total\{method="GET",route="\/api\/v1\/aircraft\/\{id\}",status="200"\} 1/);
    expect(text).toMatch(/fleetops_http_requests_total\{method="GET",route="\/api\/v1\/aircraft\/\{id\}",status="404"\} [12]/);
    expect(text).toContain('fleetops_http_request_duration_seconds_bucket');
    expect(text).toMatch(/fleetops_graphql_operations_total\{type="query"\} 1/);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).not.toContain('acme-ac-1');
  });
});

describe.skipIf(onPostgres)('the real server: oversized headers and graceful shutdown', () => {
  let server: RunningServer;
  let dir: string;
  const key = newKey();
  beforeAll(async () => {
    dir = await seedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-obs-')));
    const config = { ...loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', SHUTDOWN_TIMEOUT_MS: '5000' }, { dotenv: false }) };
    server = await startServer(config);
    await importData(server.database, { companies: [companyFixture('obs', key, 'acme')] });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function raw(text: string): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });
  }

  it('headers over 16 KB get 431 with a problem+json body', async () => {
    const out = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 431/);
    expect(out).toContain('content-type: application/problem+json');
    const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 431, code: 'headers_too_large' });
  });

  it('on shutdown a request in flight is answered; new connections are refused', async () => {
    const { port } = new URL(server.url);
    const form = await fetch(`${server.url}/api/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'F', code: 'shutdown', department: 'D', publiclyAvailable: true, sections: [{ name: 'S', fields: [{ name: 'ok', label: 'OK', type: 'boolean' }] }] }),
    });
    const { uid } = (await form.json()) as { uid: string };
    const publicId = ((await (await fetch(`${server.url}/api/v1/forms/${uid}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { publicId: string }).publicId;
    // a submission whose body is still arriving when the server is told to stop
    const body = JSON.stringify({ answers: { ok: true } });
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    const ended = new Promise((r) => socket.on('close', r));
    socket.write(`POST /forms/public/${publicId}/submissions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await new Promise((r) => setTimeout(r, 100));
    const closing = server.close();
    await new Promise((r) => setTimeout(r, 100));
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    socket.write(body.slice(5));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
    await closing;
  }, 180_000);
});

describe('a client that goes away', () => {
  it('its GraphQL request is cancelled: no 500, nothing logged as an error', async () => {
    const ac = new AbortController();
    const pending = env.app.fetch(
      new Request('http://fleetops.test/graphql', {
        method: 'POST',
        signal: ac.signal,
        headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ aircraftList { count } users { count } }' }),
      }),
    );
    ac.abort();
    const res = await pending;
    expect(res.status).toBe(499);
    const metrics = await (await env.request('GET', '/metrics', { key: 'metrics-secret' })).text();
    expect(metrics).not.toMatch(/route="\/graphql",status="500"/);
  });
});

describe('logs', () => {
  it('every line of a request carries its X-Request-Id; writes record the key, user and roles; no key is logged', async () => {
    const { Writable } = await import('node:stream');
    const pino = (await import('pino')).default;
    const { createApp } = await import('../src/app.js');
    const lines: any[] = [];
    const sink = new Writable({ write(chunk, _e, cb) { for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l)); cb(); } });
    const app = createApp({ database: env.database, config: { rateLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'info', authFailLimitPerMinute: 0 }, logger: pino({ level: 'info' }, sink), dispatch: false });
    try {
      const res = await app.fetch(new Request('http://fleetops.test/api/v1/vehicles', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json', 'x-request-id': 'audit-1' }, body: JSON.stringify({ make: 'A', model: 'B', registration: 'AUD-1' }) }));
      expect(res.status).toBe(201);
      await app.fetch(new Request('http://fleetops.test/api/v1/aircraft', { headers: { authorization: 'Bearer fo_live_wrong', 'x-request-id': 'audit-2' } }));
      await new Promise((r) => setTimeout(r, 50));
      const mine = lines.filter((l) => l.requestId === 'audit-1');
      expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['write', 'request']));
      expect(mine.find((l) => l.msg === 'write')).toMatchObject({ audit: 'write', operation: 'createVehicle', channel: 'rest', userId: 'acme-owner', roles: ['owner', 'admin'], outcome: 'ok' });
      expect(lines.find((l) => l.requestId === 'audit-2' && l.msg === 'authentication failed')).toMatchObject({ reason: 'unknown key' });
      // a resolver's bug: masked for the client, logged with the request's id (GraphQL, and REST where it maps it)
      const { FlightLogService } = await import('../src/modules/flight-logs/service.js');
      const bug = vi.spyOn(FlightLogService.prototype, 'list').mockRejectedValue(new Error('a bug in the list'));
      try {
        const g = await app.fetch(new Request('http://fleetops.test/graphql', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json', 'x-request-id': 'bug-1' }, body: JSON.stringify({ query: '{ flightLogs { count } }' }) }));
        expect((await g.json()).errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
        const r = await app.fetch(new Request('http://fleetops.test/api/v1/flight-logs', { headers: { authorization: `Bearer ${env.a.key}`, 'x-request-id': 'bug-2' } }));
        expect(r.status).toBe(500);
        // an MCP tool: REST's 500 problem as the tool's error, nothing of the bug's own words
        const m = await app.fetch(new Request('http://fleetops.test/mcp', {
          method: 'POST',
          headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-request-id': 'bug-3' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listFlightLogs', arguments: {} } }),
        }));
        const answer = await m.json();
        expect(answer.result.isError).toBe(true);
        expect(JSON.parse(answer.result.content[1].text)).toMatchObject({ status: 500, code: 'internal_error' });
        expect(JSON.stringify(answer)).not.toContain('a bug in the list');
      } finally {
        bug.mockRestore();
      }
      await new Promise((r) => setTimeout(r, 50));
      // each channel logs the bug once, at error level, with its request's id and the error's own message and stack
      const errorsOf = (id: string) => lines.filter((l) => l.requestId === id && l.level >= 50);
      for (const [id, where] of [['bug-1', { channel: 'graphql' }], ['bug-2', { channel: 'rest' }], ['bug-3', { channel: 'mcp', tool: 'listFlightLogs' }]] as const) {
        expect(errorsOf(id), id).toHaveLength(1);
        expect(errorsOf(id)[0]).toMatchObject({ msg: 'unexpected error', ...where, err: { message: 'a bug in the list', stack: expect.stringContaining('a bug in the list') } });
      }
      // REST and MCP name where in the route's operation the bug surfaced, as GraphQL does
      expect(errorsOf('bug-1')[0].path).toEqual(['flightLogs']);
      expect(errorsOf('bug-2')[0].paths).toEqual([['flightLogs']]);
      expect(errorsOf('bug-3')[0].paths).toEqual([['flightLogs']]);
      const text = JSON.stringify(lines);
      expect(text).not.toContain(env.a.key);
      expect(text).not.toContain('fo_live_wrong');
    } finally {
      await app.close();
    }
  });
});
