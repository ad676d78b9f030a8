// More of the MCP channel at /mcp (issue 12, docs/contract/gaps.md §8) through the SDK's own Client, beyond test/mcp.test.ts:
// the transport (stateless: GET and DELETE are 405, so an idle client stops polling; rate limited with REST;
// over a real node:http server), tools written for a model (guidance, output schemas for every tool, hints of
// removals and resets), argument checks that keep a call on its own route, tool errors equal to REST's problem,
// and a read and a write of each module, with another company's records out of reach.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/routes.js';
import { isAdminRoute } from '../src/rest/openapi.js';
import { schema as gqlSchema } from '../src/graphql/schema.js';

/** The tools a read_write key is shown: every route but the company's management and key management (admin). */
const WRITER_TOOLS = restRoutes.filter((r) => r.mcp !== false && !isAdminRoute(r, gqlSchema));
import { isReadRoute } from '../src/rest/contract.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { withToolTable } from '../src/mcp/docs.js';
import { addDays, createTestEnv, flightLogBody, todayIn, uniq, type TestEnv } from './helpers.js';

const API = '/api/v1';
let env: TestEnv;
let client: Client;
let requests: string[] = [];

function transport(key: string | null, base = 'http://fleetops.test', inProcess = true) {
  return new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    ...(inProcess
      ? {
          fetch: (url: string | URL, init?: RequestInit) => {
            requests.push(init?.method ?? 'GET');
            return env.app.fetch(new Request(url, init));
          },
        }
      : {}),
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
}

beforeAll(async () => {
  env = await createTestEnv();
  client = new Client({ name: 'fleetops-test', version: '1.0.0' });
  await client.connect(transport(env.a.key));
});
afterAll(async () => {
  await client?.close();
  await env?.close();
});

type Json = Record<string, any>;

const call = async (name: string, args: Json = {}, c: Client = client) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;

/** A tool's hints as MCP reads them: what the annotations say, else the specification's defaults. */
function hints(t: { annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean } }) {
  const a = t.annotations ?? {};
  const readOnly = a.readOnlyHint ?? false;
  return { readOnly, destructive: !readOnly && (a.destructiveHint ?? true), idempotent: readOnly || (a.idempotentHint ?? false) };
}

/** A successful call's structuredContent (the REST answer, as the text content says it too). */
async function ok(name: string, args: Json = {}, c: Client = client): Promise<Json> {
  const r = await call(name, args, c);
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  return r.structuredContent as Json;
}

/** A failed call's problem details (second text block); the first block names the detail and each field path. */
async function failed(name: string, args: Json, status: number, path?: string): Promise<Json> {
  const r = await call(name, args);
  expect(r.isError, JSON.stringify(r)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const text = (r.content[0] as { text: string }).text;
  const problem = JSON.parse((r.content[1] as { text: string }).text);
  expect(problem.status, text).toBe(status);
  expect(text).toContain(problem.detail);
  if (path) {
    expect(problem.errors?.map((e: Json) => e.path), text).toContain(path);
    expect(text).toContain(`${path}: `);
  }
  return problem;
}

const rest = (method: string, path: string, body?: unknown, key?: string) => env.json(method, `${API}${path}`, { body, key });
const totals = async (id = 'acme-ac-1') => (await rest('GET', `/aircraft/${id}`)).body.totals;
const logCount = async () => (await rest('GET', '/flight-logs?limit=500')).body.count as number;

describe('transport', () => {
  it('stateless: GET and DELETE are 405 with Allow: POST, and an idle SDK client sends nothing more', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await env.request(method, '/mcp', { headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    const c = new Client({ name: 'idle', version: '1' });
    requests = [];
    await c.connect(transport(env.a.key));
    await new Promise((r) => setTimeout(r, 2500)); // the SDK reconnects a GET stream after 1 s
    expect(requests.filter((m) => m === 'GET').length).toBeLessThanOrEqual(1);
    const settled = requests.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(requests.length).toBe(settled);
    await c.close();
  });

  it('shares the per-key rate limit with REST', async () => {
    const limited = await createTestEnv({ rateLimitPerMinute: 3 });
    try {
      const ping = () =>
        limited.request('POST', '/mcp', {
          key: limited.a.key,
          headers: { accept: 'application/json, text/event-stream' },
          body: { jsonrpc: '2.0', id: 1, method: 'ping' },
        });
      expect((await ping()).status).toBe(200);
      expect((await limited.request('GET', `${API}/aircraft`, { key: limited.a.key })).status).toBe(200);
      expect((await ping()).status).toBe(200);
      const over = await ping();
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.close();
    }
  });

  it('works over a real HTTP server: log a flight, the totals move', async () => {
    const server = http.createServer(createServerAdapter((req: Request) => env.app.fetch(req)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const c = new Client({ name: 'net', version: '1' });
    try {
      await c.connect(transport(env.a.key, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, false));
      const before = await totals('acme-ac-2');
      await ok('createFlightLog', { body: flightLogBody({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', tacho: 1.25 }) }, c);
      expect((await totals('acme-ac-2')).tacho).toBeCloseTo((before.tacho ?? 0) + 1.25, 6);
    } finally {
      await c.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('tools for a model', () => {
  it('a read key is shown only the tools it may call (the read ones); a read_write key every tool', async () => {
    const reader = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'mcp-reader', scope: 'read' })).key;
    const list = async (key: string) => {
      const res = await env.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } });
      return (await res.json()).result.tools as { name: string; annotations?: { readOnlyHint?: boolean } }[];
    };
    const readable = WRITER_TOOLS.filter((r) => isReadRoute(r)).map((r) => r.operationId).sort();
    expect((await list(reader)).map((t) => t.name).sort()).toEqual(readable);
    expect((await list(reader)).every((t) => t.annotations?.readOnlyHint)).toBe(true);
    expect((await list(env.a.key)).map((t) => t.name).sort()).toEqual(WRITER_TOOLS.map((r) => r.operationId).sort());
    // an admin key also the company's management; key management is never a tool
    const admin = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'mcp-admin', scope: 'admin' })).key;
    expect((await list(admin)).map((t) => t.name).sort()).toEqual(restRoutes.filter((r) => r.mcp !== false).map((r) => r.operationId).sort());
    // what an assistant's context pays before it does anything: at most 32 KB for the widest list (issue 27)
    const size = async (key: string) =>
      (await (await env.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } })).text()).length;
    expect(await size(admin)).toBeLessThanOrEqual(32 * 1024);
  });

  it('a body field the contract lets take null or text says so (pax: number or null, required; lastCarriedOutValue: number or string)', async () => {
    const { tools } = await client.listTools();
    const body = (name: string) => (tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { properties: Record<string, { type: unknown }>; required?: string[] }>).body;
    expect(body('createFlightLog').properties.pax.type).toEqual(['integer', 'null']);
    expect(body('createFlightLog').required).toContain('pax');
    expect(body('createScheduleItem').properties.lastCarriedOutValue.type).toEqual(['number', 'string']);
    // an optional field's null (clearing it on update) is said once in the instructions, not on each field
    expect(body('createFlightLog').properties.notes?.type ?? 'string').toBe('string');
    // and a query number stays a number
    expect((tools.find((t) => t.name === 'listFlightLogs')!.inputSchema.properties as Record<string, { type: unknown }>).limit.type).toBe('number');
  });

  it('tools carry no output schema (the shapes are the OpenAPI resource\u2019s), and descriptions explain the domain, not REST media types', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(WRITER_TOOLS.map((r) => r.operationId).sort());
    for (const t of tools) {
      expect(t.outputSchema, t.name).toBeUndefined();
      expect(t.description, t.name).not.toMatch(/Accept:|text\/csv/);
    }
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(by.createFlightLog.description).toMatch(/fleetops:\/\/aircraft\/\{id\}/);
    expect(by.createFlightLog.description).toMatch(/not new totals/);
    expect(by.aggregate.description).toMatch(/groupBy aircraftId, dateField timeDate, dateGroup month/);
    expect(by.getMaintenanceStatus.description).toMatch(/dueWithinDays 30/);
    expect(hints(by.removeComponent)).toMatchObject({ readOnly: false, destructive: true });
    expect(hints(by.resetComponentCounter)).toMatchObject({ readOnly: false, destructive: true });
    expect(hints(by.batchDeleteFlightLogs)).toMatchObject({ readOnly: false, destructive: true });
    expect(hints(by.installComponent)).toMatchObject({ readOnly: false, destructive: false });
    expect(hints(by.restoreVehicle)).toMatchObject({ readOnly: false, destructive: false });
  });

  it('docs/mcp.md lists every tool (regenerate with `npx tsx scripts/mcp-docs.ts`)', () => {
    const doc = fs.readFileSync(new URL('../docs/mcp.md', import.meta.url), 'utf8');
    expect(doc, 'docs/mcp.md is stale: run npx tsx scripts/mcp-docs.ts').toBe(withToolTable(doc, restRoutes));
    for (const r of restRoutes.filter((x) => x.mcp !== false)) expect(doc).toContain(`| \`${r.operationId}\` |`);
    for (const r of restRoutes.filter((x) => x.mcp === false)) expect(doc).not.toContain(`| \`${r.operationId}\` |`);
  });

  it('path parameters are checked by the route\u2019s schema: an empty id does not reach another route', async () => {
    const p = await failed('getAircraft', { id: '' }, 400, '/path/id');
    expect(p.detail).toBe('invalid path parameter');
    await failed('deleteVehicle', { id: '' }, 400, '/path/id');
    expect((await rest('GET', '/vehicles/acme-v-1')).body.status).toBe('active');
  });

  it('query parameters must be scalars; numbers and booleans are taken as REST takes their text', async () => {
    await failed('listFlightLogs', { aircraftId: { uid: 'acme-ac-1' } }, 400, '/query/aircraftId');
    await failed('listFlightLogs', { limit: 0 }, 400, '/query/limit');
    expect((await ok('listFlightLogs', { limit: 1 })).data.length).toBeLessThanOrEqual(1);
    expect((await ok('listVehicles', { includeDeleted: true })).data.map((v: Json) => v.uid)).toContain('acme-v-1');
  });
});

describe('reads and writes of each module', () => {
  it('flight logs: create, get, update, projected list, delete; the totals follow and come back', async () => {
    const before = await totals();
    const created = await ok('createFlightLog', { body: flightLogBody({ hobbs: 1.3, landings: 2, fuelUplift: 80 }) });
    expect(await totals()).toEqual({ ...before, hobbs: Number((before.hobbs + 1.3).toFixed(1)), landings: before.landings + 2 });
    expect(await ok('getFlightLog', { id: created.uid })).toMatchObject({ uid: created.uid, hobbs: 1.3, landings: 2, fuelUplift: 80 });
    expect(await ok('updateFlightLog', { id: created.uid, body: { landings: 3 } })).toEqual({ uid: created.uid, status: 'updated' });
    expect((await totals()).landings).toBe(before.landings + 3);
    const page = await ok('listFlightLogs', { aircraftId: 'acme-ac-1', limit: 1, fields: 'pilot,hobbs' });
    expect(page.data).toEqual([{ uid: created.uid, pilot: 'acme-pilot', hobbs: 1.3 }]);
    expect(await ok('deleteFlightLog', { id: created.uid })).toEqual({ uid: created.uid, status: 'deleted' });
    expect(await totals()).toEqual(before);
  });

  it('flight logs in batches: each item reported, the totals exact', async () => {
    const before = await totals();
    const r = await ok('batchCreateFlightLogs', { body: { items: [flightLogBody({ hobbs: 1 }), flightLogBody({ hobbs: 2 }), flightLogBody({ pax: 'x' })] } });
    expect(r.results).toHaveLength(2);
    expect(r.errors).toEqual([{ index: 2, error: expect.stringContaining('pax') }]);
    expect((await totals()).hobbs).toBeCloseTo(before.hobbs + 3, 6);
    const d = await ok('batchDeleteFlightLogs', { body: { ids: [...r.results.map((x: Json) => x.uid), 'nope'] } });
    expect(d.results).toHaveLength(2);
    expect(d.errors).toEqual([{ index: 2, error: expect.stringContaining('not found') }]);
    expect(await totals()).toEqual(before);
  });

  it('a bad flight log: the tool error is REST\u2019s problem, field paths included, and nothing changes', async () => {
    const before = await totals();
    const count = await logCount();
    const bad = flightLogBody({ pax: 'x', hobbs: 1 });
    const p = await failed('createFlightLog', { body: bad }, 400, '/pax');
    const viaRest = await rest('POST', '/flight-logs', bad);
    expect(viaRest.status).toBe(400);
    expect(p).toEqual(viaRest.body);
    await failed('createFlightLog', { body: flightLogBody({ aircraftRegistration: 'VH-XXX' }) }, 400);
    expect(await totals()).toEqual(before);
    expect(await logCount()).toBe(count);
  });

  it('users: filtered list and one user', async () => {
    expect((await ok('listUsers', { status: 'Pending' })).data.map((u: Json) => u.uid)).toEqual(['acme-new']);
    expect((await ok('getUser', { uid: 'acme-pilot' })).displayName).toBe('Pat Pilot');
    await failed('listUsers', { status: 'Sleeping' }, 400, '/query/status');
  });

  it('vehicles: create, update, delete, list with deleted ones, restore; a bad body changes nothing', async () => {
    const created = await ok('createVehicle', { body: { make: 'Ford', model: 'Ranger', registration: `MCP-${uniq()}` } });
    expect((await ok('updateVehicle', { id: created.uid, body: { color: 'white' } })).status).toBe('updated');
    expect((await ok('deleteVehicle', { id: created.uid })).status).toBe('deleted');
    expect((await ok('listVehicles', {})).data.map((v: Json) => v.uid)).not.toContain(created.uid);
    expect((await ok('listVehicles', { includeDeleted: true })).data.map((v: Json) => v.uid)).toContain(created.uid);
    expect((await ok('restoreVehicle', { id: created.uid })).status).toBe('restored');
    expect((await ok('getVehicle', { id: created.uid }))).toMatchObject({ color: 'white', status: 'active' });
    const count = (await rest('GET', '/vehicles')).body.count;
    await failed('createVehicle', { body: { make: 'Ford', model: 'Ranger', registration: `X-${uniq()}`, wheels: 4 } }, 400, '/wheels');
    expect((await rest('GET', '/vehicles')).body.count).toBe(count);
  });

  it('components: inheritable sources, install with a counter on hobbs that follows flights, remove', async () => {
    const created = await ok('createComponent', {
      body: { name: 'Engine', type: 'Engine', partNumber: 'PN-250', serialNumber: `SN-${uniq()}`, counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 10 }] },
    });
    const sources = await ok('getInheritableSources', { id: created.uid, parentType: 'aircraft', parentUid: 'acme-ac-1' });
    expect(JSON.stringify(sources)).toContain('hobbs');
    await ok('installComponent', { id: created.uid, body: { parentType: 'aircraft', parentUid: 'acme-ac-1', mappings: [{ counterKey: 'hours', sourceKey: 'hobbs' }] } });
    expect(await ok('getComponent', { id: created.uid })).toMatchObject({ state: 'installed', parent: { uid: 'acme-ac-1' }, totals: { hours: 10 } });
    const log = await ok('createFlightLog', { body: flightLogBody({ hobbs: 2 }) });
    expect((await ok('getComponent', { id: created.uid })).totals).toEqual({ hours: 12 });
    await failed('installComponent', { id: created.uid, body: { parentType: 'aircraft', parentUid: 'acme-ac-2' } }, 409);
    await ok('removeComponent', { id: created.uid });
    expect((await ok('getComponent', { id: created.uid })).state).toBe('inStores');
    expect((await ok('listComponents', { state: 'inStores' })).data.map((x: Json) => x.uid)).toContain(created.uid);
    await ok('deleteFlightLog', { id: log.uid });
    // a query value as a number or a boolean means what REST's text means (`?partNumber=250` is text)
    const numbered = await ok('createComponent', { body: { name: 'Starter', type: 'Starter', partNumber: '250', serialNumber: `SN-${uniq()}` } });
    const byNumber = await ok('listComponents', { partNumber: 250, includeDeleted: false });
    expect(byNumber.data.map((x: Json) => x.uid)).toEqual([numbered.uid]);
    expect(byNumber).toEqual((await rest('GET', '/components?partNumber=250&includeDeleted=false')).body);
  });

  it('schedule: an item due in 10 days is in the 30-day status, not the 5-day one; completing it records a completion', async () => {
    const created = await ok('createScheduleItem', {
      body: {
        name: `Annual ${uniq()}`,
        type: 'Inspection',
        relatedTo: 'acme-ac-2',
        relatedToType: 'aircraft',
        recurring: true,
        calendarDateDue: addDays(todayIn('UTC'), 10),
        calendarRecurring: 365,
      },
    });
    expect((await ok('getScheduleItem', { id: created.uid })).relatedTo).toBe('acme-ac-2');
    expect(JSON.stringify(await ok('getMaintenanceStatus', { dueWithinDays: 30 }))).toContain(created.uid);
    expect(JSON.stringify(await ok('getMaintenanceStatus', { dueWithinDays: 5 }))).not.toContain(created.uid);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('fleetops://maintenance-status');
    const status = await client.readResource({ uri: 'fleetops://maintenance-status' });
    expect(JSON.parse((status.contents[0] as { text: string }).text)).toEqual(await ok('getMaintenanceStatus'));
    expect((status.contents[0] as { text: string }).text).toContain(created.uid);
    await ok('completeScheduleItem', { id: created.uid });
    expect((await ok('listScheduleCompletions', { scheduleItemId: created.uid })).data).toHaveLength(1);
    expect(JSON.stringify(await ok('getMaintenanceStatus', { dueWithinDays: 30 }))).not.toContain(created.uid);
  });

  it('aggregate: hours flown per aircraft per month', async () => {
    const log = await ok('createFlightLog', { body: flightLogBody({ timeDate: '2025-07-15T10:00:00Z', hobbs: 1.5 }) });
    const r = await ok('aggregate', { body: { collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month' } });
    expect(r.results).toContainEqual(expect.objectContaining({ group: 'acme-ac-1', period: '2025-07', value: 1.5, count: 1 }));
    await failed('aggregate', { body: { collection: 'flightLogs', metric: 'hobbs', groupBy: 'month' } }, 400, '/groupBy');
    await ok('deleteFlightLog', { id: log.uid });
  });
});

describe('another company\u2019s records', () => {
  it('cannot be read, changed or deleted (not found), and stay as they were', async () => {
    const theirs = await rest('POST', '/flight-logs', flightLogBody({ pilot: 'globex-pilot', aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO', hobbs: 1 }), env.b.key);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const problem = await failed('getFlightLog', { id: theirs.body.uid }, 404);
    expect(problem).toEqual((await rest('GET', `/flight-logs/${theirs.body.uid}`)).body);
    await failed('updateFlightLog', { id: theirs.body.uid, body: { pax: 9 } }, 404);
    await failed('deleteFlightLog', { id: theirs.body.uid }, 404);
    await failed('updateVehicle', { id: 'globex-v-1', body: { color: 'red' } }, 404);
    await failed('getUser', { uid: 'globex-pilot' }, 404);
    expect((await rest('GET', `/flight-logs/${theirs.body.uid}`, undefined, env.b.key)).body.pax).toBe(2);
    expect((await rest('GET', '/vehicles/globex-v-1', undefined, env.b.key)).body.color).toBeUndefined();
  });
});
