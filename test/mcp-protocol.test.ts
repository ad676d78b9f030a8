// MCP protocol answers (docs/mcp.md, Errors): a mistake in a request's parameters is JSON-RPC's invalid params
// (-32602) naming the parameter, never an internal error; a refusal that is not about the parameters (the rate
// limit, a key's scope) is -32000 with the problem as `data`; and an Idempotency-Key names one write, so a batch that
// carries one may call at most one tool that writes (a 400 before anything runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from './helpers.js';

let env: TestEnv;
let limited: TestEnv;
const ACCEPT = { accept: 'application/json, text/event-stream' };
type Answer = { id: number; result?: any; error?: { code: number; message: string; data?: any } };
const rpc = async (e: TestEnv, body: unknown, headers: Record<string, string> = {}) =>
  (await e.request('POST', '/mcp', { headers: { ...ACCEPT, ...headers }, body })).json() as Promise<Answer & Answer[]>;
const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

beforeAll(async () => {
  [env, limited] = await Promise.all([createTestEnv(), createTestEnv({ rateLimitPerMinute: 2 })]);
});
afterAll(async () => {
  await env?.close();
  await limited?.close();
});

describe('parameters', () => {
  it('tools/call with arguments that are not an object is invalid params, and nothing runs', async () => {
    for (const args of [[1], 'x', 3]) {
      const r = await rpc(env, call(1, 'createVehicle', args));
      expect(r.error?.code, JSON.stringify(args)).toBe(-32602);
      expect(r.error?.message).toMatch(/arguments/);
    }
  });
  it('prompts/get: an unknown prompt, a missing required argument and arguments of the wrong type are invalid params', async () => {
    const unknown = await rpc(env, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'nope' } });
    expect(unknown.error).toMatchObject({ code: -32602, message: expect.stringMatching(/unknown prompt "nope": prompts\/list names them$/) });
    const missing = await rpc(env, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'log-flight' } });
    expect(missing.error).toMatchObject({ code: -32602, message: expect.stringMatching(/log-flight needs the argument aircraftId/) });
    const wrong = await rpc(env, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'log-flight', arguments: { aircraftId: 7 } } });
    expect(wrong.error).toMatchObject({ code: -32602, message: expect.stringMatching(/invalid params \(arguments\.aircraftId\)/) });
    const ok = await rpc(env, { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'log-flight', arguments: { aircraftId: 'acme-ac-1' } } });
    expect(ok.result.messages[0].content.text).toContain('fleetops://aircraft/acme-ac-1');
  });
  it('resources/read without a uri is invalid params', async () => {
    const r = await rpc(env, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} });
    expect(r.error).toMatchObject({ code: -32602, message: expect.stringMatching(/invalid params \(uri\)/) });
  });
});

describe('refusals', () => {
  it('a resource read over the rate limit is -32000 with the 429 problem, on every resource', async () => {
    // the request's first unit is charged when its key authenticates: of four reads, the last ones are over
    const r = await rpc(limited, [
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'fleetops://aircraft/acme-ac-1' } },
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'fleetops://aircraft/acme-ac-1' } },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'fleetops://maintenance-status' } },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'fleetops://forms/field-schema' } },
    ]);
    const refused = r.filter((a) => a.error);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.error, `id ${a.id}`).toMatchObject({ code: -32000, message: expect.stringMatching(/rate limit/), data: { status: 429, code: 'rate_limited' } });
    }
    expect(refused.length).toBeGreaterThanOrEqual(2);
  });
  it('resources/list over the rate limit is -32000 with the 429 problem too, never an internal error', async () => {
    const tight = await createTestEnv({ rateLimitPerMinute: 2 });
    try {
      const r = await rpc(tight, [1, 2, 3, 4].map((id) => ({ jsonrpc: '2.0', id, method: 'resources/list' })));
      const refused = r.filter((a) => a.error);
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const a of refused) {
        expect(a.error, `id ${a.id}`).toMatchObject({ code: -32000, message: expect.stringMatching(/rate limit/), data: { status: 429, code: 'rate_limited' } });
      }
    } finally {
      await tight.close();
    }
  });
});

describe('Idempotency-Key', () => {
  it('a batch calling two tools that write is a 400 and writes nothing; one write with reads is answered, and replayed', async () => {
    const two = [call(1, 'createVehicle', { body: { make: 'B', model: 'B', registration: 'IDB-1' } }), call(2, 'createVehicle', { body: { make: 'B', model: 'B', registration: 'IDB-2' } })];
    const res = await env.request('POST', '/mcp', { headers: { ...ACCEPT, 'idempotency-key': 'mcp-batch-1' }, body: two });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/covers one write, and this batch calls 2 tools that write/);
    const regs = () => env.rest.get('/vehicles').then((r) => (r.body.data as { registration: string }[]).map((v) => v.registration));
    expect(await regs()).not.toEqual(expect.arrayContaining(['IDB-1']));
    expect(await regs()).not.toEqual(expect.arrayContaining(['IDB-2']));

    const one = [call(1, 'createVehicle', { body: { make: 'B', model: 'B', registration: 'IDB-3' } }), call(2, 'listVehicles', {})];
    const first = await rpc(env, one, { 'idempotency-key': 'mcp-batch-2' });
    const again = await rpc(env, one, { 'idempotency-key': 'mcp-batch-2' });
    const created = first.find((a) => a.id === 1)!.result;
    expect(created.isError).toBeUndefined();
    expect(again.find((a) => a.id === 1)!.result.structuredContent).toEqual(created.structuredContent);
    expect((await regs()).filter((r) => r === 'IDB-3')).toHaveLength(1);
    // a body that is not JSON still gets the transport's own parse error
    const bad = await env.request('POST', '/mcp', { headers: { ...ACCEPT, 'idempotency-key': 'mcp-batch-3', 'content-type': 'application/json' }, body: '{"jsonrpc":' });
    expect(((await bad.json()) as Answer).error?.code).toBe(-32700);
  });
});
