// Names every JavaScript object has (`toString`, `constructor`, `__proto__`) as keys a client chooses: tracking keys,
// form field names, keys inside JSON values. Each used to answer 500, a misleading 400, or a 201 that lost the value
// (a vehicle's odometer total erased, a tracking value dropped). Now: a `__proto__` key anywhere in any input is a 400
// on every channel (src/lib/input-faults.ts, decided by the operation's policy), and a name every object has cannot
// be a tracking key or a form field name (src/lib/keys.ts). Each refusal changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../src/modules/companies/import.js';
import { ValidationError } from '../src/errors.js';
import { adminKey, createTestEnv, mcpTool, flightLogBody, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
let admin: string;
beforeAll(async () => {
  env = await createTestEnv({ rateLimitPerMinute: 10_000 });
  admin = await adminKey(env);
});
afterAll(async () => {
  await env?.close();
});

/** What a refused request must leave as it was: the company's aircraft, vehicles, logs and forms. */
const state = async () => ({
  aircraft: (await env.json('GET', '/api/v1/aircraft')).body,
  vehicles: (await env.json('GET', '/api/v1/vehicles')).body,
  logs: (await env.json('GET', '/api/v1/flight-logs?limit=500')).body,
  forms: (await env.json('GET', '/api/v1/forms')).body,
});
const aircraftBody = (over: Record<string, unknown>) => ({ registration: 'VH-RSV', type: 'AS50', category: 'rotary-wing', engineType: 'turbine', engineCount: 1, ...over });

describe('a key named __proto__ in any input', () => {
  it('is a 400 naming where it is, on REST, GraphQL (variables and literals), MCP, batch items and the import file; nothing changes', async () => {
    const before = await state();
    // REST: raw JSON (JSON.parse keeps __proto__ as a key; zod's record dropped it and the log was written)
    const rest = await env.json('POST', '/api/v1/flight-logs', { body: JSON.stringify(flightLogBody()).replace(/}$/, ',"trackingItems":{"__proto__":7}}') });
    expectValidation(rest, '/trackingItems/__proto__');
    expect(rest.body.detail).toMatch(/__proto__ is not allowed as a key/);
    // an aircraft's tracking map: it was stored as {}
    expectValidation(
      await env.json('POST', '/api/v1/aircraft', { key: admin, body: JSON.stringify(aircraftBody({})).replace(/}$/, ',"maintenanceTrackingItems":{"__proto__":{"displayText":"P","type":"number"}}}') }),
      '/maintenanceTrackingItems/__proto__',
    );
    // GraphQL: in a variable, and in a JSON literal of the document (its parser would make it the prototype)
    const viaVariable = await env.request('POST', '/graphql', {
      body: `{"query":"mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid } }","variables":{"i":${JSON.stringify(flightLogBody()).replace(/}$/, ',"trackingItems":{"__proto__":7}}')}}}`,
    });
    expect(viaVariable.status).toBe(400);
    expect((await viaVariable.json()).errors[0]).toMatchObject({ message: expect.stringMatching(/__proto__ is not allowed as a key/), extensions: { code: 'VALIDATION_ERROR' } });
    const literal = await env.gql(
      'mutation { createVehicle(input: { make: "A", model: "B", registration: "P-1", thirdPartyUser: { __proto__: { x: 1 } } }) { uid } }',
    );
    expect(literal.body.errors![0].message).toMatch(/__proto__ is not allowed as a key/);
    expect(literal.body.data).toBeUndefined();
    // MCP: the tool's arguments are the operation's variables
    const tool = await mcpTool(env, 'createFlightLog', { body: JSON.parse(JSON.stringify(flightLogBody()).replace(/}$/, ',"trackingItems":{"__proto__":7}}')) });
    expect(tool.isError).toBe(true);
    expect(tool.content[0].text).toMatch(/__proto__ is not allowed as a key/);
    // a batch item: that item's error, the others written as usual
    const batch = await env.json('POST', '/api/v1/flight-logs/batch', {
      body: `{"items":[${JSON.stringify(flightLogBody()).replace(/}$/, ',"trackingItems":{"__proto__":7}}')}]}`,
    });
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual({ results: [], errors: [{ index: 0, error: expect.stringMatching(/\/trackingItems\/__proto__: __proto__ is not allowed as a key/) }] });
    // the import file (fleetops import)
    await expect(importData(env.database, JSON.parse('{"companies":[{"id":"x","name":"X","aircraft":[{"__proto__":{}}]}]}'))).rejects.toThrow(ValidationError);
    expect(await state()).toEqual(before);
  });
});

describe('a name every object has', () => {
  it('cannot be a tracking key of an aircraft or a vehicle (a vehicle answered 500; an aircraft refused it as "already a maintenance item")', async () => {
    const before = await state();
    for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty']) {
      const asMaintenance = await env.json('POST', '/api/v1/aircraft', { key: admin, body: aircraftBody({ maintenanceTrackingItems: { [name]: { displayText: 'X', type: 'number' } } }) });
      expectValidation(asMaintenance, `/maintenanceTrackingItems/${name}`);
      expect(asMaintenance.body.detail).toMatch(`${name} cannot be a tracking key: it is a reserved name`);
      expectValidation(await env.json('POST', '/api/v1/aircraft', { key: admin, body: aircraftBody({ logTrackingItems: { [name]: { displayText: 'X', type: 'string' } } }) }), `/logTrackingItems/${name}`);
      const vehicle = await env.json('POST', '/api/v1/vehicles', { body: { make: 'A', model: 'B', registration: `R-${name}`, maintenanceTrackingItems: { [name]: { displayText: 'C', type: 'number' } } } });
      expectValidation(vehicle, `/maintenanceTrackingItems/${name}`);
    }
    expect(await state()).toEqual(before);
  });

  it('sent as a flight log tracking value, in either form, is refused as a reserved name (not "given twice"), on REST and GraphQL', async () => {
    const before = await state();
    const flat = await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ hasOwnProperty: 1.5 }) });
    expectValidation(flat, '/trackingItems/hasOwnProperty');
    expect(flat.body.detail).toMatch('hasOwnProperty cannot be a tracking key: it is a reserved name');
    expectValidation(await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ trackingItems: { valueOf: 1 } }) }), '/trackingItems/valueOf');
    const gql = await env.gql('mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid } }', { i: flightLogBody({ trackingItems: { toString: 1 } }) });
    expect(gql.body.errors![0].message).toMatch('toString cannot be a tracking key: it is a reserved name');
    expect(await state()).toEqual(before);
  });

  it('cannot be a form field name or a companion name (a completion then answered 500, or erased a vehicle total)', async () => {
    const before = await state();
    const form = (fields: unknown[]) => ({ name: 'Check', code: `chk-${fields.length}`, department: 'Ops', sections: [{ name: 'S', fields }] });
    const vehicleField = { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true };
    const defect = await env.json('POST', '/api/v1/forms', { body: form([vehicleField, { name: 'constructor', label: 'D', type: 'defect', assetField: 'vehicle' }]) });
    expectValidation(defect, '/sections/0/fields/1/name');
    expect(defect.body.detail).toMatch('constructor cannot be a name: it is a reserved name');
    expectValidation(await env.json('POST', '/api/v1/forms', { body: form([vehicleField, { name: 'toString', label: 'O', type: 'odometer', vehicleField: 'vehicle' }]) }), '/sections/0/fields/1/name');
    const companion = await env.json('POST', '/api/v1/forms', { body: form([{ name: 'oil', label: 'Oil', type: 'boolean', companions: [{ name: 'valueOf', type: 'text' }] }]) });
    expectValidation(companion, /^\/sections\/0\/fields\/0\/companions\/0\/name$/);
    expect(await state()).toEqual(before);
  });
});

describe('a component counter named like a name every object has', () => {
  it('takes the next free key: "To String" is toString2', async () => {
    const made = await env.json('POST', '/api/v1/components', { body: { name: 'Engine', type: 'Engine', partNumber: 'PN-1', serialNumber: 'SN-RSV-1', counters: [{ displayText: 'To String', unit: 'hours', initialValue: 3 }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const c = (await env.json('GET', `/api/v1/components/${made.body.uid}`)).body;
    expect(c.counters).toEqual([expect.objectContaining({ key: 'toString2', displayText: 'To String' })]);
    expect(c.totals).toEqual({ toString2: 3 });
  });
});
