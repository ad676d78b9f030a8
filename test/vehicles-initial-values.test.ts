// Vehicle starting figures and initial values (docs/api-notes.md "Vehicles"; docs/contract/gaps.md §3): a create's
// starting totals, and what a changed initial value does to a total odometer readings have set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors.js';
import { importData } from '../src/modules/companies/import.js';
import { companyFixture, createTestEnv, mcpTool, newKey, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env.close();
});

const vehicle = (registration: string, over: Record<string, unknown> = {}) => ({
  make: 'Ford',
  model: 'Ranger',
  registration,
  tracking: { kilometers: true, miles: false, hours: false },
  ...over,
});

describe('a create\u2019s starting totals', () => {
  it('totals that differ from initialValues: the path once in the batch item\u2019s error and in the detail', async () => {
    const differs = 'totals.odometer differs from initialValues.odometer; on create they are the same figure';
    const b = await env.rest.post('/vehicles/batch', {
      items: [
        vehicle('BATCH-OK', { totals: { odometer: 10 } }),
        vehicle('BATCH-DIFF', { totals: { odometer: 10 }, initialValues: { odometer: 11 } }),
        vehicle('BATCH-TEXT', { totals: { odometer: 'ten' } }),
      ],
    });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.results).toHaveLength(1);
    expect(b.body.errors).toEqual([
      { index: 1, error: `invalid vehicle: /totals/odometer: ${differs}` },
      { index: 2, error: 'invalid vehicle: /totals/odometer: a tracking value must be a number' },
    ]);
    const one = await env.rest.post('/vehicles', vehicle('ONE-DIFF', { totals: { odometer: 10 }, initialValues: { odometer: 11 } }));
    expectValidation(one, '/totals/odometer');
    expect(one.body.detail).toBe(`invalid vehicle: /totals/odometer: ${differs}`);
    expect(one.body.errors).toEqual([{ path: '/totals/odometer', message: differs }]);
  });
});

// Readings are absolute (an odometer shows the distance itself): a changed initial value moves a total no reading has
// moved, and never takes a total away from the last reading (src/modules/vehicles/service.ts vehicleTotal). Before,
// the aircraft's rule (total = initial value + usage) shifted the total by the change: created at 50000, read at
// 50100, initial value set to 50050: total 50150, above every reading, and a true 50120 was refused as below it.
describe('a create\u2019s starting totals beside initialValues that are not a map', () => {
  it('the 400 names initialValues only: the totals are not called server-controlled', async () => {
    const r = await env.rest.post('/vehicles', vehicle(`TOT-${uniq()}`, { initialValues: [1], totals: { odometer: 3 } }));
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual(['/initialValues']);
  });
});

describe('a changed initial value and the odometer total', () => {
  const NEGATIVE = 'initial values and totals of a vehicle are meter readings (odometer, hours), never below 0';
  let form: string;
  const totalOf = async (uid: string, key = env.a.key) => (await env.json('GET', `/api/v1/vehicles/${uid}`, { key })).body.totals.odometer as number;
  async function read(uid: string, odometer: number, key = env.a.key, formId = form) {
    const r = await env.json('POST', '/api/v1/form-completions', { key, body: { formId, answers: { vehicle: uid, odometer } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.sideEffects as { vehiclesUpdated: number; warnings: string[] };
  }
  async function odometerForm(key = env.a.key) {
    const f = await env.json('POST', '/api/v1/forms', {
      key,
      body: {
        name: 'Odometer',
        code: 'ODO',
        department: 'Fleet',
        sections: [{ name: 'V', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle', required: true }] }],
      },
    });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    return f.body.uid as string;
  }
  async function created(registration: string, over: Record<string, unknown>) {
    const r = await env.rest.post('/vehicles', vehicle(registration, over));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.uid as string;
  }
  beforeAll(async () => {
    form = await odometerForm();
  });

  it('a total a reading has moved stays at the reading, unless the new initial value is higher; a true next reading is taken', async () => {
    const uid = await created('READ-1', { totals: { odometer: 50000 } });
    await read(uid, 50100);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 50050 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(50100);
    expect((await env.rest.get(`/vehicles/${uid}`)).body.initialValues).toEqual({ odometer: 50050 });
    expect(await read(uid, 50120)).toEqual({ scheduleItemsCreated: 0, vehiclesUpdated: 1, warnings: [] });
    expect(await totalOf(uid)).toBe(50120);
    // lower than the reading: the reading stays
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 1000 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(50120);
    // higher than every reading (the odometer is known to show more): the total is raised to it
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 60000 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(60000);
    // another field changed, the initial value as it was: the total as it is
    expect((await env.rest.patch(`/vehicles/${uid}`, { color: 'white' })).status).toBe(200);
    expect(await totalOf(uid)).toBe(60000);
  });

  // The vehicle keeps its highest reading: the total is the higher of it and the initial value. Before, a total an
  // initial value had raised could not be told from one no reading had moved: read at 50100, the initial value
  // raised to 50200 and set back to 50000 gave 50000, under the reading.
  it('an initial value raised above the reading and set back gives the reading back, never less', async () => {
    const uid = await created('RAISE-BACK', { totals: { odometer: 50000 } });
    await read(uid, 50100);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 50200 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(50200);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 50000 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(50100);
    // the same on GraphQL: up, then down under the reading
    const up = await env.gql(`mutation($id: ID!, $i: UpdateVehicleInput!) { updateVehicle(id: $id, input: $i) { status } }`, { id: uid, i: { initialValues: { odometer: 70000 } } });
    expect(up.body.errors, JSON.stringify(up.body)).toBeUndefined();
    expect(await totalOf(uid)).toBe(70000);
    const down = await env.gql(`mutation($id: ID!, $i: UpdateVehicleInput!) { updateVehicle(id: $id, input: $i) { status } }`, { id: uid, i: { initialValues: { odometer: 10 } } });
    expect(down.body.errors, JSON.stringify(down.body)).toBeUndefined();
    expect(await totalOf(uid)).toBe(50100);
    // a lower reading than the total is still refused, a higher one taken
    expect((await read(uid, 50050)).warnings).toHaveLength(1);
    expect(await totalOf(uid)).toBe(50100);
    expect((await read(uid, 50300)).vehiclesUpdated).toBe(1);
    expect(await totalOf(uid)).toBe(50300);
    // the vehicle's answer shows no extra field
    expect(Object.keys((await env.rest.get(`/vehicles/${uid}`)).body)).not.toContain('readings');
  });

  it('a reading equal to the total an initial value set is kept: a lower initial value later does not go under it', async () => {
    const uid = await created('EQUAL-READ', { initialValues: { odometer: 48000 } });
    const before = (await env.rest.get(`/vehicles/${uid}`)).body.updatedAt;
    expect(await read(uid, 48000)).toEqual({ scheduleItemsCreated: 0, vehiclesUpdated: 0, warnings: [] });
    // no vehicle was updated, as the answer says: its updatedAt stays (it moved while only the reading was kept)
    expect((await env.rest.get(`/vehicles/${uid}`)).body.updatedAt).toBe(before);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 47000 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(48000);
  });

  it('a reading refused as below a total an initial value raised is kept too: set back, the total is that reading', async () => {
    const uid = await created('WARNED-READ', { totals: { odometer: 50000 } });
    await read(uid, 50100);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 50200 } })).status).toBe(200);
    expect((await read(uid, 50150)).warnings).toEqual([expect.stringContaining('below its current total 50200; not applied')]);
    expect(await totalOf(uid)).toBe(50200);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 50000 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(50150);
  });

  it('an item taken away takes its reading with it: added again, it starts at its initial value', async () => {
    const uid = await created('ITEM-AGAIN', { totals: { odometer: 100 } });
    await read(uid, 500);
    const items = (await env.rest.get(`/vehicles/${uid}`)).body.maintenanceTrackingItems as Record<string, unknown>;
    const removed = await env.rest.patch(`/vehicles/${uid}`, { maintenanceTrackingItems: { ...items, odometer: undefined, engineHours: { type: 'number', displayText: 'Engine hours' } }, initialValues: {} });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const back = await env.rest.patch(`/vehicles/${uid}`, { maintenanceTrackingItems: items, initialValues: { odometer: 20 } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await totalOf(uid)).toBe(20);
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 10 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(10);
  });

  // Before, the stored initial value stayed behind and the change was a 400 at /initialValues/<key>, a field the client
  // had not sent: an item could only be taken away with its initial value in the same change (the aircraft's items
  // take theirs with them).
  it('an item taken away takes its stored initial value with it, on REST, GraphQL, MCP and import', async () => {
    const items = (extra: boolean) => ({
      odometer: { type: 'number', displayText: 'Odometer' },
      ...(extra ? { engineHours: { type: 'number', displayText: 'Engine hours' } } : {}),
    });
    const stored = async (uid: string, key = env.a.key) => {
      const v = (await env.json('GET', `/api/v1/vehicles/${uid}`, { key })).body;
      return { items: Object.keys(v.maintenanceTrackingItems), initialValues: v.initialValues, totals: v.totals };
    };
    const both = { maintenanceTrackingItems: items(true), initialValues: { odometer: 100, engineHours: 5 } };
    const after = { items: ['odometer'], initialValues: { odometer: 100 }, totals: { odometer: 100 } };
    const rest = await created('TAKE-REST', both);
    const r = await env.rest.patch(`/vehicles/${rest}`, { maintenanceTrackingItems: items(false) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored(rest)).toEqual(after);
    const gql = await created('TAKE-GQL', both);
    const g = await env.gql(`mutation($id: ID!, $i: UpdateVehicleInput!) { updateVehicle(id: $id, input: $i) { status } }`, { id: gql, i: { maintenanceTrackingItems: items(false) } });
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    expect(await stored(gql)).toEqual(after);
    const mcp = await created('TAKE-MCP', both);
    const m = await mcpTool(env, 'updateVehicle', { id: mcp, body: { maintenanceTrackingItems: items(false) } });
    expect(m.isError, JSON.stringify(m)).toBeFalsy();
    expect(await stored(mcp)).toEqual(after);
    // an initial value sent in the same change for the item taken away is still refused, and nothing changes
    const sent = await created('TAKE-SENT', both);
    const refused = await env.rest.patch(`/vehicles/${sent}`, { maintenanceTrackingItems: items(false), initialValues: { odometer: 100, engineHours: 5 } });
    expectValidation(refused, '/initialValues/engineHours');
    expect(await stored(sent)).toEqual({ items: ['odometer', 'engineHours'], initialValues: { odometer: 100, engineHours: 5 }, totals: { odometer: 100, engineHours: 5 } });
    // fleetops import: an entry that leaves the item out of its maintenance items and says nothing of initial values
    const id = `imp-${uniq()}`;
    const key = newKey();
    const c = companyFixture(id, key, id);
    const entry = (over: Record<string, unknown>) => ({ ...c, vehicles: [{ ...c.vehicles[0]!, ...over }] });
    await importData(env.database, { companies: [entry(both)] });
    const uid = c.vehicles[0]!.uid;
    const { initialValues: _dropped, ...withoutInitial } = entry({ maintenanceTrackingItems: items(false) }).vehicles[0] as Record<string, unknown>;
    await importData(env.database, { companies: [{ ...c, vehicles: [withoutInitial] }] });
    expect(await stored(uid, key)).toEqual(after);
  });

  it('a total no reading has moved follows the initial value, up or down, on REST, GraphQL and MCP', async () => {
    const uid = await created('UNREAD-1', { initialValues: { odometer: 48000 } });
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: 47000 } })).status).toBe(200);
    expect(await totalOf(uid)).toBe(47000);
    const g = await env.gql(`mutation($id: ID!, $i: UpdateVehicleInput!) { updateVehicle(id: $id, input: $i) { status } }`, { id: uid, i: { initialValues: { odometer: 47500.5 } } });
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    expect(await totalOf(uid)).toBe(47500.5);
    const m = await mcpTool(env, 'updateVehicle', { id: uid, body: { initialValues: { odometer: 46000 } } });
    expect(m.isError, JSON.stringify(m)).toBeFalsy();
    expect(await totalOf(uid)).toBe(46000);
    // no initial value at all: 0
    expect((await env.rest.patch(`/vehicles/${uid}`, { initialValues: {} })).status).toBe(200);
    expect(await totalOf(uid)).toBe(0);
  });

  it('a negative initial value or starting total is a 400 at its path on every channel, and nothing changes', async () => {
    const uid = await created('NEG-1', { totals: { odometer: 50000 } });
    await read(uid, 50100);
    const patched = await env.rest.patch(`/vehicles/${uid}`, { initialValues: { odometer: -60000 } });
    expectValidation(patched, '/initialValues/odometer');
    expect(patched.body.errors).toEqual([{ path: '/initialValues/odometer', message: NEGATIVE }]);
    expectValidation(await env.rest.post('/vehicles', vehicle('NEG-2', { totals: { odometer: -1 } })), '/totals/odometer');
    expectValidation(await env.rest.post('/vehicles', vehicle('NEG-3', { initialValues: { odometer: -0.5 } })), '/initialValues/odometer');
    const b = await env.rest.post('/vehicles/batch', { items: [vehicle('NEG-4', { initialValues: { odometer: -2 } })] });
    expect(b.body.errors).toEqual([{ index: 0, error: `invalid vehicle: /initialValues/odometer: ${NEGATIVE}` }]);
    const g = await env.gql(`mutation($id: ID!, $i: UpdateVehicleInput!) { updateVehicle(id: $id, input: $i) { status } }`, { id: uid, i: { initialValues: { odometer: -1 } } });
    expect(g.body.errors?.[0]?.extensions?.code, JSON.stringify(g.body)).toBe('VALIDATION_ERROR');
    const m = await mcpTool(env, 'updateVehicle', { id: uid, body: { initialValues: { odometer: -1 } } });
    expect(m.isError, JSON.stringify(m)).toBe(true);
    expect(m.content.map((c) => c.text).join(' ')).toContain(NEGATIVE);
    expect(await totalOf(uid)).toBe(50100);
    expect((await env.rest.get('/vehicles')).body.data.map((v: { registration: string }) => v.registration)).not.toContain('NEG-2');
  });

  it('fleetops import applies the same rule to a vehicle it updates', async () => {
    const id = `imp-${uniq()}`;
    const key = newKey();
    const c = companyFixture(id, key, id);
    const entry = (initialValues: Record<string, number>) => ({ ...c, vehicles: [{ ...c.vehicles[0]!, initialValues }] });
    await importData(env.database, { companies: [entry({ odometer: 1000 })] });
    const uid = c.vehicles[0]!.uid;
    expect(await totalOf(uid, key)).toBe(1000);
    await read(uid, 1500, key, await odometerForm(key));
    await importData(env.database, { companies: [entry({ odometer: 1200 })] });
    expect(await totalOf(uid, key)).toBe(1500);
    await importData(env.database, { companies: [entry({ odometer: 2000 })] });
    expect(await totalOf(uid, key)).toBe(2000);
    const e = await importData(env.database, { companies: [entry({ odometer: -1 })] }).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors).toEqual([{ path: '/companies/0/vehicles/0/initialValues/odometer', message: NEGATIVE }]);
    expect(await totalOf(uid, key)).toBe(2000);
  });

  it('fleetops import refuses to change a deleted vehicle, as every channel does; the same entry again changes nothing and passes', async () => {
    const id = `impdel-${uniq()}`;
    const key = newKey();
    const c = companyFixture(id, key, id);
    const entry = (over: Record<string, unknown>) => ({ ...c, vehicles: [{ ...c.vehicles[0]!, ...over }] });
    await importData(env.database, { companies: [entry({ initialValues: { odometer: 1000 } })] });
    const uid = c.vehicles[0]!.uid;
    expect((await env.json('DELETE', `/api/v1/vehicles/${uid}`, { key })).status).toBe(200);
    // the file as it was: nothing to change, so nothing refused (a re-run of the same file)
    await importData(env.database, { companies: [entry({ initialValues: { odometer: 1000 } })] });
    const e = await importData(env.database, { companies: [entry({ initialValues: { odometer: 777 }, color: 'blue' })] }).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors).toEqual([{ path: '/companies/0/vehicles/0', message: `vehicle ${uid} is deleted; restore it before changing it` }]);
    expect((await env.json('POST', `/api/v1/vehicles/${uid}/restore`, { key })).status).toBe(200);
    const v = (await env.json('GET', `/api/v1/vehicles/${uid}`, { key })).body;
    expect(v.totals.odometer).toBe(1000);
    expect(v).not.toHaveProperty('color', 'blue');
  });
});

