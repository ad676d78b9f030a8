// API key scopes (read keys cannot write on REST, GraphQL or MCP: 403) and Idempotency-Key on POST and PATCH
// (docs/contract/gaps.md §11): a repeat returns the first response without doing the work again, another body with the same key is
// 422, a request still in flight is 409, and a batch is not written twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';

let env: TestEnv;
let readKey: string;
beforeAll(async () => {
  env = await createTestEnv();
  readKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'reader', scope: 'read' })).key;
});
afterAll(async () => {
  await env?.close();
});

const logCount = async () => (await env.json('GET', '/api/v1/flight-logs?limit=500')).body.count as number;

describe('read-scoped keys', () => {
  it('read on every channel, and get 403 on every write (nothing changes)', async () => {
    expect((await env.json('GET', '/api/v1/aircraft', { key: readKey })).status).toBe(200);
    expect((await env.json('POST', '/api/v1/aggregate', { key: readKey, body: { collection: 'flightLogs', metric: '__count__' } })).status).toBe(200);
    const before = await logCount();
    expectProblem(await env.json('POST', '/api/v1/flight-logs', { key: readKey, body: flightLogBody() }), 403, 'forbidden');
    expectProblem(await env.json('PATCH', '/api/v1/vehicles/acme-v-1', { key: readKey, body: { color: 'red' } }), 403, 'forbidden');
    expectProblem(await env.json('DELETE', '/api/v1/vehicles/acme-v-1', { key: readKey }), 403, 'forbidden');
    expect(await logCount()).toBe(before);
    expect((await env.gql('{ users { count } }', undefined, readKey)).status).toBe(200);
    const m = await env.request('POST', '/graphql', { key: readKey, body: { query: 'mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid } }', variables: { i: flightLogBody() } } });
    expect(m.status).toBe(403);
    expect(await logCount()).toBe(before);

    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://fleetops.test/mcp'), { fetch: (u, i) => env.app.fetch(new Request(u, i)), requestInit: { headers: { authorization: `Bearer ${readKey}` } } }));
    try {
      const read = await client.callTool({ name: 'listAircraft', arguments: {} });
      expect(read.isError).toBeFalsy();
      const write = await client.callTool({ name: 'createFlightLog', arguments: { body: flightLogBody() } });
      expect(write.isError).toBe(true);
      expect(JSON.stringify(write.content)).toMatch(/read-only/);
    } finally {
      await client.close();
    }
    expect(await logCount()).toBe(before);
  });

  it('the CLI refuses an unknown scope', async () => {
    await expect(new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, scope: 'superuser' })).rejects.toThrow(/scope must be one of/);
  });
});

describe('Idempotency-Key', () => {
  const post = (path: string, body: unknown, key: string) => env.json('POST', `/api/v1${path}`, { body, headers: { 'idempotency-key': key } });

  it('a repeat returns the stored first response and writes nothing again', async () => {
    const before = await logCount();
    const body = flightLogBody({ timeDate: '2025-05-05T05:05:05Z', hobbs: 1 });
    const first = await post('/flight-logs', body, 'idem-1');
    expect(first.status).toBe(201);
    const again = await post('/flight-logs', body, 'idem-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(await logCount()).toBe(before + 1);
  });

  it('covers batches: a retried batch is not written twice', async () => {
    const before = await logCount();
    const body = { items: [flightLogBody({ timeDate: '2025-06-01T00:00:00Z' }), flightLogBody({ timeDate: '2025-06-02T00:00:00Z' })] };
    const first = await post('/flight-logs/batch', body, 'idem-batch');
    const again = await post('/flight-logs/batch', body, 'idem-batch');
    expect(again.body).toEqual(first.body);
    expect(await logCount()).toBe(before + 2);
  });

  it('the same key with another body is 422; a bad key is 400; keys are per company', async () => {
    await post('/vehicles', { make: 'A', model: 'B', registration: 'IDEM-1' }, 'idem-2');
    expectProblem(await post('/vehicles', { make: 'A', model: 'B', registration: 'IDEM-2' }, 'idem-2'), 422, 'idempotency_mismatch');
    expectProblem(await post('/vehicles', { make: 'A', model: 'B', registration: 'IDEM-3' }, 'bad key with spaces'), 400);
    const other = await env.json('POST', '/api/v1/vehicles', { key: env.b.key, body: { make: 'A', model: 'B', registration: 'IDEM-1' }, headers: { 'idempotency-key': 'idem-2' } });
    expect(other.status).toBe(201);
    expect(other.res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys are per company, not per API key: a repeat under another key of the company (a rotated key) is a replay', async () => {
    const second = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'rotated' })).key;
    const before = await logCount();
    const body = flightLogBody({ timeDate: '2025-07-07T07:07:07Z', hobbs: 2.5 });
    const first = await post('/flight-logs', body, 'idem-rotated');
    expect(first.status).toBe(201);
    const again = await env.json('POST', '/api/v1/flight-logs', { key: second, body, headers: { 'idempotency-key': 'idem-rotated' } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(await logCount()).toBe(before + 1);
    // another body under the other key is the same key misused
    const other = await env.json('POST', '/api/v1/flight-logs', { key: second, body: { ...body, hobbs: 3 }, headers: { 'idempotency-key': 'idem-rotated' } });
    expectProblem(other, 422, 'idempotency_mismatch');
    // a read key of the company is refused for the write, whatever was stored (its scope is decided first)
    expectProblem(await env.json('POST', '/api/v1/flight-logs', { key: readKey, body, headers: { 'idempotency-key': 'idem-rotated' } }), 403);
    expect(await logCount()).toBe(before + 1);
  });

  it('a 4xx first answer is replayed too; a request in flight with the key is 409', async () => {
    const bad = await post('/vehicles', { make: 'A' }, 'idem-3');
    expectValidation(bad);
    const replay = await post('/vehicles', { make: 'A' }, 'idem-3');
    expect(replay.status).toBe(400);
    expect(replay.res.headers.get('idempotent-replayed')).toBe('true');
    const db = (await import('../src/db/scoped.js')).scopedPrisma(env.database.prisma, env.a.id);
    const { hashKey } = await import('../src/auth/keys.js');
    const apiKeyId = (await env.database.prisma.apiKey.findUniqueOrThrow({ where: { hash: hashKey(env.a.key) } })).id;
    await db.idempotencyKey.create({ data: { key: 'idem-running', apiKeyId, requestHash: 'x', expiresAt: new Date(Date.now() + 60_000) } });
    expectProblem(await post('/vehicles', { make: 'A', model: 'B', registration: 'IDEM-4' }, 'idem-running'), 422);
    // the same request, first sent under another key, tells the hash this request has; a running claim with it is a 409
    const vehicle = { make: 'A', model: 'B', registration: 'IDEM-4' };
    await post('/vehicles', vehicle, 'idem-probe');
    const { requestHash } = await db.idempotencyKey.findFirstOrThrow({ where: { key: 'idem-probe' } });
    await db.idempotencyKey.updateMany({ where: { key: 'idem-running' }, data: { requestHash } });
    // on PostgreSQL a claim's owner is alive while it holds the claim's advisory lock (test/idempotency-crash.test.ts):
    // another connection holds it here, as the process running the first request would
    const { onPostgres, openTestDatabase } = await import('./helpers.js');
    const { IDEMPOTENCY_LOCK } = await import('../src/graphql/idempotency.js');
    const { lockKey } = await import('../src/graphql/idempotency.js');
    const owner = onPostgres ? await openTestDatabase() : null;
    try {
      const k = lockKey(env.a.id, 'idem-running');
      await owner?.session!.query('SELECT pg_advisory_lock($1::int, $2::int)', [IDEMPOTENCY_LOCK, k]);
      expectProblem(await post('/vehicles', vehicle, 'idem-running'), 409, 'conflict');
    } finally {
      await owner?.close();
    }
  });
});
