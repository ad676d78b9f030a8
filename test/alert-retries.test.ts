// A maintenance alert's attempt in flight when its item is completed: the receiver answers 500 after the completion,
// and the retry that failure schedules is not sent when it is due (docs/notifications.md, Retries): the dispatcher
// decides at each attempt whether the alert still holds, so no path (an attempt in flight, a retry written after the
// change) tells of a due point the item no longer has.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { now, setClock } from '../src/lib/clock.js';
import { createTestEnv, type TestEnv } from './helpers.js';
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
    } else res.writeHead(500).end();
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
