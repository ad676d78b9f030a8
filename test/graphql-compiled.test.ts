// GraphQL over HTTP runs a client's repeated query compiled by graphql-jit (src/graphql/compiled-queries.ts,
// `useCompiledQueries`, decision 0013). A client must not be able to tell: the same status, the same body (data,
// errors, their messages, codes and paths), no more SQL statements, and a cancelled request still ends as one.
// Two apps on the same data: one that never compiles, one that compiles every query from its first run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { useCompiledQueries } from '../src/graphql/compiled-queries.js';
import { maskError } from '../src/graphql/errors.js';
import { createTestEnv, flightLogBody, flightLogBody2, uniq, type TestEnv } from './helpers.js';

let env: TestEnv;
let compiledApp: App;
let statements = 0;
let onStatement: ((sql: string) => void) | undefined;
let formId: string;
let readKey: string;

beforeAll(async () => {
  // the statements a query's fields make: authentication's are left out (a key's lookup, its lastUsedAt write, its
  // user's roles), which each app repeats when its cache lapses (a minute; on a shared PostgreSQL, another suite's
  // key change)
  const authentication = /"ApiKey"|^\s*select\s+"public"\."User"\."companyId",\s*"public"\."User"\."uid",\s*"public"\."User"\."roles"\s+from/i;
  env = await createTestEnv({ graphqlCompileAfter: Infinity, onQuery: (q) => void (onStatement?.(q), authentication.test(q) || statements++) });
  compiledApp = createApp({
    database: env.database,
    config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' },
    dispatch: false,
    graphqlCompileAfter: 1,
  });
  await compiledApp.ready;
  const logs = Array.from({ length: 6 }, (_, i) =>
    (i % 2 ? flightLogBody2 : flightLogBody)({ timeDate: `2026-03-0${i + 1}T09:30:00Z`, copilot: i % 3 ? 'acme-owner' : undefined, notes: i === 2 ? 'gusty' : undefined }),
  );
  expect((await env.rest.post('/flight-logs/batch', { items: logs })).status).toBe(200);
  const form = await env.rest.post('/forms', {
    name: 'Walk-around', code: `walk-${uniq()}`, department: 'Ops',
    sections: [{ name: 'S', fields: [{ name: 'vehicle', label: 'V', type: 'vehicle', required: true }, { name: 'd', label: 'Defects', type: 'defect', assetField: 'vehicle' }] }],
  });
  formId = form.body.uid;
  for (let i = 0; i < 3; i++) {
    const r = await env.rest.post('/form-completions', { formId, answers: { vehicle: 'acme-v-1', d: { description: `scratch ${i}` } } });
    expect(r.status).toBe(201);
  }
  readKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'reader', scope: 'read' })).key;
  // each app authenticates a key once (its user's roles) and then knows it: not a statement of the queries compared
  for (const app of [env.app, compiledApp]) for (const key of [env.a.key, readKey]) expect((await post(app, '{ __typename }', undefined, key)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await compiledApp?.close();
  await env?.close();
});

const post = (app: App, query: string, variables?: unknown, key = env.a.key, signal?: AbortSignal) =>
  app.fetch(new Request('http://fleetops.test/graphql', {
    method: 'POST',
    signal,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  }));

/** Status and body of the query on each app; the compiled app runs it three times (the first compiles it). */
async function both(query: string, variables?: unknown, key?: string) {
  const read = async (r: Response) => ({ status: r.status, body: await r.json() });
  statements = 0;
  const interpreted = await read(await post(env.app, query, variables, key));
  const interpretedStatements = statements;
  const runs = [];
  for (let i = 0; i < 3; i++) {
    statements = 0;
    runs.push({ ...(await read(await post(compiledApp, query, variables, key))), statements });
  }
  for (const run of runs) {
    expect({ status: run.status, body: run.body }).toEqual(interpreted);
    // no statement more (a relation loaded row by row would show here); one fewer happens on PostgreSQL, where two
    // pages' loaders may fall in one tick of the compiled run and in two of the interpreted one
    expect(run.statements).toBeLessThanOrEqual(interpretedStatements);
  }
  return interpreted;
}

describe('a compiled query answers as the interpreted one', () => {
  it('a page of logs with their aircraft, pilot and co-pilot, and the next page by its cursor', async () => {
    const page = `query($n: Int, $c: String) { flightLogs(limit: $n, cursor: $c) { count nextCursor data {
      uid timeDate pilot copilot pax notes trackingItems createdAt
      aircraft { uid registration totals maintenanceTrackingItems initialValues createdAt }
      pilotUser { displayName roles } copilotUser { uid email } } } }`;
    const first = await both(page, { n: 4 });
    expect(first.body.data.flightLogs.count).toBe(4);
    expect(first.body.data.flightLogs.data[0].aircraft.registration).toMatch(/^VH-AC/);
    const next = await both(page, { n: 4, c: first.body.data.flightLogs.nextCursor });
    expect(next.body.data.flightLogs.count).toBe(2);
  });

  it('fragments, aliases, @include and @skip', async () => {
    const r = await both(
      `query($withAircraft: Boolean!, $noPilot: Boolean!) {
        recent: flightLogs(limit: 2) { data { ...Log } }
        older: flightLogs(limit: 2, endDate: "2026-03-02") { data { ...Log } }
        aircraftList { data { reg: registration ... on Aircraft { status } } }
      }
      fragment Log on FlightLog { id: uid aircraft @include(if: $withAircraft) { registration } pilotUser @skip(if: $noPilot) { displayName } }`,
      { withAircraft: true, noPilot: true },
    );
    expect(r.body.data.recent.data[0]).toEqual({ id: expect.any(String), aircraft: { registration: expect.stringMatching(/^VH-/) } });
    expect(r.body.data.older.data).toHaveLength(2);
  });

  it('completions with their form and user, schedule items, vehicles, components, users, an aggregation', async () => {
    const r = await both(
      `query($id: ID!, $f: String) {
        form(id: $id) { uid code name sections status }
        formCompletions(formId: $f) { count data { uid data form { code } user { uid } scheduleItems { name relatedTo } sideEffects { warnings } } }
        vehicles { count data { uid registration } }
        components { count data { uid } }
        users(limit: 2) { count nextCursor data { uid displayName status } }
        aggregate(input: { collection: "flightLogs", metric: "__count__", groupBy: "aircraftId", dateField: "timeDate", dateGroup: "day", timezone: "Australia/Sydney" }) {
          totalCount totals results { group period value count } }
      }`,
      { id: formId, f: formId },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.formCompletions.count).toBe(3);
    expect(r.body.data.formCompletions.data[0].form.code).toMatch(/^walk-/);
    expect(r.body.data.aggregate.totalCount).toBe(6);
  });

  it('the same errors: not found, a refused argument, a variable of the wrong type, a missing variable, a key without the scope', async () => {
    const missing = await both('{ aircraft(id: "no-such-aircraft") { uid } }');
    expect(missing.body.errors[0]).toMatchObject({ path: ['aircraft'], extensions: { code: 'NOT_FOUND' } });
    const tooMany = await both('{ flightLogs(limit: 5000) { count } }');
    expect(tooMany.body.errors?.length).toBeGreaterThan(0);
    const wrongType = await both('query($n: Int) { flightLogs(limit: $n) { count } }', { n: 'ten' });
    expect(wrongType.body.errors[0].message).toMatch(/\$n/);
    const absent = await both('query($id: ID!) { aircraft(id: $id) { uid } }', {});
    expect(absent.body.errors[0].message).toMatch(/\$id/);
    // refused for the operation before it runs (the key's scope): an error and no data, as any refusal of the policy
    const scope = await both('{ apiKeys { count } }', undefined, readKey);
    expect(scope.status).toBe(403);
    expect(scope.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    expect(scope.body.data).toBeUndefined();
  });
});

describe('a field that breaks its own type', () => {
  it('is a bug, masked as the interpreter masks it: a non-null field resolving null, a value its scalar cannot serialise', async () => {
    const schema = createSchema({
      typeDefs: 'type Query { broken: Int! half: Int list: [Int!] }',
      resolvers: { Query: { broken: () => null, half: () => 1.5, list: () => [1, null] } },
    });
    const yoga = (plugins: Plugin[]) => createYoga({ schema, plugins, maskedErrors: { maskError }, logging: false });
    const [interpreter, compiler] = [yoga([]), yoga([useCompiledQueries(schema, 1)])];
    for (const query of ['{ broken }', '{ half }', '{ list }']) {
      const ask = async (y: typeof interpreter) =>
        (await y.fetch('http://fleetops.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json();
      const [interpreted, compiled] = [await ask(interpreter), await ask(compiler)];
      expect(compiled, query).toEqual(interpreted);
      expect(interpreted.errors[0]).toMatchObject({ message: expect.stringMatching(/^Internal server error/), extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    }
  });
});

describe('what stays on the interpreter', () => {
  it('a mutation runs as before, once per request', async () => {
    const create = 'mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid } }';
    const body = { ...flightLogBody({ timeDate: '2026-04-01T10:00:00Z' }) };
    const r = await post(compiledApp, create, { i: body });
    expect(r.status).toBe(200);
    const uid = (await r.json()).data.createFlightLog.uid;
    expect((await env.rest.get(`/flight-logs/${uid}`)).status).toBe(200);
  });
});

describe('a client that goes away', () => {
  it('a query cancelled before it runs runs no field, compiled or not, and ends 499', async () => {
    const query = '{ aircraftList { count } users { count } }';
    expect((await post(compiledApp, query)).status).toBe(200); // compiled now
    for (const app of [env.app, compiledApp]) {
      const ac = new AbortController();
      statements = 0;
      const pending = post(app, query, undefined, env.a.key, ac.signal);
      ac.abort();
      expect((await pending).status).toBe(499);
      expect(statements).toBe(0);
    }
  });

  it('a query whose client goes away while it runs stops between fields: the logs are read, their aircraft are not', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    onStatement = (q) => {
      seen.push(q);
      if (/from\s+"?(public"?\.)?"?FlightLog(?!\w)/i.test(q)) ac.abort();
    };
    try {
      const res = await post(env.app, '{ flightLogs(limit: 2) { data { uid aircraft { registration } } } }', undefined, env.a.key, ac.signal);
      expect(res.status).toBe(499);
    } finally {
      onStatement = undefined;
    }
    expect(seen.some((q) => /"FlightLog"/.test(q))).toBe(true);
    expect(seen.some((q) => /"Aircraft"/.test(q))).toBe(false);
  });

  it('a mutation whose client goes away runs to its end', async () => {
    const ac = new AbortController();
    let aborted = false;
    onStatement = (q) => {
      if (!aborted && /insert\s+into\s+"?(public"?\.)?"?FlightLog/i.test(q)) (aborted = true), ac.abort();
    };
    const body = flightLogBody({ timeDate: '2026-04-02T10:00:00Z', notes: 'left early' });
    try {
      await post(env.app, 'mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid } }', { i: body }, env.a.key, ac.signal);
    } finally {
      onStatement = undefined;
    }
    expect(aborted).toBe(true);
    // the client is answered when it goes (499); the write goes on, and lands
    const written = async () => (await env.rest.get('/flight-logs?startDate=2026-04-02&endDate=2026-04-02')).body.data.map((l: { notes: string }) => l.notes);
    await expect.poll(written, { timeout: 10_000 }).toEqual(['left early']);
  });
});

describe('what graphql-jit would answer differently stays on the interpreter', () => {
  it('@skip and @include on fragment spreads and inline fragments, in one operation and across two', async () => {
    const doc = `
      fragment L on FlightLog { uid notes pax }
      query One($on: Boolean!) { recent: flightLogs(limit: 2) { data { ...L @include(if: $on) } } all: flightLogs(limit: 2) { data { ...L } } }
      query Inline($on: Boolean!) { flightLogs(limit: 2) { data { ... @include(if: $on) { ...L } ...L @skip(if: $on) } } }
      query Plain { flightLogs(limit: 2) { data { ...L } } }`;
    const run = async (app: App, operationName: string, variables?: unknown) => {
      const r = await app.fetch(new Request('http://fleetops.test/graphql', {
        method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: doc, operationName, variables }),
      }));
      return r.json();
    };
    for (let i = 0; i < 3; i++) {
      for (const [op, vars] of [['One', { on: false }], ['Inline', { on: false }], ['Inline', { on: true }], ['Plain', undefined]] as const) {
        const [expected, got] = [await run(env.app, op, vars), await run(compiledApp, op, vars)];
        expect(got, `${op} ${JSON.stringify(vars)}`).toEqual(expected);
      }
    }
    const plain = await run(compiledApp, 'Plain');
    expect(Object.keys(plain.data.flightLogs.data[0])).toEqual(['uid', 'notes', 'pax']);
  });

  it('a field answered as __proto__', async () => {
    const r = await both('{ aircraftList { data { __proto__: registration uid } } }');
    expect(Object.keys(r.body.data.aircraftList.data[0])).toEqual(['__proto__', 'uid']);
  });
});
