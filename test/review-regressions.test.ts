import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../src/modules/companies/import.js';
import { companyFixture, createTestEnv, newKey, uniq, type TestEnv } from './helpers.js';

/** Regressions found in review: each test failed before its fix. */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
}, 180_000);
afterAll(() => env?.close());

const log = {
  timeDate: '2026-05-01T10:00:00Z', pilot: 'acme-pilot', aircraftId: 'acme-ac-1', aircraftRegistration: 'VH-ACM',
  startLocation: 'YSSY', endLocation: 'YSBK', pax: 0,
};

describe('review regressions', () => {
  it('a completion later in the same GraphQL operation sees totals changed by an earlier flight log', async () => {
    const created = await env.gql(
      `mutation($i: CreateScheduleItemInput!) { createScheduleItem(input: $i) { uid } }`,
      { i: { name: '100 h', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, trackingItem: 'hobbs', dueAtInterval: 1300.5, recurringInterval: 100 } },
    );
    const id = created.body.data.createScheduleItem.uid;
    const before = (await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs;
    // creating another item for the aircraft first reads (and caches) the aircraft within the operation
    const r = await env.gql(
      `mutation($other: CreateScheduleItemInput!, $log: CreateFlightLogInput!, $id: ID!) {
         p: createScheduleItem(input: $other) { uid }
         a: createFlightLog(input: $log) { uid }
         b: completeScheduleItem(id: $id) { uid }
       }`,
      {
        other: { name: 'Landings check', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, trackingItem: 'landings', dueAtInterval: 4000 },
        log: { ...log, trackingItems: { hobbs: 10 } },
        id,
      },
    );
    expect(r.body.errors).toBeUndefined();
    const item = await env.json('GET', `/api/v1/schedule-items/${id}`);
    expect(item.body.dueAtInterval).toBe(before + 10 + 100);
  });

  it('a component item completed later in the same operation sees its counter moved by an earlier flight log or odometer reading', async () => {
    const post = async (path: string, body: unknown) => {
      const r = await env.json('POST', `/api/v1${path}`, { body });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return r.body;
    };
    /** A component with an hours counter fitted to the asset, counting its key, and a recurring 100 item on the counter. */
    async function fittedWithItem(parentType: string, parentUid: string, sourceKey: string) {
      const { uid } = await post('/components', { name: 'Starter', type: 'Part', partNumber: 'PN-9', serialNumber: `S-${uniq()}`, counters: [{ displayText: 'Hours', unit: 'hours' }] });
      await post(`/components/${uid}/install`, { parentType, parentUid, mappings: [{ counterKey: 'hours', sourceKey }] });
      const item = await post('/schedule-items', { name: 'Starter 100', type: 'Inspection', relatedTo: uid, relatedToType: 'component', recurring: true, trackingItem: 'hours', dueAtInterval: 100, recurringInterval: 100 });
      return { uid, item: item.uid as string };
    }
    // another item of the component first reads its counter within the operation (and caches it)
    const other = (uid: string) => ({ name: 'Starter 500', type: 'Inspection', relatedTo: uid, relatedToType: 'component', recurring: false, trackingItem: 'hours', dueAtInterval: 500 });

    const onAircraft = await fittedWithItem('aircraft', 'acme-ac-1', 'hobbs');
    const flown = await env.gql(
      `mutation($other: CreateScheduleItemInput!, $log: CreateFlightLogInput!, $id: ID!) {
         p: createScheduleItem(input: $other) { uid }
         a: createFlightLog(input: $log) { uid }
         b: completeScheduleItem(id: $id) { uid }
       }`,
      { other: other(onAircraft.uid), log: { ...log, trackingItems: { hobbs: 10 } }, id: onAircraft.item },
    );
    expect(flown.body.errors, JSON.stringify(flown.body.errors)).toBeUndefined();
    expect((await env.json('GET', `/api/v1/components/${onAircraft.uid}`)).body.totals.hours).toBe(10);
    expect((await env.json('GET', `/api/v1/schedule-items/${onAircraft.item}`)).body).toMatchObject({ lastCarriedOutValue: 10, dueAtInterval: 110 });

    const vehicle = (await post('/vehicles', { make: 'Toyota', model: 'Hilux', registration: `R${uniq().slice(0, 6).toUpperCase()}`, tracking: { kilometers: true, miles: false, hours: false } })).uid;
    const form = (await post('/forms', { name: 'Odometer', code: `odo-${uniq()}`, department: 'Ground ops', sections: [{ name: 'Asset', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'odo', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' }] }] })).uid;
    const onVehicle = await fittedWithItem('vehicle', vehicle, 'odometer');
    const driven = await env.gql(
      `mutation($other: CreateScheduleItemInput!, $c: CreateFormCompletionInput!, $id: ID!) {
         p: createScheduleItem(input: $other) { uid }
         a: createFormCompletion(input: $c) { uid }
         b: completeScheduleItem(id: $id) { uid }
       }`,
      { other: other(onVehicle.uid), c: { formId: form, answers: { vehicle, odo: 42 } }, id: onVehicle.item },
    );
    expect(driven.body.errors, JSON.stringify(driven.body.errors)).toBeUndefined();
    expect((await env.json('GET', `/api/v1/components/${onVehicle.uid}`)).body.totals.hours).toBe(42);
    expect((await env.json('GET', `/api/v1/schedule-items/${onVehicle.item}`)).body).toMatchObject({ lastCarriedOutValue: 42, dueAtInterval: 142 });
  });

  it('a query string cannot stand in for the request body', async () => {
    const sneaky = encodeURIComponent(JSON.stringify(log));
    const r = await env.json('POST', `/api/v1/flight-logs?input=${sneaky}`, { body: { foo: 1 } });
    expect(r.status).toBe(400);
    // a parameter given twice is refused (it was read as its first value, the second dropped without a word)
    const list = await env.json('GET', '/api/v1/users?status=Active&status=Bogus');
    expect(list.status).toBe(400);
    expect(list.body.errors).toEqual([{ path: '/query/status', message: 'status is given more than once; give it once' }]);
  });

  it('totals hold number maintenance items only', async () => {
    const id = `strings-${uniq()}`;
    const fixture = companyFixture(id, newKey(), 'str');
    (fixture.aircraft[0].maintenanceTrackingItems as Record<string, unknown>).lastCheck = { displayText: 'Last check', type: 'string' };
    await importData(env.database, { companies: [fixture] });
    const a = await env.json('GET', '/api/v1/aircraft/str-ac-1', { key: fixture.apiKeys[0].key });
    expect(a.body.totals).toEqual({ hobbs: 1200.5, landings: 3000 });
  });
});

describe('paths', () => {
  it('a trailing slash reaches the same route', async () => {
    const list = await env.json('GET', '/api/v1/aircraft/');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    const one = await env.json('GET', '/api/v1/aircraft/acme-ac-1/');
    expect(one.status).toBe(200);
    expect(one.body.uid).toBe('acme-ac-1');
  });
});
