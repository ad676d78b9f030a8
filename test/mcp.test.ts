// The MCP channel at /mcp (docs/contract/gaps.md §8) driven by the SDK's own client over Streamable HTTP: initialize, tools for
// every REST operation (schemas and hints), reads and writes of each module through the same services (totals
// move), tool errors with REST's messages and paths (nothing changed), another company's record (not found),
// resources and prompts, and 401 without a key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/routes.js';
import { isAdminRoute } from '../src/rest/openapi.js';
import { schema } from '../src/graphql/schema.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

let env: TestEnv;
let client: Client;

async function connect(key: string | null): Promise<Client> {
  const c = new Client({ name: 'fleetops-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://fleetops.test/mcp'), {
    fetch: (url, init) => env.app.fetch(new Request(url, init)),
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
  });
  await c.connect(transport);
  return c;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const call = (name: string, args: Record<string, unknown> = {}, c = client) => c.callTool({ name, arguments: args }) as Promise<Result & { structuredContent?: any }>;
const text = (r: Result) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  env = await createTestEnv();
  client = await connect(env.a.key);
});
afterAll(async () => {
  await client?.close();
  await env?.close();
});

describe('tools', () => {
  it('lists a tool for every REST operation, each with an input schema, a description and hints', async () => {
    const { tools } = await client.listTools();
    const names = new Set(tools.map((t) => t.name));
    // a read_write key: every route but the company's management (admin keys) and key management (never a tool)
    const mine = restRoutes.filter((r) => r.mcp !== false && !isAdminRoute(r, schema));
    for (const r of mine) expect(names.has(r.operationId), `${r.method} ${r.path} has no tool`).toBe(true);
    expect(tools.length).toBe(mine.length);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description!.length, t.name).toBeGreaterThan(8); // what the tool adds to its name: its summary at least
      expect(t.annotations?.openWorldHint, t.name).toBeUndefined(); // said once, in the instructions
    }
    expect(client.getInstructions()).toContain('none reaches anything outside this service');
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    // hints as MCP reads them: the annotations, else the specification's defaults (not read-only, destructive,
    // not idempotent); the list sends only what differs from those
    const hints = (t: { annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean } }) => {
      const a = t.annotations ?? {};
      const readOnly = a.readOnlyHint ?? false;
      return { readOnly, destructive: !readOnly && (a.destructiveHint ?? true), idempotent: readOnly || (a.idempotentHint ?? false) };
    };
    expect(hints(by.listAircraft)).toEqual({ readOnly: true, destructive: false, idempotent: true });
    expect(hints(by.aggregate)).toMatchObject({ readOnly: true });
    expect(hints(by.createFlightLog)).toEqual({ readOnly: false, destructive: false, idempotent: false });
    expect(hints(by.deleteFlightLog)).toEqual({ readOnly: false, destructive: true, idempotent: true });
    expect(hints(by.updateVehicle)).toMatchObject({ readOnly: false, idempotent: true });
    expect(by.getAircraft.inputSchema.required).toEqual(['id']);
    expect((by.createFlightLog.inputSchema.properties as any).body.required).toEqual(expect.arrayContaining(['timeDate', 'pilot', 'aircraftId']));
    expect(by.getAircraft.outputSchema).toBeUndefined();
  });

  it('logs a flight and the totals move; the same rules and messages as REST for a bad one, which changes nothing', async () => {
    const before = (await call('getAircraft', { id: 'acme-ac-1' })).structuredContent.totals;
    const created = await call('createFlightLog', { body: flightLogBody({ hobbs: 1.3, landings: 2 }) });
    expect(created.isError, text(created)).toBeFalsy();
    expect(created.structuredContent).toEqual({ uid: expect.any(String), status: 'created' });
    const after = (await call('getAircraft', { id: 'acme-ac-1' })).structuredContent.totals;
    expect(after.hobbs).toBe(Number((before.hobbs + 1.3).toFixed(1)));
    expect(after.landings).toBe(before.landings + 2);

    const bad = await call('createFlightLog', { body: flightLogBody({ hobbs: 'lots' }) });
    expect(bad.isError).toBe(true);
    const rest = await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ hobbs: 'lots' }) });
    expect(text(bad)).toContain(rest.body.detail);
    expect(text(bad)).toContain('/hobbs');
    expect((await call('getAircraft', { id: 'acme-ac-1' })).structuredContent.totals).toEqual(after);

    const batch = await call('batchCreateFlightLogs', { body: { items: [flightLogBody({ hobbs: 0.5 }), flightLogBody({ hobbs: 'x' })] } });
    expect(batch.structuredContent.results).toHaveLength(1);
    expect(batch.structuredContent.errors[0].index).toBe(1);
  });

  it('reads and writes every module', async () => {
    expect((await call('listUsers')).structuredContent.count).toBe(3);
    expect((await call('getUser', { uid: 'acme-pilot' })).structuredContent.uid).toBe('acme-pilot');
    const v = await call('createVehicle', { body: { make: 'Ford', model: 'Transit', registration: 'MCP-1' } });
    expect(v.structuredContent.status).toBe('created');
    expect((await call('updateVehicle', { id: v.structuredContent.uid, body: { color: 'white' } })).structuredContent.status).toBe('updated');
    const comp = await call('createComponent', { body: { name: 'Main rotor blade', type: 'Rotor blade', partNumber: 'MRB-1', serialNumber: `SN-${Date.now()}` } });
    expect(comp.isError, text(comp)).toBeFalsy();
    const inst = await call('installComponent', { id: comp.structuredContent.uid, body: { parentType: 'aircraft', parentUid: 'acme-ac-1' } });
    expect(inst.isError, text(inst)).toBeFalsy();
    expect(inst.structuredContent.status).toBe('installed');
    const item = await call('createScheduleItem', { body: { name: '100 hourly', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, trackingItem: 'hobbs', dueAtInterval: 1201, recurringInterval: 100 } });
    expect(item.isError, text(item)).toBeFalsy();
    const due = await call('getMaintenanceStatus', { dueWithinDays: 30 });
    expect(due.structuredContent.data.map((d: any) => d.scheduleItemUid)).toContain(item.structuredContent.uid);
    const form = await call('createForm', { body: { name: 'Check', code: 'mcp-check', department: 'Ops', sections: [{ name: 'S', fields: [{ name: 'ok', label: 'OK', type: 'boolean', required: true }] }] } });
    expect(form.isError, text(form)).toBeFalsy();
    const done = await call('createFormCompletion', { body: { formId: form.structuredContent.uid, answers: { ok: true } } });
    expect(done.structuredContent.status).toBe('created');
    const agg = await call('aggregate', { body: { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId' } });
    expect(agg.isError, text(agg)).toBeFalsy();
    expect(agg.structuredContent.results[0].group).toBe('acme-ac-1');
    const logs = await call('listFlightLogs', { aircraftId: 'acme-ac-1', limit: 1 });
    expect(logs.structuredContent.count).toBe(1);
  });

  it('another company\u2019s record is not found, and bad arguments are tool errors', async () => {
    const theirs = await call('getAircraft', { id: 'globex-ac-1' });
    expect(theirs.isError).toBe(true);
    expect(text(theirs)).toMatch(/not found/);
    const unknown = await call('getAircraft', { id: 'acme-ac-1', colour: 'red' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/unknown argument colour/);
    const missing = await call('getAircraft', {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/id is required/);
    // an unknown tool is a protocol error (MCP: invalid params), not a tool result
    await expect(call('noSuchTool', {})).rejects.toMatchObject({ code: -32602 });
  });
});

describe('resources and prompts', () => {
  it('an aircraft resource gives its tracking fields and totals; the field schema and the OpenAPI document are resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['fleetops://aircraft/acme-ac-1', 'fleetops://forms/field-schema', 'fleetops://openapi']));
    // every listed resource can be read (the OpenAPI document was listed but answered "resource not found")
    for (const { uri } of resources) expect((await client.readResource({ uri })).contents[0].uri, uri).toBe(uri);
    const doc = JSON.parse(((await client.readResource({ uri: 'fleetops://openapi' })).contents[0] as { text: string }).text);
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.paths['/flight-logs']).toBeDefined();
    expect(resources.map((r) => r.uri)).not.toContain('fleetops://aircraft/globex-ac-1');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates[0].uriTemplate).toBe('fleetops://aircraft/{id}');
    const r = await client.readResource({ uri: 'fleetops://aircraft/acme-ac-1' });
    const body = JSON.parse((r.contents[0] as { text: string }).text);
    expect(body.registration).toBe('VH-ACM');
    expect(body.trackingFields.map((f: any) => f.key).sort()).toEqual(['fuelUplift', 'hobbs', 'landings', 'remarks']);
    expect(body.trackingFields.find((f: any) => f.key === 'hobbs')).toMatchObject({ kind: 'maintenance', type: 'number' });
    expect(body.totals.hobbs).toEqual(expect.any(Number));
    await expect(client.readResource({ uri: 'fleetops://aircraft/globex-ac-1' })).rejects.toThrow();
    const fs = await client.readResource({ uri: 'fleetops://forms/field-schema' });
    expect(JSON.parse((fs.contents[0] as { text: string }).text).fieldTypes.defect).toBeDefined();
  });

  it('offers the log-flight and due-next-30-days prompts', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['log-flight', 'due-next-30-days']);
    const p = await client.getPrompt({ name: 'log-flight', arguments: { aircraftId: 'acme-ac-1' } });
    expect((p.messages[0].content as { text: string }).text).toContain('fleetops://aircraft/acme-ac-1');
  });
});

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate without a key or with a bad one', async () => {
    for (const key of [null, 'fo_live_nope']) {
      const res = await env.request('POST', '/mcp', {
        key,
        body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    await expect(connect(null)).rejects.toThrow();
  });

  it('a key of another company sees that company', async () => {
    const other = await connect(env.b.key);
    try {
      const r = await call('listAircraft', {}, other);
      expect(r.structuredContent.data.map((a: any) => a.uid).sort()).toEqual(['globex-ac-1', 'globex-ac-2']);
    } finally {
      await other.close();
    }
  });
});
