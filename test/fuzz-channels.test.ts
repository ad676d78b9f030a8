// The in-repo fuzz over every channel and content type (issue 21): generated operations sent to GraphQL in every
// content type Yoga knows, to every REST write route and to every MCP tool and resource, with a read key and a
// read_write key. Whatever the path: no 5xx (nor a JSON-RPC internal error), no write by a read key, and nothing
// changed by a refused request. CI runs a fixed seed; FUZZ_RUNS raises the count.
import fc from 'fast-check';
import { getNamedType, isNonNullType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { schema } from '../src/graphql/schema.js';
import { isReadRoute } from '../src/rest/contract.js';
import { restRoutes } from '../src/rest/routes.js';
import { createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';
import { companySnapshot } from './snapshot.js';
import { loadDemo } from '../src/modules/companies/demo.js';
import { examples } from '../src/rest/examples.js';
import { routeOperation } from '../src/rest/operations.js';
import { print } from 'graphql';

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

let env: TestEnv;
let readKey: string;
let snapshot: () => Promise<string>;
beforeAll(async () => {
  env = await createTestEnv({ rateLimitPerMinute: 0 });
  readKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'fuzz-reader', scope: 'read' })).key;
  snapshot = await companySnapshot(env.database, env.a.id);
});
afterAll(async () => {
  await env?.close();
});

const leaf = fc.oneof(
  fc.constantFrom('', '\u0000', 'acme-ac-1', 'acme-v-1', 'x'.repeat(3000), '2026-03-01T09:30:00Z', -1, 0, 1.5, 1e25, true, null),
  fc.string({ maxLength: 20 }),
  fc.integer(),
);
const json = fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 2, arbitrary: leaf });
/** Plausible inputs, one field broken, so the fuzz reaches the services and not only the parsers. */
const plausible = fc.oneof(
  fc.constant(flightLogBody({ hobbs: 1 })),
  fc.tuple(fc.constantFrom('pilot', 'hobbs', 'aircraftId', 'uid', 'pax'), leaf).map(([k, v]) => ({ ...flightLogBody(), [k]: v })),
  fc.constant({ make: 'Ford', model: 'Ranger', registration: 'FZ-1' }),
  json,
);

const mutations = Object.values(schema.getMutationType()!.getFields());
const mutationDocument = (name: string) => {
  const field = mutations.find((f) => f.name === name)!;
  const vars = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = 'getFields' in getNamedType(field.type) ? '{ __typename }' : '';
  return { query: `mutation${vars ? `(${vars})` : ''} { ${name}${call ? `(${call})` : ''} ${selection} }`, args: field.args };
};
const variablesFor = (args: ReturnType<typeof mutationDocument>['args']) =>
  fc.tuple(...args.map((a) => (isNonNullType(a.type) ? plausible : fc.option(plausible)))).map((values) => Object.fromEntries(args.map((a, i) => [a.name, values[i]])));

/** The same GraphQL request in each body type Yoga can read: only JSON is taken (415 for the rest). */
function encodings(query: string, variables: Record<string, unknown>): { type: string; body: BodyInit; contentType?: string }[] {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query, variables }));
  form.set('map', '{}');
  return [
    { type: 'application/json', contentType: 'application/json', body: JSON.stringify({ query, variables }) },
    { type: 'application/graphql', contentType: 'application/graphql', body: query },
    { type: 'application/x-www-form-urlencoded', contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams({ query, variables: JSON.stringify(variables) }).toString() },
    { type: 'multipart/form-data', body: form },
    { type: 'text/plain', contentType: 'text/plain', body: JSON.stringify({ query, variables }) },
  ];
}

async function send(path: string, key: string, body: BodyInit, contentType?: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...extra };
  if (contentType) headers['content-type'] = contentType;
  const res = await env.app.fetch(new Request(`http://fleetops.test${path}`, { method: 'POST', headers, body }));
  return { res, text: await res.text() };
}

describe('GraphQL in every content type, with a read key and a read_write key', () => {
  for (const field of mutations) {
    it(`mutation ${field.name}`, async () => {
      const { query, args } = mutationDocument(field.name);
      let before = await snapshot();
      await fc.assert(
        fc.asyncProperty(variablesFor(args), fc.boolean(), async (variables, asReader) => {
          const key = asReader ? readKey : env.a.key;
          for (const e of encodings(query, variables)) {
            const { res, text } = await send('/graphql', key, e.body, e.contentType);
            const what = `${field.name} as ${asReader ? 'read' : 'read_write'} key in ${e.type}`;
            expect(res.status, `${what} → ${res.status} ${text.slice(0, 200)}`).toBeLessThan(500);
            const after = await snapshot();
            if (e.type !== 'application/json') expect(res.status, what).toBe(415);
            if (e.type !== 'application/json' || asReader || res.status >= 400) expect(after, `${what} changed data`).toBe(before);
            if (e.type === 'application/json' && text.startsWith('{')) {
              const body = JSON.parse(text);
              for (const err of body.errors ?? []) expect(err.extensions?.code, `${what}: ${err.message}`).not.toBe('INTERNAL_SERVER_ERROR');
              if (body.errors?.length) expect(after, `${what} failed but changed data`).toBe(before);
            }
            before = after;
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }, 180_000);
  }
});

describe('a read key\u2019s valid writes, on every channel', () => {
  // the documented examples are real writes against the demo company (test/openapi-examples.test.ts sends them):
  // a read key sending each one over REST, GraphQL and MCP is refused, and the company's data stays as it was
  it('every documented write is refused (403, a tool error) and changes nothing', async () => {
    const { companyId, key } = await loadDemo(env.database, `demo-${uniq()}`);
    const reader = (await new ApiKeyService(env.database.prisma).create({ companyId, name: 'reader', scope: 'read' })).key;
    const demoSnapshot = await companySnapshot(env.database, companyId);
    const before = await demoSnapshot();
    let tried = 0;
    for (const route of restRoutes.filter((r) => !isReadRoute(r))) {
      const ex = examples[route.operationId];
      if (!ex) continue;
      tried++;
      let path = route.path;
      for (const [k, v] of Object.entries(ex.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
      const rest = await env.request(route.method, `/api/v1${path}`, { key: reader, ...(ex.body !== undefined ? { body: ex.body } : {}) });
      expect(rest.status, `REST ${route.operationId}`).toBe(403);
      const body = ex.body !== undefined && route.accept ? route.accept(ex.body) : ex.body;
      const variables = { ...(ex.params ?? {}), ...(route.bodyArg ? { [route.bodyArg]: body } : (body as object | undefined)) };
      const gql = await env.request('POST', '/graphql', { key: reader, body: { query: print(routeOperation(schema, route)), variables } });
      expect(gql.status, `GraphQL ${route.operationId}: ${await gql.clone().text()}`).toBe(403);
      const mcp = await send('/mcp', reader, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: route.operationId, arguments: { ...(ex.params ?? {}), ...(ex.body !== undefined ? { body: ex.body } : {}) } } }), 'application/json', { accept: 'application/json, text/event-stream' });
      expect(JSON.parse(mcp.text).result?.isError ?? JSON.parse(mcp.text).error, `MCP ${route.operationId}`).toBeTruthy();
      expect(await demoSnapshot(), `${route.operationId} by a read key changed data`).toBe(before);
    }
    expect(tried).toBeGreaterThan(15);
    // and the same examples are writes a read_write key may make: the first one changes the company's data
    const first = restRoutes.find((r) => r.operationId === 'createFlightLog')!;
    expect((await env.request('POST', `/api/v1${first.path}`, { key, body: examples.createFlightLog.body })).status).toBe(201);
    expect(await demoSnapshot()).not.toBe(before);
  }, 180_000);
});

describe('REST writes with a read key', () => {
  for (const route of restRoutes.filter((r) => !isReadRoute(r))) {
    it(`${route.method} ${route.path} is a 403 that changes nothing`, async () => {
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(route.body ? plausible : fc.constant(undefined), async (body) => {
          const path = route.path.replace(/\{\w+\}/g, 'acme-v-1');
          const res = await env.request(route.method, `/api/v1${path}`, { key: readKey, ...(body !== undefined ? { body } : {}) });
          const text = await res.text();
          expect(res.status, `${route.operationId}: ${text.slice(0, 200)}`).toBeLessThan(500);
          expect(res.status, `${route.operationId}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(await snapshot()).toBe(before);
        }),
        { seed: SEED, numRuns: Math.max(2, Math.round(RUNS / 2)) },
      );
    }, 180_000);
  }
});

describe('MCP tools and resources, with a read key and a read_write key', () => {
  const rpc = async (key: string, method: string, params: unknown) => {
    const { res, text } = await send('/mcp', key, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), 'application/json', { accept: 'application/json, text/event-stream' });
    return { res, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
  };

  it('every tool, with generated arguments: no internal error, no write by a read key, nothing changed by a refusal', async () => {
    const tools: { name: string; annotations: { readOnlyHint: boolean } }[] = (await rpc(env.a.key, 'tools/list', {})).body.result.tools;
    expect(tools.length).toBeGreaterThan(10);
    let before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tools.map((t) => t.name)),
        fc.dictionary(fc.constantFrom('id', 'body', 'limit', 'cursor', 'relatedTo', 'x'), plausible, { maxKeys: 3 }),
        fc.boolean(),
        async (name, args, asReader) => {
          const r = await rpc(asReader ? readKey : env.a.key, 'tools/call', { name, arguments: args });
          const what = `${name} as ${asReader ? 'read' : 'read_write'} key`;
          expect(r.res.status, `${what}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
          expect(r.body?.error?.code, `${what}: ${r.text.slice(0, 200)}`).not.toBe(-32603);
          // an unexpected error is a tool error with REST's 500 problem (src/mcp/server.ts)
          expect(r.text, `${what}: ${r.text.slice(0, 200)}`).not.toContain('internal_error');
          expect(r.text, what).not.toMatch(/Prisma|P20\d\d|SQLSTATE|at Object\./);
          const after = await snapshot();
          const refused = r.body?.error || r.body?.result?.isError;
          if (asReader || refused) expect(after, `${what} changed data`).toBe(before);
          before = after;
        },
      ),
      { seed: SEED, numRuns: RUNS * 6 },
    );
  }, 180_000);

  it('resources: bad URIs are JSON-RPC errors in the specification\u2019s codes, with no internals', async () => {
    const uris = ['fleetops://aircraft/acme-ac-1', 'fleetops://aircraft/nope', 'fleetops://aircraft/%00', 'fleetops://aircraft/a\u0000b', 'fleetops://aircraft/%E0%A4%A', 'fleetops://nothing', 'x'.repeat(5000), 'fleetops://forms/field-schema', 'fleetops://maintenance-status'];
    for (const key of [readKey, env.a.key]) {
      for (const uri of uris) {
        const r = await rpc(key, 'resources/read', { uri });
        expect(r.res.status, uri).toBeLessThan(500);
        expect(r.text, uri).not.toMatch(/Prisma|P20\d\d|SQLSTATE|22021|at Object\./);
        if (r.body?.error) expect([-32602, -32002], `${uri}: ${r.text.slice(0, 200)}`).toContain(r.body.error.code);
      }
    }
  });
});
