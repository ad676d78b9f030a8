// Authentication failures (401), body limits and media types (413/415/400) and per-key rate limiting (429), as
// RFC 9457 problem+json (docs/contract/gaps.md §2), on REST and on /graphql.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { AppError } from '../src/errors.js';
import { readJsonBody } from '../src/http/body.js';
import { problemResponse } from '../src/http/problem.js';
import { createTestEnv, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env?.close());

const MiB = 1024 * 1024;
const GQL_BODY = JSON.stringify({ query: '{ aircraftList { count } }' });

async function expectProblem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
  const body = await res.json();
  expect(body).toMatchObject({ status, code });
  for (const k of ['type', 'title', 'detail', 'code']) {
    expect(typeof body[k], k).toBe('string');
    expect(body[k].length, k).toBeGreaterThan(0);
  }
  expect(Number.isInteger(body.status)).toBe(true);
  return body;
}

async function expect401(res: Response) {
  const body = await expectProblem(res, 401, 'unauthorized');
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  return body;
}

/** One REST and one GraphQL request with the given Authorization header (null: none). */
function both(authorization: string | null) {
  const headers: Record<string, string> = authorization === null ? {} : { authorization };
  return {
    rest: () => env.request('GET', '/api/v1/aircraft', { key: null, headers }),
    graphql: () => env.request('POST', '/graphql', { key: null, headers, body: GQL_BODY }),
  };
}

describe('401 unauthorized', () => {
  const cases: [string, string | null][] = [
    ['missing Authorization header', null],
    ['Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer with no key', 'Bearer'],
    ['Bearer with only spaces', 'Bearer    '],
    ['unknown key', 'Bearer fo_test_00000000000000000000000000000000'],
  ];
  for (const [name, header] of cases) {
    it(`REST: ${name}`, async () => {
      await expect401(await both(header).rest());
    });
    it(`GraphQL: ${name}`, async () => {
      const res = await both(header).graphql();
      await expect401(res);
    });
  }

  it('the same key works (control): REST 200 and GraphQL data', async () => {
    const rest = await both(`Bearer ${env.a.key}`).rest();
    expect(rest.status).toBe(200);
    const gql = await both(`Bearer ${env.a.key}`).graphql();
    expect(gql.status).toBe(200);
    expect((await gql.json()).data.aircraftList.count).toBe(2);
  });

  it('the scheme name is case-insensitive (RFC 9110 §11.1)', async () => {
    expect((await both(`bearer ${env.a.key}`).rest()).status).toBe(200);
  });

  it('the 401 body says nothing about the company or the key', async () => {
    const res = await both(`Bearer ${env.a.key}x`).rest();
    const body = await expect401(res);
    expect(JSON.stringify(body)).not.toContain(env.a.id);
    expect(JSON.stringify(body)).not.toContain(env.a.key);
  });

  it('a revoked key is 401 on REST and GraphQL', async () => {
    const keys = new ApiKeyService(env.database.prisma);
    const name = `revoke-me-${Date.now()}`;
    const { key } = await keys.create({ companyId: env.a.id, name });
    // works before revocation
    expect((await both(`Bearer ${key}`).rest()).status).toBe(200);
    expect((await both(`Bearer ${key}`).graphql()).status).toBe(200);

    const info = (await keys.list(env.a.id)).find((k) => k.name === name);
    expect(info).toBeDefined();
    await keys.revoke(info!.id);

    await expect401(await both(`Bearer ${key}`).rest());
    await expect401(await both(`Bearer ${key}`).graphql());
    // the company's other key is unaffected
    expect((await both(`Bearer ${env.a.key}`).rest()).status).toBe(200);
  });

  /** Polls until the key answers 401 (a notification from another connection arrives asynchronously). */
  async function until401(key: string, ms = 3000): Promise<number> {
    const end = Date.now() + ms;
    let status = 0;
    while (Date.now() < end) {
      status = (await both(`Bearer ${key}`).rest()).status;
      if (status === 401) return status;
      await new Promise((r) => setTimeout(r, 25));
    }
    return status;
  }

  async function revokeLikeAnotherProcess(key: string, notify: boolean) {
    // the same SQL another process's `keys revoke` runs, on its own connection: this process's in-memory
    // invalidation is not involved, only what the database tells it
    await env.database.sql.transaction(async (sql) => {
      const [row] = await sql.query<{ hash: string }>(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE hash = encode(sha256($1::bytea), 'hex') RETURNING hash`, [key]);
      expect(row).toBeDefined();
      if (notify) await sql.query(`SELECT pg_notify('fleetops_api_keys', $1)`, [row.hash]);
    });
  }

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: a key another process revokes answers 401 as soon as that transaction commits', async () => {
    const { key } = await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'other-process' });
    expect((await both(`Bearer ${key}`).rest()).status).toBe(200); // known, and cached from here
    expect((await both(`Bearer ${key}`).rest()).status).toBe(200);
    await revokeLikeAnotherProcess(key, true);
    expect(await until401(key)).toBe(401);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: when the notification connection drops, cached keys are forgotten (no change goes unheard)', async () => {
    const { key } = await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'listener-lost' });
    expect((await both(`Bearer ${key}`).rest()).status).toBe(200);
    const killed = await env.database.sql.query<{ ok: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "fleetops_api_keys"'`,
    );
    expect(killed.length).toBeGreaterThan(0);
    // revoked without a notification, while nobody listened: only forgetting the cache makes this 401
    await revokeLikeAnotherProcess(key, false);
    expect(await until401(key)).toBe(401);
    // and the listener comes back: a later notified revocation is heard again
    await new Promise((r) => setTimeout(r, 600));
    const second = await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'after-reconnect' });
    expect((await both(`Bearer ${second.key}`).rest()).status).toBe(200);
    expect((await both(`Bearer ${second.key}`).rest()).status).toBe(200);
    await revokeLikeAnotherProcess(second.key, true);
    expect(await until401(second.key)).toBe(401);
  });
});

describe('readJsonBody: 415, 413, 400 at the HTTP layer', () => {
  const LIMIT = 1024;
  const enc = (s: string) => new TextEncoder().encode(s);
  const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
    new Request('http://fleetops.test/api/v1/anything', { method: 'POST', headers, body });

  /** Runs readJsonBody; returns the AppError it throws and checks its problem+json form. */
  async function rejection(req: Request, status: number, code: string) {
    const err = await readJsonBody(req, LIMIT).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, 'readJsonBody should have thrown').toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.status).toBe(status);
    expect(e.code).toBe(code);
    await expectProblem(problemResponse(e), status, code);
    return e;
  }

  it('parses application/json (control), with charset and +json media types too', async () => {
    expect(await readJsonBody(post('{"a":1}', { 'content-type': 'application/json' }), LIMIT)).toEqual({ a: 1 });
    expect(await readJsonBody(post('{"a":[1,2]}', { 'content-type': 'application/json; charset=utf-8' }), LIMIT)).toEqual({
      a: [1, 2],
    });
    expect(await readJsonBody(post('{"b":true}', { 'content-type': 'application/merge-patch+json' }), LIMIT)).toEqual({
      b: true,
    });
  });

  it('415 for text/plain', async () => {
    await rejection(post('{"a":1}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });

  it('415 for a missing Content-Type', async () => {
    const req = post(enc('{"a":1}'));
    expect(req.headers.get('content-type')).toBeNull();
    await rejection(req, 415, 'unsupported_media_type');
  });

  it('415 for a form body', async () => {
    await rejection(post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
  });

  it('413 when Content-Length declares more than the limit', async () => {
    const req = post('{"a":1}', { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) });
    await rejection(req, 413, 'payload_too_large');
  });

  it('413 when the bytes actually sent exceed the limit (no Content-Length)', async () => {
    const json = JSON.stringify({ pad: 'x'.repeat(LIMIT) });
    const req = post(enc(json), { 'content-type': 'application/json' });
    expect(req.headers.get('content-length')).toBeNull();
    await rejection(req, 413, 'payload_too_large');
  });

  it('413 when the body is streamed past the limit in chunks, even under a smaller declared length', async () => {
    const chunk = enc(' '.repeat(400));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 5) return c.close();
        sent++;
        c.enqueue(chunk);
      },
    });
    const req = new Request('http://fleetops.test/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '10' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await rejection(req, 413, 'payload_too_large');
  });

  it('a body of exactly the limit is accepted (boundary)', async () => {
    const inner = 'x'.repeat(LIMIT - '{"p":""}'.length);
    const json = `{"p":"${inner}"}`;
    expect(enc(json).byteLength).toBe(LIMIT);
    expect(await readJsonBody(post(enc(json), { 'content-type': 'application/json' }), LIMIT)).toEqual({ p: inner });
  });

  it('the limit counts bytes, not characters', async () => {
    const json = JSON.stringify({ p: '\u00e9'.repeat(LIMIT / 2) }); // 2 bytes each: over the limit in bytes
    expect(json.length).toBeLessThan(LIMIT + 10);
    await rejection(post(enc(json), { 'content-type': 'application/json' }), 413, 'payload_too_large');
  });

  it('400 for malformed JSON', async () => {
    await rejection(post('{"a":', { 'content-type': 'application/json' }), 400, 'bad_request');
    await rejection(post("{'a': 1}", { 'content-type': 'application/json' }), 400, 'bad_request');
  });

  it('400 for an empty body', async () => {
    await rejection(post('', { 'content-type': 'application/json' }), 400, 'bad_request');
    await rejection(post(null, { 'content-type': 'application/json' }), 400, 'bad_request');
    await rejection(post('   \n', { 'content-type': 'application/json' }), 400, 'bad_request');
  });
});

describe('413 on /graphql', () => {
  it('Content-Length over 1 MiB is 413 problem+json', async () => {
    const res = await env.request('POST', '/graphql', {
      body: GQL_BODY,
      headers: { 'content-length': String(MiB + 1) },
    });
    await expectProblem(res, 413, 'payload_too_large');
  });

  it('a body whose actual bytes exceed 1 MiB (no Content-Length, as with chunked encoding) is 413', async () => {
    const big = JSON.stringify({ query: '{ aircraftList { count } }', variables: { pad: 'x'.repeat(MiB) } });
    const res = await env.app.fetch(
      new Request('http://fleetops.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json' },
        body: new TextEncoder().encode(big),
      }),
    );
    await expectProblem(res, 413, 'payload_too_large');
  });

  it('a normal-size GraphQL request still works (control)', async () => {
    const res = await env.request('POST', '/graphql', { body: GQL_BODY });
    expect(res.status).toBe(200);
  });
});

describe('429 rate limit (per API key)', () => {
  let limited: TestEnv;
  beforeAll(async () => {
    limited = await createTestEnv({ rateLimitPerMinute: 3 });
  });
  afterAll(() => limited?.close());

  it('the 4th request with one key is 429 with Retry-After and RateLimit headers; the other key still gets 200', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await limited.request('GET', '/api/v1/aircraft');
      expect(res.status, `request ${i + 1}`).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toMatch(/\b3\b/);
      expect(res.headers.get('ratelimit')).toBeTruthy();
      await res.arrayBuffer();
    }
    const res = await limited.request('GET', '/api/v1/aircraft');
    const body = await expectProblem(res, 429, 'rate_limited');
    expect(body.detail).toBeTruthy();
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const policy = res.headers.get('ratelimit-policy') ?? '';
    expect(policy).toMatch(/\b3\b/);
    expect(policy).toMatch(/w=60\b/);
    expect(res.headers.get('ratelimit')).toMatch(/(remaining=0|\br=0)\b/);

    // limits are per key: company B's key is untouched
    const other = await limited.request('GET', '/api/v1/aircraft', { key: limited.b.key });
    expect(other.status).toBe(200);
    expect((await other.json()).data.every((a: any) => a.companyId === limited.b.id)).toBe(true);

    // the exhausted key is limited on GraphQL too (same key, same budget)
    const gql = await limited.request('POST', '/graphql', { body: GQL_BODY });
    await expectProblem(gql, 429, 'rate_limited');
    expect(gql.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('an operation refused by its own charge (10 mutations on a budget of 3) answers 429 with Retry-After and remaining=0 on GraphQL', async () => {
    const { key } = await new ApiKeyService(limited.database.prisma).create({ companyId: limited.a.id, name: 'charged' });
    const mutation = `mutation { ${Array.from({ length: 10 }, (_, i) => `d${i}: deleteFlightLog(id: "nope-${i}") { uid }`).join(' ')} }`;
    const res = await limited.request('POST', '/graphql', { key, body: { query: mutation } });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get('ratelimit')).toMatch(/remaining=0\b/);
    expect((await res.json()).errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('with limiting on, an unknown key is still 401 (authentication comes first)', async () => {
    const res = await limited.request('GET', '/api/v1/aircraft', { key: 'fo_test_nope_nope_nope_nope_nope' });
    await expect401(res);
  });
});

describe('CORS for browser front ends', () => {
  it('answers a preflight without a key, and marks answers readable cross-origin', async () => {
    const pre = await env.request('OPTIONS', '/graphql', {
      key: null,
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    // an MCP client in a browser sends its protocol version on every call after initialize (the preflight refused it)
    const mcp = await env.request('OPTIONS', '/mcp', {
      key: null,
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' },
    });
    expect(mcp.status).toBe(204);
    expect(mcp.headers.get('access-control-allow-headers')?.split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version']));
    const res = await env.request('GET', '/api/v1/aircraft', { headers: { origin: 'https://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const denied = await env.request('GET', '/api/v1/aircraft', { key: null, headers: { origin: 'https://app.example' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });
});
