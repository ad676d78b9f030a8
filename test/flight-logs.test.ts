// Flight logs over REST (docs/contract/api-v1.md §2.3-2.7, §4.2, §7, §8; docs/contract/gaps.md §2 problem+json, §4 flight-log rules).
// One environment for the whole file; every describe block works in its own slice of time (a year of its own, or a
// pilot id of its own) so the blocks do not see each other's logs in filtered lists.
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flightLogBody2, flightLogBody, createTestEnv, type TestEnv } from './helpers.js';
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

/** A valid CreateFlightLogBody for acme-ac-1 (VH-ACM), and for acme-ac-2 (VH-ACZ). */
const log = flightLogBody;
const log2 = flightLogBody2;
function without(body: Body, key: string): Body {
  const { [key]: _drop, ...rest } = body;
  return rest;
}

const post = (path: string, body: unknown, key?: string) => env.json('POST', `${API}${path}`, { body, key });
const patch = (uid: string, body: unknown, key?: string) => env.json('PATCH', `${API}/flight-logs/${uid}`, { body, key });
const del = (uid: string, key?: string) => env.json('DELETE', `${API}/flight-logs/${uid}`, { key });
const get = (path: string, key?: string) => env.json('GET', `${API}${path}`, { key });

async function create(body: Body, key?: string): Promise<string> {
  const r = await post('/flight-logs', body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toEqual({ uid: expect.any(String), status: 'created' });
  return r.body.uid;
}

/** Every log the key can see (all pages), in list order. */
async function listAll(query: Record<string, string> = {}, key?: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const q = new URLSearchParams({ ...query, limit: '500', ...(cursor ? { cursor } : {}) });
    const r = await get(`/flight-logs?${q}`, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.data);
    cursor = r.body.nextCursor;
    if (!cursor) return out;
  }
  throw new Error('listAll: too many pages');
}

async function find(uid: string, key?: string): Promise<any | undefined> {
  return (await listAll({}, key)).find((l) => l.uid === uid);
}

async function totals(id: string, key?: string): Promise<Record<string, number>> {
  const r = await get(`/aircraft/${id}`, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.totals;
}

/** Everything a rejected request must leave untouched: all logs of both companies and all aircraft totals. */
async function snapshot() {
  return {
    a: await listAll(),
    b: await listAll({}, env.b.key),
    ac1: await totals('acme-ac-1'),
    ac2: await totals('acme-ac-2'),
    gl1: await totals('globex-ac-1', env.b.key),
  };
}

/** a + b on one-decimal values, exactly (computed in integer tenths). */
const plus = (a: number, b: number) => (Math.round(a * 10) + Math.round(b * 10)) / 10;


// ---------------------------------------------------------------------------------------------------------------
describe('POST /flight-logs and the list representation', () => {
  it('creates a log (201 {uid, status: created}); the list shows it flat, tracking values as top-level keys', async () => {
    const before = await totals('acme-ac-1');
    const uid = await create(
      log({
        timeDate: '2026-03-01T09:30:00Z',
        flightNumber: 'QF1',
        trackingItems: { hobbs: 1.3, landings: 2, fuelUplift: 55.5, remarks: 'smooth' },
      }),
    );
    const l = await find(uid);
    expect(l, 'created log is listed').toBeDefined();
    expect(l).toEqual({
      uid,
      timeDate: '2026-03-01T09:30:00.000Z',
      pilot: 'acme-pilot',
      aircraftId: 'acme-ac-1',
      aircraftRegistration: 'VH-ACM',
      flightNumber: 'QF1',
      startLocation: 'YSSY',
      endLocation: 'YSBK',
      pax: 2,
      companyId: env.a.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      hobbs: 1.3,
      landings: 2,
      fuelUplift: 55.5,
      remarks: 'smooth',
    });
    expect(l).not.toHaveProperty('trackingItems');
    expect(new Date(l.createdAt).toISOString()).toBe(l.createdAt);
    const after = await totals('acme-ac-1');
    expect(after.hobbs).toBe(plus(before.hobbs, 1.3));
    expect(after.landings).toBe(before.landings + 2);
  });

  it('keeps pax present as null, omits empty optional fields, and stores every optional field that is given', async () => {
    const bare = await create(log({ pax: null }));
    const l = await find(bare);
    expect(l).toHaveProperty('pax', null);
    for (const k of ['copilot', 'copilotType', 'flightNumber', 'notes', 'hobbs', 'landings', 'fuelUplift', 'remarks', 'trackingItems']) {
      expect(l, `${k} omitted`).not.toHaveProperty(k);
    }

    const full = await create(
      log({ copilot: 'acme-owner', copilotType: 'ICUS', flightNumber: 'QF2', notes: 'night', pax: 0 }),
    );
    expect(await find(full)).toMatchObject({ copilot: 'acme-owner', copilotType: 'ICUS', flightNumber: 'QF2', notes: 'night', pax: 0 });
    for (const copilotType of ['Co-Pilot', 'Dual']) {
      const uid = await create(log({ copilot: 'acme-owner', copilotType }));
      expect((await find(uid)).copilotType).toBe(copilotType);
    }
  });

  it('accepts tracking values as extra top-level properties, and mixed with trackingItems', async () => {
    const before = await totals('acme-ac-1');
    const top = await create(log({ hobbs: 0.4, landings: 1, remarks: 'top level' }));
    expect(await find(top)).toMatchObject({ hobbs: 0.4, landings: 1, remarks: 'top level' });
    const mixed = await create(log({ hobbs: 0.6, trackingItems: { landings: 3, fuelUplift: 12 } }));
    expect(await find(mixed)).toMatchObject({ hobbs: 0.6, landings: 3, fuelUplift: 12 });
    const after = await totals('acme-ac-1');
    expect(after.hobbs).toBe(plus(plus(before.hobbs, 0.4), 0.6));
    expect(after.landings).toBe(before.landings + 4);
  });

  it('stores a timeDate with an offset as the same instant in UTC', async () => {
    const uid = await create(log({ timeDate: '2026-03-02T19:30:00+10:00' }));
    expect((await find(uid)).timeDate).toBe('2026-03-02T09:30:00.000Z');
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('POST /flight-logs validation: 400 problem+json, nothing changes', () => {
  const required = ['timeDate', 'pilot', 'aircraftId', 'aircraftRegistration', 'startLocation', 'endLocation', 'pax'];
  const cases: [string, unknown, string | RegExp][] = [
    ...required.map((k): [string, unknown, string] => [`missing ${k}`, without(log(), k), `/${k}`]),
    ...required.filter((k) => k !== 'pax').map((k): [string, unknown, string] => [`${k} null`, log({ [k]: null }), `/${k}`]),
    ['pax as a string', log({ pax: 'two' }), '/pax'],
    ['pax as a boolean', log({ pax: true }), '/pax'],
    ['pax fractional', log({ pax: 1.5 }), '/pax'],
    ['pilot as a number', log({ pilot: 42 }), '/pilot'],
    ['copilotType not in Co-Pilot/ICUS/Dual', log({ copilot: 'acme-owner', copilotType: 'Captain' }), '/copilotType'],
    ['timeDate not a date', log({ timeDate: 'yesterday' }), '/timeDate'],
    ['timeDate month 13', log({ timeDate: '2026-13-01T10:00:00Z' }), '/timeDate'],
    ['timeDate hour 25', log({ timeDate: '2026-03-01T25:00:00Z' }), '/timeDate'],
    ['timeDate 30 February', log({ timeDate: '2026-02-30T10:00:00Z' }), '/timeDate'],
    ['timeDate 31 April', log({ timeDate: '2026-04-31T10:00:00Z' }), '/timeDate'],
    ['timeDate as a number', log({ timeDate: 1772357400000 }), '/timeDate'],
    ['uid sent', log({ uid: 'fl_mine' }), '/uid'],
    ['companyId sent', log({ companyId: 'other' }), '/companyId'],
    ['createdAt sent', log({ createdAt: '2026-01-01T00:00:00Z' }), '/createdAt'],
    ['updatedAt sent', log({ updatedAt: '2026-01-01T00:00:00Z' }), '/updatedAt'],
    ['uid sent inside trackingItems', log({ trackingItems: { uid: 'fl_mine' } }), /\/uid$/],
    ['unknown tracking key at top level', log({ bogus: 1 }), /^(\/trackingItems)?\/bogus$/],
    ['unknown tracking key in trackingItems', log({ trackingItems: { bogus: 1 } }), '/trackingItems/bogus'],
    ['tracking key of another aircraft (tacho on acme-ac-1)', log({ trackingItems: { tacho: 1.5 } }), '/trackingItems/tacho'],
    ['string for number item (top level)', log({ hobbs: '1.2' }), /^(\/trackingItems)?\/hobbs$/],
    ['string for number item (trackingItems)', log({ trackingItems: { landings: '2' } }), '/trackingItems/landings'],
    ['number for string item remarks (top level)', log({ remarks: 5 }), /^(\/trackingItems)?\/remarks$/],
    ['number for string item remarks (trackingItems)', log({ trackingItems: { remarks: 5 } }), '/trackingItems/remarks'],
    ['boolean tracking value', log({ trackingItems: { hobbs: true } }), '/trackingItems/hobbs'],
    ['object tracking value', log({ trackingItems: { hobbs: { v: 1 } } }), '/trackingItems/hobbs'],
    ['trackingItems not an object', log({ trackingItems: [1, 2] }), '/trackingItems'],
    ['same key top level and in trackingItems', log({ hobbs: 1, trackingItems: { hobbs: 2 } }), /hobbs$/],
    ['registration of the other aircraft', log({ aircraftRegistration: 'VH-ACZ' }), '/aircraftRegistration'],
    ['registration of no aircraft', log({ aircraftRegistration: 'VH-NOPE' }), '/aircraftRegistration'],
    ['aircraft of another company', log({ aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' }), '/aircraftId'],
    ['aircraft that does not exist', log({ aircraftId: 'nope-ac', aircraftRegistration: 'VH-ACM' }), '/aircraftId'],
  ];

  it.each(cases)('%s → 400 validation_error, nothing changed', async (_name, body, path) => {
    const before = await snapshot();
    const r = await post('/flight-logs', body);
    expectValidation(r, path);
    expect(await snapshot()).toEqual(before);
  });

  it('a body that is not a JSON object → 400, nothing changed', async () => {
    const before = await snapshot();
    for (const body of [[log()], '"a string"', '42']) {
      const r = await post('/flight-logs', body);
      expectProblem(r, 400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a non-JSON content type → 415 problem+json, nothing changed', async () => {
    const before = await snapshot();
    const res = await env.request('POST', `${API}/flight-logs`, {
      body: JSON.stringify(log()),
      headers: { 'content-type': 'text/plain' },
    });
    const r = { status: res.status, body: await res.json(), res };
    expectProblem(r, 415);
    const form = await env.request('POST', `${API}/flight-logs`, {
      body: 'timeDate=2026-03-01T09%3A30%3A00Z&pilot=acme-pilot',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(await snapshot()).toEqual(before);
  });

  it('malformed JSON → 400 problem+json, nothing changed', async () => {
    const before = await snapshot();
    for (const text of ['{"timeDate": ', '{timeDate: "2026-03-01"}', "{'pax': 1}"]) {
      const res = await env.request('POST', `${API}/flight-logs`, { body: text, headers: { 'content-type': 'application/json' } });
      const r = { status: res.status, body: await res.json(), res };
      expectProblem(r, 400);
    }
    expect(await snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('PATCH /flight-logs/{id}', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await create(
      log({
        timeDate: '2027-01-10T08:00:00Z',
        copilot: 'acme-owner',
        copilotType: 'Dual',
        flightNumber: 'QF9',
        notes: 'first',
        trackingItems: { hobbs: 1.0, landings: 1, fuelUplift: 20, remarks: 'r' },
      }),
    );
  });

  it('200 updated; the change shows in the list and in the totals (exactly)', async () => {
    const before = await totals('acme-ac-1');
    const r = await patch(uid, { hobbs: 1.5, pax: 3, endLocation: 'YSCB' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'updated' });
    expect(await find(uid)).toMatchObject({ hobbs: 1.5, pax: 3, endLocation: 'YSCB', landings: 1, notes: 'first' });
    const after = await totals('acme-ac-1');
    expect(after.hobbs).toBe(plus(before.hobbs, 0.5));
    expect(after.landings).toBe(before.landings);
  });

  it('the same values again → 200 no_changes, nothing changed', async () => {
    const before = await snapshot();
    const r = await patch(uid, { hobbs: 1.5, pax: 3, endLocation: 'YSCB' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'no_changes' });
    const current = await find(uid);
    const { uid: _u, companyId: _c, createdAt: _ca, updatedAt: _ua, ...same } = current;
    const r2 = await patch(uid, same);
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect(r2.body).toEqual({ uid, status: 'no_changes' });
    expect(await snapshot()).toEqual(before);
  });

  it('null clears optional fields and removes tracking values (totals follow)', async () => {
    const before = await totals('acme-ac-1');
    const r = await patch(uid, { notes: null, copilot: null, copilotType: null, flightNumber: null, remarks: null, trackingItems: { landings: null } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'updated' });
    const l = await find(uid);
    for (const k of ['notes', 'copilot', 'copilotType', 'flightNumber', 'remarks', 'landings']) expect(l, `${k} cleared`).not.toHaveProperty(k);
    expect(l).toMatchObject({ hobbs: 1.5, fuelUplift: 20 });
    const after = await totals('acme-ac-1');
    expect(after.landings).toBe(before.landings - 1);
    expect(after.hobbs).toBe(before.hobbs);

    const p = await patch(uid, { pax: null });
    expect(p.body).toEqual({ uid, status: 'updated' });
    expect(await find(uid)).toHaveProperty('pax', null);
  });

  it('404 problem+json for an unknown id and for another company’s log; nothing changed', async () => {
    const before = await snapshot();
    expectProblem(await patch('fl_does_not_exist', { pax: 1 }), 404, 'not_found');
    expectProblem(await patch(uid, { pax: 1 }, env.b.key), 404, 'not_found');
    expectProblem(await patch(uid, { hobbs: 99 }, env.b.key), 404, 'not_found');
    expect(await snapshot()).toEqual(before);
  });

  const bad: [string, Body, string | RegExp][] = [
    ['wrongly typed tracking value', { hobbs: 'x' }, /hobbs$/],
    ['number for the string item remarks', { trackingItems: { remarks: 7 } }, '/trackingItems/remarks'],
    ['unknown tracking key', { bogus: 1 }, /bogus$/],
    ['uid', { uid: 'fl_other' }, '/uid'],
    ['companyId', { companyId: 'x' }, '/companyId'],
    ['createdAt', { createdAt: '2020-01-01T00:00:00Z' }, '/createdAt'],
    ['updatedAt', { updatedAt: '2020-01-01T00:00:00Z' }, '/updatedAt'],
    ['required field set to null', { pilot: null }, '/pilot'],
    ['timeDate null', { timeDate: null }, '/timeDate'],
    ['bad timeDate', { timeDate: 'soon' }, '/timeDate'],
    ['bad copilotType', { copilotType: 'Passenger' }, '/copilotType'],
    ['pax as a string', { pax: 'many' }, '/pax'],
    ['registration not matching the aircraft', { aircraftRegistration: 'VH-ACZ' }, '/aircraftRegistration'],
    ['aircraft of another company', { aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' }, '/aircraftId'],
  ];
  it.each(bad)('%s → 400 validation_error, nothing changed', async (_name, body, path) => {
    const before = await snapshot();
    expectValidation(await patch(uid, body), path);
    expect(await snapshot()).toEqual(before);
  });

  it('moving a log to the other aircraft updates both aircraft’s totals', async () => {
    const m = await create(log({ timeDate: '2027-01-11T08:00:00Z', trackingItems: { hobbs: 2.3, landings: 2, fuelUplift: 40 } }));
    const b1 = await totals('acme-ac-1');
    const b2 = await totals('acme-ac-2');

    // keeping hobbs/landings/fuelUplift, which acme-ac-2 does not have, is a 400 and changes nothing
    const snap = await snapshot();
    expectValidation(await patch(m, { aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ' }), /hobbs|landings|fuelUplift/);
    expectValidation(
      await patch(m, { aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', trackingItems: { hobbs: null, landings: null, fuelUplift: null, tacho: 1, remarks: 'x' } }),
      /remarks$/,
    );
    // null leaves one of the old aircraft's fields behind; a key neither aircraft has is misspelt, as on an update
    // that keeps the aircraft (before, a move took it silently)
    const misspelt = await patch(m, { aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', trackingItems: { hobbs: null, landings: null, fuelUplift: null, hobs: null } });
    expectValidation(misspelt, '/trackingItems/hobs');
    expectValidation(await patch(m, { trackingItems: { hobs: null } }), '/trackingItems/hobs');
    expect(await snapshot()).toEqual(snap);

    const r = await patch(m, {
      aircraftId: 'acme-ac-2',
      aircraftRegistration: 'VH-ACZ',
      trackingItems: { hobbs: null, landings: null, fuelUplift: null, tacho: 1.7 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid: m, status: 'updated' });
    const l = await find(m);
    expect(l).toMatchObject({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', tacho: 1.7 });
    for (const k of ['hobbs', 'landings', 'fuelUplift']) expect(l).not.toHaveProperty(k);
    const a1 = await totals('acme-ac-1');
    const a2 = await totals('acme-ac-2');
    expect(a1.hobbs).toBe(plus(b1.hobbs, -2.3));
    expect(a1.landings).toBe(b1.landings - 2);
    expect(a2.tacho).toBe(plus(b2.tacho, 1.7));

    // and back, without a registration (it follows the aircraft)
    const back = await patch(m, { aircraftId: 'acme-ac-1', trackingItems: { tacho: null, hobbs: 0.9 } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toEqual({ uid: m, status: 'updated' });
    expect(await find(m)).toMatchObject({ aircraftId: 'acme-ac-1', aircraftRegistration: 'VH-ACM', hobbs: 0.9 });
    expect((await totals('acme-ac-1')).hobbs).toBe(plus(b1.hobbs, plus(-2.3, 0.9)));
    expect((await totals('acme-ac-1')).landings).toBe(b1.landings - 2);
    expect((await totals('acme-ac-2')).tacho).toBe(b2.tacho);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('DELETE /flight-logs/{id}', () => {
  it('200 deleted; gone from the list; totals drop; 404 afterwards', async () => {
    const uid = await create(log({ timeDate: '2027-02-01T08:00:00Z', hobbs: 3.7, landings: 4 }));
    const before = await totals('acme-ac-1');
    const r = await del(uid);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid, status: 'deleted' });
    expect(await find(uid)).toBeUndefined();
    const after = await totals('acme-ac-1');
    expect(after.hobbs).toBe(plus(before.hobbs, -3.7));
    expect(after.landings).toBe(before.landings - 4);

    const snap = await snapshot();
    expectProblem(await del(uid), 404, 'not_found');
    expectProblem(await patch(uid, { pax: 1 }), 404, 'not_found');
    expectProblem(await del('fl_never_existed'), 404, 'not_found');
    expect(await snapshot()).toEqual(snap);
  });

  it('another company’s log → 404 and it stays', async () => {
    const uid = await create(log({ timeDate: '2027-02-02T08:00:00Z', hobbs: 1.1 }));
    const snap = await snapshot();
    expectProblem(await del(uid, env.b.key), 404, 'not_found');
    expect(await snapshot()).toEqual(snap);
    expect(await find(uid)).toBeDefined();
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('batches', () => {
  it('POST /flight-logs/batch: independent items, partial success, errors carry the input index', async () => {
    const before = await totals('acme-ac-1');
    const count = (await listAll()).length;
    const r = await post('/flight-logs/batch', {
      items: [
        log({ timeDate: '2027-03-01T08:00:00Z', hobbs: 1.1, landings: 1 }),
        log({ timeDate: '2027-03-01T09:00:00Z', hobbs: 'not a number' }),
        log({ timeDate: '2027-03-01T10:00:00Z', trackingItems: { hobbs: 2.2, landings: 2 } }),
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toEqual([
      { uid: expect.any(String), status: 'created' },
      { uid: expect.any(String), status: 'created' },
    ]);
    expect(r.body.errors).toEqual([{ index: 1, error: expect.any(String) }]);
    expect(r.body.errors[0].error.length).toBeGreaterThan(0);
    const all = await listAll();
    expect(all.length).toBe(count + 2);
    const [u0, u2] = r.body.results.map((x: any) => x.uid);
    expect(all.find((l) => l.uid === u0)).toMatchObject({ timeDate: '2027-03-01T08:00:00.000Z', hobbs: 1.1 });
    expect(all.find((l) => l.uid === u2)).toMatchObject({ timeDate: '2027-03-01T10:00:00.000Z', hobbs: 2.2 });
    expect(all.some((l) => l.timeDate === '2027-03-01T09:00:00.000Z')).toBe(false);
    const after = await totals('acme-ac-1');
    expect(after.hobbs).toBe(plus(before.hobbs, 3.3));
    expect(after.landings).toBe(before.landings + 3);
  });

  it('batch items failing for different reasons are each reported with their index', async () => {
    const r = await post('/flight-logs/batch', {
      items: [
        without(log({ timeDate: '2027-03-02T08:00:00Z' }), 'pilot'),
        log({ timeDate: '2027-03-02T09:00:00Z', aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' }),
        log({ timeDate: '2027-03-02T10:00:00Z', bogus: 1 }),
        log({ timeDate: '2027-03-02T11:00:00Z', uid: 'fl_mine' }),
        log2({ timeDate: '2027-03-02T12:00:00Z', tacho: 0.5 }),
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.errors.map((e: any) => e.index)).toEqual([0, 1, 2, 3]);
    for (const e of r.body.errors) expect(typeof e.error).toBe('string');
    expect(r.body.results).toEqual([{ uid: expect.any(String), status: 'created' }]);
    expect(await find(r.body.results[0].uid)).toMatchObject({ aircraftId: 'acme-ac-2', tacho: 0.5 });
  });

  it('empty and over-50 items → 400 validation_error; nothing created', async () => {
    const before = await snapshot();
    expectValidation(await post('/flight-logs/batch', { items: [] }), /items/);
    const many = Array.from({ length: 51 }, (_, i) => log({ timeDate: `2027-04-01T${String(i % 24).padStart(2, '0')}:00:00Z`, hobbs: 0.1 }));
    expectValidation(await post('/flight-logs/batch', { items: many }), /items/);
    expect(await snapshot()).toEqual(before);
  });

  it('items missing, null or not an array → 400 (not 500); nothing created', async () => {
    const before = await snapshot();
    for (const body of [{ items: 'x' }, { items: { a: 1 } }, {}, { items: null }]) {
      const r = await post('/flight-logs/batch', body);
      expectProblem(r, 400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('50 items is the upper bound and is accepted', async () => {
    const items = Array.from({ length: 50 }, (_, i) => log({ timeDate: `2027-05-01T00:${String(i).padStart(2, '0')}:00Z`, hobbs: 0.1 }));
    const before = await totals('acme-ac-1');
    const r = await post('/flight-logs/batch', { items });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results.length).toBe(50);
    expect(r.body.errors).toEqual([]);
    expect((await totals('acme-ac-1')).hobbs).toBe(plus(before.hobbs, 5));
    const d = await post('/flight-logs/batch-delete', { ids: r.body.results.map((x: any) => x.uid) });
    expect(d.status).toBe(200);
    expect(d.body.results.length).toBe(50);
    expect((await totals('acme-ac-1')).hobbs).toBe(before.hobbs);
  });

  it('POST /flight-logs/batch-delete: per-item results and errors for unknown and other-company ids', async () => {
    const x = await create(log({ timeDate: '2027-06-01T08:00:00Z', hobbs: 1.4, landings: 1 }));
    const y = await create(log2({ timeDate: '2027-06-01T09:00:00Z', tacho: 2.1 }));
    const theirs = await create(
      { ...log({ timeDate: '2027-06-01T10:00:00Z' }), aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' },
      env.b.key,
    );
    const b1 = await totals('acme-ac-1');
    const b2 = await totals('acme-ac-2');
    const r = await post('/flight-logs/batch-delete', { ids: [x, 'fl_unknown', y, theirs] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toEqual([
      { uid: x, status: 'deleted' },
      { uid: y, status: 'deleted' },
    ]);
    expect(r.body.errors).toEqual([
      { index: 1, error: expect.any(String) },
      { index: 3, error: expect.any(String) },
    ]);
    expect(await find(x)).toBeUndefined();
    expect(await find(y)).toBeUndefined();
    expect(await find(theirs, env.b.key)).toBeDefined();
    expect((await totals('acme-ac-1')).hobbs).toBe(plus(b1.hobbs, -1.4));
    expect((await totals('acme-ac-1')).landings).toBe(b1.landings - 1);
    expect((await totals('acme-ac-2')).tacho).toBe(plus(b2.tacho, -2.1));

    // the same id twice: the second one is an error (already deleted)
    const z = await create(log({ timeDate: '2027-06-01T11:00:00Z' }));
    const twice = await post('/flight-logs/batch-delete', { ids: [z, z] });
    expect(twice.status).toBe(200);
    expect(twice.body.results).toEqual([{ uid: z, status: 'deleted' }]);
    expect(twice.body.errors).toEqual([{ index: 1, error: expect.any(String) }]);
  });

  it('batch-delete with 0 or 51 ids → 400 and nothing deleted', async () => {
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await create(log({ timeDate: `2027-07-0${i + 1}T08:00:00Z`, hobbs: 0.2 })));
    const before = await snapshot();
    expectValidation(await post('/flight-logs/batch-delete', { ids: [] }), /ids/);
    const ids = [...mine, ...Array.from({ length: 48 }, (_, i) => `fl_unknown_${i}`)];
    expect(ids.length).toBe(51);
    expectValidation(await post('/flight-logs/batch-delete', { ids }), /ids/);
    expect(await snapshot()).toEqual(before);
  });

  it('ids missing, null or not an array → 400 (not 500); nothing deleted', async () => {
    await create(log({ timeDate: '2027-07-09T08:00:00Z', hobbs: 0.2 }));
    const before = await snapshot();
    for (const body of [{ ids: 'x' }, {}, { ids: null }]) {
      const r = await post('/flight-logs/batch-delete', body);
      expectProblem(r, 400);
    }
    expect(await snapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('GET /flight-logs: filters, order, limit, cursor, fields', () => {
  const Y = { startDate: '2030-01-01', endDate: '2030-12-31' };
  const f: Record<string, string> = {};
  beforeAll(async () => {
    f.F4 = await create(log({ timeDate: '2030-04-30T23:59:59.999Z', pilot: 'acme-pilot', hobbs: 0.5 }));
    f.F1 = await create(log({ timeDate: '2030-05-01T00:00:00Z', pilot: 'acme-pilot', hobbs: 1.0, remarks: 'F1' }));
    f.F2 = await create(log2({ timeDate: '2030-05-01T23:59:59.999Z', pilot: 'acme-owner', tacho: 1.2 }));
    f.F3 = await create(log({ timeDate: '2030-05-02T00:00:00Z', pilot: 'acme-owner', pax: null }));
    f.F5 = await create(log2({ timeDate: '2030-05-03T12:00:00Z', pilot: 'acme-pilot' }));
  });
  const uidsOf = (logs: any[]) => logs.map((l) => l.uid);
  const list = (q: Record<string, string>, key?: string) => listAll(q, key);

  it('orders by timeDate descending', async () => {
    expect(uidsOf(await list(Y))).toEqual([f.F5, f.F3, f.F2, f.F1, f.F4]);
  });

  it('filters by aircraftId, aircraftRegistration and pilotId (alone and combined)', async () => {
    expect(uidsOf(await list({ ...Y, aircraftId: 'acme-ac-2' }))).toEqual([f.F5, f.F2]);
    expect(uidsOf(await list({ ...Y, aircraftId: 'acme-ac-1' }))).toEqual([f.F3, f.F1, f.F4]);
    expect(uidsOf(await list({ ...Y, aircraftRegistration: 'VH-ACZ' }))).toEqual([f.F5, f.F2]);
    expect(uidsOf(await list({ ...Y, aircraftRegistration: 'VH-ACM' }))).toEqual([f.F3, f.F1, f.F4]);
    expect(uidsOf(await list({ ...Y, pilotId: 'acme-owner' }))).toEqual([f.F3, f.F2]);
    expect(uidsOf(await list({ ...Y, pilotId: 'acme-pilot', aircraftId: 'acme-ac-1' }))).toEqual([f.F1, f.F4]);
    expect(await list({ ...Y, aircraftId: 'no-such-aircraft' })).toEqual([]);
    expect(await list({ ...Y, pilotId: 'nobody' })).toEqual([]);
  });

  it('startDate/endDate are inclusive; a date-only endDate includes that whole day', async () => {
    expect(uidsOf(await list({ startDate: '2030-05-01', endDate: '2030-05-01' }))).toEqual([f.F2, f.F1]);
    expect(uidsOf(await list({ startDate: '2030-05-01T00:00:00Z', endDate: '2030-05-02T00:00:00Z' }))).toEqual([f.F3, f.F2, f.F1]);
    expect(uidsOf(await list({ startDate: '2030-05-01T00:00:00.001Z', endDate: '2030-05-01T23:59:59.999Z' }))).toEqual([f.F2]);
    expect(uidsOf(await list({ startDate: '2030-04-30', endDate: '2030-04-30' }))).toEqual([f.F4]);
    expect(uidsOf(await list({ startDate: '2030-05-02', endDate: '2030-05-03' }))).toEqual([f.F5, f.F3]);
    expect(uidsOf(await list({ startDate: '2030-05-03T12:00:00.001Z', endDate: '2030-12-31' }))).toEqual([]);
  });

  it('bad date parameters → 400 validation_error', async () => {
    for (const q of ['startDate=yesterday', 'endDate=2030-13-01', 'startDate=2030-05-01T25:00:00Z']) {
      expectValidation(await get(`/flight-logs?${q}`));
    }
  });

  it('ties on timeDate are broken by uid descending', async () => {
    const t = '2030-07-01T10:00:00.000Z';
    const ids = [await create(log({ timeDate: t })), await create(log2({ timeDate: t })), await create(log({ timeDate: t }))];
    const b = await post('/flight-logs/batch', { items: [log({ timeDate: t }), log({ timeDate: t }), log2({ timeDate: t })] });
    ids.push(...b.body.results.map((x: any) => x.uid));
    expect(ids.length).toBe(6);
    const got = await list({ startDate: t, endDate: t });
    expect(got.map((l) => l.timeDate)).toEqual(Array(6).fill(t));
    expect(uidsOf(got)).toEqual([...ids].sort().reverse());
    // the whole year is in (timeDate desc, uid desc) order
    const year = await list(Y);
    for (let i = 1; i < year.length; i++) {
      const [p, c] = [year[i - 1], year[i]];
      const ok = p.timeDate > c.timeDate || (p.timeDate === c.timeDate && p.uid > c.uid);
      expect(ok, `${p.timeDate}/${p.uid} before ${c.timeDate}/${c.uid}`).toBe(true);
    }
  });

  it('limit: default 100; 1..500 enforced', async () => {
    // 105 logs in 2032
    const items = Array.from({ length: 105 }, (_, i) => log({ timeDate: `2032-01-01T00:00:${String(i % 60).padStart(2, '0')}Z` }));
    for (const chunk of [items.slice(0, 50), items.slice(50, 100), items.slice(100)]) {
      const r = await post('/flight-logs/batch', { items: chunk });
      expect(r.body.errors).toEqual([]);
    }
    const q = 'startDate=2032-01-01&endDate=2032-01-01';
    const d = await get(`/flight-logs?${q}`);
    expect(d.status).toBe(200);
    expect(d.body.data.length).toBe(100);
    expect(d.body.count).toBe(100);
    expect(typeof d.body.nextCursor).toBe('string');
    const all = await get(`/flight-logs?${q}&limit=500`);
    expect(all.body.count).toBe(105);
    expect(all.body.data.length).toBe(105);
    expect(all.body.nextCursor).toBeNull();
    const one = await get(`/flight-logs?${q}&limit=1`);
    expect(one.body.data.length).toBe(1);
    expect(one.body.count).toBe(1);
    expect(one.body.nextCursor).toEqual(expect.any(String));
    const exact = await get(`/flight-logs?${q}&limit=105`);
    expect(exact.body.count).toBe(105);
    expect(exact.body.nextCursor).toBeNull();
    for (const bad of ['0', '501', 'abc', '-1', '1.5', '']) {
      expectValidation(await get(`/flight-logs?${q}&limit=${bad}`), /limit/);
    }
  });

  it('cursor paging walks every log exactly once despite shared timeDates', async () => {
    const q = { startDate: '2032-01-01', endDate: '2032-01-01' };
    const expected = uidsOf(await list(q));
    expect(expected.length).toBe(105);
    for (const limit of [1, 7, 60, 104, 105]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await get(`/flight-logs?${new URLSearchParams({ ...q, limit: String(limit), ...(cursor ? { cursor } : {}) })}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.count).toBe(r.body.data.length);
        expect(r.body.data.length).toBeLessThanOrEqual(limit);
        seen.push(...uidsOf(r.body.data));
        cursor = r.body.nextCursor;
        pages++;
      } while (cursor && pages < 200);
      expect(new Set(seen).size, `no duplicates with limit ${limit}`).toBe(seen.length);
      expect(seen, `limit ${limit}`).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(105 / limit)));
    }
  });

  it('cursor paging is stable when logs are inserted between pages', async () => {
    const q = { startDate: '2033-01-01', endDate: '2033-12-31' };
    // 30 logs over 6 distinct timeDates (5 each)
    const items = Array.from({ length: 30 }, (_, i) => log({ timeDate: `2033-06-0${1 + (i % 6)}T12:00:00Z` }));
    const r = await post('/flight-logs/batch', { items });
    expect(r.body.errors).toEqual([]);
    const original = uidsOf(await list(q));
    expect(original.length).toBe(30);

    const seen: string[] = [];
    const older: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const res = await get(`/flight-logs?${new URLSearchParams({ ...q, limit: '4', ...(cursor ? { cursor } : {}) })}`);
      expect(res.status).toBe(200);
      const data = res.body.data;
      seen.push(...uidsOf(data));
      cursor = res.body.nextCursor;
      page++;
      if (cursor && data.length) {
        const boundary = data[data.length - 1].timeDate;
        // newer than everything, same instant as the page boundary, and older than everything
        await create(log({ timeDate: '2033-12-01T00:00:00Z' }));
        await create(log({ timeDate: boundary }));
        await post('/flight-logs/batch', { items: [log({ timeDate: boundary }), log2({ timeDate: boundary })] });
        // each one older than the previous one, so it is always behind the cursor
        older.push(await create(log({ timeDate: `2033-01-01T00:${String(59 - page).padStart(2, '0')}:00Z` })));
      }
    } while (cursor && page < 100);
    expect(new Set(seen).size, 'no duplicates').toBe(seen.length);
    for (const uid of original) expect(seen.filter((s) => s === uid).length, `${uid} exactly once`).toBe(1);
    // logs inserted behind the cursor (older than every page boundary) are reached
    for (const uid of older) expect(seen).toContain(uid);
    // and the walk is in list order
    const pos = seen.map((uid) => original.indexOf(uid)).filter((i) => i >= 0);
    expect(pos).toEqual([...pos].sort((a, b) => a - b));
  });

  it('an invalid cursor → 400 validation_error', async () => {
    const junk = [
      'not-a-cursor',
      '%%%',
      Buffer.from('["x","y"]').toString('base64url'),
      Buffer.from('{"t":1}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
    ];
    for (const c of junk) expectValidation(await get(`/flight-logs?cursor=${encodeURIComponent(c)}`), /cursor/);
  });

  it('fields=timeDate,hobbs returns only uid, timeDate and hobbs', async () => {
    const r = await get(`/flight-logs?startDate=2030-04-30&endDate=2030-05-03&fields=timeDate,hobbs`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual([
      { uid: f.F5, timeDate: '2030-05-03T12:00:00.000Z' },
      { uid: f.F3, timeDate: '2030-05-02T00:00:00.000Z' },
      { uid: f.F2, timeDate: '2030-05-01T23:59:59.999Z' },
      { uid: f.F1, timeDate: '2030-05-01T00:00:00.000Z', hobbs: 1 },
      { uid: f.F4, timeDate: '2030-04-30T23:59:59.999Z', hobbs: 0.5 },
    ]);
    expect(r.body.count).toBe(5);
    const p = await get(`/flight-logs?startDate=2030-04-30&endDate=2030-05-03&fields=pax,remarks`);
    expect(p.body.data.find((l: any) => l.uid === f.F3)).toEqual({ uid: f.F3, pax: null });
    expect(p.body.data.find((l: any) => l.uid === f.F1)).toEqual({ uid: f.F1, pax: 2, remarks: 'F1' });
    const u = await get(`/flight-logs?startDate=2030-05-01&endDate=2030-05-01&fields=uid`);
    expect(u.body.data).toEqual([{ uid: f.F2 }, { uid: f.F1 }]);
  });

  it('bad fields syntax → 400 validation_error', async () => {
    for (const bad of ['', 'time-date', 'timeDate;hobbs', 'timeDate hobbs', '1abc', 'a.b']) {
      expectValidation(await get(`/flight-logs?fields=${encodeURIComponent(bad)}`));
    }
  });

  it('Accept: text/csv → CSV: core columns then tracking keys, one row per matching log, correct values', async () => {
    const res = await env.request('GET', `${API}/flight-logs?aircraftId=acme-ac-1&startDate=2030-01-01&endDate=2030-06-30`, {
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/^text\/csv/);
    const rows: string[][] = parseCsv(await res.text());
    const [header, ...body] = rows;
    const core = ['uid', 'timeDate', 'pilot', 'copilot', 'copilotType', 'aircraftId', 'aircraftRegistration', 'flightNumber', 'startLocation', 'endLocation', 'pax', 'notes'];
    for (const c of [...core, 'companyId']) expect(header, `column ${c}`).toContain(c);
    const tracking = ['hobbs', 'landings', 'fuelUplift', 'remarks'];
    const firstTracking = Math.min(...tracking.map((k) => header.indexOf(k)));
    expect(header.slice(firstTracking).sort()).toEqual([...tracking].sort());
    expect(header.slice(0, firstTracking)).toEqual(expect.arrayContaining(core));
    expect(new Set(header).size).toBe(header.length);
    // acme-ac-1 in the first half of 2030: F3, F1, F4 in list order
    const json = await list({ aircraftId: 'acme-ac-1', startDate: '2030-01-01', endDate: '2030-06-30' });
    expect(uidsOf(json)).toEqual([f.F3, f.F1, f.F4]);
    expect(body.map((row) => row[header.indexOf('uid')])).toEqual([f.F3, f.F1, f.F4]);
    for (const [i, row] of body.entries()) {
      expect(row.length).toBe(header.length);
      for (const [j, col] of header.entries()) {
        const v = json[i][col];
        expect(row[j], `${json[i].uid}.${col}`).toBe(v === undefined || v === null ? '' : String(v));
      }
    }
    const f1 = body[1];
    expect(f1[header.indexOf('hobbs')]).toBe('1');
    expect(f1[header.indexOf('remarks')]).toBe('F1');
    expect(f1[header.indexOf('pilot')]).toBe('acme-pilot');
    expect(new Date(f1[header.indexOf('timeDate')]).toISOString()).toBe('2030-05-01T00:00:00.000Z');
    expect(body[0][header.indexOf('pax')]).toBe('');
  });

  it('CSV respects pilotId and date filters and includes the other aircraft’s tracking columns', async () => {
    const res = await env.request('GET', `${API}/flight-logs?pilotId=acme-owner&startDate=2030-05-01&endDate=2030-05-02`, {
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/^text\/csv/);
    const [header, ...body] = parseCsv(await res.text()) as string[][];
    expect(body.map((row) => row[header.indexOf('uid')])).toEqual([f.F3, f.F2]);
    expect(header).toContain('tacho');
    expect(body[1][header.indexOf('tacho')]).toBe('1.2');
    expect(body[1][header.indexOf('aircraftRegistration')]).toBe('VH-ACZ');
  });

  it('CSV is bounded as the JSON list is (100 rows by default, then a Link to the next page): walking it covers all 520 logs; commas, quotes and newlines escaped', { timeout: 180_000 }, async () => {
    const tricky = await create(log({ timeDate: '2035-06-01T00:00:00Z', notes: 'a, "b"\nc', remarks: 'x,y', hobbs: 0.3 }));
    for (let k = 0; k < 11; k++) {
      const items = Array.from({ length: k < 10 ? 50 : 19 }, (_, i) => log({ timeDate: `2035-01-${String(1 + k).padStart(2, '0')}T00:${String(i).padStart(2, '0')}:00Z`, landings: 1 }));
      const r = await post('/flight-logs/batch', { items });
      expect(r.body.errors).toEqual([]);
    }
    const q = { startDate: '2035-01-01', endDate: '2035-12-31' };
    const json = await list(q);
    expect(json.length).toBe(520);
    // no request answers an unbounded list (gaps.md §17): without limit, the JSON answer's 100 (it streamed all 520)
    const first = await env.request('GET', `${API}/flight-logs?${new URLSearchParams(q)}`, { headers: { accept: 'text/csv' } });
    expect(first.status).toBe(200);
    expect((parseCsv(await first.text()) as string[][]).length).toBe(1 + 100);
    const jsonFirst = await env.json('GET', `${API}/flight-logs?${new URLSearchParams(q)}`);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBe(`${API}/flight-logs?${new URLSearchParams({ ...q, cursor: jsonFirst.body.nextCursor })}`);
    // following Link to the end gives every log once, in the list's order, each page with the same header row
    let header: string[] = [];
    const body: string[][] = [];
    let url: string | null = `${API}/flight-logs?${new URLSearchParams({ ...q, limit: '500' })}`;
    for (let pages = 0; url; pages++) {
      expect(pages).toBeLessThan(2);
      const res = await env.request('GET', url, { headers: { accept: 'text/csv' } });
      expect(res.status).toBe(200);
      const [h, ...rows] = parseCsv(await res.text()) as string[][];
      if (pages) expect(h).toEqual(header);
      header = h;
      expect(rows.length).toBeLessThanOrEqual(500);
      body.push(...rows);
      url = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(body.length).toBe(520);
    expect(body.map((row) => row[header.indexOf('uid')])).toEqual(uidsOf(json));
    const row = body.find((r) => r[header.indexOf('uid')] === tricky)!;
    expect(row[header.indexOf('notes')]).toBe('a, "b"\nc');
    expect(row[header.indexOf('remarks')]).toBe('x,y');
    expect(row[header.indexOf('hobbs')]).toBe('0.3');
  });

  it('CSV with limit or cursor is that page, the next one in a Link header; walking it gives each log once (limit and cursor were ignored)', async () => {
    const q = { startDate: '2035-01-01', endDate: '2035-01-01', limit: '20' };
    const json = await list({ startDate: '2035-01-01', endDate: '2035-01-01' });
    expect(json.length).toBe(50);
    const seen: string[] = [];
    let url: string | null = `${API}/flight-logs?${new URLSearchParams(q)}`;
    for (let pages = 0; url; pages++) {
      expect(pages).toBeLessThan(5);
      const res = await env.request('GET', url, { headers: { accept: 'text/csv' } });
      expect(res.status).toBe(200);
      const [header, ...body] = parseCsv(await res.text()) as string[][];
      expect(body.length).toBeLessThanOrEqual(20);
      seen.push(...body.map((row) => row[header.indexOf('uid')]));
      url = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen).toEqual(uidsOf(json));
    // fields: a name that is no column is left out, as in JSON (it was a 400 in CSV only)
    const res = await env.request('GET', `${API}/flight-logs?limit=1&fields=pilot,nope`, { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect((parseCsv(await res.text()) as string[][])[0]).toEqual(['uid', 'pilot']);
  });

  it('CSV with a bad filter → 400 problem+json', async () => {
    const res = await env.request('GET', `${API}/flight-logs?startDate=nonsense`, { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('tenant isolation', () => {
  it('company b never sees, changes or deletes company a’s logs', async () => {
    const mine = await create(log({ timeDate: '2034-01-01T00:00:00Z', hobbs: 0.7 }));
    const theirs = await create(
      { ...log({ timeDate: '2034-01-01T00:00:00Z' }), aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' },
      env.b.key,
    );
    const bList = await listAll({}, env.b.key);
    expect(bList.map((l) => l.uid)).toContain(theirs);
    expect(bList.map((l) => l.uid)).not.toContain(mine);
    for (const l of bList) expect(l.companyId).toBe(env.b.id);
    expect(await listAll({ aircraftId: 'acme-ac-1' }, env.b.key)).toEqual([]);
    expect(await listAll({ aircraftRegistration: 'VH-ACM' }, env.b.key)).toEqual([]);
    const aList = await listAll();
    expect(aList.map((l) => l.uid)).not.toContain(theirs);
    for (const l of aList) expect(l.companyId).toBe(env.a.id);

    const before = await snapshot();
    expectProblem(await patch(mine, { pax: 9 }, env.b.key), 404, 'not_found');
    expectProblem(await del(mine, env.b.key), 404, 'not_found');
    expectProblem(await get(`/flight-logs/${mine}`, env.b.key), 404, 'not_found');
    const bd = await post('/flight-logs/batch-delete', { ids: [mine] }, env.b.key);
    expect(bd.status).toBe(200);
    expect(bd.body).toEqual({ results: [], errors: [{ index: 0, error: expect.any(String) }] });
    // b cannot log against a's aircraft either
    expectValidation(await post('/flight-logs', log(), env.b.key), '/aircraftId');
    expect(await snapshot()).toEqual(before);

    const csv = await env.request('GET', `${API}/flight-logs`, { key: env.b.key, headers: { accept: 'text/csv' } });
    const text = await csv.text();
    expect(text).not.toContain(mine);
    expect(text).not.toContain(env.a.id);
    expect(text).toContain(theirs);
  });
});
