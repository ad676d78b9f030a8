// Flight logs over GraphQL (docs/contract/gaps.md §8: same key, same rules as REST): create with trackingItems JSON, update, delete,
// both batches, flightLogs paging, VALIDATION_ERROR / NOT_FOUND errors, and the aircraft / pilotUser relations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flightLogBody, createTestEnv, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;

const CREATE = `mutation Create($input: CreateFlightLogInput!) { createFlightLog(input: $input) { uid status } }`;
const UPDATE = `mutation Update($id: ID!, $input: UpdateFlightLogInput!) { updateFlightLog(id: $id, input: $input) { uid status } }`;
const DELETE = `mutation Delete($id: ID!) { deleteFlightLog(id: $id) { uid status } }`;
const BATCH = `mutation Batch($items: JSON!) { createFlightLogs(items: $items) { results { uid status } errors { index error } } }`;
const BATCH_DELETE = `mutation BatchDelete($ids: JSON!) { deleteFlightLogs(ids: $ids) { results { uid status } errors { index error } } }`;
const LOG_FIELDS = `uid timeDate pilot copilot copilotType aircraftId aircraftRegistration flightNumber startLocation endLocation pax notes companyId createdAt updatedAt trackingItems`;
const ONE = `query One($id: ID!) { flightLog(id: $id) { ${LOG_FIELDS} } }`;
const LIST = `query List($aircraftId: String, $aircraftRegistration: String, $pilotId: String, $startDate: String, $endDate: String, $limit: Int, $cursor: String) {
  flightLogs(aircraftId: $aircraftId, aircraftRegistration: $aircraftRegistration, pilotId: $pilotId, startDate: $startDate, endDate: $endDate, limit: $limit, cursor: $cursor) {
    count nextCursor data { ${LOG_FIELDS} }
  }
}`;
const AIRCRAFT = `query Aircraft($id: ID!) { aircraft(id: $id) { uid totals initialValues } }`;

const input = flightLogBody;
function without(body: Body, key: string): Body {
  const { [key]: _drop, ...rest } = body;
  return rest;
}
const plus = (a: number, b: number) => (Math.round(a * 10) + Math.round(b * 10)) / 10;

async function gql(query: string, variables?: Body, key?: string) {
  const r = await env.gql(query, variables, key);
  return r.body;
}
async function ok(query: string, variables?: Body, key?: string) {
  const r = await env.gql(query, variables, key);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  expect(r.status).toBe(200);
  return r.body.data;
}
async function create(over: Body = {}, key?: string): Promise<string> {
  const d = await ok(CREATE, { input: input(over) }, key);
  expect(d.createFlightLog).toEqual({ uid: expect.any(String), status: 'created' });
  return d.createFlightLog.uid;
}
async function one(id: string, key?: string) {
  return (await ok(ONE, { id }, key)).flightLog;
}
async function listAll(vars: Body = {}, key?: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const d = await ok(LIST, { ...vars, limit: 500, cursor }, key);
    out.push(...d.flightLogs.data);
    cursor = d.flightLogs.nextCursor;
    if (!cursor) return out;
  }
  throw new Error('too many pages');
}
async function totals(id: string, key?: string): Promise<Record<string, number>> {
  return (await ok(AIRCRAFT, { id }, key)).aircraft.totals;
}
async function snapshot() {
  return {
    a: await listAll(),
    b: await listAll({}, env.b.key),
    ac1: await totals('acme-ac-1'),
    ac2: await totals('acme-ac-2'),
  };
}

function expectCode(body: { data?: any; errors?: any[] }, field: string, code: string, path?: string | RegExp) {
  expect(body.errors, `errors for ${field}`).toBeDefined();
  expect(body.errors!.length).toBeGreaterThan(0);
  const e = body.errors!.find((x) => x.path?.[0] === field) ?? body.errors![0];
  expect(e.extensions?.code, JSON.stringify(body.errors)).toBe(code);
  expect(typeof e.message).toBe('string');
  expect(body.data?.[field] ?? null).toBeNull();
  if (code === 'VALIDATION_ERROR') {
    expect(Array.isArray(e.extensions.errors), 'extensions.errors').toBe(true);
    expect(e.extensions.errors.length).toBeGreaterThan(0);
    for (const fe of e.extensions.errors) {
      expect(typeof fe.message).toBe('string');
      expect(fe.path).toMatch(/^(\/[^/]*)*$/);
    }
    if (path !== undefined) {
      const paths: string[] = e.extensions.errors.map((x: any) => x.path);
      const hit = paths.some((p) => (typeof path === 'string' ? p === path : path.test(p)));
      expect(hit, `an error at ${path} among ${JSON.stringify(paths)}`).toBe(true);
    }
  }
}

describe('createFlightLog', () => {
  it('creates a log with trackingItems JSON; flightLog and totals reflect it', async () => {
    const before = await totals('acme-ac-1');
    const uid = await create({
      copilot: 'acme-owner',
      copilotType: 'Co-Pilot',
      flightNumber: 'QF7',
      notes: 'gql',
      trackingItems: { hobbs: 1.3, landings: 2, fuelUplift: 30.5, remarks: 'fine' },
    });
    const l = await one(uid);
    expect(l).toMatchObject({
      uid,
      pilot: 'acme-pilot',
      copilot: 'acme-owner',
      copilotType: 'Co-Pilot',
      aircraftId: 'acme-ac-1',
      aircraftRegistration: 'VH-ACM',
      flightNumber: 'QF7',
      startLocation: 'YSSY',
      endLocation: 'YSBK',
      pax: 2,
      notes: 'gql',
      companyId: env.a.id,
      trackingItems: { hobbs: 1.3, landings: 2, fuelUplift: 30.5, remarks: 'fine' },
    });
    expect(new Date(l.timeDate).toISOString()).toBe('2026-03-01T09:30:00.000Z');
    const after = await totals('acme-ac-1');
    expect(after.hobbs).toBe(plus(before.hobbs, 1.3));
    expect(after.landings).toBe(before.landings + 2);
  });

  it('pax null is allowed; optional fields are null', async () => {
    const uid = await create({ pax: null });
    expect(await one(uid)).toMatchObject({ pax: null, copilot: null, copilotType: null, flightNumber: null, notes: null, trackingItems: {} });
  });

  const bad: [string, Body, string | RegExp][] = [
    ['missing pax', without(input(), 'pax'), '/pax'],
    ['unknown tracking key', input({ trackingItems: { bogus: 1 } }), '/trackingItems/bogus'],
    ['tracking key of the other aircraft', input({ trackingItems: { tacho: 1 } }), '/trackingItems/tacho'],
    ['string for a number item', input({ trackingItems: { hobbs: '1.0' } }), '/trackingItems/hobbs'],
    ['number for the string item remarks', input({ trackingItems: { remarks: 3 } }), '/trackingItems/remarks'],
    ['server-controlled uid inside trackingItems', input({ trackingItems: { uid: 'fl_x' } }), /\/uid$/],
    ['trackingItems not an object', input({ trackingItems: 'hobbs=1' }), '/trackingItems'],
    ['bad timeDate', input({ timeDate: 'tomorrow' }), '/timeDate'],
    ['timeDate 30 February', input({ timeDate: '2026-02-30T10:00:00Z' }), '/timeDate'],
    ['bad copilotType', input({ copilotType: 'Captain' }), '/copilotType'],
    ['empty pilot', input({ pilot: '  ' }), '/pilot'],
    ['registration not matching', input({ aircraftRegistration: 'VH-ACZ' }), '/aircraftRegistration'],
    ['aircraft of another company', input({ aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' }), '/aircraftId'],
  ];
  it.each(bad)('%s → VALIDATION_ERROR with extensions.errors; nothing changed', async (_n, inp, path) => {
    const before = await snapshot();
    expectCode(await gql(CREATE, { input: inp }), 'createFlightLog', 'VALIDATION_ERROR', path);
    expect(await snapshot()).toEqual(before);
  });

  it('a required GraphQL input field missing or wrongly typed is rejected without a write', async () => {
    const before = await snapshot();
    for (const inp of [without(input(), 'pilot'), input({ pax: 'two' }), input({ pax: 1.5 })]) {
      const b = await gql(CREATE, { input: inp });
      expect(b.errors?.length).toBeGreaterThan(0);
      expect(b.data?.createFlightLog ?? null).toBeNull();
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('updateFlightLog and deleteFlightLog', () => {
  it('updated, no_changes, null clears fields and tracking values; totals follow', async () => {
    const uid = await create({ timeDate: '2027-01-01T00:00:00Z', notes: 'n', flightNumber: 'F', trackingItems: { hobbs: 1, landings: 1, remarks: 'r' } });
    const b = await totals('acme-ac-1');
    const u = await ok(UPDATE, { id: uid, input: { trackingItems: { hobbs: 1.4 }, pax: 5 } });
    expect(u.updateFlightLog).toEqual({ uid, status: 'updated' });
    expect(await one(uid)).toMatchObject({ pax: 5, trackingItems: { hobbs: 1.4, landings: 1, remarks: 'r' } });
    expect((await totals('acme-ac-1')).hobbs).toBe(plus(b.hobbs, 0.4));

    const same = await ok(UPDATE, { id: uid, input: { trackingItems: { hobbs: 1.4 }, pax: 5 } });
    expect(same.updateFlightLog).toEqual({ uid, status: 'no_changes' });

    const c = await ok(UPDATE, { id: uid, input: { notes: null, flightNumber: null, trackingItems: { landings: null, remarks: null } } });
    expect(c.updateFlightLog).toEqual({ uid, status: 'updated' });
    const l = await one(uid);
    expect(l).toMatchObject({ notes: null, flightNumber: null, trackingItems: { hobbs: 1.4 } });
    expect(l.trackingItems).toEqual({ hobbs: 1.4 });
    expect((await totals('acme-ac-1')).landings).toBe(b.landings - 1);
  });

  it('validation errors on update carry VALIDATION_ERROR and change nothing', async () => {
    const uid = await create({ timeDate: '2027-01-02T00:00:00Z', trackingItems: { hobbs: 2 } });
    const before = await snapshot();
    for (const [inp, path] of [
      [{ trackingItems: { bogus: 1 } }, '/trackingItems/bogus'],
      [{ trackingItems: { hobbs: 'x' } }, '/trackingItems/hobbs'],
      [{ aircraftRegistration: 'VH-NOPE' }, '/aircraftRegistration'],
      [{ pilot: null }, '/pilot'],
      [{ copilotType: 'Boss' }, '/copilotType'],
      [{ aircraftId: 'acme-ac-2' }, /hobbs/],
    ] as [Body, string | RegExp][]) {
      expectCode(await gql(UPDATE, { id: uid, input: inp }), 'updateFlightLog', 'VALIDATION_ERROR', path);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('moving a log to the other aircraft updates both aircraft’s totals', async () => {
    const uid = await create({ timeDate: '2027-01-03T00:00:00Z', trackingItems: { hobbs: 2.6, landings: 3 } });
    const b1 = await totals('acme-ac-1');
    const b2 = await totals('acme-ac-2');
    const m = await ok(UPDATE, {
      id: uid,
      input: { aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', trackingItems: { hobbs: null, landings: null, tacho: 0.8 } },
    });
    expect(m.updateFlightLog).toEqual({ uid, status: 'updated' });
    expect(await one(uid)).toMatchObject({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', trackingItems: { tacho: 0.8 } });
    const a1 = await totals('acme-ac-1');
    expect(a1.hobbs).toBe(plus(b1.hobbs, -2.6));
    expect(a1.landings).toBe(b1.landings - 3);
    expect((await totals('acme-ac-2')).tacho).toBe(plus(b2.tacho, 0.8));
  });

  it('deleteFlightLog: deleted, then NOT_FOUND; totals drop', async () => {
    const uid = await create({ timeDate: '2027-01-04T00:00:00Z', trackingItems: { hobbs: 4.4, landings: 1 } });
    const b = await totals('acme-ac-1');
    expect((await ok(DELETE, { id: uid })).deleteFlightLog).toEqual({ uid, status: 'deleted' });
    const a = await totals('acme-ac-1');
    expect(a.hobbs).toBe(plus(b.hobbs, -4.4));
    expect(a.landings).toBe(b.landings - 1);
    expectCode(await gql(DELETE, { id: uid }), 'deleteFlightLog', 'NOT_FOUND');
    expectCode(await gql(ONE, { id: uid }), 'flightLog', 'NOT_FOUND');
    expectCode(await gql(UPDATE, { id: uid, input: { pax: 1 } }), 'updateFlightLog', 'NOT_FOUND');
  });

  it('another company’s ids are NOT_FOUND for read, update and delete; nothing changes', async () => {
    const uid = await create({ timeDate: '2027-01-05T00:00:00Z', trackingItems: { hobbs: 1.1 } });
    const before = await snapshot();
    expectCode(await gql(ONE, { id: uid }, env.b.key), 'flightLog', 'NOT_FOUND');
    expectCode(await gql(UPDATE, { id: uid, input: { pax: 9 } }, env.b.key), 'updateFlightLog', 'NOT_FOUND');
    expectCode(await gql(DELETE, { id: uid }, env.b.key), 'deleteFlightLog', 'NOT_FOUND');
    const bd = await ok(BATCH_DELETE, { ids: [uid] }, env.b.key);
    expect(bd.deleteFlightLogs).toEqual({ results: [], errors: [{ index: 0, error: expect.any(String) }] });
    expectCode(await gql(CREATE, { input: input() }, env.b.key), 'createFlightLog', 'VALIDATION_ERROR', '/aircraftId');
    expect(await snapshot()).toEqual(before);
    const bList = await listAll({}, env.b.key);
    expect(bList.map((l) => l.uid)).not.toContain(uid);
  });
});

describe('batches', () => {
  it('createFlightLogs: partial success with input indexes; empty and 51 items → VALIDATION_ERROR', async () => {
    const b = await totals('acme-ac-1');
    const d = await ok(BATCH, {
      items: [
        input({ timeDate: '2028-01-01T01:00:00Z', trackingItems: { hobbs: 0.1 } }),
        input({ timeDate: '2028-01-01T02:00:00Z', trackingItems: { hobbs: 'bad' } }),
        input({ timeDate: '2028-01-01T03:00:00Z', hobbs: 0.2, landings: 1 }),
      ],
    });
    expect(d.createFlightLogs.results).toEqual([
      { uid: expect.any(String), status: 'created' },
      { uid: expect.any(String), status: 'created' },
    ]);
    expect(d.createFlightLogs.errors).toEqual([{ index: 1, error: expect.any(String) }]);
    const [u0, u2] = d.createFlightLogs.results.map((r: any) => r.uid);
    expect((await one(u0)).trackingItems).toEqual({ hobbs: 0.1 });
    expect((await one(u2)).trackingItems).toEqual({ hobbs: 0.2, landings: 1 });
    const a = await totals('acme-ac-1');
    expect(a.hobbs).toBe(plus(b.hobbs, 0.3));
    expect(a.landings).toBe(b.landings + 1);

    const before = await snapshot();
    expectCode(await gql(BATCH, { items: [] }), 'createFlightLogs', 'VALIDATION_ERROR');
    expectCode(await gql(BATCH, { items: Array.from({ length: 51 }, () => input({ trackingItems: { hobbs: 1 } })) }), 'createFlightLogs', 'VALIDATION_ERROR');
    expectCode(await gql(BATCH, { items: { not: 'an array' } }), 'createFlightLogs', 'VALIDATION_ERROR');
    expect(await snapshot()).toEqual(before);
  });

  it('deleteFlightLogs: mixed existing and unknown ids; 0 or 51 ids → VALIDATION_ERROR', async () => {
    const x = await create({ timeDate: '2028-02-01T00:00:00Z', trackingItems: { hobbs: 0.7 } });
    const y = await create({ timeDate: '2028-02-02T00:00:00Z', trackingItems: { hobbs: 0.5 } });
    const b = await totals('acme-ac-1');
    const d = await ok(BATCH_DELETE, { ids: ['fl_unknown', x, y, x] });
    expect(d.deleteFlightLogs.results).toEqual([
      { uid: x, status: 'deleted' },
      { uid: y, status: 'deleted' },
    ]);
    expect(d.deleteFlightLogs.errors).toEqual([
      { index: 0, error: expect.any(String) },
      { index: 3, error: expect.any(String) },
    ]);
    expect((await totals('acme-ac-1')).hobbs).toBe(plus(b.hobbs, -1.2));

    const z = await create({ timeDate: '2028-02-03T00:00:00Z', trackingItems: { hobbs: 0.3 } });
    const before = await snapshot();
    expectCode(await gql(BATCH_DELETE, { ids: [] }), 'deleteFlightLogs', 'VALIDATION_ERROR');
    expectCode(await gql(BATCH_DELETE, { ids: [z, ...Array.from({ length: 50 }, (_, i) => `fl_nope_${i}`)] }), 'deleteFlightLogs', 'VALIDATION_ERROR');
    expect(await snapshot()).toEqual(before);
  });
});

describe('flightLogs', () => {
  const Y = { startDate: '2029-01-01', endDate: '2029-12-31' };
  let made: string[] = [];
  beforeAll(async () => {
    // 23 logs on 4 distinct instants (shared timeDates), on both aircraft, two pilots (one not a user)
    const items = Array.from({ length: 23 }, (_, i) =>
      i % 3 === 0
        ? input({ timeDate: `2029-03-0${1 + (i % 4)}T10:00:00Z`, aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', trackingItems: { tacho: 0.1 } })
        : input({ timeDate: `2029-03-0${1 + (i % 4)}T10:00:00Z`, pilot: i % 5 === 0 ? 'freelance-007' : 'acme-pilot', trackingItems: { hobbs: 0.1 } }),
    );
    const d = await ok(BATCH, { items });
    expect(d.createFlightLogs.errors).toEqual([]);
    made = d.createFlightLogs.results.map((r: any) => r.uid);
  });

  it('pages with limit and cursor: every log exactly once, in (timeDate desc, uid desc) order', async () => {
    const all = await listAll(Y);
    expect(all.map((l) => l.uid).sort()).toEqual([...made].sort());
    for (let i = 1; i < all.length; i++) {
      const [p, c] = [all[i - 1], all[i]];
      expect(p.timeDate > c.timeDate || (p.timeDate === c.timeDate && p.uid > c.uid), `${i}`).toBe(true);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const d = await ok(LIST, { ...Y, limit: 5, cursor });
      expect(d.flightLogs.count).toBe(d.flightLogs.data.length);
      expect(d.flightLogs.data.length).toBeLessThanOrEqual(5);
      seen.push(...d.flightLogs.data.map((l: any) => l.uid));
      cursor = d.flightLogs.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    expect(pages).toBe(5);
    expect(seen).toEqual(all.map((l) => l.uid));
  });

  it('filters work as in REST', async () => {
    const ac2 = await listAll({ ...Y, aircraftId: 'acme-ac-2' });
    expect(ac2.length).toBe(8);
    for (const l of ac2) expect(l.aircraftId).toBe('acme-ac-2');
    expect((await listAll({ ...Y, aircraftRegistration: 'VH-ACZ' })).map((l) => l.uid)).toEqual(ac2.map((l) => l.uid));
    const free = await listAll({ ...Y, pilotId: 'freelance-007' });
    expect(free.length).toBeGreaterThan(0);
    for (const l of free) expect(l.pilot).toBe('freelance-007');
    const day = await listAll({ startDate: '2029-03-02', endDate: '2029-03-02' });
    expect(day.length).toBeGreaterThan(0);
    for (const l of day) expect(new Date(l.timeDate).toISOString()).toBe('2029-03-02T10:00:00.000Z');
  });

  it('bad limit, cursor or dates → VALIDATION_ERROR', async () => {
    for (const v of [{ limit: 0 }, { limit: 501 }, { limit: -5 }, { cursor: 'garbage' }, { startDate: 'nope' }, { endDate: '2029-02-30x' }]) {
      expectCode(await gql(LIST, v), 'flightLogs', 'VALIDATION_ERROR');
    }
  });

  it('aircraft { totals } and pilotUser { uid } resolve on listed logs', async () => {
    const q = `query($s: String, $e: String) { flightLogs(startDate: $s, endDate: $e, limit: 500) {
      data { uid pilot aircraftId aircraft { uid registration totals } pilotUser { uid displayName } }
    } }`;
    const d = await ok(q, { s: Y.startDate, e: Y.endDate });
    const data = d.flightLogs.data;
    expect(data.length).toBe(23);
    const t1 = await totals('acme-ac-1');
    const t2 = await totals('acme-ac-2');
    for (const l of data) {
      expect(l.aircraft.uid).toBe(l.aircraftId);
      expect(l.aircraft.totals).toEqual(l.aircraftId === 'acme-ac-1' ? t1 : t2);
      expect(l.aircraft.registration).toBe(l.aircraftId === 'acme-ac-1' ? 'VH-ACM' : 'VH-ACZ');
      if (l.pilot === 'acme-pilot') expect(l.pilotUser).toEqual({ uid: 'acme-pilot', displayName: 'Pat Pilot' });
      else expect(l.pilotUser).toBeNull();
    }
    // company b never sees them
    const theirs = await ok(q, { s: Y.startDate, e: Y.endDate }, env.b.key);
    expect(theirs.flightLogs.data).toEqual([]);
  });
});
