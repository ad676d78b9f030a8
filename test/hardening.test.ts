// Attacks that used to answer 500 or stall the server (the hardening issue), each reproduced: NUL characters,
// deeply nested bodies, crafted cursors, integers beyond the columns, a batch item that fails unexpectedly,
// GraphQL aliases/depth/mutation floods; each must be a 4xx problem (or GraphQL error) and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, mcpTool, type TestEnv } from './helpers.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { expectProblem, expectValidation } from './assertions.js';
import { databaseError } from '../src/db/errors.js';
import { runBatch, runSetBatch } from '../src/lib/batch.js';
import { ValidationError } from '../src/errors.js';
import { setUnexpectedErrorSink } from '../src/lib/unexpected.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ rateLimitPerMinute: 1000 });
});
afterAll(async () => {
  await env?.close();
});

const logCount = async () => (await env.json('GET', '/api/v1/flight-logs?limit=500')).body.count as number;
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('NUL characters', () => {
  it('in a path id, a query parameter, a body string and a JSON key: 400 with the path, nothing written', async () => {
    expectValidation(await env.json('GET', '/api/v1/aircraft/%00'), '/path');
    expectValidation(await env.json('GET', '/api/v1/flight-logs?pilotId=a%00b'), '/query/pilotId');
    const before = await logCount();
    expectValidation(await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ notes: 'a\u0000b' }) }), '/notes');
    // in a batch, a NUL is its item's error (docs/contract/gaps.md §11): the request is answered, the item refused
    const batch = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items: [flightLogBody({ startLocation: '\u0000' })] } });
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual({ results: [], errors: [{ index: 0, error: expect.stringMatching(/NUL/) }] });
    expectValidation(await env.json('POST', '/api/v1/vehicles', { body: { make: 'A', model: 'B', registration: 'N1', thirdPartyUser: { ['k\u0000']: 1 } } }));
    expect(await logCount()).toBe(before);
  });

  it('in GraphQL variables and in string literals of the document', async () => {
    const viaVariable = await env.request('POST', '/graphql', { body: { query: 'query($id: ID!) { aircraft(id: $id) { uid } }', variables: { id: 'x\u0000' } } });
    // refused by the operation policy, answered as GraphQL answers every refusal of an operation
    expect(viaVariable.status).toBe(400);
    expect((await viaVariable.json()).errors[0]).toMatchObject({ message: expect.stringMatching(/NUL/), extensions: { code: 'VALIDATION_ERROR' } });
    const literal = await env.gql('{ aircraft(id: "x\\u0000") { uid } }');
    expect(literal.body.errors![0].message).toMatch(/NUL/);
    expect(literal.body.data).toBeUndefined();
  });
});

describe('text that is not UTF-8', () => {
  // REST carries an id or a query value as percent escapes and a body as bytes; ones that do not decode to text were
  // routed elsewhere (PATCH /aircraft/%FF: 405 "not allowed", with Allow naming PATCH), or read as U+FFFD and taken
  // (a list filtered by "\uFFFD", a vehicle stored with make "a\uFFFD"), where GraphQL and MCP refuse a lone surrogate
  it('a path or query parameter whose escapes are not UTF-8 is a 400 at its name; a bare % is itself', async () => {
    for (const [method, path, at] of [
      ['PATCH', '/api/v1/vehicles/%FF', '/path/id'],
      ['GET', '/api/v1/aircraft/%ED%A0%80', '/path/id'],
      ['POST', '/api/v1/components/%C0%AF/install', '/path/id'],
      ['GET', '/api/v1/flight-logs?pilotId=%FF', '/query/pilotId'],
      ['GET', '/api/v1/flight-logs?pilotId=%ED%A0%80', '/query/pilotId'],
    ] as const) {
      const r = await env.json(method, path, { body: method === 'GET' ? undefined : {} });
      expectValidation(r, at);
      expect(r.body.errors[0].message, path).toMatch(/not UTF-8 text/);
    }
    // a % not followed by two hex digits is itself, in the query and in the path (as browsers send it)
    const literal = await env.json('GET', '/api/v1/flight-logs?pilotId=100%');
    expect(literal.status, JSON.stringify(literal.body)).toBe(200);
    const bare = await env.json('GET', '/api/v1/aircraft/100%');
    expect([bare.status, bare.body.detail], JSON.stringify(bare.body)).toEqual([404, expect.stringMatching(/100%/)]);
    // the key's scope is decided first, whatever the parameters (403 on every channel)
    const reader = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'reader', scope: 'read' })).key;
    for (const path of ['/api/v1/vehicles/%FF', '/api/v1/vehicles/acme-v-1?x=%FF']) {
      expect((await env.json('PATCH', path, { key: reader, body: {} })).status, path).toBe(403);
    }
    // a page that does not read its query string does not refuse it
    for (const path of ['/healthz?ref=caf%E9', '/docs?utm=%FF', '/nope?x=%FF']) {
      expect((await env.request('GET', path, { key: null })).status, path).not.toBe(400);
    }
    // a GraphQL GET reads its query string: its document and variables are held to the same rule
    const q = encodeURIComponent('query($p: String) { flightLogs(pilotId: $p) { count } }');
    const get = await env.request('GET', `/graphql?query=${q}&variables=${encodeURIComponent('{"p":"x')}%FF${encodeURIComponent('"}')}`, { headers: { accept: 'application/json' } });
    expect(get.status).toBe(400);
    // a NUL in a refused name is shown as %00
    const named = await env.json('GET', '/api/v1/flight-logs?%00=%FF');
    expect(named.body.errors[0].path).toBe('/query/%00');
  });
  it('a body that is not UTF-8 is a 400, and nothing is stored', async () => {
    const count = async () => (await env.json('GET', '/api/v1/vehicles')).body.data.length as number;
    const before = await count();
    const bytes = Buffer.concat([Buffer.from('{"make":"a'), Buffer.from([0xff]), Buffer.from('","model":"B","registration":"UTF-1"}')]);
    const res = await env.app.fetch(new Request('http://fleetops.test/api/v1/vehicles', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json' }, body: bytes }));
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toMatch(/not UTF-8 text/);
    expect(await count()).toBe(before);
  });
  it('MCP names the parameter a NUL or a lone surrogate was sent in, as REST does', async () => {
    const list = await mcpTool(env, 'listFlightLogs', { pilotId: 'a\u0000' });
    expect(list.isError).toBe(true);
    expect(JSON.parse(list.content[1]!.text)).toMatchObject({
      detail: expect.stringMatching(/^invalid query parameter pilotId: it must not contain the NUL/),
      errors: [{ path: '/query/pilotId', message: expect.stringMatching(/NUL/) }],
    });
    const update = await mcpTool(env, 'updateVehicle', { id: '\ud800', body: { model: 'X' } });
    expect(update.isError).toBe(true);
    expect(JSON.parse(update.content[1]!.text).errors).toEqual([{ path: '/path/id', message: expect.stringMatching(/lone surrogate/) }]);
  });
});

describe('deep JSON', () => {
  it('5,000 levels in a REST body is a 400 before parsing, not a stack overflow', async () => {
    const r = await env.json('POST', '/api/v1/vehicles', { body: `{"make":"A","model":"B","registration":"D1","photos":${nested(5000)}}` });
    expectValidation(r);
    expect(r.body.detail).toMatch(/nested more than 64 levels/);
  });
  it('GraphQL JSON inputs are bounded the same way', async () => {
    const res = await env.request('POST', '/graphql', {
      body: `{"query":"mutation($i: CreateVehicleInput!) { createVehicle(input: $i) { uid } }","variables":{"i":{"make":"A","model":"B","registration":"D2","photos":${nested(2000)}}}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/nested more than 64 levels/); // refused for its depth, not for its type
    const list = (await env.json('GET', '/api/v1/vehicles')).body.data.map((v: any) => v.registration);
    expect(list).not.toContain('D2');
  });
  it('64 levels are still accepted', async () => {
    const r = await env.json('POST', '/api/v1/vehicles', { body: `{"make":"A","model":"B","registration":"D3","thirdPartyUser":{"a":${nested(60)}}}` });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });
});

describe('cursors and integers', () => {
  const cursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  it('a crafted cursor with an out-of-range date is a 400 on every paged list', async () => {
    for (const [path, list] of [['/flight-logs', 'flight-log'], ['/schedule-completions', 'schedule-completion'], ['/form-completions', 'form-completion']]) {
      expectValidation(await env.json('GET', `/api/v1${path}?cursor=${cursor([list, '+275760-09-13T00:00:00.000Z', 'x'])}`), '/query/cursor');
      expectValidation(await env.json('GET', `/api/v1${path}?cursor=${cursor([list, '2024-01-01T00:00:00.000Z', 'x'.repeat(500)])}`), '/query/cursor');
    }
  });
  it('integers beyond what the column holds are a 400 naming the field', async () => {
    expectValidation(await env.json('POST', '/api/v1/vehicles', { body: { make: 'A', model: 'B', registration: 'I1', totalSeats: 2 ** 31 } }), '/totalSeats');
    expectValidation(await env.json('POST', '/api/v1/vehicles', { body: { make: 'A', model: 'B', registration: 'I2', passengerCapacity: 2 ** 53 - 1 } }), '/passengerCapacity');
    expectValidation(await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ pax: 2 ** 31 }) }), '/pax');
    const doc = env.app.openapi as any;
    expect(doc.components.schemas.CreateVehicleBody.properties.totalSeats.maximum).toBe(10000);
  });
});

describe('database errors and batches', () => {
  it('database data and uniqueness errors map to 400 and 409', () => {
    expect(databaseError({ code: 'P2002', message: 'Unique constraint failed' })?.status).toBe(409);
    expect(databaseError({ code: 'P2020', message: 'Value out of range for the type' })?.status).toBe(400);
    expect(databaseError({ message: 'x', cause: { originalCode: '22021' } })?.status).toBe(400);
    expect(databaseError({ code: '22P05' })?.status).toBe(400);
    expect(databaseError({ code: '23503' })?.status).toBe(409);
    expect(databaseError(new Error('socket hang up'))).toBeNull();
  });

  it('an item that fails unexpectedly is reported with its index; the others keep their results', async () => {
    const logged: unknown[] = [];
    setUnexpectedErrorSink((e) => logged.push(e));
    const out = await runBatch([1, 2, 3], async (n) => {
      if (n === 2) throw new Error('connection reset');
      return { uid: `u${n}`, status: 'created' };
    });
    expect(out.results).toEqual([{ uid: 'u1', status: 'created' }, { uid: 'u3', status: 'created' }]);
    expect(out.errors).toEqual([{ index: 1, error: expect.stringMatching(/internal error: this item was not written/) }]);
    expect(logged).toHaveLength(1);
  });

  it('a set-based batch: bad items reported by index; when the set write fails as a whole, each item is written alone', async () => {
    const check = (n: number) => {
      if (n < 0) throw new ValidationError('invalid thing', [{ path: '/n', message: 'n must not be negative' }]);
      return n;
    };
    const together = await runSetBatch([1, -1, 2], check, async (ns) => ns.map((n) => ({ uid: `u${n}` })), async () => {
      throw new Error('not used');
    });
    expect(together).toEqual({ results: [{ uid: 'u1' }, { uid: 'u2' }], errors: [{ index: 1, error: expect.stringMatching(/n must not be negative/) }] });

    const logged: unknown[] = [];
    setUnexpectedErrorSink((e) => logged.push(e));
    const alone = await runSetBatch(
      [1, -1, 2, 3],
      check,
      async () => {
        throw new Error('one row broke the statement');
      },
      async (n) => {
        if (n === 2) throw new Error('this row is the bad one');
        return { uid: `u${n}` };
      },
    );
    // indices stay the caller's: -1 is item 1 (refused by its check), 2 is item 2 (failed alone)
    expect(alone.results).toEqual([{ uid: 'u1' }, { uid: 'u3' }]);
    expect(alone.errors).toEqual([
      { index: 1, error: expect.stringMatching(/n must not be negative/) },
      { index: 2, error: expect.stringMatching(/internal error/) },
    ]);
    expect(logged).toHaveLength(1);
  });
});

describe('GraphQL limits', () => {
  it('2,000 aliases are refused at validation, quickly, without running resolvers', async () => {
    const query = `{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: aircraftList { count }`).join(' ')} }`;
    const t = performance.now();
    const r = await env.gql(query);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors![0].message).toMatch(/alias|token/i);
    const few = await env.gql(`{ ${Array.from({ length: 25 }, (_, i) => `a${i}: aircraftList { count }`).join(' ')} }`);
    expect(few.body.data).toBeUndefined();
    expect(few.body.errors![0].message).toMatch(/alias/i);
  });
  it('deep queries are refused', async () => {
    let sel = 'uid';
    for (let i = 0; i < 12; i++) sel = `aircraft { ${sel} }`;
    const r = await env.gql(`{ flightLogs(limit: 1) { data { ${sel} } } }`);
    expect(r.body.errors?.[0]?.message ?? '').toMatch(/depth|Cannot query/i);
  });
  it("each limit's refusal is a validation error: 400 to a GraphQL-over-HTTP client, with extensions.code and the limit named", async () => {
    let deep = 'uid';
    for (let i = 0; i < 9; i++) deep = `children { ${deep} }`;
    const cases: [string, string, RegExp][] = [
      ['depth', `{ components { data { ${deep} } } }`, /^Query depth limit of 10 exceeded, found \d+\.$/],
      ['aliases', `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: aircraftList { count }`).join(' ')} }`, /^Aliases limit of 20 exceeded/],
      ['directives', `{ ${Array.from({ length: 25 }, () => '__typename @include(if: true)').join(' ')} }`, /^Directives limit of 20 exceeded, found 25\.$/],
      ['cost', `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: components { data { ${deep.replace('uid', 'uid '.repeat(40))} } }`).join(' ')} }`, /^Query Cost limit of 20000 exceeded/],
      // graphql-js gives up comparing a thousand copies of a field ("Validation aborted."): the client is told why
      ['repeated fields', `{ aircraftList { data { ${Array.from({ length: 1100 }, () => 'uid').join(' ')} } } }`, /too complex to validate.*select each field once/],
    ];
    for (const [name, query, message] of cases) {
      const res = await env.request('POST', '/graphql', { body: { query }, headers: { accept: 'application/graphql-response+json' } });
      const body = (await res.json()) as { data?: unknown; errors: { message: string; extensions?: { code?: string } }[] };
      expect(res.status, name).toBe(400);
      expect(body.data, name).toBeUndefined();
      expect(body.errors[0].message, name).toMatch(message);
      expect(body.errors[0].extensions?.code, name).toBe('VALIDATION_ERROR');
    }
  });
  it('more than 10 mutations in one request are refused, and each mutation counts against the rate limit', async () => {
    const many = `mutation { ${Array.from({ length: 11 }, (_, i) => `m${i}: createVehicle(input: { make: "A", model: "B", registration: "M${i}" }) { uid }`).join(' ')} }`;
    const r = await env.gql(many);
    expect(r.body.errors![0].message).toMatch(/at most 10 mutations/);
    const limited = await createTestEnv({ rateLimitPerMinute: 5 });
    try {
      const five = `mutation { ${Array.from({ length: 5 }, (_, i) => `m${i}: createVehicle(input: { make: "A", model: "B", registration: "R${i}" }) { uid }`).join(' ')} }`;
      const first = await limited.request('POST', '/graphql', { body: { query: five } });
      expect(first.status).toBe(200);
      const next = await limited.request('POST', '/graphql', { body: { query: '{ users { count } }' } });
      expect(next.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
  it('each root field of a query counts against the rate limit too, as a REST request or an MCP tool call for it would', async () => {
    const limited = await createTestEnv({ rateLimitPerMinute: 5 });
    try {
      const agg = '{ collection: "flightLogs", metric: "hobbs", dateField: "timeDate", dateGroup: "month" }';
      const four = `{ ${Array.from({ length: 4 }, (_, i) => `a${i}: aggregate(input: ${agg}) { __typename }`).join(' ')} __typename t: __typename }`;
      const first = await limited.request('POST', '/graphql', { body: { query: four } });
      expect(first.status).toBe(200);
      expect((await first.json()).errors).toBeUndefined();
      // four units used (the __typename fields cost nothing), one left: a request running two root fields is refused
      expect(first.headers.get('ratelimit')).toMatch(/remaining=1\b/);
      const two = await limited.request('POST', '/graphql', { body: { query: '{ users { count } again: users { count } }' } });
      expect(two.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('abuse bounds', () => {
  it('CSV cells that a spreadsheet would run are neutralised; fields choose (unknown names left out)', async () => {
    for (const notes of ['=HYPERLINK("http://evil","x")', '@SUM(1+1)', '=cmd|\' /C calc\'!A0', '+1+1', '-2+3', '\tx']) {
      const r = await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ notes, timeDate: '2020-01-01T00:00:00Z', hobbs: -0.5 }) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const res = await env.request('GET', '/api/v1/flight-logs?endDate=2020-01-02&fields=notes,hobbs', { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('uid,notes,hobbs');
    const cells = lines.slice(1).map((l) => l.split(',').slice(1).join(','));
    for (const c of cells) expect(c).toMatch(/^"?'[=@+\-\t]/); // the text starts with a quote
    expect(cells.every((c) => c.endsWith(',-0.5'))).toBe(true); // numbers stay numbers
    // a name that is no column is left out, as the JSON answer leaves it out (one rule: docs/api-notes.md)
    const unknown = await env.request('GET', '/api/v1/flight-logs?endDate=2020-01-02&fields=notes,colour', { headers: { accept: 'text/csv' } });
    expect((await unknown.text()).split('\n')[0]).toBe('uid,notes');
  });

  it('unknown and revoked keys get the same 401 message', async () => {
    const { ApiKeyService } = await import('../src/auth/keys.js');
    const keys = new ApiKeyService(env.database.prisma);
    const { key } = await keys.create({ companyId: env.a.id, name: 'revoke-oracle' });
    const info = (await keys.list(env.a.id)).find((k) => k.name === 'revoke-oracle')!;
    await keys.revoke(info.id);
    const revoked = await env.json('GET', '/api/v1/aircraft', { key });
    const unknown = await env.json('GET', '/api/v1/aircraft', { key: key.slice(0, -4) + 'zzzz' });
    expectProblem(revoked, 401);
    expect(revoked.body.detail).toBe(unknown.body.detail);
    expect(revoked.body.detail).toBe('invalid API key');
  });

  it('failed authentications are limited per client address (AUTH_FAIL_LIMIT_PER_MINUTE)', async () => {
    const limited = await createTestEnv({ config: { authFailLimitPerMinute: 3 } });
    try {
      const attempt = (address: string, key = 'fo_live_guess') =>
        limited.app.fetch(new Request('http://fleetops.test/api/v1/aircraft', { headers: { authorization: `Bearer ${key}` } }), { clientAddress: address });
      expect([(await attempt('10.9.9.9')).status, (await attempt('10.9.9.9')).status, (await attempt('10.9.9.9')).status]).toEqual([401, 401, 401]);
      const fourth = await attempt('10.9.9.9');
      expect(fourth.status).toBe(429);
      expect(fourth.headers.get('content-type')).toMatch(/problem\+json/);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await attempt('10.9.9.10')).status).toBe(401); // another address is not affected
      expect((await attempt('10.9.9.10', limited.a.key)).status).toBe(200);
      // over its budget, the address is answered 429 before its key is looked at: a right key too (it was a 200 among
      // the wrong ones' 429s, so guessing went on at full speed), until the window passes
      const right = await attempt('10.9.9.9', limited.a.key);
      expect(right.status).toBe(429);
      expect(await right.json()).toMatchObject({ status: 429, detail: expect.stringMatching(/^too many failed authentications from this address; retry in \d+ s$/) });
    } finally {
      await limited.close();
    }
  });

  it('a wrong /metrics token is a failed authentication: limited per address like a wrong key', async () => {
    const limited = await createTestEnv({ config: { authFailLimitPerMinute: 2, metricsToken: 'metrics-secret-token' } });
    try {
      const scrape = (token: string, address = '10.8.8.8') =>
        limited.app.fetch(new Request('http://fleetops.test/metrics', { headers: { authorization: `Bearer ${token}` } }), { clientAddress: address });
      expect([(await scrape('nope')).status, (await scrape('nope')).status, (await scrape('nope')).status]).toEqual([401, 401, 429]);
      expect((await scrape('metrics-secret-token')).status).toBe(429);
      expect((await scrape('metrics-secret-token', '10.8.8.9')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('REST façade calls that share one request context', () => {
  it('run concurrently, each answers with its own result (as several MCP tool calls of one request do)', async () => {
    const { createRestFacade } = await import('../src/rest/facade.js');
    const { restRoutes } = await import('../src/rest/routes.js');
    const { schema } = await import('../src/graphql/schema.js');
    const { createContext } = await import('../src/context.js');
    const pino = (await import('pino')).default;
    const { createExecutor } = await import('../src/graphql/executor.js');
    const { operationPolicy } = await import('../src/graphql/policy.js');
    const executor = createExecutor(schema, [operationPolicy()]);
    const rest = createRestFacade({ schema, routes: restRoutes, basePath: '/api/v1', bodyLimitBytes: 1 << 20, logger: pino({ level: 'silent' }), executor });
    const ctx = createContext(env.database, { companyId: env.a.id, keyId: 'k', userId: `${env.a.prefix}-owner`, scope: 'read_write' });
    const call = (p: string) => rest(new Request(`http://x/api/v1${p}`), new URL(`http://x/api/v1${p}`), ctx).then((r) => r.json());
    const paths = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? '/aircraft/acme-ac-1' : i % 3 === 1 ? '/users/acme-pilot' : '/aircraft'));
    const bodies = await Promise.all(paths.map(call));
    bodies.forEach((b, i) => {
      if (paths[i] === '/aircraft/acme-ac-1') expect(b.uid, JSON.stringify(b)).toBe('acme-ac-1');
      else if (paths[i] === '/users/acme-pilot') expect(b.uid, JSON.stringify(b)).toBe('acme-pilot');
      else expect(b.count, JSON.stringify(b)).toBe(2);
    });
  });
});
