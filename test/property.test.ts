// Property-based attack run (fast-check): generated malformed and boundary requests against every REST route of
// the registry (so new routes are covered without editing this file) and every GraphQL mutation. For each: no 5xx,
// every 4xx is problem+json (GraphQL: no internal error), and a refused request changed nothing in the database.
// CI runs a fixed seed and a bounded count; `PROPERTY_RUNS=5000 npm run test:property` runs more.
import fc from 'fast-check';
import { getNamedType, isNonNullType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.js';
import { restRoutes } from '../src/rest/routes.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';
import { companySnapshot } from './snapshot.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 40); // per route
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);
let env: TestEnv;
/** A digest of everything the company's tables hold (test/snapshot.ts): equal digests mean nothing changed. */
let snapshot: () => Promise<string>;
beforeAll(async () => {
  env = await createTestEnv();
  snapshot = await companySnapshot(env.database, env.a.id);
});
afterAll(async () => {
  await env?.close();
});

const nasty = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '%00', '..', '../..', '💥', 'x'.repeat(5000), '{}', '[]', 'null', '-1', '1e309', 'NaN', '2024-13-45', '9999-12-31T23:59:59Z', '<script>', "'; DROP TABLE x; --"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const number = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 1e308, Number.MIN_VALUE, 1e-7, 0.1 + 0.2),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const leaf = fc.oneof(nasty, number, fc.boolean(), fc.constant(null));
const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
const json = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: leaf },
  { weight: 1, arbitrary: fc.constant(deep(80)) },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 60 }) },
);
/** A plausible body with one field broken: reaches the service's own checks rather than the JSON parser. */
const corrupted = (base: Record<string, unknown>) =>
  fc.tuple(fc.constantFrom(...Object.keys(base), 'uid', 'companyId', 'extra\u0000', '__proto__'), fc.oneof(leaf, json)).map(([k, v]) => ({ ...base, [k]: v }));

const BASES: Record<string, Record<string, unknown>> = {
  createFlightLog: flightLogBody(),
  createVehicle: { make: 'Ford', model: 'Ranger', registration: 'P-1' },
  createForm: { name: 'F', code: 'prop', department: 'D', sections: [{ name: 'S', fields: [{ name: 'a', label: 'A', type: 'number' }] }] },
  createScheduleItem: { name: 'I', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2030-01-01' },
  aggregate: { collection: 'flightLogs', metric: 'hobbs' },
};

function bodyFor(operationId: string) {
  const base = BASES[operationId];
  return base ? fc.oneof(corrupted(base), json) : json;
}

async function expectSafe(res: Response, what: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${what} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) expect(res.headers.get('content-type') ?? '', `${what}: ${text.slice(0, 200)}`).toMatch(/application\/problem\+json/);
  // a body is the service's to refuse (docs/decisions/0005): GraphQL's own coercion never answers a REST call
  expect(text, `${what}: ${text.slice(0, 300)}`).not.toMatch(/Variable \\?"\$|cannot represent/);
}

describe('REST routes under generated malformed requests', () => {
  for (const route of restRoutes) {
    it(`${route.method} ${route.path}`, async () => {
      const params = Object.keys(route.params?.shape ?? {});
      const query = Object.keys(route.query?.shape ?? {});
      const arb = fc.record({
        params: fc.tuple(...params.map(() => fc.oneof(fc.constantFrom('acme-ac-1', 'acme-v-1', 'globex-ac-1'), nasty))),
        query: fc.dictionary(fc.constantFrom(...(query.length ? query : ['x'])), nasty, { maxKeys: 3 }),
        body: route.body ? bodyFor(route.operationId) : fc.constant(undefined),
        raw: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      });
      let before = await snapshot();
      await fc.assert(
        fc.asyncProperty(arb, async ({ params: values, query: q, body, raw }) => {
          let path = route.path;
          params.forEach((p, i) => (path = path.replace(`{${p}}`, encodeURIComponent(values[i] as string))));
          const search = new URLSearchParams(q as Record<string, string>).toString();
          const init: { body?: unknown; headers?: Record<string, string> } = {};
          if (body !== undefined) init.body = raw ? '{"broken": ' : body;
          const res = await env.request(route.method, `/api/v1${path}${search ? `?${search}` : ''}`, init);
          await expectSafe(res, `${route.method} ${path}`);
          const after = await snapshot();
          if (res.status >= 400) expect(after, `${route.method} ${path} answered ${res.status} but changed data`).toBe(before);
          before = after;
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }, 180_000);
  }
});

describe('GraphQL mutations under generated arguments', () => {
  const fields = Object.values(schema.getMutationType()!.getFields());
  for (const field of fields) {
    it(`mutation ${field.name}`, async () => {
      const args = field.args;
      const vars = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const leafType = getNamedType(field.type);
      const selection = 'getFields' in leafType ? '{ __typename }' : '';
      const query = `mutation${vars ? `(${vars})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selection} }`;
      const arb = fc.tuple(...args.map((a) => (isNonNullType(a.type) ? json : fc.option(json)))) as fc.Arbitrary<unknown[]>;
      let before = await snapshot();
      await fc.assert(
        fc.asyncProperty(arb, async (values) => {
          const variables = Object.fromEntries(args.map((a, i) => [a.name, values[i]]));
          const res = await env.request('POST', '/graphql', { body: { query, variables } });
          const text = await res.text();
          expect(res.status, `${field.name} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.headers.get('content-type')?.includes('json') && text) {
            const body = JSON.parse(text);
            for (const e of body.errors ?? []) expect(e.extensions?.code, `${field.name}: ${e.message}`).not.toBe('INTERNAL_SERVER_ERROR');
            const after = await snapshot();
            if (body.errors?.length) expect(after, `${field.name} failed but changed data`).toBe(before);
            before = after;
          }
        }),
        { seed: SEED, numRuns: Math.max(10, Math.round(RUNS / 2)) },
      );
    }, 180_000);
  }
});
