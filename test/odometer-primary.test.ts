// Which total an odometer answer sets (docs/forms.md "Side effects"): the vehicle's number maintenance item named for
// its primary unit, else its only number item; never "the first" key of a JSON object, whose order the database does
// not keep (a kilometre reading became a truck's engine hours: {kilometers, hours} is stored as {hours, kilometers}).
// With several number items and none named for the unit, the reading is not applied and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';

let env: TestEnv;
let formId: string;
beforeAll(async () => {
  env = await createTestEnv();
  const f = await env.rest.post('/forms', {
    name: 'Odometer',
    code: `odo-${uniq()}`,
    department: 'Fleet',
    sections: [{ name: 's', fields: [{ name: 'v', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'o', label: 'Odometer', type: 'odometer', vehicleField: 'v' }] }],
  });
  expect(f.status, JSON.stringify(f.body)).toBe(201);
  formId = f.body.uid;
});
afterAll(async () => env?.close());

const num = (displayText: string) => ({ displayText, type: 'number' });
async function vehicle(unit: 'kilometers' | 'miles' | 'hours', items: Record<string, unknown>, initialValues: Record<string, number>) {
  const tracking = { kilometers: unit === 'kilometers', miles: unit === 'miles', hours: unit === 'hours' };
  const v = await env.rest.post('/vehicles', { make: 'Isuzu', model: 'NPR', registration: `K${uniq()}`, tracking, maintenanceTrackingItems: items, initialValues });
  expect(v.status, JSON.stringify(v.body)).toBe(201);
  return v.body.uid as string;
}
async function read(uid: string, reading: number) {
  const r = await env.rest.post('/form-completions', { formId, answers: { v: uid, o: reading } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { body: r.body, totals: (await env.rest.get(`/vehicles/${uid}`)).body.totals };
}

describe('an odometer reading sets the item named for the vehicle\u2019s unit', () => {
  it('a kilometre truck with distance and engine hours: the kilometres, not the hours', async () => {
    const uid = await vehicle('kilometers', { kilometers: num('Odometer (km)'), hours: num('Engine hours') }, { kilometers: 48000, hours: 1200 });
    expect((await read(uid, 48500)).totals).toEqual({ kilometers: 48500, hours: 1200 });
  });

  it('an hours vehicle with both: the hours; `odometer` before other names on a distance vehicle', async () => {
    const h = await vehicle('hours', { kilometers: num('Odometer (km)'), hours: num('Engine hours') }, { kilometers: 48000, hours: 1200 });
    expect((await read(h, 1210.5)).totals).toEqual({ kilometers: 48000, hours: 1210.5 });
    const m = await vehicle('miles', { mi: num('Miles'), odometer: num('Odometer (mi)') }, { mi: 10, odometer: 20 });
    expect((await read(m, 25)).totals).toEqual({ mi: 10, odometer: 25 });
  });

  it('one number item under any name is the primary one', async () => {
    const uid = await vehicle('kilometers', { dist: num('Distance'), fuelType: { displayText: 'Fuel', type: 'string' } }, { dist: 5 });
    expect((await read(uid, 7)).totals).toEqual({ dist: 7 });
  });

  it('an only number item named for another unit is not the primary one: a kilometre reading never becomes hours or miles', async () => {
    for (const [unit, key] of [['kilometers', 'hours'], ['kilometers', 'miles'], ['hours', 'odometer'], ['miles', 'km']] as const) {
      const uid = await vehicle(unit, { [key]: num(key) }, { [key]: 100 });
      const r = await read(uid, 1500);
      expect(r.totals, `${unit} vehicle, only ${key}`).toEqual({ [key]: 100 });
      expect(r.body.sideEffects).toEqual({
        scheduleItemsCreated: 0,
        vehiclesUpdated: 0,
        warnings: [`vehicle ${(await env.rest.get(`/vehicles/${uid}`)).body.registration} counts ${unit}, and its only number maintenance tracking item, ${key}, is named for another unit; reading 1500 not recorded`],
      });
    }
  });

  it('several number items, none named for the unit: not applied, with a warning; no total moves', async () => {
    const uid = await vehicle('kilometers', { distance: num('Distance'), engineHours: num('Engine hours') }, { distance: 100, engineHours: 50 });
    const r = await read(uid, 150);
    expect(r.totals).toEqual({ distance: 100, engineHours: 50 });
    expect(r.body.sideEffects).toEqual({
      scheduleItemsCreated: 0,
      vehiclesUpdated: 0,
      warnings: [expect.stringMatching(/^vehicle K\w+ has several number maintenance tracking items and none is named for its unit .*; reading 150 not recorded$/)],
    });
  });
});
