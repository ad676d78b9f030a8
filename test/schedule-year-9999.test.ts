// Instants past the years 0001-9999 (UTC) are refused where they come in, and a roll-forward past 9999-12-31 is a
// 400 (src/lib/dates.ts parseIso, the one rule of every date input; docs/api-notes.md "Maintenance schedule").
// Before: `9999-12-31T23:00:00-05:00` (10000-01-01T04:00Z) was stored as year 10000 and read back as Invalid Date,
// so every schedule read of the company answered 500 on REST, GraphQL and MCP; completing a recurring calendar item
// in 9999 was a 500 itself. Each attempt below answers 400 at its field, writes nothing, and the company's schedule
// reads stay 200 on every channel.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { now, setClock } from '../src/lib/clock.js';
import { isoProblem, parseIso, parseIsoInstant } from '../src/lib/dates.js';
import { addCalendarDays, startOfLocalDay } from '../src/modules/schedule/rules.js';
import { createTestEnv, flightLogBody, mcpTool, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env.close();
});

const PAST_9999 = '9999-12-31T23:00:00-05:00'; // 10000-01-01T04:00:00Z
/**
 * A completion may not be dated after the service's clock: the completions in 9999 below are made with the clock at
 * 9999-12-31T12:00Z (23:00 on 9999-12-31 in Sydney, the acting user's zone), then the file's clock is set back.
 */
let fileClock: Date;
beforeAll(() => {
  fileClock = now();
});
afterEach(() => setClock(fileClock));
const atTheEndOf9999 = () => setClock('9999-12-31T12:00:00Z');
const item = (over: Record<string, unknown> = {}) => ({
  name: 'Annual',
  type: 'Inspection',
  relatedTo: 'acme-ac-1',
  relatedToType: 'aircraft',
  recurring: false,
  calendarDateDue: '2027-01-01',
  ...over,
});
const create = async (over: Record<string, unknown> = {}) => {
  const r = await env.rest.post('/schedule-items', item(over));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
};

/** Every schedule read of company a, on every channel, answers 200 (and GraphQL without errors). */
async function readsStayUp(uid: string) {
  for (const path of [`/schedule-items/${uid}`, '/schedule-items?includeInactive=true', '/schedule-items', '/schedule-completions', '/maintenance-status']) {
    const r = await env.rest.get(path);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  }
  const q = await env.gql(
    `query($id: ID!) { scheduleItem(id: $id) { uid lastCarriedOutDate calendarDateDue }
       scheduleItems(includeInactive: true) { count data { uid lastCarriedOutDate calendarDateDue } }
       scheduleCompletions { count data { uid completedAt } }
       maintenanceStatus { count data { scheduleItemUid calendarDaysRemaining } } }`,
    { id: uid },
  );
  expect(q.body.errors, JSON.stringify(q.body.errors)).toBeUndefined();
  for (const [tool, args] of [
    ['listScheduleCompletions', {}],
    ['listScheduleItems', { includeInactive: true }],
    ['getScheduleItem', { id: uid }],
    ['getMaintenanceStatus', {}],
  ] as const) {
    const r = await mcpTool(env, tool, args);
    expect(r.isError, `${tool}: ${JSON.stringify(r)}`).toBeFalsy();
  }
}

describe('the one rule: an instant within the years 0001 to 9999 in UTC', () => {
  it('parseIso refuses a date-time whose offset carries it past 9999, and says why', () => {
    expect(parseIso(PAST_9999)).toBeNull();
    expect(parseIsoInstant('9999-12-31T23:59:59-12:00')).toBeNull();
    expect(isoProblem(PAST_9999)).toEqual({ problem: 'range', instant: new Date(Date.UTC(10000, 0, 1, 4)) });
    expect(isoProblem('2026-02-30')).toEqual({ problem: 'format' });
    // the last instant, a date alone and the same wall time east of Greenwich are taken
    expect(parseIsoInstant('9999-12-31T23:59:59.999Z')?.toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(parseIsoInstant('9999-12-31T23:00:00+05:00')?.toISOString()).toBe('9999-12-31T18:00:00.000Z');
    expect(parseIso('9999-12-31')).toEqual({ date: '9999-12-31', instant: null });
    expect(isoProblem('9999-12-31T18:59:59-05:00')).toBeNull();
  });

  it('calendar arithmetic at the end of 9999: no date past it, the first instant of its last day in any zone', () => {
    expect(addCalendarDays('9999-12-01', 30)).toBe('9999-12-31');
    expect(() => addCalendarDays('9999-12-31', 1)).toThrow(RangeError);
    // east of Greenwich the day after is 10000-01-01 on the wall: read as is, not refused as an input
    expect(startOfLocalDay('9999-12-31', 'Pacific/Kiritimati').toISOString()).toBe('9999-12-30T10:00:00.000Z');
    expect(startOfLocalDay('9999-12-31', 'Australia/Sydney').toISOString()).toBe('9999-12-30T13:00:00.000Z');
  });
});

describe('schedule writes past 9999 are 400s that write nothing; reads stay 200', () => {
  it('a completion at an instant past 9999 (REST, GraphQL, MCP)', async () => {
    const uid = await create({ name: 'Typo completion' });
    const before = (await env.rest.get(`/schedule-items/${uid}`)).body;
    const r = await env.rest.post(`/schedule-items/${uid}/complete`, { completedAt: PAST_9999 });
    expectValidation(r, '/completedAt');
    expect(r.body.errors[0].message).toBe(
      'completedAt must fall within the years 0001 to 9999 in UTC: 9999-12-31T23:00:00-05:00 is +010000-01-01T04:00:00.000Z',
    );
    const g = await env.gql(`mutation($id: ID!, $i: CompleteScheduleItemInput) { completeScheduleItem(id: $id, input: $i) { uid } }`, {
      id: uid,
      i: { completedAt: PAST_9999 },
    });
    expect(g.body.errors?.[0]?.extensions?.code, JSON.stringify(g.body)).toBe('VALIDATION_ERROR');
    const m = await mcpTool(env, 'completeScheduleItem', { id: uid, body: { completedAt: PAST_9999 } });
    expect(m.isError, JSON.stringify(m)).toBe(true);
    expect(m.content.map((c) => c.text).join(' ')).toContain('/completedAt');
    expect((await env.rest.get(`/schedule-items/${uid}`)).body).toEqual(before);
    expect((await env.rest.get(`/schedule-completions?scheduleItemId=${uid}`)).body.count).toBe(0);
    await readsStayUp(uid);
  });

  it('lastCarriedOutDate and calendarDateDue past 9999, on create and update', async () => {
    expectValidation(await env.rest.post('/schedule-items', item({ name: 'Direct', lastCarriedOutDate: '9999-12-31T23:59:59-12:00' })), '/lastCarriedOutDate');
    expectValidation(await env.rest.post('/schedule-items', item({ name: 'Direct', calendarDateDue: PAST_9999 })), '/calendarDateDue');
    const uid = await create({ name: 'Edited' });
    const before = (await env.rest.get(`/schedule-items/${uid}`)).body;
    expectValidation(await env.rest.patch(`/schedule-items/${uid}`, { lastCarriedOutDate: '9999-12-31T23:59:59-12:00' }), '/lastCarriedOutDate');
    const g = await env.gql(`mutation($id: ID!, $i: UpdateScheduleItemInput!) { updateScheduleItem(id: $id, input: $i) { uid } }`, {
      id: uid,
      i: { lastCarriedOutDate: PAST_9999 },
    });
    expect(g.body.errors?.[0]?.extensions?.code, JSON.stringify(g.body)).toBe('VALIDATION_ERROR');
    expect((await env.rest.get(`/schedule-items/${uid}`)).body).toEqual(before);
    expect((await env.rest.get('/schedule-items')).body.data.map((i: { name: string }) => i.name)).not.toContain('Direct');
    await readsStayUp(uid);
  });

  it('a recurring calendar item completed in 9999: rolling forward past 9999-12-31 is a 400 at /completedAt', async () => {
    atTheEndOf9999();
    const uid = await create({ name: 'Monthly', recurring: true, calendarRecurring: 30 });
    const before = (await env.rest.get(`/schedule-items/${uid}`)).body;
    // the acting user (the owner) counts days in Australia/Sydney: 12:00Z is 23:00 there, still 9999-12-31
    for (const completedAt of ['9999-12-31T12:00:00Z', '9999-12-31', '9999-12-02']) {
      const r = await env.rest.post(`/schedule-items/${uid}/complete`, { completedAt });
      expectValidation(r, '/completedAt');
      expect(r.body.errors[0].message, completedAt).toMatch(/^the item cannot roll forward: completed on .* \(Australia\/Sydney\), plus calendarRecurring \(30 days\), is past 9999-12-31/);
    }
    // 10000-01-01 in Sydney: a date to come, whatever it would roll to
    const ahead = await env.rest.post(`/schedule-items/${uid}/complete`, { completedAt: '9999-12-31T20:00:00Z' });
    expectValidation(ahead, '/completedAt');
    expect(ahead.body.errors[0].message).toMatch(/^completedAt must not be in the future/);
    expect((await env.rest.get(`/schedule-items/${uid}`)).body).toEqual(before);
    expect((await env.rest.get(`/schedule-completions?scheduleItemId=${uid}`)).body.count).toBe(0);
    // the last day it can roll to is taken
    const last = await env.rest.post(`/schedule-items/${uid}/complete`, { completedAt: '9999-12-01' });
    expect(last.status, JSON.stringify(last.body)).toBe(201);
    expect((await env.rest.get(`/schedule-items/${uid}`)).body.calendarDateDue).toBe('9999-12-31T00:00:00.000Z');
    await readsStayUp(uid);
  });

  it('a non-recurring item completed on the last day of 9999 (a date alone, in the user\u2019s zone) is taken', async () => {
    atTheEndOf9999();
    const uid = await create({ name: 'Once' });
    const r = await env.rest.post(`/schedule-items/${uid}/complete`, { completedAt: '9999-12-31' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const done = (await env.rest.get(`/schedule-completions?scheduleItemId=${uid}`)).body.data;
    expect(done.map((c: { completedAt: string }) => c.completedAt)).toEqual(['9999-12-30T13:00:00.000Z']);
    await readsStayUp(uid);
  });

  it('a flight log at an instant past 9999 is a 400 at /timeDate, as every date input is', async () => {
    expectValidation(await env.rest.post('/flight-logs', flightLogBody({ timeDate: PAST_9999, hobbs: 1 })), '/timeDate');
    expectValidation(await env.rest.get(`/flight-logs?startDate=${encodeURIComponent(PAST_9999)}`), '/query/startDate');
  });
});
