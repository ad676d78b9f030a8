// A number maintenance item whose total something follows cannot be taken away, on an aircraft or a vehicle, by
// PATCH or by the import file (docs/api-notes.md, "Aircraft" and "Vehicles"; src/modules/assets/tracked-keys.ts):
// removing it, retyping it or moving it while active schedule items track it or a fitted component's counter is
// bound to it is a 409 naming the key, and nothing changes. Before, a vehicle's change was taken and its readings
// dropped (re-adding the item started it again at its initial value), and an aircraft's retype to a string item
// went through, leaving its schedule item without a total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../src/modules/companies/import.js';
import { ValidationError } from '../src/errors.js';
import { adminKey, companyFixture, createTestEnv, newKey, uniq, type TestEnv } from './helpers.js';

let env: TestEnv;
let admin: string;
beforeAll(async () => {
  env = await createTestEnv();
  admin = await adminKey(env);
});
afterAll(async () => env?.close());

const API = '/api/v1';
const post = (path: string, body: unknown, key?: string) => env.json('POST', `${API}${path}`, { body, key });
const patch = (path: string, body: unknown, key?: string) => env.json('PATCH', `${API}${path}`, { body, key });
const get = async (path: string, key?: string) => {
  const r = await env.json('GET', `${API}${path}`, { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
async function created(path: string, body: unknown, key?: string): Promise<string> {
  const r = await post(path, body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid;
}
/** A recurring schedule item on the asset's key, due at `last + interval` (dueAtInterval is the value it is due at). */
const scheduleItem = (relatedToType: string, relatedTo: string, trackingItem: string, last: number, interval: number) =>
  created('/schedule-items', { name: `Check ${uniq()}`, type: 'Inspection', relatedTo, relatedToType, recurring: true, trackingItem, dueAtInterval: last + interval, recurringInterval: interval, lastCarriedOutValue: last });
/** A component with an hours counter, fitted to the asset and counting its `sourceKey`. */
async function fitted(parentType: string, parentUid: string, sourceKey: string): Promise<string> {
  const uid = await created('/components', { name: 'Starter', type: 'Part', partNumber: 'PN-7', serialNumber: `S-${uniq()}`, counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 10 }] });
  const r = await post(`/components/${uid}/install`, { parentType, parentUid, mappings: [{ counterKey: 'hours', sourceKey }] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return uid;
}
/** A new aircraft of company A (admin), with these tracking items and initial values. */
const aircraft = (maintenanceTrackingItems: unknown, initialValues: unknown) =>
  created('/aircraft', { registration: `VH-${uniq().slice(0, 5).toUpperCase()}`, type: 'AS50', category: 'rotary-wing', engineType: 'turbine', engineCount: 1, maintenanceTrackingItems, initialValues }, admin);
const refusal = (r: { status: number; body: any }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(409);
  expect(r.body.type ?? r.body.title).toBeTruthy();
  return r.body.errors as { path: string; message: string }[];
};

describe('aircraft', () => {
  it('a number item a schedule item tracks cannot become a string item; its total and the item stay', async () => {
    const uid = await aircraft({ hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 } }, { hobbs: 5000 });
    const item = await scheduleItem('aircraft', uid, 'hobbs', 5000, 100);
    const before = await get(`/aircraft/${uid}`);

    const errors = refusal(await patch(`/aircraft/${uid}`, { maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'string' } } }, admin));
    expect(errors).toEqual([{ path: '/maintenanceTrackingItems/hobbs', message: '1 active schedule item of this aircraft track hobbs: it cannot be changed in type or moved while they do' }]);
    expect(await get(`/aircraft/${uid}`)).toEqual(before);
    const status = (await get(`/maintenance-status?relatedTo=${uid}`)).data;
    expect(status).toEqual([expect.objectContaining({ scheduleItemUid: item, currentTotal: 5000, remaining: 100 })]);
  });

  it('a key a fitted component counts cannot be removed, logs or not; once the component is removed it can', async () => {
    const uid = await aircraft({ hobbs: { displayText: 'Hobbs', type: 'number' }, tacho: { displayText: 'Tacho', type: 'number' } }, { tacho: 300 });
    const starter = await fitted('aircraft', uid, 'tacho');
    // an aircraft's PATCH merges its maps by key; null removes one
    const errors = refusal(await patch(`/aircraft/${uid}`, { maintenanceTrackingItems: { tacho: null } }, admin));
    expect(errors).toEqual([{ path: '/maintenanceTrackingItems/tacho', message: '1 fitted component of this aircraft count tacho (a counter bound to it): it cannot be removed while they do' }]);
    expect((await get(`/aircraft/${uid}`)).totals).toEqual({ hobbs: 0, tacho: 300 });

    expect((await post(`/components/${starter}/remove`, {})).status).toBe(200);
    const r = await patch(`/aircraft/${uid}`, { maintenanceTrackingItems: { tacho: null } }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await get(`/aircraft/${uid}`)).totals).toEqual({ hobbs: 0 });
  });
});

describe('vehicles', () => {
  /** A vehicle in km whose odometer a form's reading took to 15,000. */
  async function vehicleAt15000(): Promise<string> {
    const uid = await created('/vehicles', { make: 'Toyota', model: 'Hilux', registration: `R${uniq().slice(0, 6).toUpperCase()}`, tracking: { kilometers: true, miles: false, hours: false } });
    const form = await created('/forms', {
      name: 'Odometer',
      code: `odo-${uniq()}`,
      department: 'Ground ops',
      sections: [{ name: 'Asset', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'odo', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' }] }],
    });
    await created('/form-completions', { formId: form, answers: { vehicle: uid, odo: 15000 } });
    expect((await get(`/vehicles/${uid}`)).totals).toEqual({ odometer: 15000 });
    return uid;
  }
  const engineHoursOnly = { maintenanceTrackingItems: { engineHours: { displayText: 'Engine hours', type: 'number' } } };

  it('the odometer a schedule item tracks cannot be replaced; its readings and the item\u2019s figures stay', async () => {
    const uid = await vehicleAt15000();
    const item = await scheduleItem('vehicle', uid, 'odometer', 0, 20000);
    const before = await get(`/vehicles/${uid}`);
    const errors = refusal(await patch(`/vehicles/${uid}`, engineHoursOnly));
    expect(errors).toEqual([{ path: '/maintenanceTrackingItems/odometer', message: '1 active schedule item of this vehicle track odometer: it cannot be removed while they do' }]);
    expect(await get(`/vehicles/${uid}`)).toEqual(before);
    expect((await get(`/maintenance-status?relatedTo=${uid}`)).data).toEqual([expect.objectContaining({ scheduleItemUid: item, currentTotal: 15000, remaining: 5000 })]);

    // GraphQL is the same operation
    const g = await env.gql(`mutation($id: ID!, $input: UpdateVehicleInput!) { updateVehicle(id: $id, input: $input) { status } }`, { id: uid, input: engineHoursOnly });
    expect(g.body.errors?.[0]?.extensions?.code, JSON.stringify(g.body)).toBe('CONFLICT');
    // an item no longer active does not hold the key
    expect((await env.json('DELETE', `${API}/schedule-items/${item}`)).status).toBe(200);
    expect((await patch(`/vehicles/${uid}`, engineHoursOnly)).status).toBe(200);
  });

  it('a key a fitted component counts cannot be retyped', async () => {
    const uid = await vehicleAt15000();
    await fitted('vehicle', uid, 'odometer');
    const errors = refusal(await patch(`/vehicles/${uid}`, { maintenanceTrackingItems: { odometer: { displayText: 'Odometer', type: 'string' } } }));
    expect(errors).toEqual([{ path: '/maintenanceTrackingItems/odometer', message: '1 fitted component of this vehicle count odometer (a counter bound to it): it cannot be changed in type or moved while they do' }]);
    expect((await get(`/vehicles/${uid}`)).totals).toEqual({ odometer: 15000 });
  });

  it('the import file obeys the same rule: refused by JSON Pointer, nothing written', async () => {
    const id = `trk-${uniq()}`;
    const key = newKey();
    const file = (change: (c: ReturnType<typeof companyFixture>) => void = () => {}) => {
      const c = companyFixture(id, key, id);
      change(c);
      return { companies: [c] };
    };
    await importData(env.database, file());
    const as = { key };
    const starter = await env.json('POST', `${API}/components`, { key, body: { name: 'Starter', type: 'Part', partNumber: 'PN-7', serialNumber: `S-${uniq()}`, counters: [{ displayText: 'Hours', unit: 'hours' }] } });
    expect((await env.json('POST', `${API}/components/${starter.body.uid}/install`, { key, body: { parentType: 'vehicle', parentUid: `${id}-v-1`, mappings: [{ counterKey: 'hours', sourceKey: 'odometer' }] } })).status).toBe(200);
    const before = (await env.json('GET', `${API}/vehicles/${id}-v-1`, as)).body;

    const e = await importData(env.database, file((c) => ((c.vehicles[0] as Record<string, unknown>).maintenanceTrackingItems = { engineHours: { displayText: 'Engine hours', type: 'number' } }))).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors).toEqual([{ path: '/companies/0/vehicles/0/maintenanceTrackingItems/odometer', message: '1 fitted component of this vehicle count odometer (a counter bound to it): it cannot be removed while they do' }]);
    expect((await env.json('GET', `${API}/vehicles/${id}-v-1`, as)).body).toEqual(before);
  });
});
