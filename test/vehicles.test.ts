// Vehicles over REST (docs/contract/api-v1.md §2.14, §8; docs/contract/gaps.md §2 problem+json errors, §3 Vehicles) and the GraphQL `vehicles` /
// `vehicle` queries: create with defaults, validation (400 problem+json, nothing changes), batch create, update,
// soft delete and restore, tenant isolation on every route.
// One environment for the whole file; tests run in order and each one creates the vehicles it works on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';

const API = '/api/v1';
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const MILES = { kilometers: false, miles: true, hours: false };
const KILOMETERS = { kilometers: true, miles: false, hours: false };
const HOURS = { kilometers: false, miles: false, hours: true };
/** Optional Vehicle fields (docs/contract/api-v1.md §2.14): omitted, never null, when not set. */
const OPTIONAL_FIELDS = [
  'vin',
  'serialNumber',
  'color',
  'description',
  'registrationState',
  'engineNumber',
  'previousRegistration',
  'year',
  'fuelType',
  'transmissionType',
  'totalSeats',
  'passengerCapacity',
  'trackingDevice',
  'location',
  'thirdPartyUser',
  'photos',
];

/** A valid minimal CreateVehicleBody with a registration of its own. */
function vehicle(over: Body = {}): Body {
  return { make: 'Ford', model: 'Ranger', registration: `T-${uniq()}`, ...over };
}
function without(body: Body, key: string): Body {
  const { [key]: _drop, ...rest } = body;
  return rest;
}

const get = (path: string, key?: string) => env.json('GET', `${API}${path}`, { key });
const post = (path: string, body: unknown, key?: string) => env.json('POST', `${API}${path}`, { body, key });
const patch = (id: string, body: unknown, key?: string) => env.json('PATCH', `${API}/vehicles/${id}`, { body, key });
const del = (id: string, key?: string) => env.json('DELETE', `${API}/vehicles/${id}`, { key });
const restore = (id: string, key?: string) => env.json('POST', `${API}/vehicles/${id}/restore`, { key });

async function create(body: Body, key?: string): Promise<string> {
  const r = await post('/vehicles', body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toEqual({ uid: expect.any(String), status: 'created' });
  return r.body.uid;
}

async function one(id: string, key?: string): Promise<any> {
  const r = await get(`/vehicles/${id}`, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function list(query = '', key?: string): Promise<any[]> {
  const r = await get(`/vehicles${query}`, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(Array.isArray(r.body.data)).toBe(true);
  expect(r.body.count).toBe(r.body.data.length);
  return r.body.data;
}

const uids = (vs: any[]) => vs.map((v) => v.uid);

/** Everything a rejected request must leave untouched: all vehicles (deleted too) of both companies. */
async function snapshot() {
  return {
    a: await list('?includeDeleted=true'),
    b: await list('?includeDeleted=true', env.b.key),
    aCount: (await list()).length,
  };
}


/** No key of the REST body is null (optional fields are omitted). */
function expectNoNulls(v: Body) {
  for (const [k, x] of Object.entries(v)) expect(x, `${k} is null`).not.toBeNull();
}

// ---------------------------------------------------------------------------------------------------------------
describe('the fixture vehicle', () => {
  it('GET /vehicles/acme-v-1: kilometers, default odometer item, totals 0, optional fields omitted', async () => {
    const v = await one('acme-v-1');
    expect(v).toEqual({
      uid: 'acme-v-1',
      make: 'Toyota',
      model: 'Hilux',
      registration: 'ACME123',
      status: 'active',
      companyId: env.a.id,
      tracking: KILOMETERS,
      maintenanceTrackingItems: { odometer: { displayText: expect.any(String), type: 'number', precision: expect.any(Number) } },
      logTrackingItems: {},
      totals: { odometer: 0 },
      initialValues: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(await list()).toContainEqual(v);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('POST /vehicles (create) and the representation', () => {
  it('201 {uid, status: created}; defaults: status active, tracking miles, one odometer item, totals 0', async () => {
    const body = vehicle();
    const uid = await create(body);
    expect(uid).not.toBe('');
    const v = await one(uid);
    expect(v).toEqual({
      uid,
      make: 'Ford',
      model: 'Ranger',
      registration: body.registration,
      status: 'active',
      companyId: env.a.id,
      tracking: MILES,
      maintenanceTrackingItems: { odometer: { displayText: expect.any(String), type: 'number', precision: expect.any(Number) } },
      logTrackingItems: {},
      totals: { odometer: 0 },
      initialValues: {},
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    for (const f of OPTIONAL_FIELDS) expect(v, `${f} omitted`).not.toHaveProperty(f);
    expectNoNulls(v);
    // the list shows the same representation
    expect((await list()).find((x) => x.uid === uid)).toEqual(v);
  });

  it('each create gets a new uid', async () => {
    const body = vehicle();
    const x = await create(body);
    const y = await create(body);
    expect(x).not.toBe(y);
  });

  it('tracking kilometers → one odometer item; totals = initialValues', async () => {
    const uid = await create(vehicle({ tracking: KILOMETERS, initialValues: { odometer: 123456 } }));
    const v = await one(uid);
    expect(v.tracking).toEqual(KILOMETERS);
    expect(Object.keys(v.maintenanceTrackingItems)).toEqual(['odometer']);
    expect(v.maintenanceTrackingItems.odometer).toMatchObject({ type: 'number', displayText: expect.any(String) });
    expect(v.initialValues).toEqual({ odometer: 123456 });
    expect(v.totals).toEqual({ odometer: 123456 });
  });

  it('tracking miles given explicitly → one odometer item', async () => {
    const v = await one(await create(vehicle({ tracking: MILES })));
    expect(v.tracking).toEqual(MILES);
    expect(Object.keys(v.maintenanceTrackingItems)).toEqual(['odometer']);
    expect(v.totals).toEqual({ odometer: 0 });
  });

  it('tracking hours → one hours item; totals = initialValues', async () => {
    const uid = await create(vehicle({ tracking: HOURS, initialValues: { hours: 812.5 } }));
    const v = await one(uid);
    expect(v.tracking).toEqual(HOURS);
    expect(Object.keys(v.maintenanceTrackingItems)).toEqual(['hours']);
    expect(v.maintenanceTrackingItems.hours).toMatchObject({ type: 'number', displayText: expect.any(String) });
    expect(v.initialValues).toEqual({ hours: 812.5 });
    expect(v.totals).toEqual({ hours: 812.5 });
    const h0 = await one(await create(vehicle({ tracking: HOURS })));
    expect(h0.totals).toEqual({ hours: 0 });
  });

  it('every optional field round-trips; given maintenance items replace the default; totals = initialValues (0 when none)', async () => {
    const body = vehicle({
      vin: '1FTFW1ET5DFC10312',
      serialNumber: 'SN-42',
      color: 'white',
      description: 'Ute for the ground crew',
      registrationState: 'NSW',
      engineNumber: 'EN-9',
      previousRegistration: 'OLD-1',
      year: 2019,
      fuelType: 'diesel',
      transmissionType: 'automatic',
      totalSeats: 5,
      passengerCapacity: 0,
      tracking: KILOMETERS,
      trackingDevice: { provider: 'tracksolid', imei: '359339077000000', mapIcon: 'truck', linkedAt: '2026-01-02T03:04:05Z', linkedBy: 'acme-owner' },
      maintenanceTrackingItems: {
        odometer: { displayText: 'Odometer', type: 'number', precision: 0 },
        engineHours: { displayText: 'Engine hours', type: 'number', precision: 1 },
        tyres: { displayText: 'Tyres', type: 'string' },
      },
      logTrackingItems: { fuel: { displayText: 'Fuel', type: 'number', precision: 2 }, remarks: { displayText: 'Remarks', type: 'string' } },
      initialValues: { odometer: 50000, engineHours: 120.5 },
      location: 'Hangar 3',
      thirdPartyUser: { id: 'ext-1', name: 'Contractor', nested: { a: [1, 2] } },
      photos: ['https://example.test/1.jpg', { url: 'https://example.test/2.jpg' }],
    });
    const uid = await create(body);
    const v = await one(uid);
    expect(v).toEqual({
      ...body,
      uid,
      status: 'active',
      companyId: env.a.id,
      totals: { odometer: 50000, engineHours: 120.5 },
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expectNoNulls(v);
  });

  it('every fuelType and transmissionType value is accepted', async () => {
    for (const fuelType of ['petrol', 'diesel', 'petrolHybrid', 'dieselHybrid', 'electric']) {
      expect((await one(await create(vehicle({ fuelType })))).fuelType).toBe(fuelType);
    }
    for (const transmissionType of ['manual', 'automatic']) {
      expect((await one(await create(vehicle({ transmissionType })))).transmissionType).toBe(transmissionType);
    }
  });

  it('a maintenance item without an initial value has total 0', async () => {
    const v = await one(
      await create(
        vehicle({
          maintenanceTrackingItems: { odometer: { displayText: 'Odo', type: 'number' }, pto: { displayText: 'PTO hours', type: 'number' } },
          initialValues: { pto: 7 },
        }),
      ),
    );
    expect(v.totals).toEqual({ odometer: 0, pto: 7 });
    expect(v.initialValues).toEqual({ pto: 7 });
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('POST /vehicles validation: 400 problem+json with errors[] paths, nothing changes', () => {
  const cases: [string, unknown, string | RegExp][] = [
    ['missing make', without(vehicle(), 'make'), '/make'],
    ['missing model', without(vehicle(), 'model'), '/model'],
    ['missing registration', without(vehicle(), 'registration'), '/registration'],
    ['make null', vehicle({ make: null }), '/make'],
    ['model a number', vehicle({ model: 7 }), '/model'],
    ['server-controlled uid', vehicle({ uid: 'vh_mine' }), '/uid'],
    ['server-controlled companyId', vehicle({ companyId: 'globex' }), '/companyId'],
    ['server-controlled status', vehicle({ status: 'active' }), '/status'],
    ['server-controlled createdAt', vehicle({ createdAt: '2026-01-01T00:00:00Z' }), '/createdAt'],
    ['server-controlled updatedAt', vehicle({ updatedAt: '2026-01-01T00:00:00Z' }), '/updatedAt'],
    ['totals that contradict initialValues', vehicle({ totals: { odometer: 5 }, initialValues: { odometer: 6 } }), '/totals/odometer'],
    ['totals that are not numbers', vehicle({ totals: { odometer: 'five' } }), '/totals/odometer'],
    ['fuelType not in the enum', vehicle({ fuelType: 'lpg' }), '/fuelType'],
    ['fuelType wrong case', vehicle({ fuelType: 'Diesel' }), '/fuelType'],
    ['transmissionType not in the enum', vehicle({ transmissionType: 'cvt' }), '/transmissionType'],
    ['totalSeats negative', vehicle({ totalSeats: -1 }), '/totalSeats'],
    ['totalSeats non-integer', vehicle({ totalSeats: 2.5 }), '/totalSeats'],
    ['totalSeats a string', vehicle({ totalSeats: '5' }), '/totalSeats'],
    ['passengerCapacity negative', vehicle({ passengerCapacity: -3 }), '/passengerCapacity'],
    ['passengerCapacity non-integer', vehicle({ passengerCapacity: 1.25 }), '/passengerCapacity'],
    ['year a string', vehicle({ year: '2019' }), '/year'],
    ['tracking with no unit true', vehicle({ tracking: { kilometers: false, miles: false, hours: false } }), /^\/tracking(\/|$)/],
    ['tracking with two units true', vehicle({ tracking: { kilometers: true, miles: true, hours: false } }), /^\/tracking(\/|$)/],
    ['tracking with three units true', vehicle({ tracking: { kilometers: true, miles: true, hours: true } }), /^\/tracking(\/|$)/],
    ['tracking a string', vehicle({ tracking: 'miles' }), '/tracking'],
    ['trackingDevice without imei', vehicle({ trackingDevice: { provider: 'tracksolid' } }), '/trackingDevice/imei'],
    ['trackingDevice with an unknown provider', vehicle({ trackingDevice: { provider: 'geotab', imei: '1' } }), '/trackingDevice/provider'],
    ['trackingDevice without provider', vehicle({ trackingDevice: { imei: '359339077000000' } }), '/trackingDevice/provider'],
    ['trackingDevice with an unknown mapIcon', vehicle({ trackingDevice: { provider: 'tracksolid', imei: '1', mapIcon: 'plane' } }), '/trackingDevice/mapIcon'],
    ['initialValues for a key that is not a maintenance item', vehicle({ initialValues: { bogus: 5 } }), '/initialValues/bogus'],
    ['initialValues for hours on a miles vehicle', vehicle({ initialValues: { hours: 5 } }), '/initialValues/hours'],
    [
      'initialValues for a key of given items that is not among them',
      vehicle({ maintenanceTrackingItems: { engineHours: { displayText: 'Engine hours', type: 'number' } }, initialValues: { odometer: 1 } }),
      '/initialValues/odometer',
    ],
    ['initialValues a string value', vehicle({ initialValues: { odometer: 'ten' } }), '/initialValues/odometer'],
    ['maintenance item with a bad type', vehicle({ maintenanceTrackingItems: { odometer: { displayText: 'Odo', type: 'date' } } }), '/maintenanceTrackingItems/odometer/type'],
    // the unknown key named by the path, or (zod's own form) the body path with a message naming the key: checked below
    ['unknown field', vehicle({ bogus: 1 }), /^(\/bogus)?$/],
  ];

  it.each(cases)('%s → 400', async (_name, body, path) => {
    const before = await snapshot();
    const r = await post('/vehicles', body);
    expectValidation(r, path);
    if (_name === 'unknown field') expect(JSON.stringify(r.body.errors)).toMatch(/bogus/);
    expect(await snapshot()).toEqual(before);
  });

  it('several bad fields are all reported', async () => {
    const before = await snapshot();
    const r = await post('/vehicles', { uid: 'x', fuelType: 'lpg', totalSeats: -1 });
    expectValidation(r);
    const paths = r.body.errors.map((e: any) => e.path);
    for (const p of ['/uid', '/make', '/model', '/registration', '/fuelType', '/totalSeats']) expect(paths).toContain(p);
    expect(await snapshot()).toEqual(before);
  });

  it('a body that is not a JSON object → 400 problem+json', async () => {
    const before = await snapshot();
    for (const body of [[vehicle()], '"a string"', '42', 'null', 'true']) {
      const r = await post('/vehicles', body);
      expectProblem(r, 400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a non-JSON content type → 415 problem+json, nothing changed', async () => {
    const before = await snapshot();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await env.request('POST', `${API}/vehicles`, { body: JSON.stringify(vehicle()), headers: { 'content-type': type } });
      expectProblem({ status: res.status, body: await res.json(), res }, 415, 'unsupported_media_type');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('malformed JSON → 400 problem+json, nothing changed', async () => {
    const before = await snapshot();
    for (const text of ['{"make": ', '{make: "Ford"}', "{'make': 'Ford'}", '']) {
      const res = await env.request('POST', `${API}/vehicles`, { body: text, headers: { 'content-type': 'application/json' } });
      expectProblem({ status: res.status, body: await res.json(), res }, 400);
    }
    expect(await snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('POST /vehicles/batch', () => {
  it('partial success: created items in results, failed ones in errors with their input index', async () => {
    const before = await snapshot();
    const items = [
      vehicle({ color: 'red' }),
      without(vehicle(), 'make'),
      vehicle({ tracking: HOURS }),
      vehicle({ uid: 'vh_mine' }),
      vehicle({ fuelType: 'lpg' }),
      42,
      vehicle({ initialValues: { odometer: 10 } }),
    ];
    const r = await post('/vehicles/batch', { items });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toEqual([
      { uid: expect.any(String), status: 'created' },
      { uid: expect.any(String), status: 'created' },
      { uid: expect.any(String), status: 'created' },
    ]);
    expect(new Set(uids(r.body.results)).size).toBe(3);
    expect(r.body.errors.map((e: any) => e.index)).toEqual([1, 3, 4, 5]);
    for (const e of r.body.errors) expect(typeof e.error).toBe('string');
    expect(r.body.errors[0].error).toMatch(/make/);
    expect(r.body.errors[1].error).toMatch(/uid/);
    expect(r.body.errors[2].error).toMatch(/fuelType/);

    const after = await snapshot();
    expect(after.aCount).toBe(before.aCount + 3);
    expect(after.b).toEqual(before.b);
    const [red, hours, odo] = await Promise.all(uids(r.body.results).map((u) => one(u)));
    expect(red).toMatchObject({ color: 'red', status: 'active', tracking: MILES, companyId: env.a.id, totals: { odometer: 0 } });
    expect(hours).toMatchObject({ status: 'active', tracking: HOURS, totals: { hours: 0 } });
    expect(Object.keys(hours.maintenanceTrackingItems)).toEqual(['hours']);
    expect(odo).toMatchObject({ initialValues: { odometer: 10 }, totals: { odometer: 10 } });
  });

  it('50 items → 200 with 50 results', async () => {
    const before = await snapshot();
    const items = Array.from({ length: 50 }, (_, i) => vehicle({ serialNumber: `B50-${i}` }));
    const r = await post('/vehicles/batch', { items }, env.b.key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toHaveLength(50);
    expect(r.body.errors).toEqual([]);
    const after = await snapshot();
    expect(after.a).toEqual(before.a);
    expect(after.b.length).toBe(before.b.length + 50);
    for (const v of after.b) expect(v.companyId).toBe(env.b.id);
  });

  it.each([
    ['0 items', { items: [] }],
    ['51 items', { items: Array.from({ length: 51 }, () => vehicle()) }],
    ['items not an array', { items: vehicle() }],
    ['items missing', {}],
  ])('%s → 400 problem+json, nothing created', async (_name, body) => {
    const before = await snapshot();
    const r = await post('/vehicles/batch', body);
    expectValidation(r, /^\/items/);
    expect(await snapshot()).toEqual(before);
  });

  it('a non-JSON content type → 415; malformed JSON → 400', async () => {
    const before = await snapshot();
    const a = await env.request('POST', `${API}/vehicles/batch`, { body: JSON.stringify({ items: [vehicle()] }), headers: { 'content-type': 'text/plain' } });
    expectProblem({ status: a.status, body: await a.json(), res: a }, 415);
    const b = await env.request('POST', `${API}/vehicles/batch`, { body: '{"items": [', headers: { 'content-type': 'application/json' } });
    expectProblem({ status: b.status, body: await b.json(), res: b }, 400);
    expect(await snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('PATCH /vehicles/{id}', () => {
  let uid: string;
  let reg: string;
  beforeAll(async () => {
    reg = `P-${uniq()}`;
    uid = await create(
      vehicle({ registration: reg, color: 'blue', year: 2018, totalSeats: 2, tracking: KILOMETERS, initialValues: { odometer: 1000 }, trackingDevice: { provider: 'tracksolid', imei: '1111' } }),
    );
  });

  it('changes the given fields only → {uid, status: updated}', async () => {
    const before = await one(uid);
    const r = await patch(uid, { color: 'green', fuelType: 'electric', totalSeats: 4, description: 'repainted' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'updated' });
    const after = await one(uid);
    expect(after).toEqual({ ...before, color: 'green', fuelType: 'electric', totalSeats: 4, description: 'repainted', updatedAt: expect.stringMatching(ISO_UTC) });
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    expectNoNulls(after);
  });

  it('null clears an optional field (a linked tracking device, the VIN, the year), as on every other resource; a required one is a 400', async () => {
    // a vehicle's optional fields could not be cleared: null was a 400, and a linked tracking device stayed for good
    const other = await create(vehicle({ registration: `CLR-${uniq()}`, vin: 'VIN123', year: 2019, color: 'red', trackingDevice: { provider: 'tracksolid', imei: '2222' } }));
    const r = await patch(other, { vin: null, year: null, trackingDevice: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await one(other);
    for (const k of ['vin', 'year', 'trackingDevice']) expect(after).not.toHaveProperty(k);
    expect(after.color).toBe('red');
    expectNoNulls(after);
    expect((await patch(other, { vin: null })).body).toEqual({ uid: other, status: 'no_changes' });
    for (const body of [{ make: null }, { registration: null }, { tracking: null }, { initialValues: null }]) {
      const bad = await patch(other, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    // GraphQL clears the same way
    const g = await env.gql('mutation($id: ID!, $input: UpdateVehicleInput!) { updateVehicle(id: $id, input: $input) { status } }', { id: other, input: { color: null } });
    expect(g.body.errors, JSON.stringify(g.body)).toBeUndefined();
    expect(await one(other)).not.toHaveProperty('color');
  });

  it('the same values → no_changes, nothing changed (updatedAt too)', async () => {
    const before = await one(uid);
    for (const body of [
      { color: 'green' },
      { make: before.make, model: before.model, registration: reg, year: 2018 },
      { tracking: { hours: false, miles: false, kilometers: true } },
      { maintenanceTrackingItems: before.maintenanceTrackingItems, initialValues: { odometer: 1000 } },
      { trackingDevice: { imei: '1111', provider: 'tracksolid' } },
      {},
    ]) {
      const r = await patch(uid, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body, JSON.stringify(body)).toEqual({ uid, status: 'no_changes' });
    }
    expect(await one(uid)).toEqual(before);
  });

  it('maintenance items given again in another key order → no_changes', async () => {
    const u = await create(
      vehicle({
        maintenanceTrackingItems: { odometer: { displayText: 'Odo', type: 'number', precision: 0 }, pto: { displayText: 'PTO', type: 'number' } },
        initialValues: { pto: 2, odometer: 1 },
      }),
    );
    const before = await one(u);
    const r = await patch(u, {
      maintenanceTrackingItems: { pto: { type: 'number', displayText: 'PTO' }, odometer: { precision: 0, type: 'number', displayText: 'Odo' } },
      initialValues: { odometer: 1, pto: 2 },
    });
    expect(r.body).toEqual({ uid: u, status: 'no_changes' });
    expect(await one(u)).toEqual(before);
  });

  it('a new initial value moves the total with it', async () => {
    const r = await patch(uid, { initialValues: { odometer: 1500 } });
    expect(r.body).toEqual({ uid, status: 'updated' });
    const v = await one(uid);
    expect(v.initialValues).toEqual({ odometer: 1500 });
    expect(v.totals).toEqual({ odometer: 1500 });
  });

  it('decimal initial values: totals follow them exactly', async () => {
    const u = await create(vehicle({ tracking: HOURS, initialValues: { hours: 0.1 } }));
    for (const h of [0.3, 0.7, 1234.56]) {
      expect((await patch(u, { initialValues: { hours: h } })).body).toEqual({ uid: u, status: 'updated' });
      const v = await one(u);
      expect(v.initialValues).toEqual({ hours: h });
      expect(v.totals).toEqual({ hours: h });
    }
  });

  it('tracking and maintenance items can be changed', async () => {
    const r = await patch(uid, {
      tracking: HOURS,
      maintenanceTrackingItems: { hours: { displayText: 'Hours', type: 'number', precision: 1 } },
      initialValues: { hours: 40 },
    });
    expect(r.body).toEqual({ uid, status: 'updated' });
    const v = await one(uid);
    expect(v.tracking).toEqual(HOURS);
    expect(Object.keys(v.maintenanceTrackingItems)).toEqual(['hours']);
    expect(v.initialValues).toEqual({ hours: 40 });
    expect(v.totals).toEqual({ hours: 40 });
  });

  const bad: [string, unknown, string | RegExp][] = [
    ['fuelType not in the enum', { fuelType: 'lpg' }, '/fuelType'],
    ['transmissionType not in the enum', { transmissionType: 'cvt' }, '/transmissionType'],
    ['totalSeats negative', { totalSeats: -1 }, '/totalSeats'],
    ['totalSeats non-integer', { totalSeats: 1.5 }, '/totalSeats'],
    ['tracking with two units', { tracking: { kilometers: true, miles: true, hours: false } }, /^\/tracking(\/|$)/],
    ['tracking with no unit', { tracking: { kilometers: false, miles: false, hours: false } }, /^\/tracking(\/|$)/],
    ['trackingDevice without imei', { trackingDevice: { provider: 'tracksolid' } }, '/trackingDevice/imei'],
    ['trackingDevice unknown provider', { trackingDevice: { provider: 'geotab', imei: '2' } }, '/trackingDevice/provider'],
    ['initialValues for an unknown key', { initialValues: { bogus: 1 } }, '/initialValues/bogus'],
    ['make null', { make: null }, '/make'],
    ['registration a number', { registration: 5 }, '/registration'],
    ['server-controlled uid', { uid: 'vh_other' }, '/uid'],
    ['server-controlled companyId', { companyId: 'x' }, '/companyId'],
    ['server-controlled status', { status: 'deleted' }, '/status'],
    ['server-controlled createdAt', { createdAt: '2020-01-01T00:00:00Z' }, '/createdAt'],
    ['server-controlled updatedAt', { updatedAt: '2020-01-01T00:00:00Z' }, '/updatedAt'],
    ['server-controlled totals', { totals: { hours: 1 } }, '/totals'],
    ['a valid field with an invalid one', { color: 'black', fuelType: 'lpg' }, '/fuelType'],
  ];
  it.each(bad)('%s → 400, the vehicle unchanged', async (_name, body, path) => {
    const before = await snapshot();
    const v = await one(uid);
    const r = await patch(uid, body);
    expectValidation(r, path);
    expect(await one(uid)).toEqual(v);
    expect(await snapshot()).toEqual(before);
  });

  it('unknown field → 400, the vehicle unchanged', async () => {
    const v = await one(uid);
    const r = await patch(uid, { color: 'black', bogus: 1 });
    expectValidation(r, /^(\/bogus)?$/);
    expect(JSON.stringify(r.body.errors)).toMatch(/bogus/);
    expect(await one(uid)).toEqual(v);
  });

  it('non-object, non-JSON and malformed bodies → 400/415, the vehicle unchanged', async () => {
    const v = await one(uid);
    for (const body of [[{ color: 'x' }], '"x"', 'null']) expectProblem(await patch(uid, body), 400);
    const a = await env.request('PATCH', `${API}/vehicles/${uid}`, { body: '{"color":"x"}', headers: { 'content-type': 'text/plain' } });
    expectProblem({ status: a.status, body: await a.json(), res: a }, 415);
    const b = await env.request('PATCH', `${API}/vehicles/${uid}`, { body: '{"color":', headers: { 'content-type': 'application/json' } });
    expectProblem({ status: b.status, body: await b.json(), res: b }, 400);
    expect(await one(uid)).toEqual(v);
  });

  it('404 problem+json for an unknown id and for the other company’s vehicle; nothing changed', async () => {
    const before = await snapshot();
    const theirs = await one('globex-v-1', env.b.key);
    expectProblem(await patch('vh_does_not_exist', { color: 'x' }), 404, 'not_found');
    expectProblem(await patch('globex-v-1', { color: 'x' }), 404, 'not_found');
    expectProblem(await patch(uid, { color: 'x' }, env.b.key), 404, 'not_found');
    expect(await one('globex-v-1', env.b.key)).toEqual(theirs);
    expect(await snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('DELETE /vehicles/{id} (soft) and POST /vehicles/{id}/restore', () => {
  let uid: string;
  let created: any;
  beforeAll(async () => {
    uid = await create(vehicle({ color: 'orange', tracking: KILOMETERS, initialValues: { odometer: 77 } }));
    created = await one(uid);
  });

  it('restoring a vehicle that is not deleted → 409 problem+json, nothing changed', async () => {
    const before = await snapshot();
    expectProblem(await restore(uid), 409, 'conflict');
    expectProblem(await restore('acme-v-1'), 409, 'conflict');
    expect(await snapshot()).toEqual(before);
  });

  it('DELETE → {uid, status: deleted}; hidden from the list; listed with includeDeleted=true and status=deleted; GET by id still answers', async () => {
    const activeBefore = await list();
    expect(uids(activeBefore)).toContain(uid);
    const r = await del(uid);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'deleted' });

    const active = await list();
    expect(uids(active)).not.toContain(uid);
    expect(active.length).toBe(activeBefore.length - 1);
    expect(await list('?includeDeleted=false')).toEqual(active);
    expect(await list('?status=active')).toEqual(active);

    const all = await list('?includeDeleted=true');
    expect(all.length).toBe(active.length + 1);
    expect(all.find((v) => v.uid === uid)).toMatchObject({ uid, status: 'deleted' });

    const deleted = await list('?status=deleted');
    expect(uids(deleted)).toEqual([uid]);
    expect(deleted[0].status).toBe('deleted');

    const v = await one(uid);
    expect(v).toEqual({ ...created, status: 'deleted', updatedAt: expect.stringMatching(ISO_UTC) });
  });

  it('DELETE twice → 404 problem+json', async () => {
    const before = await snapshot();
    expectProblem(await del(uid), 404, 'not_found');
    expect(await snapshot()).toEqual(before);
  });

  it('restore → {uid, status: restored}; back in the list with status active and its data', async () => {
    const r = await restore(uid);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'restored' });
    const v = await one(uid);
    expect(v).toEqual({ ...created, updatedAt: expect.stringMatching(ISO_UTC) });
    expect((await list()).find((x) => x.uid === uid)).toEqual(v);
    expect(uids(await list('?status=deleted'))).not.toContain(uid);
    expectProblem(await restore(uid), 409, 'conflict');
  });

  it('delete → restore → delete again works', async () => {
    expect((await del(uid)).body).toEqual({ uid, status: 'deleted' });
    expect(uids(await list())).not.toContain(uid);
    expect((await restore(uid)).body).toEqual({ uid, status: 'restored' });
    expect((await one(uid)).status).toBe('active');
  });

  it('404 for unknown ids on DELETE and restore', async () => {
    const before = await snapshot();
    expectProblem(await del('vh_does_not_exist'), 404, 'not_found');
    expectProblem(await restore('vh_does_not_exist'), 404, 'not_found');
    expect(await snapshot()).toEqual(before);
  });

  it('status=active with includeDeleted=true lists only active vehicles', async () => {
    const r = await list('?status=active&includeDeleted=true');
    expect(r.length).toBeGreaterThan(0);
    for (const v of r) expect(v.status).toBe('active');
    expect(r).toEqual(await list());
  });

  it('a bad list query parameter → 400 problem+json', async () => {
    for (const q of ['?includeDeleted=yes', '?includeDeleted=1', '?status=']) {
      expectValidation(await get(`/vehicles${q}`));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('tenant isolation', () => {
  it('each company lists only its own vehicles', async () => {
    const a = await list('?includeDeleted=true');
    const b = await list('?includeDeleted=true', env.b.key);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    for (const v of a) expect(v.companyId).toBe(env.a.id);
    for (const v of b) expect(v.companyId).toBe(env.b.id);
    expect(uids(a)).toContain('acme-v-1');
    expect(uids(a)).not.toContain('globex-v-1');
    expect(uids(b)).toContain('globex-v-1');
    expect(uids(b)).not.toContain('acme-v-1');
    const ids = new Set(uids(a));
    for (const u of uids(b)) expect(ids.has(u)).toBe(false);
  });

  it('the other company’s vehicle is 404 on GET, PATCH, DELETE and restore, and is left untouched', async () => {
    const mine = await create(vehicle({ color: 'teal' }));
    const mineBefore = await one(mine);
    const theirsBefore = await one('globex-v-1', env.b.key);
    const before = await snapshot();

    expectProblem(await get('/vehicles/globex-v-1'), 404, 'not_found');
    expectProblem(await patch('globex-v-1', { color: 'x' }), 404, 'not_found');
    expectProblem(await del('globex-v-1'), 404, 'not_found');
    expectProblem(await restore('globex-v-1'), 404, 'not_found');

    expectProblem(await get(`/vehicles/${mine}`, env.b.key), 404, 'not_found');
    expectProblem(await patch(mine, { color: 'x' }, env.b.key), 404, 'not_found');
    expectProblem(await del(mine, env.b.key), 404, 'not_found');
    expectProblem(await restore(mine, env.b.key), 404, 'not_found');

    expect(await one('globex-v-1', env.b.key)).toEqual(theirsBefore);
    expect(await one(mine)).toEqual(mineBefore);
    expect(await snapshot()).toEqual(before);
  });

  it('a vehicle deleted by one company cannot be restored or seen through the other', async () => {
    const theirs = await create(vehicle({ color: 'grey' }), env.b.key);
    expect((await del(theirs, env.b.key)).body).toEqual({ uid: theirs, status: 'deleted' });
    expectProblem(await restore(theirs), 404, 'not_found');
    expectProblem(await get(`/vehicles/${theirs}`), 404, 'not_found');
    expect(uids(await list('?status=deleted'))).not.toContain(theirs);
    expect(uids(await list('?includeDeleted=true'))).not.toContain(theirs);
    expect((await one(theirs, env.b.key)).status).toBe('deleted');
    expect(uids(await list('?status=deleted', env.b.key))).toContain(theirs);
  });

  it('create and batch create land in the caller’s company only', async () => {
    const single = await create(vehicle({ color: 'b-only' }), env.b.key);
    const r = await post('/vehicles/batch', { items: [vehicle({ color: 'b-batch' })] }, env.b.key);
    expect(r.status).toBe(200);
    const batched = r.body.results[0].uid;
    for (const u of [single, batched]) {
      expect((await one(u, env.b.key)).companyId).toBe(env.b.id);
      expectProblem(await get(`/vehicles/${u}`), 404, 'not_found');
    }
    expect(uids(await list('?includeDeleted=true'))).not.toContain(single);
  });

  it('every vehicle route answers 401 problem+json without a key', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/vehicles'],
      ['GET', '/vehicles/acme-v-1'],
      ['POST', '/vehicles', vehicle()],
      ['POST', '/vehicles/batch', { items: [vehicle()] }],
      ['PATCH', '/vehicles/acme-v-1', { color: 'x' }],
      ['DELETE', '/vehicles/acme-v-1'],
      ['POST', '/vehicles/acme-v-1/restore'],
    ];
    const before = await snapshot();
    for (const [method, path, body] of routes) {
      const r = await env.json(method, `${API}${path}`, { key: null, body });
      expectProblem(r, 401);
    }
    expect(await snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('GraphQL vehicles / vehicle', () => {
  const FIELDS = `uid make model registration status companyId vin serialNumber color description registrationState engineNumber
    previousRegistration year fuelType transmissionType totalSeats passengerCapacity tracking trackingDevice
    maintenanceTrackingItems logTrackingItems totals initialValues location thirdPartyUser photos createdAt updatedAt`;
  const LIST = `query ($status: String, $includeDeleted: Boolean) { vehicles(status: $status, includeDeleted: $includeDeleted) { count data { ${FIELDS} } } }`;
  const ONE = `query ($id: ID!) { vehicle(id: $id) { ${FIELDS} } }`;

  /** GraphQL answers optional fields as null; REST omits them. */
  const omitNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

  let deletedUid: string;
  beforeAll(async () => {
    await create(
      vehicle({
        vin: 'VIN-G',
        year: 2021,
        fuelType: 'petrolHybrid',
        totalSeats: 7,
        trackingDevice: { provider: 'tracksolid', imei: '42', mapIcon: 'bus' },
        thirdPartyUser: { id: 'x' },
        photos: ['p.jpg'],
        initialValues: { odometer: 3 },
      }),
    );
    deletedUid = await create(vehicle({ color: 'gql-deleted' }));
    expect((await del(deletedUid)).status).toBe(200);
  });

  it.each([
    ['no filter', {}, ''],
    ['includeDeleted: true', { includeDeleted: true }, '?includeDeleted=true'],
    ['status: deleted', { status: 'deleted' }, '?status=deleted'],
    ['status: active', { status: 'active' }, '?status=active'],
  ])('vehicles (%s) returns the same data as GET /vehicles', async (_n, vars, query) => {
    for (const key of [env.a.key, env.b.key]) {
      const g = await env.gql(LIST, vars, key);
      expect(g.status).toBe(200);
      expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
      const rest = await list(query, key);
      expect(g.body.data.vehicles.count).toBe(rest.length);
      expect(g.body.data.vehicles.data.map(omitNulls)).toEqual(rest);
    }
    if (query === '?status=deleted') expect(uids((await env.gql(LIST, vars)).body.data.vehicles.data)).toContain(deletedUid);
  });

  it('vehicle(id) returns the same data as GET /vehicles/{id}, deleted ones too', async () => {
    const all = await list('?includeDeleted=true');
    expect(uids(all)).toContain(deletedUid);
    for (const v of all) {
      const g = await env.gql(ONE, { id: v.uid });
      expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined();
      expect(omitNulls(g.body.data.vehicle)).toEqual(await one(v.uid));
    }
  });

  it('vehicle(id) of the other company or an unknown id → NOT_FOUND', async () => {
    for (const id of ['globex-v-1', 'vh_does_not_exist']) {
      const g = await env.gql(ONE, { id });
      expect(g.body.errors?.length, JSON.stringify(g.body)).toBeGreaterThan(0);
      expect(g.body.errors![0].extensions?.code).toBe('NOT_FOUND');
      expect(g.body.data?.vehicle ?? null).toBeNull();
    }
    const mine = await env.gql(ONE, { id: 'globex-v-1' }, env.b.key);
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data.vehicle.companyId).toBe(env.b.id);
  });
});

describe('a deleted vehicle', () => {
  it('cannot be changed until restored (409), and an unknown field is reported at its own path', async () => {
    const created = await env.json('POST', '/api/v1/vehicles', { body: { make: 'Ford', model: 'Transit', registration: 'DEL-1' } });
    const uid = created.body.uid;
    expect((await env.json('DELETE', `/api/v1/vehicles/${uid}`)).status).toBe(200);
    const patch = await env.json('PATCH', `/api/v1/vehicles/${uid}`, { body: { color: 'blue' } });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('conflict');
    expect((await env.json('GET', `/api/v1/vehicles/${uid}`)).body.color).toBeUndefined();
    expect((await env.json('POST', `/api/v1/vehicles/${uid}/restore`)).status).toBe(200);
    expect((await env.json('PATCH', `/api/v1/vehicles/${uid}`, { body: { color: 'blue' } })).body.status).toBe('updated');
    const bogus = await env.json('POST', '/api/v1/vehicles', { body: { make: 'A', model: 'B', registration: 'C', bogus: 1 } });
    expect(bogus.status).toBe(400);
    expect(bogus.body.errors).toContainEqual({ path: '/bogus', message: 'unknown field: bogus' });
  });
});

describe('create with totals (docs/contract/api-v1.md §2.14 allows every Vehicle field but uid, companyId, status)', () => {
  it('takes them as the starting figures', async () => {
    const r = await env.json('POST', '/api/v1/vehicles', {
      body: { make: 'Isuzu', model: 'NPR', registration: 'TOT-1', tracking: { kilometers: true, miles: false, hours: false }, totals: { odometer: 1234.5 } },
    });
    expect(r.status).toBe(201);
    const v = await env.json('GET', `/api/v1/vehicles/${r.body.uid}`);
    expect(v.body.totals).toEqual({ odometer: 1234.5 });
    expect(v.body.initialValues).toEqual({ odometer: 1234.5 });
    const patch = await env.json('PATCH', `/api/v1/vehicles/${r.body.uid}`, { body: { totals: { odometer: 1 } } });
    expect(patch.status).toBe(400);
  });
});
