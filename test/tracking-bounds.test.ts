// Tracking figures stay exact (docs/contract/gaps.md §11): a tracking value, counter value, initial value or total
// whose magnitude is 1e9 or more, or that has more than 6 decimal places, is a 400 at its path on every write path
// that takes one (one rule: src/modules/tracking/value.ts), per item in batches, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';
import { exactSum } from '../src/lib/decimal.js';

let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

/** Out of bounds: too large either way, too many decimal places (7, also as a small exponent). */
const BAD = [1e25, 1e9, -1e9, 1200.1234567, 3e-7];
/** Just inside: the largest figures with 6 decimal places. */
const EDGE = [999999999.999999, -999999999.999999];

const totalsOf = async (uid: string) => (await env.rest.get(`/aircraft/${uid}`)).body.totals;

describe('flight logs', () => {
  it('refuses an out-of-range value in trackingItems and as a flat top-level key, on create and update; totals stay exact', async () => {
    const before = await totalsOf('acme-ac-1');
    const logsBefore = (await env.rest.get('/flight-logs?aircraftId=acme-ac-1')).body.count;
    for (const v of BAD) {
      expectValidation(await env.rest.post('/flight-logs', flightLogBody({ hobbs: v })), '/hobbs');
      expectValidation(await env.rest.post('/flight-logs', flightLogBody({ trackingItems: { hobbs: v } })), '/trackingItems/hobbs');
      expectValidation(await env.rest.post('/flight-logs', flightLogBody({ fuelUplift: v })), '/fuelUplift');
    }
    expect(await totalsOf('acme-ac-1')).toEqual(before);
    expect((await env.rest.get('/flight-logs?aircraftId=acme-ac-1')).body.count).toBe(logsBefore);

    const made = await env.rest.post('/flight-logs', flightLogBody({ hobbs: 1.5 }));
    expect(made.status).toBe(201);
    const after = await totalsOf('acme-ac-1');
    for (const v of BAD) expectValidation(await env.rest.patch(`/flight-logs/${made.body.uid}`, { hobbs: v }), '/hobbs');
    expect(await totalsOf('acme-ac-1')).toEqual(after);
    expect((await env.rest.get(`/flight-logs/${made.body.uid}`)).body.hobbs).toBe(1.5);
  });

  it('takes the largest figures with 6 places exactly', async () => {
    for (const v of EDGE) {
      const r = await env.rest.post('/flight-logs', flightLogBody({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', tacho: v }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect((await env.rest.get(`/flight-logs/${r.body.uid}`)).body.tacho).toBe(v);
    }
    // the two cancel out exactly: the total is where it started
    expect((await totalsOf('acme-ac-2')).tacho).toBe(0);
  });

  it('a batch reports each bad figure with its index and writes the others', async () => {
    const before = await totalsOf('acme-ac-1');
    const r = await env.rest.post('/flight-logs/batch', {
      items: [flightLogBody({ hobbs: 0.5 }), flightLogBody({ hobbs: 1e25 }), flightLogBody({ trackingItems: { landings: 0.1234567 } }), flightLogBody({ hobbs: 0.25 })],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toHaveLength(2);
    expect(r.body.errors.map((e: { index: number }) => e.index)).toEqual([1, 2]);
    expect(r.body.errors[0].error).toMatch(/\/hobbs: .*1e9/);
    expect(r.body.errors[1].error).toMatch(/\/trackingItems\/landings: .*6 decimal places/);
    expect((await totalsOf('acme-ac-1')).hobbs).toBe(exactSum(before.hobbs, 0.75));
  });

  it('GraphQL: createFlightLog and createFlightLogs follow the same rule', async () => {
    const before = await totalsOf('acme-ac-1');
    const one = await env.gql(`mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid } }`, {
      i: { ...flightLogBody(), trackingItems: { hobbs: 1e25 } },
    });
    expect(one.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    expect(one.body.errors![0].extensions.errors.map((e: { path: string }) => e.path)).toContain('/trackingItems/hobbs');
    const batch = await env.gql(`mutation($items: JSON!) { createFlightLogs(items: $items) { results { uid } errors { index error } } }`, {
      items: [flightLogBody({ hobbs: -1e9 }), flightLogBody({ hobbs: 2 })],
    });
    expect(batch.body.errors).toBeUndefined();
    expect(batch.body.data.createFlightLogs.results).toHaveLength(1);
    expect(batch.body.data.createFlightLogs.errors.map((e: { index: number }) => e.index)).toEqual([0]);
    expect((await totalsOf('acme-ac-1')).hobbs).toBe(exactSum(before.hobbs, 2));
  });
});

describe('vehicles', () => {
  const vehicle = (over: Record<string, unknown> = {}) => ({ make: 'Isuzu', model: 'NPR', registration: `TB-${uniq()}`, ...over });

  it('refuses out-of-range initial values and starting totals on create, update and in a batch', async () => {
    const count = async () => (await env.rest.get('/vehicles')).body.length;
    const before = await count();
    for (const v of BAD) {
      expectValidation(await env.rest.post('/vehicles', vehicle({ initialValues: { odometer: v } })), '/initialValues/odometer');
      expectValidation(await env.rest.post('/vehicles', vehicle({ totals: { odometer: v } })), '/totals/odometer');
    }
    expect(await count()).toBe(before);

    const made = await env.rest.post('/vehicles', vehicle({ initialValues: { odometer: 1000 } }));
    expect(made.status).toBe(201);
    for (const v of BAD) expectValidation(await env.rest.patch(`/vehicles/${made.body.uid}`, { initialValues: { odometer: v } }), '/initialValues/odometer');
    expect((await env.rest.get(`/vehicles/${made.body.uid}`)).body.totals).toEqual({ odometer: 1000 });

    const batch = await env.rest.post('/vehicles/batch', { items: [vehicle(), vehicle({ initialValues: { odometer: 1e25 } }), vehicle({ totals: { odometer: 0.1234567 } })] });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.results).toHaveLength(1);
    expect(batch.body.errors.map((e: { index: number }) => e.index)).toEqual([1, 2]);
  });
});

describe('components', () => {
  const component = (counters: unknown[]) => ({ name: 'Main rotor blade', type: 'blade', partNumber: 'MRB-1', serialNumber: `S-${uniq()}`, counters });

  it('refuses an out-of-range counter initialValue on create and update, and an out-of-range reset', async () => {
    for (const v of [...BAD.filter((v) => v > 0), 1e30]) {
      expectValidation(await env.rest.post('/components', component([{ displayText: 'TSN', unit: 'hours', initialValue: v }])), '/counters/0/initialValue');
    }
    const made = await env.rest.post('/components', component([{ displayText: 'Since overhaul', unit: 'hours', basis: 'sinceEvent', initialValue: 12.5 }]));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const uid = made.body.uid;
    expectValidation(await env.rest.patch(`/components/${uid}`, { counters: [{ displayText: 'Cycles', unit: 'cycles', initialValue: 1e9 }] }), '/counters/0/initialValue');
    for (const v of BAD.filter((v) => v > 0)) {
      expectValidation(await env.rest.post(`/components/${uid}/counters/reset`, { counterKey: 'sinceOverhaul', newValue: v }), '/newValue');
    }
    const c = (await env.rest.get(`/components/${uid}`)).body;
    expect(c.counters.map((x: { key: string }) => x.key)).toEqual(['sinceOverhaul']);
    expect(c.totals).toEqual({ sinceOverhaul: 12.5 });
    const ok = await env.rest.post(`/components/${uid}/counters/reset`, { counterKey: 'sinceOverhaul', newValue: 999999999.999999 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await env.rest.get(`/components/${uid}`)).body.totals).toEqual({ sinceOverhaul: 999999999.999999 });
  });
});

describe('maintenance schedule', () => {
  const item = (over: Record<string, unknown> = {}) => ({
    name: `100 h ${uniq()}`,
    type: 'Inspection',
    relatedTo: 'acme-ac-1',
    relatedToType: 'aircraft',
    recurring: true,
    trackingItem: 'hobbs',
    dueAtInterval: 1300,
    recurringInterval: 100,
    ...over,
  });

  it('refuses out-of-range thresholds, intervals, carried-out values and completion values', async () => {
    for (const v of BAD) {
      expectValidation(await env.rest.post('/schedule-items', item({ dueAtInterval: v })), '/dueAtInterval');
      expectValidation(await env.rest.post('/schedule-items', item({ lastCarriedOutValue: v })), '/lastCarriedOutValue');
    }
    for (const v of BAD.filter((v) => v > 0)) expectValidation(await env.rest.post('/schedule-items', item({ recurringInterval: v })), '/recurringInterval');
    const made = await env.rest.post('/schedule-items', item());
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const uid = made.body.uid;
    for (const v of BAD) {
      expectValidation(await env.rest.patch(`/schedule-items/${uid}`, { dueAtInterval: v }), '/dueAtInterval');
      expectValidation(await env.rest.post(`/schedule-items/${uid}/complete`, { trackingValue: v }), '/trackingValue');
    }
    const after = (await env.rest.get(`/schedule-items/${uid}`)).body;
    expect(after).toMatchObject({ dueAtInterval: 1300, recurringInterval: 100 });
    expect(after.lastCarriedOutValue).toBeUndefined();
    expect((await env.rest.get(`/schedule-completions?scheduleItemId=${uid}`)).body.data).toEqual([]);
  });
});

describe('form completions', () => {
  it('refuses an out-of-range odometer answer and leaves the vehicle as it was', async () => {
    const form = await env.rest.post('/forms', {
      name: 'Odometer',
      code: `odo-${uniq()}`,
      department: 'Ground ops',
      sections: [{ name: 'Asset', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'odo', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' }] }],
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const before = (await env.rest.get('/vehicles/acme-v-1')).body.totals;
    for (const v of BAD.filter((v) => v > 0)) {
      expectValidation(await env.rest.post('/form-completions', { formId: form.body.uid, answers: { vehicle: 'acme-v-1', odo: v } }), '/answers/odo');
    }
    expect((await env.rest.get('/vehicles/acme-v-1')).body.totals).toEqual(before);
    expect((await env.rest.get(`/form-completions?formId=${form.body.uid}`)).body.count).toBe(0);
  });
});
