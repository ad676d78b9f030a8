// The same call gets the same answer on every channel (docs/decisions/0006-policy-at-the-operation.md):
// - the key's scope is decided before anything of the request is read: REST answered 400 for a read key's unknown
//   query parameter, its body on a route without one or an unknown key beside a batch's items, where GraphQL and MCP
//   answer 403;
// - MCP reports a mistake at REST's JSON Pointers (`/query/<name>`, `/path/<name>`);
// - a JSON-RPC batch of N tool calls costs N rate-limit units, as N REST requests do, also when MCP refuses the
//   calls itself (their operations never ran, so nothing was charged).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

let env: TestEnv;
let readKey: string;
beforeAll(async () => {
  env = await createTestEnv({ rateLimitPerMinute: 1000 });
  readKey = await newKey('read');
});
afterAll(async () => env?.close());

const API = '/api/v1';
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
/** A new key of company A: its own rate-limit window, which starts at its first request (in the test using it). */
const newKey = async (scope: 'read' | 'read_write' = 'read_write') => (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: `parity ${scope}`, scope })).key;

async function mcp(name: string, args: Record<string, unknown>, key: string) {
  const res = await env.request('POST', '/mcp', { key, headers: MCP_HEADERS, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  const r = (await res.json()).result;
  return r?.isError ? (JSON.parse(r.content[1].text) as { status: number; code: string; errors?: { path: string; message: string }[] }) : null;
}

describe('the key scope comes before the input, on REST as on GraphQL and MCP', () => {
  it('a read key is refused a write with 403 whatever its query parameters or body; nothing is written', async () => {
    const log = await env.rest.post('/flight-logs', flightLogBody());
    expect(log.status).toBe(201);
    const cases: [string, string, { body?: unknown }, string, Record<string, unknown>][] = [
      ['DELETE', `${API}/flight-logs/${log.body.uid}`, { body: { force: true } }, 'deleteFlightLog', { id: log.body.uid, force: true }],
      ['DELETE', `${API}/flight-logs/${log.body.uid}`, { body: '{not json' }, 'deleteFlightLog', { id: log.body.uid }],
      ['DELETE', `${API}/vehicles/acme-v-1?force=1`, {}, 'deleteVehicle', { id: 'acme-v-1', force: 1 }],
      ['POST', `${API}/flight-logs/batch`, { body: { items: [flightLogBody()], dryRun: true } }, 'batchCreateFlightLogs', { body: { items: [flightLogBody()], dryRun: true } }],
    ];
    for (const [method, path, o, tool, args] of cases) {
      const r = await env.json(method, path, { key: readKey, ...o });
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 403, code: 'forbidden' });
      expect(r.body.detail).toMatch(/^this API key is read-only: \w+ writes/);
      expect((await mcp(tool, args, readKey))?.status, tool).toBe(403);
    }
    expect((await env.rest.get(`/flight-logs/${log.body.uid}`)).status).toBe(200);
    expect((await env.rest.get('/vehicles/acme-v-1')).body.status).not.toBe('deleted');
  });

  it('a read_write key is refused an admin route with 403 whatever its query parameters', async () => {
    const g = await env.gql('mutation { deleteAircraft(id: "acme-ac-2") { uid status } }');
    expect(g.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const r = await env.json('DELETE', `${API}/aircraft/acme-ac-2?cascade=true`);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'forbidden' });
    expect((await mcp('deleteAircraft', { id: 'acme-ac-2', cascade: true }, env.a.key))?.status).toBe(403);
    expect((await env.rest.get('/aircraft/acme-ac-2')).status).toBe(200);
  });
});

describe('MCP reports mistakes at the JSON Pointers REST gives them', () => {
  it('an unknown filter of a list is at /query/<name>; a missing path parameter at /path/<name>', async () => {
    const rest = await env.json('GET', `${API}/vehicles?includeDeletd=true`);
    const tool = await mcp('listVehicles', { includeDeletd: true }, env.a.key);
    expect(tool?.errors?.map((e) => e.path)).toEqual(['/query/includeDeletd']);
    expect(rest.body.errors.map((e: { path: string }) => e.path)).toEqual(['/query/includeDeletd']);
    // a tool with a body: an unknown argument is a body field, as on REST
    expect((await mcp('createVehicle', { make: 'A', model: 'B', registration: 'PTR1', colour: 'red' }, env.a.key))?.errors?.map((e) => e.path)).toContain('/colour');
    expect((await mcp('getVehicle', {}, env.a.key))?.errors).toEqual([{ path: '/path/id', message: 'id is required' }]);
  });
  it('a body sent as null is the route\u2019s own refusal of a null body, as on REST (it was "body is required")', async () => {
    for (const [path, tool] of [['/aggregate', 'aggregate'], ['/schedule-items', 'createScheduleItem']]) {
      const rest = await env.json('POST', `${API}${path}`, { body: null });
      expect(rest.status, path).toBe(400);
      const refused = await mcp(tool, { body: null }, env.a.key);
      expect({ tool, status: refused?.status, errors: refused?.errors }).toEqual({ tool, status: 400, errors: rest.body.errors });
    }
  });
});

describe('MCP: a batch of N tool calls costs N units', () => {
  const remaining = (res: Response) => Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
  /** Units a request cost the key: the remaining budget before it (read by a probe request, itself 1) minus after. */
  async function cost(key: string, request: () => Promise<Response>): Promise<number> {
    const probe = await env.request('POST', '/graphql', { key, body: { query: '{ __typename }' } });
    return remaining(probe) - remaining(await request());
  }
  const batch = (name: string, args: Record<string, unknown>) => Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } }));

  it('calls MCP refuses itself (an unknown argument, a key out of scope) cost one unit each, as REST requests do', async () => {
    const key = await newKey();
    expect(await cost(key, () => env.request('POST', '/mcp', { key, headers: MCP_HEADERS, body: batch('listVehicles', { includeDeletd: true }) }))).toBe(10);
    const reader = await newKey('read');
    expect(await cost(reader, () => env.request('POST', '/mcp', { key: reader, headers: MCP_HEADERS, body: batch('deleteVehicle', { id: 'acme-v-1' }) }))).toBe(10);
    // and calls that run: one each
    expect(await cost(key, () => env.request('POST', '/mcp', { key, headers: MCP_HEADERS, body: batch('listVehicles', {}) }))).toBe(10);
    // REST: one a request, refused or not
    let last!: Response;
    expect(await cost(key, async () => {
      for (let i = 0; i < 9; i++) await env.request('GET', `${API}/vehicles?includeDeletd=true`, { key });
      return (last = await env.request('GET', `${API}/vehicles?includeDeletd=true`, { key }));
    })).toBe(10);
    expect(last.status).toBe(400);
  });
});
