// A maintenance alert's attempt in flight when its item is completed: the receiver answers 500 after the completion,
// and the retry that failure schedules is not sent when it is due (docs/notifications.md, Retries): the dispatcher
// decides at each attempt whether the alert still holds, so no path (an attempt in flight, a retry written after the
// change) tells of a due point the item no longer has.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { now, setClock } from '../src/lib/clock.js';
import { adminKey, createTestEnv, flightLogBody, type TestEnv } from './helpers.js';
import { localServer } from './form-notifications.js';

let env: TestEnv;
let web: Awaited<ReturnType<typeof localServer>>;
const hits: string[] = [];
let release: (() => void) | null = null;
let arrived: (() => void) | null = null;
const start = now();

beforeAll(async () => {
  web = await localServer((req, body, res) => {
    hits.push(body);
    if (req.url === '/hold') {
      arrived?.();
      release = () => res.writeHead(500).end();
    } else if (req.url === '/overdue-only') res.writeHead(JSON.parse(body).event === 'maintenance.overdue' ? 200 : 500).end();
    else res.writeHead(500).end();
  });
  env = await createTestEnv({ dispatch: true, config: { webhookAllowPrivate: true, webhookTimeoutMs: 20000 } });
});
afterAll(async () => {
  setClock(start);
  await env?.close();
  await web?.close();
});

async function settle() {
  for (let i = 0; i < 3; i++) {
    await env.app.alerts!.idle();
    await env.app.dispatcher!.idle();
  }
}

it('an attempt in flight when the item is completed: the retry its failure schedules is not sent', async () => {
  const admin = (await new ApiKeyService(env.database.prisma).create({ companyId: env.b.id, scope: 'admin', name: 'admin' })).key;
  expect((await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: { recipients: [{ url: web.url('/hold') }] } })).status).toBe(200);
  const got = new Promise<void>((r) => (arrived = r));
  const r = await env.json('POST', '/api/v1/schedule-items', { key: env.b.key, body: { type: 'Inspection', name: 'x', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: 1000, recurring: false } });
  expect(r.status).toBe(201);
  const uid = r.body.uid;
  await got; // the first attempt is in flight
  const done = await env.json('POST', `/api/v1/schedule-items/${uid}/complete`, { key: env.b.key, body: {} });
  expect(done.status).toBeLessThan(300);
  release!();
  await settle();
  setClock(new Date(start.getTime() + 24 * 3_600_000));
  env.app.dispatcher!.wake();
  await settle();
  const mine = hits.filter((h) => JSON.parse(h).itemUid === uid);
  const rows = await env.database.prisma.webhookDelivery.findMany({ where: { companyId: env.b.id }, orderBy: { attempt: 'asc' }, select: { attempt: true, status: true, error: true } });
  expect(mine.length).toBe(1);
  expect(rows).toEqual([
    { attempt: 1, status: 'failed', error: 'receiver answered 500' },
    { attempt: 2, status: 'skipped', error: 'not sent: the schedule item was completed, changed or deleted since the alert' },
  ]);
});

it('a due-soon alert still being retried when its item becomes overdue is not sent after the overdue alert', async () => {
  // "9 hours remaining" arriving after "overdue" told whoever read it last that the aircraft could still fly
  const admin = await adminKey(env);
  expect((await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: { dueSoonHours: 10, recipients: [{ url: web.url('/overdue-only') }] } })).status).toBe(200);
  const hobbs = (await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs as number;
  const r = await env.json('POST', '/api/v1/schedule-items', { body: { type: 'Inspection', name: 'Due soon, then overdue', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: hobbs + 5, recurringInterval: 100, recurring: true } });
  expect(r.status).toBe(201);
  const uid = r.body.uid;
  await settle(); // the due-soon alert's first attempt failed: its retry is due a minute later
  expect((await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ hobbs: 6 }) })).status).toBe(201);
  await settle(); // the overdue alert is delivered
  setClock(new Date(now().getTime() + 2 * 60_000));
  env.app.dispatcher!.wake();
  await settle();
  const events = hits.map((h) => JSON.parse(h)).filter((h) => h.itemUid === uid).map((h) => h.event);
  expect(events).toEqual(['maintenance.due_soon', 'maintenance.overdue']);
  const alerts = await env.database.prisma.maintenanceAlert.findMany({ where: { companyId: env.a.id, scheduleItemId: uid }, select: { uid: true, event: true } });
  const overdue = alerts.find((a) => a.event === 'maintenance.overdue')!;
  const dueSoon = alerts.find((a) => a.event === 'maintenance.due_soon')!;
  const rows = await env.database.prisma.webhookDelivery.findMany({ where: { companyId: env.a.id, alertId: dueSoon.uid }, orderBy: { attempt: 'asc' }, select: { attempt: true, status: true, error: true } });
  expect(rows).toEqual([
    { attempt: 1, status: 'failed', error: 'receiver answered 500' },
    { attempt: 2, status: 'skipped', error: `not sent: the item has since become due or overdue (alert ${overdue.uid})` },
  ]);
});
