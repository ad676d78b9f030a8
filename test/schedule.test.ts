// Maintenance schedule over REST (docs/contract/api-v1.md §2.13, §3; docs/contract/gaps.md §2 errors, §3 "Maintenance schedule"): every route and its
// 4xx answers, roll-forward on completion (usage after flight logs, calendar in the acting user's time zone),
// non-recurring items going inactive, completion pages, the maintenance status (exact remaining, calendar days,
// urgency order, filters) and tenant isolation. One environment; each block works on assets or names of its own.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { createServices } from '../src/context.js';
import { scopedPrisma } from '../src/db/scoped.js';
import { now } from '../src/lib/clock.js';
import { addDays, createTestEnv, newKey, todayIn, type TestEnv } from './helpers.js';

const API = '/api/v1';
let env: TestEnv;
let pilotKey: string;
let statements = 0;

beforeAll(async () => {
  env = await createTestEnv({ onQuery: () => statements++ });
  pilotKey = newKey();
  await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'pilot', userId: 'acme-pilot', key: pilotKey });
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;
type R = { status: number; body: any; res: Response };

const get = (path: string, key?: string): Promise<R> => env.json('GET', `${API}${path}`, { key });
const post = (path: string, body?: unknown, key?: string): Promise<R> => env.json('POST', `${API}${path}`, { body, key });
const patch = (id: string, body: unknown, key?: string): Promise<R> => env.json('PATCH', `${API}/schedule-items/${id}`, { body, key });
const del = (id: string, key?: string): Promise<R> => env.json('DELETE', `${API}/schedule-items/${id}`, { key });

/** A valid recurring usage item on acme-ac-1 (hobbs). */
function usageItem(over: Body = {}): Body {
  return {
    name: '100-hourly inspection',
    type: 'Inspection',
    relatedTo: 'acme-ac-1',
    relatedToType: 'aircraft',
    recurring: true,
    trackingItem: 'hobbs',
    dueAtInterval: 1300.5,
    recurringInterval: 100,
    ...over,
  };
}
/** A valid recurring calendar item on acme equipment. */
function calendarItem(over: Body = {}): Body {
  return {
    name: 'Fire extinguisher check',
    type: 'Calibration',
    relatedTo: 'Hangar extinguisher',
    relatedToType: 'equipment',
    recurring: true,
    calendarDateDue: '2026-06-30',
    calendarRecurring: 180,
    ...over,
  };
}
function without(body: Body, ...keys: string[]): Body {
  const out = { ...body };
  for (const k of keys) delete out[k];
  return out;
}

async function create(body: Body, key?: string): Promise<string> {
  const r = await post('/schedule-items', body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toEqual({ uid: expect.any(String), status: 'created' });
  return r.body.uid;
}
async function item(id: string, key?: string): Promise<any> {
  const r = await get(`/schedule-items/${id}`, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
async function complete(id: string, body?: unknown, key?: string): Promise<string> {
  const r = await post(`/schedule-items/${id}/complete`, body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toEqual({ uid: expect.any(String), status: 'created' });
  return r.body.uid;
}
async function flightLog(aircraft: 'acme-ac-1' | 'acme-ac-2', tracking: Record<string, number>) {
  const r = await post('/flight-logs', {
    timeDate: '2026-03-01T09:30:00Z',
    pilot: 'acme-pilot',
    aircraftId: aircraft,
    aircraftRegistration: aircraft === 'acme-ac-1' ? 'VH-ACM' : 'VH-ACZ',
    startLocation: 'YSSY',
    endLocation: 'YSBK',
    pax: 1,
    ...tracking,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}
async function totals(aircraft: string): Promise<Record<string, number>> {
  const r = await get(`/aircraft/${aircraft}`);
  expect(r.status).toBe(200);
  return r.body.totals;
}

/** Everything a rejected request must leave untouched: every item and completion of both companies. */
async function snapshot() {
  const out: unknown[] = [];
  for (const key of [env.a.key, env.b.key]) {
    out.push((await get('/schedule-items?includeInactive=true', key)).body);
    out.push((await get('/schedule-completions?limit=500', key)).body);
  }
  return out;
}
async function expectProblem(r: R, status: number, path?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
  if (path !== undefined) {
    expect(r.body.errors?.map((e: any) => e.path), JSON.stringify(r.body)).toContain(path);
    for (const e of r.body.errors) expect(e.message).toEqual(expect.any(String));
  }
}

const ownerToday = () => todayIn('Australia/Sydney');

describe('POST /schedule-items and GET /schedule-items/{id}', () => {
  it('creates a usage item: 201, and GET returns it with numbers as numbers and no null fields', async () => {
    const uid = await create(usageItem({ name: 'Create-usage', notes: 'per maintenance schedule', documentation: ['https://files.test/a.pdf'] }));
    const it = await item(uid);
    expect(it).toEqual({
      uid,
      companyId: env.a.id,
      name: 'Create-usage',
      type: 'Inspection',
      documentation: ['https://files.test/a.pdf'],
      archivedDocumentation: [],
      relatedTo: 'acme-ac-1',
      relatedToType: 'aircraft',
      recurring: true,
      recurringInterval: 100,
      trackingItem: 'hobbs',
      dueAtInterval: 1300.5,
      status: 'active',
      notes: 'per maintenance schedule',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(it.createdAt).toISOString()).toBe(it.createdAt);
  });

  it('creates a calendar item: the due date is carried as midnight UTC of that date', async () => {
    const uid = await create(calendarItem({ name: 'Create-calendar', lastCarriedOutDate: '2025-12-31T10:00:00+10:00', lastCarriedOutValue: 'annual #4' }));
    const it = await item(uid);
    expect(it).toMatchObject({
      calendarDateDue: '2026-06-30T00:00:00.000Z',
      calendarRecurring: 180,
      lastCarriedOutDate: '2025-12-31T00:00:00.000Z',
      lastCarriedOutValue: 'annual #4',
      relatedToType: 'equipment',
    });
    expect(it).not.toHaveProperty('trackingItem');
    expect(it).not.toHaveProperty('dueAtInterval');
  });

  it('a date-time calendarDateDue keeps its date as written', async () => {
    const uid = await create(calendarItem({ name: 'Create-datetime', calendarDateDue: '2026-07-01T08:00:00+10:00' }));
    expect((await item(uid)).calendarDateDue).toBe('2026-07-01T00:00:00.000Z');
  });

  it('accepts every relatedToType: vehicle (odometer), user, company (own id), equipment; both thresholds; inactive on create', async () => {
    await create(usageItem({ name: 'Create-vehicle', relatedTo: 'acme-v-1', relatedToType: 'vehicle', trackingItem: 'odometer', dueAtInterval: 15000, recurringInterval: 15000 }));
    await create(calendarItem({ name: 'Create-user', relatedTo: 'acme-pilot', relatedToType: 'user', type: 'Qualification' }));
    await create(calendarItem({ name: 'Create-company', relatedTo: env.a.id, relatedToType: 'company', type: 'Renewal', recurring: false, calendarRecurring: undefined }));
    const both = await create(usageItem({ name: 'Create-both', calendarDateDue: '2027-01-15', calendarRecurring: 365 }));
    expect(await item(both)).toMatchObject({ dueAtInterval: 1300.5, calendarDateDue: '2027-01-15T00:00:00.000Z', calendarRecurring: 365 });
    const inactive = await create(calendarItem({ name: 'Create-inactive', status: 'inactive' }));
    expect((await item(inactive)).status).toBe('inactive');
    // a non-recurring item may keep its intervals (unused until it recurs)
    await create(usageItem({ name: 'Create-nonrecurring', recurring: false }));
  });

  it('400 for a deleted vehicle or component (as installing on one is), and again once it is restored it is accepted', async () => {
    const vehicle = (await post('/vehicles', { make: 'Isuzu', model: 'NPR', registration: 'SCH-DEL' })).body.uid as string;
    const component = (await post('/components', { name: 'Pump', type: 'Pump', partNumber: 'P-1', serialNumber: 'SCH-DEL-1', counters: [{ displayText: 'Hours', unit: 'hours' }] })).body.uid as string;
    const onVehicle = usageItem({ name: 'On a deleted vehicle', relatedTo: vehicle, relatedToType: 'vehicle', trackingItem: 'odometer', dueAtInterval: 100, recurringInterval: 100 });
    const onComponent = usageItem({ name: 'On a deleted component', relatedTo: component, relatedToType: 'component', trackingItem: 'hours', dueAtInterval: 100, recurringInterval: 100 });
    expect((await env.json('DELETE', `${API}/vehicles/${vehicle}`)).status).toBe(200);
    expect((await env.json('DELETE', `${API}/components/${component}`)).status).toBe(200);
    const before = await snapshot();
    await expectProblem(await post('/schedule-items', onVehicle), 400, '/relatedTo');
    await expectProblem(await post('/schedule-items', onComponent), 400, '/relatedTo');
    expect(await snapshot()).toEqual(before);
    expect((await post(`/vehicles/${vehicle}/restore`)).status).toBe(200);
    expect((await post(`/components/${component}/restore`)).status).toBe(200);
    await create(onVehicle);
    await create(onComponent);
  });

  it('keeps decimals exact (numeric(20,6))', async () => {
    const uid = await create(usageItem({ name: 'Create-decimals', dueAtInterval: 1300.123456, recurringInterval: 0.1 }));
    expect(await item(uid)).toMatchObject({ dueAtInterval: 1300.123456, recurringInterval: 0.1 });
  });

  const bad: [string, unknown, string | undefined][] = [
    ['no threshold', without(usageItem(), 'trackingItem', 'dueAtInterval', 'recurringInterval'), ''],
    ['trackingItem without dueAtInterval', without(usageItem(), 'dueAtInterval'), '/dueAtInterval'],
    ['dueAtInterval without trackingItem', without(usageItem(), 'trackingItem'), '/trackingItem'],
    ['missing name', without(usageItem(), 'name'), '/name'],
    ['missing type', without(usageItem(), 'type'), '/type'],
    ['missing relatedTo', without(usageItem(), 'relatedTo'), '/relatedTo'],
    ['missing relatedToType', without(usageItem(), 'relatedToType'), '/relatedToType'],
    ['missing recurring', without(usageItem(), 'recurring'), '/recurring'],
    ['null name', usageItem({ name: null }), '/name'],
    ['empty name', usageItem({ name: '  ' }), '/name'],
    ['unknown relatedToType', usageItem({ relatedToType: 'boat' }), '/relatedToType'],
    ['tracking item not of the aircraft', usageItem({ trackingItem: 'tacho' }), '/trackingItem'],
    ['a log (string) tracking item', usageItem({ trackingItem: 'remarks' }), '/trackingItem'],
    ['unknown aircraft', usageItem({ relatedTo: 'nope' }), '/relatedTo'],
    ["another company's aircraft", usageItem({ relatedTo: 'globex-ac-1' }), '/relatedTo'],
    ['aircraft uid given as vehicle', usageItem({ relatedToType: 'vehicle' }), '/relatedTo'],
    ['unknown user', calendarItem({ relatedTo: 'nobody', relatedToType: 'user' }), '/relatedTo'],
    ["another company's user", calendarItem({ relatedTo: 'globex-pilot', relatedToType: 'user' }), '/relatedTo'],
    ['company item of another company', calendarItem({ relatedTo: 'someone-else', relatedToType: 'company' }), '/relatedTo'],
    ['usage threshold on equipment', calendarItem({ trackingItem: 'hobbs', dueAtInterval: 10 }), '/trackingItem'],
    ['recurring usage without recurringInterval', without(usageItem(), 'recurringInterval'), '/recurringInterval'],
    ['recurring calendar without calendarRecurring', without(calendarItem(), 'calendarRecurring'), '/calendarRecurring'],
    ['calendarRecurring without a calendar threshold', usageItem({ calendarRecurring: 30 }), '/calendarRecurring'],
    ['recurringInterval without a usage threshold', calendarItem({ recurringInterval: 10 }), '/recurringInterval'],
    ['recurringInterval 0', usageItem({ recurringInterval: 0 }), '/recurringInterval'],
    ['calendarRecurring 0', calendarItem({ calendarRecurring: 0 }), '/calendarRecurring'],
    ['calendarRecurring 1.5', calendarItem({ calendarRecurring: 1.5 }), '/calendarRecurring'],
    ['recurring as a string', usageItem({ recurring: 'yes' }), '/recurring'],
    ['dueAtInterval as a string', usageItem({ dueAtInterval: 'abc' }), '/dueAtInterval'],
    ['dueAtInterval with 7 decimals', usageItem({ dueAtInterval: 1300.1234567 }), '/dueAtInterval'],
    ['dueAtInterval of 1e9', usageItem({ dueAtInterval: 1e9 }), '/dueAtInterval'],
    ['recurringInterval of 1e25', usageItem({ recurringInterval: 1e25 }), '/recurringInterval'],
    ['lastCarriedOutValue of -1e9', calendarItem({ lastCarriedOutValue: -1e9 }), '/lastCarriedOutValue'],
    ['lastCarriedOutValue with 7 decimals', calendarItem({ lastCarriedOutValue: 0.1234567 }), '/lastCarriedOutValue'],
    ['impossible calendarDateDue', calendarItem({ calendarDateDue: '2026-02-30' }), '/calendarDateDue'],
    ['calendarDateDue not ISO', calendarItem({ calendarDateDue: 'next Tuesday' }), '/calendarDateDue'],
    ['lastCarriedOutDate not ISO', calendarItem({ lastCarriedOutDate: '31/12/2025' }), '/lastCarriedOutDate'],
    ['lastCarriedOutValue boolean', calendarItem({ lastCarriedOutValue: true }), '/lastCarriedOutValue'],
    ['documentation of numbers', calendarItem({ documentation: [1] }), '/documentation/0'],
    ['documentation an object', calendarItem({ documentation: { a: 1 } }), undefined],
    ['status unknown', calendarItem({ status: 'deleted' }), '/status'],
    ['uid sent', calendarItem({ uid: 'si_mine' }), '/uid'],
    ['companyId sent', calendarItem({ companyId: env?.b?.id ?? 'x' }), '/companyId'],
    ['createdAt sent', calendarItem({ createdAt: '2026-01-01T00:00:00Z' }), '/createdAt'],
    ['unknown field', calendarItem({ colour: 'red' }), '/colour'],
  ];
  for (const [name, body, path] of bad) {
    it(`400 and nothing changes: ${name}`, async () => {
      const before = await snapshot();
      await expectProblem(await post('/schedule-items', body), 400, path);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('400 for malformed JSON, a JSON array, an empty body; 415 without JSON; nothing changes', async () => {
    const before = await snapshot();
    await expectProblem(await post('/schedule-items', '{"name": '), 400);
    await expectProblem(await post('/schedule-items', [usageItem()]), 400);
    await expectProblem(await env.json('POST', `${API}/schedule-items`, { body: '', headers: { 'content-type': 'application/json' } }), 400);
    await expectProblem(
      await env.json('POST', `${API}/schedule-items`, { body: JSON.stringify(usageItem()), headers: { 'content-type': 'text/plain' } }),
      415,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('404 for an unknown id; 401 without a key; 405 for a method the path does not have', async () => {
    await expectProblem(await get('/schedule-items/si_nope'), 404);
    await expectProblem(await get('/schedule-items', null as never), 401);
    await expectProblem(await get('/schedule-items/x/complete'), 405);
  });
});

describe('GET /schedule-items', () => {
  it('lists active items by name; filters by relatedTo, relatedToType, type; includeInactive', async () => {
    const a = await create(calendarItem({ name: 'List B', relatedTo: 'List-equipment', type: 'ListType' }));
    const b = await create(calendarItem({ name: 'List A', relatedTo: 'List-equipment', type: 'Service' }));
    const c = await create(calendarItem({ name: 'List C', relatedTo: 'List-equipment', type: 'ListType', status: 'inactive' }));
    const r = await get('/schedule-items?relatedTo=List-equipment');
    expect(r.status).toBe(200);
    expect(r.body.data.map((i: any) => i.uid)).toEqual([b, a]);
    expect(r.body.count).toBe(2);
    expect((await get('/schedule-items?relatedTo=List-equipment&includeInactive=true')).body.data.map((i: any) => i.uid)).toEqual([b, a, c]);
    expect((await get('/schedule-items?relatedTo=List-equipment&includeInactive=false')).body.count).toBe(2);
    expect((await get('/schedule-items?relatedTo=List-equipment&type=ListType')).body.data.map((i: any) => i.uid)).toEqual([a]);
    const equipment = (await get('/schedule-items?relatedToType=equipment')).body.data;
    expect(equipment.length).toBeGreaterThanOrEqual(2);
    expect(equipment.every((i: any) => i.relatedToType === 'equipment' && i.status === 'active')).toBe(true);
    for (const i of equipment) expect(Object.values(i)).not.toContain(null);
  });

  it('400 for bad query parameters', async () => {
    await expectProblem(await get('/schedule-items?includeInactive=yes'), 400, '/query/includeInactive');
    await expectProblem(await get('/schedule-items?relatedToType=boat'), 400, '/query/relatedToType');
  });
});

describe('PATCH /schedule-items/{id}', () => {
  it('updates fields, answers no_changes when nothing differs, null clears optional fields', async () => {
    const uid = await create(usageItem({ name: 'Patch', notes: 'first' }));
    expect((await patch(uid, { notes: 'second', dueAtInterval: 1310.25 })).body).toEqual({ uid, status: 'updated' });
    expect(await item(uid)).toMatchObject({ notes: 'second', dueAtInterval: 1310.25 });
    expect((await patch(uid, { notes: 'second', dueAtInterval: 1310.25, name: 'Patch' })).body).toEqual({ uid, status: 'no_changes' });
    expect((await patch(uid, {})).body).toEqual({ uid, status: 'no_changes' });
    expect((await patch(uid, { notes: null })).body).toEqual({ uid, status: 'updated' });
    expect(await item(uid)).not.toHaveProperty('notes');
    // switch the usage threshold to landings and add a calendar threshold
    expect((await patch(uid, { trackingItem: 'landings', dueAtInterval: 3500, calendarDateDue: '2027-03-01', calendarRecurring: 90 })).status).toBe(200);
    expect(await item(uid)).toMatchObject({ trackingItem: 'landings', dueAtInterval: 3500, calendarDateDue: '2027-03-01T00:00:00.000Z' });
    // drop the usage threshold: the calendar one remains
    expect((await patch(uid, { trackingItem: null, dueAtInterval: null, recurringInterval: null })).status).toBe(200);
    const after = await item(uid);
    expect(after).not.toHaveProperty('trackingItem');
    expect(after).not.toHaveProperty('recurringInterval');
  });

  it('400 and nothing changes for bad updates', async () => {
    const uid = await create(usageItem({ name: 'Patch-bad' }));
    const cases: [Body, string][] = [
      [{ status: 'inactive' }, '/status'],
      [{ name: null }, '/name'],
      [{ recurring: null }, '/recurring'],
      [{ trackingItem: null }, '/trackingItem'],
      [{ trackingItem: null, dueAtInterval: null, recurringInterval: null }, ''],
      [{ recurringInterval: null }, '/recurringInterval'],
      [{ trackingItem: 'tacho' }, '/trackingItem'],
      [{ relatedTo: 'globex-ac-1' }, '/relatedTo'],
      [{ relatedToType: 'equipment' }, '/trackingItem'],
      [{ dueAtInterval: 'soon' }, '/dueAtInterval'],
      [{ uid: 'x' }, '/uid'],
      [{ updatedAt: '2026-01-01T00:00:00Z' }, '/updatedAt'],
      [{ calendarRecurring: 7 }, '/calendarRecurring'],
    ];
    for (const [body, path] of cases) {
      const before = await snapshot();
      await expectProblem(await patch(uid, body), 400, path);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('404 for an unknown id', async () => {
    await expectProblem(await patch('si_nope', { notes: 'x' }), 404);
  });
});

describe('DELETE /schedule-items/{id} and POST /schedule-items/{id}/restore', () => {
  it('soft-deletes (inactive, hidden from the list), restores; 409 when repeated; 404 unknown', async () => {
    const uid = await create(calendarItem({ name: 'Delete', relatedTo: 'Delete-equipment' }));
    expect((await del(uid)).body).toEqual({ uid, status: 'deleted' });
    expect((await item(uid)).status).toBe('inactive');
    expect((await get('/schedule-items?relatedTo=Delete-equipment')).body.count).toBe(0);
    expect((await get('/schedule-items?relatedTo=Delete-equipment&includeInactive=true')).body.count).toBe(1);
    await expectProblem(await del(uid), 409);
    const r = await post(`/schedule-items/${uid}/restore`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ uid, status: 'restored' });
    expect((await item(uid)).status).toBe('active');
    await expectProblem(await post(`/schedule-items/${uid}/restore`), 409);
    await expectProblem(await del('si_nope'), 404);
    await expectProblem(await post('/schedule-items/si_nope/restore'), 404);
  });

  it('a restore checks what a create checks: an item whose tracking item or asset went while it was inactive is a 409, and stays inactive', async () => {
    // restore made such an item active again: it tracked a key the vehicle no longer had (no remaining, and its
    // completion a 400), or planned on a deleted component, where creating the same item is refused
    const v = await post('/vehicles', { make: 'Ford', model: 'Ranger', registration: `RST-${Date.now()}`, maintenanceTrackingItems: { odometer: { displayText: 'Odometer', type: 'number' }, hours: { displayText: 'Hours', type: 'number' } }, initialValues: { odometer: 100 } });
    expect(v.status, JSON.stringify(v.body)).toBe(201);
    const uid = await create({ name: 'Restore-odometer', type: 'Service', relatedTo: v.body.uid, relatedToType: 'vehicle', recurring: false, trackingItem: 'odometer', dueAtInterval: 500 });
    // a vehicle's items are replaced whole: hours alone takes odometer away
    const hoursOnly = { maintenanceTrackingItems: { hours: { displayText: 'Hours', type: 'number' } } };
    await expectProblem(await env.json('PATCH', `${API}/vehicles/${v.body.uid}`, { body: hoursOnly }), 409);
    await del(uid);
    expect((await env.json('PATCH', `${API}/vehicles/${v.body.uid}`, { body: hoursOnly })).status).toBe(200);
    const refused = await post(`/schedule-items/${uid}/restore`);
    await expectProblem(refused, 409);
    expect(refused.body.detail).toMatch(/^schedule item "si_\w+" cannot be restored: odometer is not a maintenance tracking item of vehicle RST-/);
    expect((await item(uid)).status).toBe('inactive');

    const c = await post('/components', { name: 'Restore', type: 'Engine', partNumber: 'P', serialNumber: `RST-${Date.now()}`, counters: [{ displayText: 'TSN', unit: 'hours' }] });
    const onComponent = await create({ name: 'Restore-component', type: 'Inspection', relatedTo: c.body.uid, relatedToType: 'component', recurring: false, trackingItem: 'tsn', dueAtInterval: 100 });
    await del(onComponent);
    expect((await env.json('DELETE', `${API}/components/${c.body.uid}`)).status).toBe(200);
    await expectProblem(await post(`/schedule-items/${onComponent}/restore`), 409);
    // the component back, the item can be restored
    expect((await post(`/components/${c.body.uid}/restore`)).status).toBe(200);
    expect((await post(`/schedule-items/${onComponent}/restore`)).status).toBe(200);
  });
});

describe('POST /schedule-items/{id}/complete', () => {
  it('rolls a recurring usage item forward from the current hobbs after flight logs (no body)', async () => {
    const uid = await create(usageItem({ name: 'Complete-usage', dueAtInterval: 1300.5, recurringInterval: 100 }));
    await flightLog('acme-ac-1', { hobbs: 1.5, landings: 2 });
    await flightLog('acme-ac-1', { hobbs: 2.3, landings: 1 });
    const hobbs = (await totals('acme-ac-1')).hobbs;
    const r = await env.request('POST', `${API}/schedule-items/${uid}/complete`);
    expect(r.status).toBe(201);
    const { uid: completion } = await r.json();
    const it = await item(uid);
    expect(it.dueAtInterval).toBe(Number((hobbs + 100).toFixed(6)));
    expect(it.lastCarriedOutValue).toBe(hobbs);
    expect(it.lastCarriedOutDate).toBe(now().toISOString()); // the service's clock, which the test fixed
    expect(it.status).toBe('active');
    const c = (await get(`/schedule-completions?scheduleItemId=${uid}`)).body;
    expect(c).toEqual({
      data: [
        {
          uid: completion,
          scheduleItemId: uid,
          companyId: env.a.id,
          userId: 'acme-owner',
          userDisplayName: 'Olivia Owner',
          completedAt: it.lastCarriedOutDate,
          documents: [],
          trackingValue: hobbs,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ],
      count: 1,
      nextCursor: null,
    });
  });

  it('an item whose vehicle was deleted after it was made can be completed: from the vehicle’s last total, rolled forward', async () => {
    const vehicle = (await post('/vehicles', { make: 'Isuzu', model: 'NPR', registration: 'SCH-GONE', initialValues: { odometer: 1234.5 } })).body.uid as string;
    const uid = await create(usageItem({ name: 'On a vehicle deleted later', relatedTo: vehicle, relatedToType: 'vehicle', trackingItem: 'odometer', dueAtInterval: 1300, recurringInterval: 250 }));
    expect((await env.json('DELETE', `${API}/vehicles/${vehicle}`)).status).toBe(200);
    const r = await env.request('POST', `${API}/schedule-items/${uid}/complete`);
    expect(r.status, await r.clone().text()).toBe(201);
    expect(await item(uid)).toMatchObject({ status: 'active', lastCarriedOutValue: 1234.5, dueAtInterval: 1484.5 });
  });

  it('exact roll-forward: 1200.1 + 100.2 = 1300.3, with an explicit trackingValue, notes and documents', async () => {
    const uid = await create(usageItem({ name: 'Complete-exact', recurringInterval: 100.2 }));
    const completion = await complete(uid, { trackingValue: 1200.1, notes: 'done', documents: ['https://files.test/wo.pdf'] });
    expect(await item(uid)).toMatchObject({ dueAtInterval: 1300.3, lastCarriedOutValue: 1200.1 });
    const c = (await get(`/schedule-completions?scheduleItemId=${uid}`)).body.data[0];
    expect(c).toMatchObject({ uid: completion, trackingValue: 1200.1, notes: 'done', documents: ['https://files.test/wo.pdf'] });
  });

  it('rolls a calendar item forward by calendar days in the acting user\u2019s time zone (Australia/Sydney, across the DST end)', async () => {
    const uid = await create(calendarItem({ name: 'Complete-calendar', calendarDateDue: '2026-03-15', calendarRecurring: 30 }));
    // 22:00 UTC on 10 March is 09:00 on 11 March in Sydney; 30 days later is 10 April (DST ends 5 April)
    await complete(uid, { completedAt: '2026-03-10T22:00:00Z' });
    expect(await item(uid)).toMatchObject({ calendarDateDue: '2026-04-10T00:00:00.000Z', lastCarriedOutDate: '2026-03-10T22:00:00.000Z' });
    expect((await item(uid))).not.toHaveProperty('lastCarriedOutValue');
    // a date alone is that day in the user's time zone: completedAt is Sydney midnight
    await complete(uid, { completedAt: '2026-04-20' });
    expect(await item(uid)).toMatchObject({ calendarDateDue: '2026-05-20T00:00:00.000Z', lastCarriedOutDate: '2026-04-19T14:00:00.000Z' });
  });

  it('counts in UTC for a user without a time zone, and records that user', async () => {
    const uid = await create(calendarItem({ name: 'Complete-utc', calendarDateDue: '2026-03-15', calendarRecurring: 30 }));
    await complete(uid, { completedAt: '2026-03-10T22:00:00Z' }, pilotKey);
    expect((await item(uid)).calendarDateDue).toBe('2026-04-09T00:00:00.000Z');
    const c = (await get(`/schedule-completions?scheduleItemId=${uid}`)).body.data[0];
    expect(c).toMatchObject({ userId: 'acme-pilot', userDisplayName: 'Pat Pilot', completedAt: '2026-03-10T22:00:00.000Z' });
    expect(c).not.toHaveProperty('trackingValue');
  });

  it('rolls both thresholds of an item with both', async () => {
    const uid = await create(usageItem({ name: 'Complete-both', calendarDateDue: '2026-05-01', calendarRecurring: 365 }));
    await complete(uid, { trackingValue: 1250, completedAt: '2026-04-30T02:00:00Z' });
    expect(await item(uid)).toMatchObject({ dueAtInterval: 1350, calendarDateDue: '2027-04-30T00:00:00.000Z' });
  });

  it('a non-recurring item becomes inactive; completing it again is a 409', async () => {
    const uid = await create(usageItem({ name: 'Complete-once', recurring: false, dueAtInterval: 2000 }));
    await complete(uid, {});
    const it = await item(uid);
    expect(it.status).toBe('inactive');
    expect(it.dueAtInterval).toBe(2000);
    expect(typeof it.lastCarriedOutValue).toBe('number');
    const before = await snapshot();
    await expectProblem(await post(`/schedule-items/${uid}/complete`, {}), 409);
    expect(await snapshot()).toEqual(before);
  });

  it('an empty body with a JSON Content-Type is no body', async () => {
    const uid = await create(calendarItem({ name: 'Complete-empty' }));
    const r = await env.json('POST', `${API}/schedule-items/${uid}/complete`, { body: '', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(201);
  });

  it('4xx for bad completions, and nothing changes', async () => {
    const uid = await create(calendarItem({ name: 'Complete-bad' }));
    const cases: [unknown, number, string?][] = [
      [{ trackingValue: 'x' }, 400, '/trackingValue'],
      [{ trackingValue: 1.1234567 }, 400, '/trackingValue'],
      [{ completedAt: 'yesterday' }, 400, '/completedAt'],
      [{ completedAt: '2026-13-01' }, 400, '/completedAt'],
      [{ documents: [1] }, 400, '/documents/0'],
      [{ uid: 'sc_x' }, 400, '/uid'],
      [{ userId: 'acme-pilot' }, 400, '/userId'],
      ['{"notes": ', 400],
      [[1], 400],
    ];
    for (const [body, status, path] of cases) {
      const before = await snapshot();
      await expectProblem(await post(`/schedule-items/${uid}/complete`, body), status, path);
      expect(await snapshot()).toEqual(before);
    }
    const before = await snapshot();
    await expectProblem(
      await env.json('POST', `${API}/schedule-items/${uid}/complete`, { body: '{}', headers: { 'content-type': 'text/plain' } }),
      415,
    );
    await expectProblem(await post('/schedule-items/si_nope/complete', {}), 404);
    expect(await del(uid)).toMatchObject({ status: 200 });
    const deleted = await snapshot();
    await expectProblem(await post(`/schedule-items/${uid}/complete`), 409);
    expect(await snapshot()).toEqual(deleted);
    expect(before).not.toEqual(deleted);
  });

  it('a completion dated in the future is a 400 at /completedAt on every channel, and changes nothing; today and a fast client clock are taken', async () => {
    const uid = await create(calendarItem({ name: 'Complete-future', calendarDateDue: addDays(ownerToday(), 10), calendarRecurring: 30 }));
    const tomorrow = addDays(ownerToday(), 1);
    const inAnHour = new Date(now().getTime() + 3_600_000).toISOString();
    const before = await snapshot();
    const r = await post(`/schedule-items/${uid}/complete`, { completedAt: tomorrow });
    await expectProblem(r, 400, '/completedAt');
    // the owner is a Sydney user: a date alone is compared with today's date there
    expect(r.body.errors[0].message).toBe(`completedAt must not be in the future: ${tomorrow} is after today, ${ownerToday()} (Australia/Sydney)`);
    await expectProblem(await post(`/schedule-items/${uid}/complete`, { completedAt: inAnHour }), 400, '/completedAt');
    const gql = await env.gql('mutation($id: ID!, $input: CompleteScheduleItemInput) { completeScheduleItem(id: $id, input: $input) { uid } }', { id: uid, input: { completedAt: tomorrow } });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ path: '/completedAt' }] });
    expect(await snapshot()).toEqual(before);
    // today, and a date-time two minutes ahead of the service's clock (a client's clock a little fast), are taken
    await complete(uid, { completedAt: ownerToday() });
    expect((await item(uid)).calendarDateDue).toBe(`${addDays(ownerToday(), 30)}T00:00:00.000Z`);
    await complete(uid, { completedAt: new Date(now().getTime() + 120_000).toISOString() });
  });

  it('records the acting user id as the display name when the user is unknown', async () => {
    const uid = await create(calendarItem({ name: 'Complete-ghost' }));
    const services = createServices(scopedPrisma(env.database.prisma, env.a.id), 'ghost-user');
    const r = await services.schedule.complete(uid, {});
    const c = (await get(`/schedule-completions?scheduleItemId=${uid}`)).body.data[0];
    expect(c).toMatchObject({ uid: r.uid, userId: 'ghost-user', userDisplayName: 'ghost-user' });
  });
});

describe('GET /schedule-completions', () => {
  it('pages newest first with an opaque cursor; filters by scheduleItemId and relatedTo', async () => {
    const x = await create(calendarItem({ name: 'Pages X', relatedTo: 'Pages-equipment' }));
    const y = await create(calendarItem({ name: 'Pages Y', relatedTo: 'Pages-equipment' }));
    const made: { uid: string; at: string }[] = [];
    for (const [i, id] of [x, y, x, y, x].entries()) {
      const at = `2026-02-0${i + 1}T12:00:00.000Z`;
      made.push({ uid: await complete(id, { completedAt: at }), at });
    }
    // two completions at the same instant: ordered by uid desc
    made.push({ uid: await complete(y, { completedAt: '2026-02-05T12:00:00Z' }), at: '2026-02-05T12:00:00.000Z' });
    const expected = [...made].sort((a, b) => (a.at === b.at ? (a.uid < b.uid ? 1 : -1) : a.at < b.at ? 1 : -1)).map((m) => m.uid);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r: R = await get(`/schedule-completions?relatedTo=Pages-equipment&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((c: any) => c.uid));
      expect(r.body.count).toBe(r.body.data.length);
      cursor = r.body.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
    const onlyX = (await get(`/schedule-completions?scheduleItemId=${x}`)).body;
    expect(onlyX.count).toBe(3);
    expect(onlyX.data.every((c: any) => c.scheduleItemId === x)).toBe(true);
    expect((await get('/schedule-completions?relatedTo=nothing-here')).body).toEqual({ data: [], count: 0, nextCursor: null });
  });

  it('400 for a bad limit or cursor', async () => {
    await expectProblem(await get('/schedule-completions?limit=0'), 400, '/query/limit');
    await expectProblem(await get('/schedule-completions?limit=501'), 400, '/query/limit');
    await expectProblem(await get('/schedule-completions?limit=ten'), 400, '/query/limit');
    await expectProblem(await get('/schedule-completions?cursor=not-a-cursor'), 400, '/query/cursor');
  });
});

describe('GET /maintenance-status', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    // acme-ac-2: tacho starts at 0; after this log it is 12.25
    await flightLog('acme-ac-2', { tacho: 12.25 });
    // calendar days count from today in the acting user's time zone (the owner's: Australia/Sydney)
    const today = ownerToday();
    const mk = (name: string, over: Body) =>
      create({ name, type: 'Inspection', relatedTo: 'acme-ac-2', relatedToType: 'aircraft', recurring: false, ...over });
    ids = {
      usageOverdue: await mk('S usage overdue', { trackingItem: 'tacho', dueAtInterval: 10 }),
      calendarOverdue: await mk('S calendar overdue', { calendarDateDue: addDays(today, -1) }),
      usageDue: await mk('S usage due', { trackingItem: 'tacho', dueAtInterval: 12.25 }),
      calendarToday: await mk('S calendar today', { calendarDateDue: today }),
      calendarSoon: await mk('S calendar soon', { calendarDateDue: addDays(today, 5) }),
      usageLater: await mk('S usage later', { trackingItem: 'tacho', dueAtInterval: 20.3 }),
      bothLater: await mk('S both later', { trackingItem: 'tacho', dueAtInterval: 100, calendarDateDue: addDays(today, 40) }),
    };
    const inactive = await mk('S inactive', { calendarDateDue: addDays(today, -100) });
    expect((await del(inactive)).status).toBe(200);
  });

  it('lists active items most urgent first with live totals, exact remaining and calendar days', async () => {
    const r = await get('/maintenance-status?relatedTo=acme-ac-2');
    expect(r.status).toBe(200);
    expect(r.body.data.map((s: any) => s.scheduleItemUid)).toEqual([
      ids.calendarOverdue,
      ids.usageOverdue,
      ids.calendarToday,
      ids.usageDue,
      ids.calendarSoon,
      ids.bothLater,
      ids.usageLater,
    ]);
    expect(r.body.count).toBe(7);
    const by = Object.fromEntries(r.body.data.map((s: any) => [s.scheduleItemUid, s]));
    expect(by[ids.usageOverdue]).toEqual({
      scheduleItemUid: ids.usageOverdue,
      name: 'S usage overdue',
      type: 'Inspection',
      relatedTo: 'acme-ac-2',
      relatedToType: 'aircraft',
      recurring: false,
      trackingItem: 'tacho',
      trackingItemDisplayText: 'Tacho',
      dueAtInterval: 10,
      currentTotal: 12.25,
      remaining: -2.25,
      status: 'active',
    });
    expect(by[ids.usageLater].remaining).toBe(8.05); // 20.3 - 12.25 in floating point is 8.050000000000002
    expect(by[ids.usageDue].remaining).toBe(0);
    expect(by[ids.calendarOverdue]).toMatchObject({ calendarDaysRemaining: -1, calendarDateDue: `${addDays(ownerToday(), -1)}T00:00:00.000Z` });
    expect(by[ids.calendarOverdue]).not.toHaveProperty('remaining');
    expect(by[ids.calendarToday].calendarDaysRemaining).toBe(0);
    expect(by[ids.calendarSoon].calendarDaysRemaining).toBe(5);
    expect(by[ids.bothLater]).toMatchObject({ remaining: 87.75, calendarDaysRemaining: 40 });
  });

  it('overdueOnly and dueWithinDays filter; relatedToType filters', async () => {
    const uids = async (q: string) => (await get(`/maintenance-status?relatedTo=acme-ac-2&${q}`)).body.data.map((s: any) => s.scheduleItemUid);
    expect(await uids('overdueOnly=true')).toEqual([ids.calendarOverdue, ids.usageOverdue]);
    expect((await uids('overdueOnly=false')).length).toBe(7);
    expect(await uids('dueWithinDays=0')).toEqual([ids.calendarOverdue, ids.usageOverdue, ids.calendarToday, ids.usageDue]);
    expect(await uids('dueWithinDays=5')).toEqual([ids.calendarOverdue, ids.usageOverdue, ids.calendarToday, ids.usageDue, ids.calendarSoon]);
    expect(await uids('dueWithinDays=5&overdueOnly=true')).toEqual([ids.calendarOverdue, ids.usageOverdue]);
    expect((await uids('relatedToType=vehicle')).length).toBe(0);
    // company-wide: these come before everything not overdue
    const all = (await get('/maintenance-status')).body.data;
    const overdue = all.filter((s: any) => s.remaining < 0 || s.calendarDaysRemaining < 0);
    expect(all.slice(0, overdue.length)).toEqual(overdue);
    expect(all.every((s: any) => s.status === 'active')).toBe(true);
  });

  it('counts calendar days from today in the requested time zone', async () => {
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Australia/Sydney', 'America/New_York']) {
      const r = await get(`/maintenance-status?relatedTo=acme-ac-2&timezone=${encodeURIComponent(tz)}`);
      expect(r.status).toBe(200);
      const soon = r.body.data.find((s: any) => s.scheduleItemUid === ids.calendarSoon);
      const shift = (Date.parse(`${todayIn(tz)}T00:00:00Z`) - Date.parse(`${ownerToday()}T00:00:00Z`)) / 86_400_000;
      expect(soon.calendarDaysRemaining, tz).toBe(5 - shift);
    }
  });

  it('400 for bad query parameters', async () => {
    await expectProblem(await get('/maintenance-status?timezone=Mars/Olympus'), 400, '/query/timezone');
    await expectProblem(await get('/maintenance-status?dueWithinDays=-1'), 400, '/query/dueWithinDays');
    await expectProblem(await get('/maintenance-status?dueWithinDays=soon'), 400, '/query/dueWithinDays');
    await expectProblem(await get('/maintenance-status?overdueOnly=1'), 400, '/query/overdueOnly');
    await expectProblem(await get('/maintenance-status?relatedToType=boat'), 400, '/query/relatedToType');
  });
});

describe('tenant isolation', () => {
  it("another company's items and completions are not there (404, empty lists), and it cannot refer to ours", async () => {
    const uid = await create(calendarItem({ name: 'Isolation', relatedTo: 'Isolation-equipment' }));
    await complete(uid, {});
    const b = env.b.key;
    const before = await snapshot();
    await expectProblem(await get(`/schedule-items/${uid}`, b), 404);
    await expectProblem(await patch(uid, { notes: 'x' }, b), 404);
    await expectProblem(await del(uid, b), 404);
    await expectProblem(await post(`/schedule-items/${uid}/restore`, undefined, b), 404);
    await expectProblem(await post(`/schedule-items/${uid}/complete`, {}, b), 404);
    await expectProblem(await post('/schedule-items', usageItem(), b), 400, '/relatedTo');
    await expectProblem(await post('/schedule-items', calendarItem({ relatedTo: env.a.id, relatedToType: 'company' }), b), 400, '/relatedTo');
    expect(await snapshot()).toEqual(before);
    expect((await get('/schedule-items?includeInactive=true', b)).body).toEqual({ data: [], count: 0 });
    expect((await get('/schedule-completions', b)).body).toEqual({ data: [], count: 0, nextCursor: null });
    expect((await get('/maintenance-status', b)).body).toEqual({ data: [], count: 0 });
    // globex's own item on its own aircraft works and is invisible to acme
    const own = await create(usageItem({ relatedTo: 'globex-ac-1' }), b);
    expect((await get('/maintenance-status', b)).body.data.map((s: any) => s.scheduleItemUid)).toEqual([own]);
    await expectProblem(await get(`/schedule-items/${own}`), 404);
  });
});

describe('maintenance status without N+1', () => {
  it('costs the same statements for 3 or 15 items over the same assets (each asset read once, batched per kind)', async () => {
    const b = env.b.key;
    const count = async (fn: () => Promise<unknown>) => {
      statements = 0;
      await fn();
      return statements;
    };
    const make = async (n: number, from: number) => {
      for (let i = from; i < from + n; i++) {
        const asset = [
          { relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs' },
          { relatedTo: 'globex-ac-2', relatedToType: 'aircraft', trackingItem: 'tacho' },
          { relatedTo: 'globex-v-1', relatedToType: 'vehicle', trackingItem: 'odometer' },
        ][i % 3];
        await create({ name: `N+1 ${i}`, type: 'Service', recurring: false, dueAtInterval: 5000 + i, calendarDateDue: '2027-01-01', ...asset }, b);
      }
    };
    const status = (n: number) => async () => {
      const r = await get('/maintenance-status?relatedToType=aircraft', b);
      const v = await get('/maintenance-status?relatedToType=vehicle', b);
      expect(r.body.count + v.body.count).toBeGreaterThanOrEqual(n);
      expect(r.body.data.every((s: any) => typeof s.currentTotal === 'number')).toBe(true);
    };
    await make(3, 0);
    const small = await count(status(3));
    await make(12, 3);
    const large = await count(status(15));
    expect(large).toBe(small);
  });
});

describe('GraphQL and the OpenAPI document', () => {
  it('the same service answers GraphQL', async () => {
    const created = await env.gql(
      `mutation($input: CreateScheduleItemInput!) { createScheduleItem(input: $input) { uid status } }`,
      { input: calendarItem({ name: 'GraphQL item' }) },
    );
    expect(created.body.errors).toBeUndefined();
    const uid = created.body.data.createScheduleItem.uid;
    const q = await env.gql(
      `query($id: ID!) { scheduleItem(id: $id) { uid name calendarDateDue dueAtInterval lastCarriedOutValue } maintenanceStatus(relatedTo: "Hangar extinguisher") { count data { scheduleItemUid calendarDaysRemaining } } }`,
      { id: uid },
    );
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.scheduleItem).toEqual({ uid, name: 'GraphQL item', calendarDateDue: '2026-06-30T00:00:00.000Z', dueAtInterval: null, lastCarriedOutValue: null });
    expect(q.body.data.maintenanceStatus.data.map((s: any) => s.scheduleItemUid)).toContain(uid);
    const done = await env.gql(`mutation($id: ID!) { completeScheduleItem(id: $id) { status } }`, { id: uid });
    expect(done.body.data.completeScheduleItem.status).toBe('created');
    const bad = await env.gql(
      `mutation($input: CreateScheduleItemInput!) { createScheduleItem(input: $input) { uid } }`,
      { input: without(calendarItem(), 'calendarDateDue', 'calendarRecurring') },
    );
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
  });

  it('documents every route with named schemas, and live bodies validate against them', async () => {
    const doc = (await env.json('GET', `${API}/openapi.json`, { key: null })).body;
    // writes answer the one WriteResult of every resource (its status is the WriteStatus enum, issue 22)
    const routes: [string, string, string, string][] = [
      ['get', '/schedule-items', '200', 'ScheduleItemList'],
      ['post', '/schedule-items', '201', 'WriteResult'],
      ['get', '/schedule-items/{id}', '200', 'ScheduleItem'],
      ['patch', '/schedule-items/{id}', '200', 'WriteResult'],
      ['delete', '/schedule-items/{id}', '200', 'WriteResult'],
      ['post', '/schedule-items/{id}/restore', '200', 'WriteResult'],
      ['post', '/schedule-items/{id}/complete', '201', 'WriteResult'],
      ['get', '/schedule-completions', '200', 'CompletedScheduleItemList'],
      ['get', '/maintenance-status', '200', 'MaintenanceStatusResponse'],
    ];
    for (const [method, path, status, schema] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.responses[status].content['application/json'].schema.$ref).toBe(`#/components/schemas/${schema}`);
    }
    expect(doc.paths['/schedule-items/{id}/complete'].post.requestBody).toMatchObject({
      required: false,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CompleteScheduleItemBody' } } },
    });
    for (const s of ['CreateScheduleItemBody', 'UpdateScheduleItemBody', 'CompletedScheduleItem', 'MaintenanceStatusItem']) {
      expect(doc.components.schemas[s], s).toBeDefined();
    }
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajv.addSchema({ $id: 'urn:fleetops:doc', components: { schemas: doc.components.schemas } });
    const check = (schema: string, body: unknown) => {
      const v = ajv.compile({ $ref: `urn:fleetops:doc#/components/schemas/${schema}` });
      expect(v(body), `${schema}: ${JSON.stringify(v.errors)}`).toBe(true);
    };
    check('ScheduleItemList', (await get('/schedule-items?includeInactive=true')).body);
    check('CompletedScheduleItemList', (await get('/schedule-completions')).body);
    check('MaintenanceStatusResponse', (await get('/maintenance-status')).body);
  });
});
