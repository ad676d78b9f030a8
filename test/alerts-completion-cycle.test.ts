// A completion starts a new due cycle (docs/contract/gaps.md §14; docs/notifications.md "Exactly once"), also when
// the roll-forward lands on the thresholds the item had: a weekly item due 2026-03-10 completed on 2026-03-03 is due
// on 2026-03-10 again, and its approach alerts again. Before, the cycle was keyed by the thresholds alone, so the
// alert raised before the completion counted for the new cycle and nothing was sent. Keys of items never completed
// stay as they were (no alert already raised is raised again after the upgrade). The clock is an input: each step
// sets it and evaluates the company as the sweep would.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scopedPrisma } from '../src/db/scoped.js';
import { setClock } from '../src/lib/clock.js';
import { evaluateCompany } from '../src/modules/alerts/monitor.js';
import { adminKey, createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

let env: TestEnv;
const start = new Date('2026-03-01T02:00:00Z');
beforeAll(async () => {
  setClock(start);
  env = await createTestEnv();
  const admin = await adminKey(env);
  const put = await env.json('PUT', '/api/v1/settings/alerts', {
    key: admin,
    body: { dueSoonDays: 14, dueSoonHours: 10, timezone: 'UTC', recipients: [{ email: 'ops@acme.test' }] },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
});
afterEach(() => setClock(start));
afterAll(async () => {
  await env.close();
});

const at = (iso: string) => setClock(new Date(iso));
const evaluate = () => evaluateCompany(env.database, env.a.id);
/** The item's alerts, oldest first: [event, dueAt, days remaining, cycle]. */
async function alertsOf(uid: string) {
  const rows = await scopedPrisma(env.database.prisma, env.a.id).maintenanceAlert.findMany({
    where: { scheduleItemId: uid },
    orderBy: [{ createdAt: 'asc' }, { uid: 'asc' }],
  });
  return rows.map((r) => {
    const p = r.payload as { event: string; dueAt?: string; dueAtValue?: number; remaining: { days?: number; hours?: number } };
    return { event: p.event, due: p.dueAt ?? p.dueAtValue, remaining: p.remaining.days ?? p.remaining.hours, cycle: r.cycle, notified: r.notified };
  });
}
async function item(body: Record<string, unknown>) {
  const r = await env.rest.post('/schedule-items', { type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
}
async function complete(uid: string, body: Record<string, unknown> = {}) {
  const r = await env.rest.post(`/schedule-items/${uid}/complete`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
}

describe('a completion starts a new due cycle', () => {
  it('a weekly item completed a week early onto the same due date alerts again as it approaches, once', async () => {
    const uid = await item({ name: 'Weekly', recurring: true, calendarDateDue: '2026-03-10', calendarRecurring: 7 });
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    at('2026-03-03T02:00:00Z');
    const done = await complete(uid);
    expect((await env.rest.get(`/schedule-items/${uid}`)).body.calendarDateDue).toBe('2026-03-10T00:00:00.000Z');
    // the new cycle is 7 days from its due date: due soon, alerted again (this evaluation raised nothing before)
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    expect(await evaluate()).toEqual({ raised: 0, deliveries: 0 });
    at('2026-03-10T02:00:00Z');
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    expect(await evaluate()).toEqual({ raised: 0, deliveries: 0 });
    expect(await alertsOf(uid)).toEqual([
      { event: 'maintenance.due_soon', due: '2026-03-10', remaining: 9, cycle: `-|2026-03-10|done:${done}`, notified: true },
      { event: 'maintenance.due_soon', due: '2026-03-10', remaining: 7, cycle: '-|2026-03-10', notified: true },
      { event: 'maintenance.overdue', due: '2026-03-10', remaining: 0, cycle: '-|2026-03-10', notified: true },
    ]);
  });

  it('a usage item completed early onto the same due reading alerts again', async () => {
    // hobbs is 1200.5 (no flights): due at 1205.5, 5 hours away, due soon
    const uid = await item({ name: 'Hobbs check', recurring: true, trackingItem: 'hobbs', dueAtInterval: 1205.5, recurringInterval: 10 });
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    await complete(uid, { trackingValue: 1195.5 });
    expect((await env.rest.get(`/schedule-items/${uid}`)).body.dueAtInterval).toBe(1205.5);
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    const logged = await env.rest.post('/flight-logs', flightLogBody({ timeDate: '2026-02-28T09:30:00Z', hobbs: 6 }));
    expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    expect((await alertsOf(uid)).map((a) => [a.event, a.remaining, a.cycle.startsWith('1205.5|-|done:') ? 'ended' : a.cycle])).toEqual([
      ['maintenance.due_soon', 5, 'ended'],
      ['maintenance.due_soon', 5, '1205.5|-'],
      ['maintenance.overdue', -1, '1205.5|-'],
    ]);
  });

  it('a roll-forward onto a due date an earlier edit had alerted on alerts again', async () => {
    const uid = await item({ name: 'Moved weekly', recurring: true, calendarDateDue: '2026-03-10', calendarRecurring: 7 });
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    expect((await env.rest.patch(`/schedule-items/${uid}`, { calendarDateDue: '2026-03-12' })).status).toBe(200);
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    at('2026-03-03T02:00:00Z');
    await complete(uid); // 2026-03-03 + 7: 2026-03-10, the cycle alerted before the edit
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    expect((await alertsOf(uid)).filter((a) => !a.cycle.includes('|done:')).map((a) => [a.event, a.due])).toEqual([['maintenance.due_soon', '2026-03-10']]);
  });

  it('alerts of items never completed keep their keys: nothing already raised is raised again', async () => {
    const uid = await item({ name: 'Never completed', recurring: true, calendarDateDue: '2026-03-09', calendarRecurring: 7 });
    const other = await item({ name: 'Completed one', recurring: true, calendarDateDue: '2026-03-09', calendarRecurring: 7 });
    expect(await evaluate()).toEqual({ raised: 2, deliveries: 2 });
    await complete(other, { completedAt: '2026-03-01' }); // rolls to 2026-03-08
    expect(await evaluate()).toEqual({ raised: 1, deliveries: 1 });
    expect(await evaluate()).toEqual({ raised: 0, deliveries: 0 });
    // the key an alert had before this change (thresholds only) is the key it has now
    expect((await alertsOf(uid)).map((a) => a.cycle)).toEqual(['-|2026-03-09']);
  });
});
