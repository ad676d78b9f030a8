// GraphQL at /graphql (docs/contract/gaps.md §8): the typed operations of test/operations return the same data as REST, with the
// same tenant rules (NOT_FOUND for other companies' records) and the same bearer key; the committed contract files
// (schema.graphql, docs/openapi.json) are the generated ones.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFiles } from '../src/contract-files.js';
import { printSchemaSDL } from '../src/graphql/schema.js';
import {
  AircraftByIdDocument,
  AircraftDetailDocument,
  AircraftListDocument,
  UserByUidDocument,
  UserDetailDocument,
  UsersDocument,
} from './generated/graphql.js';
import { createTestEnv, type TestEnv } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env?.close());

/** GraphQL answers optional fields as null; REST omits them. */
function omitNulls(o: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
}
/** REST bodies may carry createdAt/updatedAt, which the operations do not select. */
function withoutTimestamps(o: Record<string, unknown>) {
  const { createdAt: _c, updatedAt: _u, ...rest } = o;
  return rest;
}

function expectNotFound(r: { data?: unknown; errors?: any[] }, field: string) {
  expect(r.errors, 'errors').toBeDefined();
  expect(r.errors!.length).toBeGreaterThan(0);
  const e = r.errors!.find((x) => x.path?.[0] === field) ?? r.errors![0];
  expect(e.extensions?.code).toBe('NOT_FOUND');
  expect(e.path).toEqual([field]);
  expect(typeof e.message).toBe('string');
  expect((r.data as any)?.[field] ?? null).toBeNull();
}

describe('aircraft over GraphQL', () => {
  it('aircraftList returns the same aircraft as GET /api/v1/aircraft', async () => {
    const g = await env.op(AircraftListDocument);
    expect(g.status).toBe(200);
    expect(g.errors).toBeUndefined();
    const rest = await env.json('GET', '/api/v1/aircraft');
    expect(rest.status).toBe(200);
    expect(g.data!.aircraftList.count).toBe(g.data!.aircraftList.data.length);
    expect(g.data!.aircraftList.count).toBe(rest.body.count);
    expect(g.data!.aircraftList.data.map((a) => omitNulls(a))).toEqual(rest.body.data.map(withoutTimestamps));
  });

  it('aircraftList carries totals (initial values, 0 when missing) and initialValues', async () => {
    const g = await env.op(AircraftListDocument);
    const byUid = Object.fromEntries(g.data!.aircraftList.data.map((a) => [a.uid, a]));
    expect(Object.keys(byUid).sort()).toEqual(['acme-ac-1', 'acme-ac-2']);
    expect(byUid['acme-ac-1'].totals).toEqual({ hobbs: 1200.5, landings: 3000 });
    expect(byUid['acme-ac-1'].initialValues).toEqual({ hobbs: 1200.5, landings: 3000 });
    expect(byUid['acme-ac-2'].totals).toEqual({ tacho: 0 });
    expect(byUid['acme-ac-2'].initialValues).toEqual({});
    expect(byUid['acme-ac-2'].manufacturer).toBeNull();
    for (const a of g.data!.aircraftList.data) expect(a.companyId).toBe(env.a.id);
  });

  it('aircraft(id) returns the same aircraft as GET /api/v1/aircraft/{id}', async () => {
    for (const id of ['acme-ac-1', 'acme-ac-2']) {
      const g = await env.op(AircraftDetailDocument, { id });
      expect(g.errors).toBeUndefined();
      const rest = await env.json('GET', `/api/v1/aircraft/${id}`);
      expect(omitNulls(g.data!.aircraft)).toEqual(withoutTimestamps(rest.body));
    }
    const short = await env.op(AircraftByIdDocument, { id: 'acme-ac-1' });
    expect(short.data).toEqual({
      aircraft: {
        uid: 'acme-ac-1',
        registration: 'VH-ACM',
        totals: { hobbs: 1200.5, landings: 3000 },
        initialValues: { hobbs: 1200.5, landings: 3000 },
      },
    });
  });

  it('NOT_FOUND for an unknown id', async () => {
    expectNotFound(await env.op(AircraftByIdDocument, { id: 'no-such-aircraft' }), 'aircraft');
  });

  it("NOT_FOUND for the other company's aircraft, both ways", async () => {
    expectNotFound(await env.op(AircraftByIdDocument, { id: 'globex-ac-1' }), 'aircraft');
    expectNotFound(await env.op(AircraftByIdDocument, { id: 'acme-ac-1' }, env.b.key), 'aircraft');
    const own = await env.op(AircraftByIdDocument, { id: 'globex-ac-1' }, env.b.key);
    expect(own.data?.aircraft.uid).toBe('globex-ac-1');
  });

  it("company B's key lists only company B's aircraft", async () => {
    const g = await env.op(AircraftListDocument, {}, env.b.key);
    expect(g.data!.aircraftList.data.map((a) => a.uid).sort()).toEqual(['globex-ac-1', 'globex-ac-2']);
    for (const a of g.data!.aircraftList.data) expect(a.companyId).toBe(env.b.id);
  });
});

describe('users over GraphQL', () => {
  it('users returns the same users as GET /api/v1/users', async () => {
    const g = await env.op(UsersDocument, {});
    expect(g.errors).toBeUndefined();
    const rest = await env.json('GET', '/api/v1/users');
    expect(g.data!.users.count).toBe(rest.body.count);
    expect(g.data!.users.count).toBe(3);
    expect(g.data!.users.data.map((u) => omitNulls(u))).toEqual(rest.body.data);
  });

  it('users(status) and users(role) filter like ?status= and ?role=', async () => {
    const cases: [{ status?: 'Active' | 'Pending' | 'Inactive'; role?: string }, string, string[]][] = [
      [{ status: 'Pending' }, 'status=Pending', ['acme-new']],
      [{ status: 'Active' }, 'status=Active', ['acme-owner', 'acme-pilot']],
      [{ status: 'Inactive' }, 'status=Inactive', []],
      [{ role: 'pilot' }, 'role=pilot', ['acme-pilot']],
      [{ role: 'admin' }, 'role=admin', ['acme-owner']],
      [{ status: 'Pending', role: 'pilot' }, 'status=Pending&role=pilot', []],
    ];
    for (const [vars, qs, uids] of cases) {
      const g = await env.op(UsersDocument, vars);
      expect(g.errors, qs).toBeUndefined();
      expect(g.data!.users.data.map((u) => u.uid).sort(), qs).toEqual(uids);
      expect(g.data!.users.count, qs).toBe(uids.length);
      const rest = await env.json('GET', `/api/v1/users?${qs}`);
      expect(g.data!.users.data.map((u) => omitNulls(u)), qs).toEqual(rest.body.data);
    }
  });

  it('an unknown status value is an error, not an unfiltered list', async () => {
    const g = await env.op(UsersDocument, { status: 'Bogus' as never });
    expect(g.errors?.length).toBeGreaterThan(0);
    expect(g.data?.users ?? null).toBeNull();
  });

  it('user(uid) returns the same user as GET /api/v1/users/{uid}', async () => {
    for (const uid of ['acme-owner', 'acme-pilot', 'acme-new']) {
      const g = await env.op(UserDetailDocument, { uid });
      expect(g.errors).toBeUndefined();
      const rest = await env.json('GET', `/api/v1/users/${uid}`);
      expect(omitNulls(g.data!.user)).toEqual(rest.body);
    }
    const short = await env.op(UserByUidDocument, { uid: 'acme-pilot' });
    expect(short.data).toEqual({
      user: { uid: 'acme-pilot', email: 'pilot@acme.test', displayName: 'Pat Pilot', roles: ['pilot'] },
    });
  });

  it('NOT_FOUND for an unknown uid', async () => {
    expectNotFound(await env.op(UserByUidDocument, { uid: 'no-such-user' }), 'user');
  });

  it("NOT_FOUND for the other company's user, both ways", async () => {
    expectNotFound(await env.op(UserByUidDocument, { uid: 'globex-owner' }), 'user');
    expectNotFound(await env.op(UserByUidDocument, { uid: 'acme-owner' }, env.b.key), 'user');
  });
});

describe('authentication on /graphql', () => {
  it('401 without a key, with WWW-Authenticate: Bearer, and no data', async () => {
    const g = await env.op(AircraftListDocument, {}, null);
    expect(g.status).toBe(401);
    expect(g.data ?? null).toBeNull();
    const res = await env.request('POST', '/graphql', { key: null, body: { query: '{ users { count } }' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(JSON.stringify(await res.json())).not.toContain('acme-owner');
  });

  it('401 with an unknown key', async () => {
    const g = await env.op(UsersDocument, {}, 'fo_test_ffffffffffffffffffffffffffffffff');
    expect(g.status).toBe(401);
    expect(g.data ?? null).toBeNull();
  });
});

describe('request bodies on /graphql', () => {
  // the app reads the body under its limit and Yoga parses that text (src/graphql/request-body.ts): the answers are
  // those of Yoga's own JSON parser, as a client of the GraphQL-over-HTTP specification expects them
  const post = async (body: BodyInit) => {
    const res = await env.app.fetch(new Request('http://fleetops.test/graphql', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json' }, body }));
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
  };
  const refused = (message: string, extensions: Record<string, unknown> = {}) => ({
    status: 400,
    type: 'application/json; charset=utf-8',
    body: { errors: [{ message, extensions: { code: 'BAD_REQUEST', ...extensions } }] },
  });

  it('the body the app read is handed to the parser and kept out of the GraphQL context', async () => {
    const { useReadBody } = await import('../src/graphql/request-body.js');
    const serverContext: { graphqlBody?: string; fleet: string } = { graphqlBody: '{"query":"{ __typename }"}', fleet: 'ctx' };
    let parser: (() => unknown) | undefined;
    const hook = useReadBody().onRequestParse as unknown as (a: object) => void;
    hook({ request: new Request('http://fleetops.test/graphql', { method: 'POST' }), serverContext, setRequestParser: (p: () => unknown) => (parser = p) });
    expect(parser?.()).toEqual({ query: '{ __typename }' });
    expect(serverContext).toEqual({ fleet: 'ctx' }); // Yoga merges what is left into every resolver's context
  });

  it('JSON that is not an object, or not JSON at all, is a 400 naming what was received', async () => {
    // the parser's own words, whatever this Node's JSON.parse says (the body itself is not echoed)
    const syntax = (text: string) => {
      try {
        JSON.parse(text);
      } catch (e) {
        return { originalError: { name: 'SyntaxError', message: (e as Error).message } };
      }
      throw new Error(`${text} parses`);
    };
    expect(await post('{')).toEqual(refused('POST body sent invalid JSON.', syntax('{')));
    expect(await post('')).toEqual(refused('POST body sent invalid JSON.', syntax('')));
    expect(await post('null')).toEqual(refused('POST body is expected to be object but received null'));
    expect(await post('"x"')).toEqual(refused('POST body is expected to be object but received string'));
    expect(await post('1')).toEqual(refused('POST body is expected to be object but received number'));
    expect(await post('[{"query":"{ __typename }"}]')).toEqual(refused('Batching is not supported.'));
    expect(await post('{"query":1}')).toEqual(refused('Expected "query" param to be a string, but given number.'));
  });

  it('a body in UTF-8 (with or without a byte order mark, in chunks) is read whole', async () => {
    const ok = { status: 200, type: 'application/json; charset=utf-8', body: { data: { __typename: 'Query' } } };
    expect(await post('\ufeff{"query":"{ __typename }"}')).toEqual(ok);
    // a media type is case-insensitive (RFC 9110): before, Yoga's own parser answered this a bare 415
    const upper = await env.app.fetch(new Request('http://fleetops.test/graphql', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'Application/JSON; charset=UTF-8' }, body: '{"query":"{ __typename }"}' }));
    expect({ status: upper.status, type: upper.headers.get('content-type'), body: await upper.json() }).toEqual(ok);
    const bytes = new TextEncoder().encode('{"query":"{ aircraft(id: \\"acme-ac-1\\") { registration } }"}');
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
        c.close();
      },
    });
    const res = await env.app.fetch(new Request('http://fleetops.test/graphql', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json' }, body: chunked, duplex: 'half' } as RequestInit));
    expect(await res.json()).toEqual({ data: { aircraft: { registration: expect.any(String) } } });
  });
});

describe('committed contract files are current', () => {
  it('schema.graphql equals the printed schema', () => {
    const committed = fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8');
    expect(committed, 'schema.graphql is stale: regenerate it (npm run contract)').toBe(printSchemaSDL());
    expect(committed).toMatch(/\btype Query\b/);
  });

  it('docs/openapi.json equals the generated OpenAPI document', () => {
    const files = contractFiles();
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['docs/openapi.json', 'schema.graphql']));
    for (const [name, content] of Object.entries(files)) {
      const committed = fs.readFileSync(path.join(ROOT, name), 'utf8');
      expect(committed, `${name} is stale: regenerate it (npm run contract)`).toBe(content);
    }
  });

  it('the served OpenAPI document is the committed one', async () => {
    const served = await env.json('GET', '/api/v1/openapi.json', { key: null });
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')));
  });
});
