// One policy for every request (issue 21, docs/decisions/0006-policy-at-the-operation.md): key scope, the mutation
// cap and rate-limit charge (fragments included), variable depth and NUL, and Idempotency-Key are decided at the
// GraphQL operation, so they hold whatever the channel (REST, GraphQL, MCP) or the content type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';
import { expectProblem } from './assertions.js';

let env: TestEnv;
let readKey: string;
beforeAll(async () => {
  env = await createTestEnv({ rateLimitPerMinute: 100_000 });
  readKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'reader', scope: 'read' })).key;
});
afterAll(async () => {
  await env?.close();
});

const vehicleColor = async () => (await env.json('GET', '/api/v1/vehicles/acme-v-1')).body.color ?? null;
const logCount = async () => (await env.gql('{ flightLogs(limit: 500) { count } }')).body.data.flightLogs.count as number;
/** Units left in the key's rate-limit budget, as the last answer said. */
const remaining = (res: Response) => Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
const mutation = (color: string) => `mutation { updateVehicle(id: "acme-v-1", input: { color: "${color}" }) { status } }`;

async function raw(type: string | null, body: BodyInit, key = env.a.key, method = 'POST', path = '/graphql') {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (type) headers['content-type'] = type;
  return env.app.fetch(new Request(`http://fleetops.test${path}`, { method, headers, body: method === 'GET' ? undefined : body }));
}

describe('/graphql takes JSON only: every other body Yoga could read is a 415, whatever the key', () => {
  const form = () => {
    const f = new FormData();
    f.set('operations', JSON.stringify({ query: mutation('multipart') }));
    f.set('map', '{}');
    return f;
  };
  const bodies: [string, string | null, () => BodyInit][] = [
    ['application/graphql', 'application/graphql', () => mutation('graphql-body')],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', () => new URLSearchParams({ query: mutation('form') }).toString()],
    ['multipart/form-data', null, form], // fetch sets the boundary
    ['text/plain', 'text/plain', () => JSON.stringify({ query: mutation('text') })],
    ['no content type', null, () => JSON.stringify({ query: mutation('none') })],
  ];
  for (const [name, type, body] of bodies) {
    it(`${name}: 415 for a read key and for a read_write key; nothing changes`, async () => {
      const before = await vehicleColor();
      for (const key of [readKey, env.a.key]) {
        const res = await raw(type, body(), key);
        expect(res.status, name).toBe(415);
        expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      }
      expect(await vehicleColor()).toBe(before);
    });
  }

  it('a mutation in a GET is refused (405) for every key; a query in a GET runs', async () => {
    const before = await vehicleColor();
    for (const key of [readKey, env.a.key]) {
      const res = await raw(null, '', key, 'GET', `/graphql?query=${encodeURIComponent(mutation('get'))}`);
      expect(res.status).toBe(405);
    }
    expect(await vehicleColor()).toBe(before);
    const q = await raw(null, '', readKey, 'GET', `/graphql?query=${encodeURIComponent('{ aircraftList { count } }')}`);
    expect(q.status).toBe(200);
    expect((await q.json()).data.aircraftList.count).toBe(2);
  });

  it('JSON: a read key gets 403 and changes nothing; a read_write key writes', async () => {
    const before = await vehicleColor();
    const refused = await raw('application/json', JSON.stringify({ query: mutation('by-reader') }), readKey);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await vehicleColor()).toBe(before);
    const ok = await raw('application/json', JSON.stringify({ query: mutation('by-writer') }));
    expect(ok.status).toBe(200);
    expect(await vehicleColor()).toBe('by-writer');
  });
});

describe('mutations inside fragments count like any other', () => {
  const spread = (n: number, color: string) =>
    `mutation { ...M } fragment M on Mutation { ${Array.from({ length: n }, (_, i) => `m${i}: updateVehicle(id: "acme-v-1", input: { color: "${color}-${i}" }) { status }`).join(' ')} }`;

  it('more than 10 through a fragment (or an inline fragment) are refused before any runs', async () => {
    const before = await vehicleColor();
    for (const query of [spread(11, 'frag'), `mutation { ... on Mutation { ${Array.from({ length: 11 }, (_, i) => `m${i}: updateVehicle(id: "acme-v-1", input: { color: "inline-${i}" }) { status }`).join(' ')} } }`]) {
      const r = await env.gql(query);
      expect(r.body.errors![0].message).toMatch(/at most 10 mutations \(got 11\)/);
      expect(r.body.data).toBeUndefined();
    }
    expect(await vehicleColor()).toBe(before);
  });

  it('each executed mutation field is charged, fragments included; a read key runs none of them', async () => {
    const first = await env.request('POST', '/graphql', { body: { query: '{ aircraftList { count } }' } });
    const three = await env.request('POST', '/graphql', { body: { query: spread(3, 'charged') } });
    expect(three.status).toBe(200);
    expect(remaining(first) - remaining(three)).toBe(3); // one for the request, one more for each mutation past the first
    const skipped = await env.request('POST', '/graphql', {
      body: { query: 'mutation($no: Boolean!) { ...M } fragment M on Mutation { a: updateVehicle(id: "acme-v-1", input: { color: "x" }) @skip(if: $no) { status } b: updateVehicle(id: "acme-v-1", input: { color: "skip-b" }) { status } }', variables: { no: true } },
    });
    expect(remaining(three) - remaining(skipped)).toBe(1); // a skipped field does not run and is not charged
    const before = await vehicleColor();
    const r = await env.gql(spread(3, 'reader'), undefined, readKey);
    expect(r.status).toBe(403);
    expect(r.body.errors![0].extensions.code).toBe('FORBIDDEN'); // the first is refused, and nothing after it runs
    expect(await vehicleColor()).toBe(before);
  });
});

describe('variables and literals: nested at most 64 levels, no NUL, on every channel', () => {
  // JSON written by hand: JSON.stringify itself recurses and cannot write 5,000 levels
  const nested = (depth: number) => '{"x":'.repeat(depth) + '"leaf"' + '}'.repeat(depth);
  const vehicle = (registration: string, depth: number) =>
    `{"make":"Deep","model":"D","registration":"${registration}","thirdPartyUser":${nested(depth)}}`;
  const create = 'mutation($input: CreateVehicleInput!) { createVehicle(input: $input) { uid } }';
  const countVehicles = async () => (await env.json('GET', '/api/v1/vehicles')).body.count as number;

  it('a variable 100 or 5,000 levels deep is a 400 (never stored, never a 500); 60 levels are taken', async () => {
    const before = await countVehicles();
    for (const depth of [100, 5_000]) {
      const r = await env.json('POST', '/graphql', { body: `{"query":${JSON.stringify(create)},"variables":{"input":${vehicle(`DEEP-${depth}`, depth)}}}` });
      expect(r.status, String(depth)).toBe(400);
      expect(r.body.errors![0].message).toMatch(/nested more than 64 levels/);
      expectProblem(await env.json('POST', '/api/v1/vehicles', { body: vehicle(`DEEP-R-${depth}`, depth) }), 400);
      const mcp = await env.json('POST', '/mcp', {
        headers: { accept: 'application/json, text/event-stream' },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createVehicle","arguments":{"body":${vehicle(`DEEP-M-${depth}`, depth)}}}}`,
      });
      expect(mcp.body.result.isError, String(depth)).toBe(true);
      expect(mcp.body.result.content[0].text).toMatch(/nested more than 64 levels/);
    }
    expect(await countVehicles()).toBe(before);
    const ok = await env.json('POST', '/graphql', { body: `{"query":${JSON.stringify(create)},"variables":{"input":${vehicle('DEEP-60', 60)}}}` });
    expect(ok.body.errors).toBeUndefined();
  });

  it('a literal nested deeper than 64 levels is refused by validation', async () => {
    let literal = '"leaf"';
    for (let i = 0; i < 70; i++) literal = `{ x: ${literal} }`;
    const r = await env.gql(`mutation { createVehicle(input: { make: "L", model: "L", registration: "LIT-70", thirdPartyUser: ${literal} }) { uid } }`);
    expect(r.body.errors![0].message).toMatch(/nested at most 64 levels/);
  });

  it('NUL in a variable or a literal is a 400 naming where', async () => {
    const v = await env.gql(create, { input: { make: 'N\u0000', model: 'N', registration: 'NUL-1' } });
    expect(v.body.errors![0].message).toMatch(/\/make: text must not contain the NUL character/);
    const l = await env.gql('mutation { createVehicle(input: { make: "N\\u0000", model: "N", registration: "NUL-2" }) { uid } }');
    expect(l.body.errors![0].message).toMatch(/NUL/);
  });
});

describe('Idempotency-Key, at the operation: GraphQL, MCP and REST alike, bound to the key that made it', () => {
  const gqlWith = (key: string, query: string, variables: unknown, apiKey = env.a.key) =>
    env.request('POST', '/graphql', { key: apiKey, body: { query, variables }, headers: { 'idempotency-key': key } });
  const create = 'mutation($input: CreateFlightLogInput!) { createFlightLog(input: $input) { uid status } }';

  it('GraphQL: the same key and mutation twice writes once and replays the first result', async () => {
    const before = await logCount();
    const input = flightLogBody({ timeDate: '2025-07-01T01:00:00Z' });
    const first = await gqlWith('gql-1', create, { input });
    const again = await gqlWith('gql-1', create, { input });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(await logCount()).toBe(before + 1);
    const other = await gqlWith('gql-1', create, { input: { ...input, pax: 3 } });
    expect((await other.json()).errors[0].extensions.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(other.status).toBe(422);
  });

  it('a read key resending a read_write key\u2019s Idempotency-Key and body is refused (403), not replayed', async () => {
    const body = flightLogBody({ timeDate: '2025-07-02T01:00:00Z' });
    const first = await env.json('POST', '/api/v1/flight-logs', { body, headers: { 'idempotency-key': 'shared-1' } });
    expect(first.status).toBe(201);
    const byReader = await env.json('POST', '/api/v1/flight-logs', { key: readKey, body, headers: { 'idempotency-key': 'shared-1' } });
    expectProblem(byReader, 403, 'forbidden');
    expect(byReader.res.headers.get('idempotent-replayed')).toBeNull();
    const input = flightLogBody({ timeDate: '2025-07-02T02:00:00Z' });
    expect((await gqlWith('shared-2', create, { input })).status).toBe(200);
    const gql = await gqlWith('shared-2', create, { input }, readKey);
    expect(gql.status).toBe(403);
    expect(gql.headers.get('idempotent-replayed')).toBeNull();
  });

  it('an Idempotency-Key sent empty or blank is a 400 on every channel, and nothing is written (it was ignored: a retry wrote twice)', async () => {
    const before = await logCount();
    for (const key of ['', ' ']) {
      const rest = await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ timeDate: '2025-07-04T01:00:00Z' }), headers: { 'idempotency-key': key } });
      expectProblem(rest, 400, 'bad_request');
      expect(rest.body.detail).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters');
      const gql = await gqlWith(key, create, { input: flightLogBody({ timeDate: '2025-07-04T02:00:00Z' }) });
      expect(gql.status).toBe(400);
      const mcp = await env.request('POST', '/mcp', {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'createFlightLog', arguments: { body: flightLogBody({ timeDate: '2025-07-04T03:00:00Z' }) } } },
        headers: { 'idempotency-key': key, accept: 'application/json, text/event-stream' },
      });
      expect(JSON.stringify(await mcp.json())).toContain('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    expect(await logCount()).toBe(before);
  });

  it('the same key on another channel names another operation: 422', async () => {
    const body = flightLogBody({ timeDate: '2025-07-03T01:00:00Z' });
    expect((await env.json('POST', '/api/v1/flight-logs', { body, headers: { 'idempotency-key': 'cross-1' } })).status).toBe(201);
    const gql = await gqlWith('cross-1', create, { input: body });
    expect(gql.status).toBe(422);
  });

  it('MCP: the same key twice creates one log', async () => {
    const before = await logCount();
    const call = (id: number) =>
      env.request('POST', '/mcp', {
        headers: { 'idempotency-key': 'mcp-1', accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'createFlightLog', arguments: { body: flightLogBody({ timeDate: '2025-07-04T01:00:00Z' }) } } },
      });
    const first = await (await call(1)).json();
    const second = await call(2);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await second.json()).result).toEqual(first.result);
    expect(first.result.isError).toBeFalsy();
    expect(await logCount()).toBe(before + 1);
  });
});

describe('@skip and @include with a variable the request leaves to its default', () => {
  it('the default decides, as GraphQL says (the operation failed: "was not provided a runtime value")', async () => {
    const q = 'query Q($withVehicles: Boolean = false) { aircraftList { count } vehicles @include(if: $withVehicles) { count } }';
    const left = await env.gql(q);
    expect(left.body.errors, JSON.stringify(left.body)).toBeUndefined();
    expect(Object.keys(left.body.data)).toEqual(['aircraftList']);
    const given = await env.gql(q, { withVehicles: true });
    expect(Object.keys(given.body.data)).toEqual(['aircraftList', 'vehicles']);
    const skipped = await env.gql('query($s: Boolean! = true) { aircraftList { count } ... @skip(if: $s) { vehicles { count } } }');
    expect(skipped.body.errors, JSON.stringify(skipped.body)).toBeUndefined();
    expect(Object.keys(skipped.body.data)).toEqual(['aircraftList']);
    // a mutation the default leaves out is not run, and not charged to a read key's scope
    const color = await vehicleColor();
    const m = await env.request('POST', '/graphql', {
      key: readKey,
      body: { query: 'mutation($go: Boolean = false) { updateVehicle(id: "acme-v-1", input: { color: "skipped" }) @include(if: $go) { status } __typename }' },
    });
    expect(m.status, await m.clone().text()).toBe(200);
    expect(await vehicleColor()).toBe(color);
  });
});

describe('MCP batches are charged per call', () => {
  it('a JSON-RPC batch of 5 tool calls costs 5 units', async () => {
    const probe = await env.request('POST', '/graphql', { body: { query: '{ aircraftList { count } }' } });
    const batch = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'listAircraft', arguments: {} } }));
    const res = await env.request('POST', '/mcp', { headers: { accept: 'application/json, text/event-stream' }, body: batch });
    expect(res.status).toBe(200);
    const answers = await res.json();
    expect(answers).toHaveLength(5);
    expect(remaining(probe) - remaining(res)).toBe(5);
  });
});

describe('the key scope is decided for the operation before its input is checked, on every channel', () => {
  it('a key out of scope with an input that fails the service check is a 403, not a 400 (REST, GraphQL, MCP)', async () => {
    // inputs of the right GraphQL types that the service's own check refuses
    const cases: { key: () => string; rest: [string, string, unknown]; gql: [string, Record<string, unknown>]; tool: [string, Record<string, unknown>] }[] = [
      {
        key: () => env.a.key, // read_write: settings are the company's management
        rest: ['PUT', '/api/v1/settings/alerts', { dueSoonDays: -1 }],
        gql: ['mutation($i: AlertSettingsInput!) { putAlertSettings(input: $i) { dueSoonDays } }', { i: { dueSoonDays: -1 } }],
        tool: ['putAlertSettings', { body: { dueSoonDays: -1 } }],
      },
      {
        key: () => readKey,
        rest: ['POST', '/api/v1/vehicles', { make: 'M', model: 'M', registration: 'R'.repeat(500) }],
        gql: ['mutation($i: CreateVehicleInput!) { createVehicle(input: $i) { uid } }', { i: { make: 'M', model: 'M', registration: 'R'.repeat(500) } }],
        tool: ['createVehicle', { body: { make: 'M', model: 'M', registration: 'R'.repeat(500) } }],
      },
    ];
    for (const c of cases) {
      const [method, path, body] = c.rest;
      expectProblem(await env.json(method, path, { key: c.key(), body }), 403, 'forbidden');
      const g = await env.gql(c.gql[0], c.gql[1], c.key());
      expect(g.status, c.gql[0]).toBe(403);
      expect(g.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const res = await env.request('POST', '/mcp', { key: c.key(), headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: c.tool[0], arguments: c.tool[1] } } });
      const tool = (await res.json()).result;
      expect(tool.isError, c.tool[0]).toBe(true);
      expect(JSON.parse(tool.content[1].text)).toMatchObject({ status: 403, code: 'forbidden' });
    }
  });
  it('the scope comes first on MCP too, before missing or bad arguments; NUL in a variable of a key out of scope is its 403', async () => {
    const tool = async (key: string, name: string, args: Record<string, unknown>) => {
      const res = await env.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
      const result = (await res.json()).result;
      expect(result.isError, name).toBe(true);
      return JSON.parse(result.content[1].text) as { status: number; code: string };
    };
    expect(await tool(env.a.key, 'putAlertSettings', {})).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await tool(readKey, 'createVehicle', {})).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await tool(readKey, 'deleteVehicle', { id: '' })).toMatchObject({ status: 403, code: 'forbidden' });
    const nul = await env.gql('mutation($i: CreateVehicleInput!) { createVehicle(input: $i) { uid } }', { i: { make: 'M\u0000', model: 'M', registration: 'NUL-1' } }, readKey);
    expect(nul.status).toBe(403);
    // __typename reads the schema, not the company: every key may ask it, in a mutation too
    const typename = await env.gql('mutation { __typename }', undefined, readKey);
    expect(typename).toMatchObject({ status: 200, body: { data: { __typename: 'Mutation' } } });
  });
  it('a mutation document with a field the key may not call writes nothing, not even its fields before it', async () => {
    const before = await env.json('GET', '/api/v1/vehicles?limit=500');
    const g = await env.gql(
      `mutation { first: createVehicle(input: { make: "Ran", model: "Before", registration: "SCOPE-1" }) { uid } second: putAlertSettings(input: { dueSoonDays: 3 }) { dueSoonDays } }`,
    );
    expect(g.status).toBe(403);
    expect(g.body.data ?? null).toBeNull();
    expect((await env.json('GET', '/api/v1/vehicles?limit=500')).body).toEqual(before.body);
  });
});
