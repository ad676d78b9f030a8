// The MCP server at /mcp (issue 12, gaps §8) through the SDK's own Client and Streamable HTTP transport: the
// transport's fetch goes to the app's in-process fetch handler (one test runs over a real node:http server).
// Tools are generated from the REST route registry, so every route must have a tool; calls run the same services
// and answer the same problem details as REST, as tool errors.
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createServerAdapter } from '@whatwg-node/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/routes.js';
import { toolName } from '../src/mcp/tools.js';
import { createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';

const API = '/api/v1';
let env: TestEnv;
let client: Client;

function transport(key: string | null, base = 'http://fleetops.test', viaApp = true) {
  return new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    ...(viaApp ? { fetch: (url: string | URL, init?: RequestInit) => env.app.fetch(new Request(url, init)) } : {}),
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
}

async function connect(key: string | null = env.a.key): Promise<Client> {
  const c = new Client({ name: 'fleetops-test', version: '1.0.0' });
  await c.connect(transport(key));
  return c;
}

beforeAll(async () => {
  env = await createTestEnv();
  client = await connect();
});
afterAll(async () => {
  await client?.close();
  await env?.close();
});

type Json = Record<string, any>;

async function call(name: string, args: Json = {}, c: Client = client): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}
/** A successful call's structuredContent (the text content carries the same JSON). */
async function ok(name: string, args: Json = {}, c: Client = client): Promise<Json> {
  const r = await call(name, args, c);
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  return r.structuredContent as Json;
}
/** A failed call's problem details (the second text content), checked against the human-readable first one. */
async function failed(name: string, args: Json, status: number, path?: string, c: Client = client): Promise<Json> {
  const r = await call(name, args, c);
  expect(r.isError, JSON.stringify(r)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const text = (r.content[0] as { text: string }).text;
  const problem = JSON.parse((r.content[1] as { text: string }).text);
  expect(problem.status).toBe(status);
  expect(text).toContain(problem.detail);
  if (path) {
    expect(problem.errors?.map((e: Json) => e.path), text).toContain(path);
    expect(text).toContain(`${path}: `);
  }
  return problem;
}
const rest = async (method: string, path: string, body?: unknown, key?: string) => env.json(method, `${API}${path}`, { body, key });
const aircraftTotals = async (id = 'acme-ac-1') => (await rest('GET', `/aircraft/${id}`)).body.totals;

describe('connection', () => {
  it('initializes: server info, capabilities and instructions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'fleetops', version: '0.1.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.getInstructions()).toMatch(/fleetops:\/\/aircraft\/\{id\}/);
  });

  it('without a key: 401 problem with WWW-Authenticate, and the SDK client cannot connect', async () => {
    const res = await env.request('POST', '/mcp', {
      key: null,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const c = new Client({ name: 'anon', version: '1' });
    await expect(c.connect(transport(null))).rejects.toThrow();
    const wrong = new Client({ name: 'wrong', version: '1' });
    await expect(wrong.connect(transport('fo_test_' + 'x'.repeat(32)))).rejects.toThrow();
  });

  it('stateless: GET and DELETE are 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await env.request(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('is rate limited like REST (the same per-key budget)', async () => {
    const limited = await createTestEnv({ rateLimitPerMinute: 3 });
    try {
      const post = () =>
        limited.request('POST', '/mcp', {
          key: limited.a.key,
          headers: { accept: 'application/json, text/event-stream' },
          body: { jsonrpc: '2.0', id: 1, method: 'ping' },
        });
      expect((await post()).status).toBe(200);
      expect((await limited.request('GET', `${API}/aircraft`, { key: limited.a.key })).status).toBe(200);
      const third = await post();
      expect(third.status).toBe(200);
      expect(third.headers.get('ratelimit')).toBeTruthy();
      const fourth = await post();
      expect(fourth.status).toBe(429);
      expect(fourth.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});

describe('tools/list', () => {
  it('every REST route has exactly one tool, named after its operationId', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(restRoutes.map((r) => toolName(r.operationId)).sort());
    expect(new Set(names).size).toBe(restRoutes.length);
    expect(names).toContain('create_flight_log');
    expect(names).toContain('batch_create_flight_logs');
    expect(names).toContain('install_component');
  });

  it('every tool has a title, a description for a model, an object input schema, an output schema and hints', async () => {
    const { tools } = await client.listTools();
    const routeOf = new Map(restRoutes.map((r) => [toolName(r.operationId), r]));
    for (const t of tools) {
      const route = routeOf.get(t.name)!;
      expect(t.title, t.name).toBe(route.summary);
      expect(t.description!.length, t.name).toBeGreaterThan(route.summary.length + 40);
      expect(t.description, t.name).toContain(`${route.method} /api/v1${route.path}`);
      expect(t.description, t.name).not.toMatch(/Accept: text\/csv/);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      for (const k of Object.keys(route.params?.shape ?? {})) expect(t.inputSchema.required, t.name).toContain(k);
      for (const k of Object.keys(route.query?.shape ?? {})) expect(t.inputSchema.properties, t.name).toHaveProperty(k);
      const a = t.annotations!;
      expect(typeof a.readOnlyHint, t.name).toBe('boolean');
      expect(typeof a.destructiveHint, t.name).toBe('boolean');
      expect(typeof a.idempotentHint, t.name).toBe('boolean');
      expect(a.readOnlyHint, t.name).toBe(route.method === 'GET');
      expect(a.idempotentHint, t.name).toBe(['GET', 'PATCH', 'DELETE'].includes(route.method));
      if (route.method === 'DELETE') expect(a.destructiveHint, t.name).toBe(true);
    }
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
    expect(hints('list_flight_logs')).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(hints('create_flight_log')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints('update_vehicle')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(hints('delete_flight_log')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints('batch_delete_flight_logs')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints('remove_component')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints('reset_component_counter')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints('install_component')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('input schemas come from the routes\u2019 zod schemas: body fields are flat arguments', async () => {
    const { tools } = await client.listTools();
    const create = tools.find((t) => t.name === 'create_flight_log')!;
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['timeDate', 'pilot', 'aircraftId', 'aircraftRegistration', 'pax']));
    expect((create.inputSchema.properties as Json).copilotType.enum).toEqual(['Co-Pilot', 'ICUS', 'Dual']);
    expect(create.description).toMatch(/fleetops:\/\/aircraft\/\{id\}/);
    const update = tools.find((t) => t.name === 'update_vehicle')!;
    expect(update.inputSchema.required).toEqual(['id']);
    expect(update.inputSchema.properties).toHaveProperty('make');
    const list = tools.find((t) => t.name === 'list_vehicles')!;
    expect(list.inputSchema.additionalProperties).toBe(false);
  });
});

describe('aircraft and users (read tools)', () => {
  it('list_aircraft and get_aircraft return the company\u2019s aircraft as REST does', async () => {
    const list = await ok('list_aircraft');
    expect(list.data.map((a: Json) => a.uid).sort()).toEqual(['acme-ac-1', 'acme-ac-2']);
    const one = await ok('get_aircraft', { id: 'acme-ac-1' });
    expect(one).toEqual((await rest('GET', '/aircraft/acme-ac-1')).body);
    expect(one.maintenanceTrackingItems).toHaveProperty('hobbs');
  });

  it('list_users filters, get_user reads one', async () => {
    const pending = await ok('list_users', { status: 'Pending' });
    expect(pending.data.map((u: Json) => u.uid)).toEqual(['acme-new']);
    expect((await ok('get_user', { uid: 'acme-pilot' })).displayName).toBe('Pat Pilot');
  });

  it('another company\u2019s record is not found (the same 404 as REST)', async () => {
    const p = await failed('get_aircraft', { id: 'globex-ac-1' }, 404);
    expect(p).toEqual((await rest('GET', '/aircraft/globex-ac-1')).body);
    await failed('get_user', { uid: 'globex-pilot' }, 404);
  });
});

describe('flight logs', () => {
  it('create_flight_log: the totals move; get, update, list (limit as a number) and delete', async () => {
    const before = await aircraftTotals();
    const created = await ok('create_flight_log', flightLogBody({ hobbs: 1.3, landings: 2, fuelUplift: 80 }));
    expect(created).toEqual({ uid: expect.any(String), status: 'created' });
    expect(await aircraftTotals()).toEqual({ ...before, hobbs: before.hobbs + 1.3, landings: before.landings + 2 });
    const log = await ok('get_flight_log', { id: created.uid });
    expect(log).toMatchObject({ uid: created.uid, pilot: 'acme-pilot', hobbs: 1.3, landings: 2, fuelUplift: 80 });

    expect(await ok('update_flight_log', { id: created.uid, landings: 3 })).toEqual({ uid: created.uid, status: 'updated' });
    expect((await aircraftTotals()).landings).toBe(before.landings + 3);

    const page = await ok('list_flight_logs', { aircraftId: 'acme-ac-1', limit: 1, fields: 'pilot,hobbs' });
    expect(page.data).toEqual([{ uid: created.uid, pilot: 'acme-pilot', hobbs: 1.3 }]);

    expect(await ok('delete_flight_log', { id: created.uid })).toEqual({ uid: created.uid, status: 'deleted' });
    expect(await aircraftTotals()).toEqual(before);
    await failed('get_flight_log', { id: created.uid }, 404);
  });

  it('batch_create_flight_logs and batch_delete_flight_logs report each item', async () => {
    const before = await aircraftTotals();
    const r = await ok('batch_create_flight_logs', {
      items: [flightLogBody({ hobbs: 1 }), flightLogBody({ hobbs: 2 }), flightLogBody({ pax: 'x' })],
    });
    expect(r.results).toHaveLength(2);
    expect(r.errors).toEqual([{ index: 2, error: expect.stringContaining('pax') }]);
    expect((await aircraftTotals()).hobbs).toBeCloseTo(before.hobbs + 3, 6);
    const d = await ok('batch_delete_flight_logs', { ids: [...r.results.map((x: Json) => x.uid), 'nope'] });
    expect(d.results).toHaveLength(2);
    expect(d.errors).toEqual([{ index: 2, error: expect.stringContaining('not found') }]);
    expect(await aircraftTotals()).toEqual(before);
  });

  it('bad input: a tool error with the same message and field paths as REST, and nothing changes', async () => {
    const before = await aircraftTotals();
    const count = (await rest('GET', '/flight-logs')).body.count;
    const bad = flightLogBody({ pax: 'x', hobbs: 1 });
    const p = await failed('create_flight_log', bad, 400, '/pax');
    const viaRest = await rest('POST', '/flight-logs', bad);
    expect(viaRest.status).toBe(400);
    expect(p).toEqual(viaRest.body);

    await failed('create_flight_log', flightLogBody({ aircraftRegistration: 'VH-XXX' }), 400);
    await failed('list_flight_logs', { limit: 0 }, 400, '/query/limit');
    await failed('update_flight_log', { landings: 1 }, 400, '/path/id');
    await failed('get_aircraft', { id: 'acme-ac-1', extra: 1 }, 400, '/extra');
    expect(await aircraftTotals()).toEqual(before);
    expect((await rest('GET', '/flight-logs')).body.count).toBe(count);
  });

  it('another company\u2019s log or aircraft: not found, nothing changed', async () => {
    const b = await rest('POST', '/flight-logs', flightLogBody({ pilot: 'globex-pilot', aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO', hobbs: 1 }), env.b.key);
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    await failed('get_flight_log', { id: b.body.uid }, 404);
    await failed('update_flight_log', { id: b.body.uid, pax: 9 }, 404);
    await failed('delete_flight_log', { id: b.body.uid }, 404);
    const still = await rest('GET', `/flight-logs/${b.body.uid}`, undefined, env.b.key);
    expect(still.status).toBe(200);
    expect(still.body.pax).toBe(2);
  });
});

describe('vehicles', () => {
  it('create, get, update, delete and restore', async () => {
    const reg = `MCP-${uniq()}`;
    const created = await ok('create_vehicle', { make: 'Ford', model: 'Ranger', registration: reg });
    expect(created.status).toBe('created');
    expect(await ok('get_vehicle', { id: created.uid })).toMatchObject({ uid: created.uid, registration: reg, status: 'active' });
    expect((await ok('update_vehicle', { id: created.uid, color: 'white' })).status).toBe('updated');
    expect((await ok('list_vehicles', {})).data.map((v: Json) => v.uid)).toContain(created.uid);
    expect((await ok('delete_vehicle', { id: created.uid })).status).toBe('deleted');
    expect((await ok('list_vehicles', { includeDeleted: true })).data.map((v: Json) => v.uid)).toContain(created.uid);
    expect((await ok('list_vehicles', { includeDeleted: 'false' })).data.map((v: Json) => v.uid)).not.toContain(created.uid);
    expect((await ok('restore_vehicle', { id: created.uid })).status).toBe('restored');
    expect((await rest('GET', `/vehicles/${created.uid}`)).body).toMatchObject({ color: 'white', status: 'active' });
  });

  it('batch create, bad input, and another company\u2019s vehicle', async () => {
    const r = await ok('batch_create_vehicles', { items: [{ make: 'A', model: 'B', registration: `B-${uniq()}` }] });
    expect(r.results).toHaveLength(1);
    const count = (await rest('GET', '/vehicles')).body.count;
    await failed('create_vehicle', { make: 'Ford', model: 'Ranger', registration: `X-${uniq()}`, year: 'soon' }, 400, '/year');
    await failed('create_vehicle', { make: 'Ford', model: 'Ranger', registration: `X-${uniq()}`, wheels: 4 }, 400, '/wheels');
    expect((await rest('GET', '/vehicles')).body.count).toBe(count);
    await failed('update_vehicle', { id: 'globex-v-1', color: 'red' }, 404);
    expect((await rest('GET', '/vehicles/globex-v-1', undefined, env.b.key)).body.color).toBeUndefined();
  });
});

describe('components', () => {
  it('create, inheritable sources, install on an aircraft (counter follows hobbs), remove', async () => {
    const created = await ok('create_component', {
      name: 'Engine',
      type: 'Engine',
      partNumber: 'PN-250',
      serialNumber: `SN-${uniq()}`,
      counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 10 }],
    });
    expect(created.status).toBe('created');
    const sources = await ok('get_inheritable_sources', { id: created.uid, parentType: 'aircraft', parentUid: 'acme-ac-1' });
    expect(JSON.stringify(sources)).toContain('hobbs');
    const installed = await ok('install_component', {
      id: created.uid,
      parentType: 'aircraft',
      parentUid: 'acme-ac-1',
      mappings: [{ counterKey: 'hours', sourceKey: 'hobbs' }],
    });
    expect(installed).toMatchObject({ uid: created.uid });
    expect(await ok('get_component', { id: created.uid })).toMatchObject({ state: 'installed', parent: { uid: 'acme-ac-1' }, totals: { hours: 10 } });
    await ok('create_flight_log', flightLogBody({ hobbs: 2 }));
    expect((await ok('get_component', { id: created.uid })).totals).toEqual({ hours: 12 });
    await failed('install_component', { id: created.uid, parentType: 'aircraft', parentUid: 'acme-ac-2' }, 409);
    await ok('remove_component', { id: created.uid });
    expect((await ok('get_component', { id: created.uid })).state).toBe('inStores');
    expect((await ok('list_components', { state: 'inStores' })).data.map((x: Json) => x.uid)).toContain(created.uid);
  });

  it('bad install input and another company\u2019s parent change nothing', async () => {
    const created = await ok('create_component', { name: 'Prop', type: 'Propeller', partNumber: 'P-1', serialNumber: `SN-${uniq()}` });
    await failed('install_component', { id: created.uid, parentType: 'aircraft' }, 400, '/parentUid');
    await failed('install_component', { id: created.uid, parentType: 'aircraft', parentUid: 'globex-ac-1' }, 400);
    expect((await rest('GET', `/components/${created.uid}`)).body.state).toBe('inStores');
  });
});

describe('maintenance schedule', () => {
  it('create an item, read it, maintenance status due within 30 days, complete it', async () => {
    const created = await ok('create_schedule_item', {
      name: `Annual ${uniq()}`,
      type: 'Inspection',
      relatedTo: 'acme-ac-2',
      relatedToType: 'aircraft',
      recurring: true,
      calendarDateDue: new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10),
      calendarRecurring: 365,
    });
    expect(created.status).toBe('created');
    expect((await ok('get_schedule_item', { id: created.uid })).relatedTo).toBe('acme-ac-2');
    const status = await ok('get_maintenance_status', { dueWithinDays: 30 });
    expect(JSON.stringify(status)).toContain(created.uid);
    const far = await ok('get_maintenance_status', { dueWithinDays: 5 });
    expect(JSON.stringify(far)).not.toContain(created.uid);
    await ok('complete_schedule_item', { id: created.uid });
    const done = await ok('list_schedule_completions', { scheduleItemId: created.uid });
    expect(done.data).toHaveLength(1);
    await failed('create_schedule_item', { name: 'x', type: 'Inspection', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2030-01-01' }, 400, '/relatedTo');
    await failed('get_schedule_item', { id: 'nope' }, 404);
  });
});

describe('resources and prompts', () => {
  it('lists each of the company\u2019s aircraft as a resource and reads tracking fields and totals', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['fleetops://aircraft/acme-ac-1', 'fleetops://aircraft/acme-ac-2', 'fleetops://maintenance-status']));
    expect(uris.some((u) => u.includes('globex'))).toBe(false);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('fleetops://aircraft/{id}');
    const read = await client.readResource({ uri: 'fleetops://aircraft/acme-ac-1' });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body).toMatchObject({ uid: 'acme-ac-1', registration: 'VH-ACM' });
    expect(Object.keys(body.maintenanceTrackingItems)).toEqual(['hobbs', 'landings']);
    expect(body.totals).toEqual(await aircraftTotals());
    await expect(client.readResource({ uri: 'fleetops://aircraft/globex-ac-1' })).rejects.toThrow(/not found/);
    const status = await client.readResource({ uri: 'fleetops://maintenance-status' });
    expect(JSON.parse((status.contents[0] as { text: string }).text)).toHaveProperty('data');
  });

  it('offers the log-flight and due-next-30-days prompts', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['due-next-30-days', 'log-flight']);
    const log = await client.getPrompt({ name: 'log-flight', arguments: { aircraft: 'VH-ACM' } });
    expect((log.messages[0].content as { text: string }).text).toMatch(/VH-ACM[\s\S]*create_flight_log/);
    const due = await client.getPrompt({ name: 'due-next-30-days' });
    expect((due.messages[0].content as { text: string }).text).toMatch(/get_maintenance_status[\s\S]*dueWithinDays=30/);
  });
});

describe('over a real HTTP server', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer(createServerAdapter((req: Request) => env.app.fetch(req)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  it('the SDK client connects over the network and logs a flight', async () => {
    const c = new Client({ name: 'net', version: '1' });
    await c.connect(transport(env.a.key, base, false));
    try {
      const before = await aircraftTotals('acme-ac-2');
      await ok('create_flight_log', { ...flightLogBody({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ' }), tacho: 1.25 }, c);
      expect((await aircraftTotals('acme-ac-2')).tacho).toBeCloseTo((before.tacho ?? 0) + 1.25, 6);
    } finally {
      await c.close();
    }
  });

  it('the MCP Inspector CLI (as an integrator would run it) lists the tools and calls one', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const cli = path.join(root, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
    const inspect = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [cli, '--cli', `${base}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${env.a.key}`, ...args],
        // inspector-cli 1.0.3 finds its own package.json through `../package.json` relative to the working
        // directory: run it from a directory whose parent has one (the repository root)
        { cwd: path.join(root, 'test'), timeout: 60_000 },
      );
    const list = JSON.parse((await inspect('--method', 'tools/list')).stdout);
    expect(list.tools.map((t: Json) => t.name).sort()).toEqual(restRoutes.map((r) => toolName(r.operationId)).sort());
    const got = JSON.parse((await inspect('--method', 'tools/call', '--tool-name', 'get_aircraft', '--tool-arg', 'id=acme-ac-1')).stdout);
    expect(got.structuredContent).toMatchObject({ uid: 'acme-ac-1', registration: 'VH-ACM' });
    const missing = JSON.parse((await inspect('--method', 'tools/call', '--tool-name', 'get_aircraft', '--tool-arg', 'id=globex-ac-1')).stdout);
    expect(missing.isError).toBe(true);
  }, 120_000);
});
