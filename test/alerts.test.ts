// Maintenance alerts (docs/contract/gaps.md §14; docs/notifications.md "Maintenance alerts") against real peers on
// loopback: an SMTP server (smtp-server), a Twilio-compatible Messages endpoint (TWILIO_API_BASE) and a webhook
// receiver verifying with the standardwebhooks package and a whsec_ secret. Flights are logged until an item crosses
// its due-soon and due thresholds (exactly two alerts on each channel, again after completion); the clock is
// advanced past a calendar due date (the date alert once, however many sweeps); a failing receiver gets the
// retries with backoff and no more; two apps on one database racing their evaluations raise each alert once; the
// settings (admin only to write, secrets write-only, bad values 400 and nothing changes).
import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { createApp } from '../src/app.js';
import { now, setClock } from '../src/lib/clock.js';
import { ALERT_BACKOFF_MINUTES } from '../src/modules/alerts/service.js';
import { createTestEnv, flightLogBody, openSameDatabase, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';
import { localServer, localSmtp } from './form-notifications.js';

type Body = Record<string, any>;
const SID = 'AC' + '0123456789abcdef'.repeat(2);
const TOKEN = 'twilio-auth-token-0123456789';
const FROM = '+61255501234';
const PHONE = '+61412000001';
const WHSEC = 'whsec_' + Buffer.from('alerts-signing-key-0123456789abcdef').toString('base64');

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The peers: a webhook receiver (`/fail…` answers 500), Twilio's Messages endpoint, an SMTP server. */
async function peers() {
  const hooks: Hit[] = [];
  const web = await localServer((req, body, res) => {
    hooks.push({ path: req.url ?? '', headers: req.headers, body });
    res.writeHead(req.url?.startsWith('/fail') ? 500 : 200).end();
  });
  const texts: URLSearchParams[] = [];
  const twilio = await localServer((_req, raw, res) => {
    const form = new URLSearchParams(raw);
    texts.push(form);
    res.writeHead(201, { 'content-type': 'application/json' }).end(
      JSON.stringify({ sid: 'SM' + '0'.repeat(32), account_sid: SID, to: form.get('To'), from: form.get('From'), body: form.get('Body'), status: 'queued' }),
    );
  });
  const smtp = await localSmtp();
  return {
    hooks,
    texts,
    /** the messages with quoted-printable soft line breaks joined */
    get mails() {
      return smtp.mails.map((m) => ({ to: m.to, raw: m.raw.replace(/=\r?\n/g, '') }));
    },
    url: web.url,
    config: { smtpUrl: smtp.url, mailFrom: 'alerts@fleetops.test', twilioApiBase: twilio.url(''), webhookAllowPrivate: true, webhookTimeoutMs: 3000 },
    async close() {
      await web.close();
      await twilio.close();
      await smtp.close();
    },
  };
}

const adminKey = async (env: TestEnv, companyId: string) => (await new ApiKeyService(env.database.prisma).create({ companyId, scope: 'admin', name: 'admin' })).key;

/** Waits for this app's alert evaluations and the deliveries they wrote. */
async function settle(env: { app: TestEnv['app'] }) {
  for (let i = 0; i < 3; i++) {
    await env.app.alerts!.idle();
    await env.app.dispatcher!.idle();
  }
}

describe('maintenance alerts', () => {
  let env: TestEnv;
  let p: Awaited<ReturnType<typeof peers>>;
  let adminA: string;
  let adminB: string;
  const start = now();
  beforeAll(async () => {
    p = await peers();
    env = await createTestEnv({ dispatch: true, config: p.config });
    adminA = await adminKey(env, env.a.id);
    adminB = await adminKey(env, env.b.id);
    for (const key of [adminA, adminB]) {
      const r = await env.json('PUT', '/api/v1/settings/integrations', { key, body: { sms: { provider: 'twilio', accountSid: SID, authToken: TOKEN, from: FROM } } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  });
  afterAll(async () => {
    await env?.close();
    await p?.close();
  });
  afterEach(() => setClock(start));

  const log = async (hobbs: number, key = env.a.key) => {
    const r = await env.json('POST', '/api/v1/flight-logs', { key, body: flightLogBody({ timeDate: new Date(now().getTime() - 3_600_000).toISOString(), hobbs, landings: 1 }) });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await settle(env);
  };
  const hobbsOf = async () => (await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs as number;
  const item = async (body: Body, key = env.a.key) => {
    const r = await env.json('POST', '/api/v1/schedule-items', { key, body: { type: 'Inspection', recurring: true, ...body } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.uid as string;
  };
  const ofItem = (uid: string) => ({
    hooks: () => p.hooks.filter((h) => JSON.parse(h.body).itemUid === uid),
  });

  it('settings: defaults until saved; only an admin key writes them; secrets are write-only; bad values are 400 and change nothing', async () => {
    const before = await env.json('GET', '/api/v1/settings/alerts');
    expect(before.body).toEqual({ enabled: false, dueSoonDays: 14, dueSoonHours: 10, timezone: 'UTC', recipients: [] });
    const body = { dueSoonDays: 14, dueSoonHours: 10, recipients: [{ email: 'mx@example.com' }, { phone: PHONE }, { url: p.url('/alerts'), secret: WHSEC }] };
    expectProblem(await env.json('PUT', '/api/v1/settings/alerts', { body }), 403, 'forbidden');
    for (const [bad, path] of [
      [{ ...body, dueSoonDays: -1 }, '/dueSoonDays'],
      [{ ...body, dueSoonHours: 'ten' }, '/dueSoonHours'],
      [{ ...body, timezone: 'Mars/Olympus' }, '/timezone'],
      [{ ...body, recipients: [{ email: 'mx@example.com', phone: PHONE }] }, '/recipients/0'],
      [{ ...body, recipients: [{ phone: '0412 000 001' }] }, '/recipients/0/phone'],
      [{ ...body, recipients: [{ email: 'mx@example.com', secret: 'abcdefghij' }] }, '/recipients/0/secret'],
      [{ ...body, recipients: [{ url: 'ftp://example.com/x' }] }, '/recipients/0/url'],
      [{ ...body, recipients: [{ url: 'https://user:p4ss@hooks.example.com/x' }] }, '/recipients/0/url'],
      [{ ...body, recipients: [{ email: 'mx@example.com' }, { email: 'mx@example.com' }] }, '/recipients/1'],
      [{ ...body, extra: 1 }, ''],
    ] as const) {
      expectValidation(await env.json('PUT', '/api/v1/settings/alerts', { body: bad, key: adminA }), path || undefined);
    }
    // the hours are compared with tracking figures: their places rule, in their words
    const places = await env.json('PUT', '/api/v1/settings/alerts', { body: { ...body, dueSoonHours: 1.0000001 }, key: adminA });
    expect(places.body.errors).toEqual([{ path: '/dueSoonHours', message: 'dueSoonHours must have at most 6 decimal places' }]);
    expect((await env.json('GET', '/api/v1/settings/alerts')).body.enabled).toBe(false);

    const put = await env.json('PUT', '/api/v1/settings/alerts', { body, key: adminA });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const view = {
      enabled: true,
      dueSoonDays: 14,
      dueSoonHours: 10,
      timezone: 'UTC',
      recipients: [
        // REST leaves out what a recipient does not have (docs/api-notes.md); GraphQL answers null
        { email: 'mx@example.com' },
        { phone: PHONE },
        { url: p.url('/alerts'), hasSecret: true },
      ],
    };
    expect(put.body).toEqual(view);
    expect((await env.json('GET', '/api/v1/settings/alerts')).body).toEqual(view);
    expect(JSON.stringify((await env.json('GET', '/api/v1/settings/alerts')).body)).not.toContain(WHSEC);
    // the secret left out is kept for the same url; a zone name in another case is stored as the database spells it
    const again = await env.json('PUT', '/api/v1/settings/alerts', { body: { ...body, timezone: 'utc', recipients: [body.recipients[0], body.recipients[1], { url: p.url('/alerts') }] }, key: adminA });
    expect(again.body).toEqual(view);
    // GraphQL answers the same
    const g = await env.gql('{ alertSettings { enabled dueSoonHours recipients { url hasSecret } } }');
    expect(g.body.data.alertSettings).toEqual({ enabled: true, dueSoonHours: 10, recipients: [{ url: null, hasSecret: null }, { url: null, hasSecret: null }, { url: p.url('/alerts'), hasSecret: true }] });
    // MCP: the settings tools, the writing one for admin keys only
    const mcp = async (key: string, method: string, params: Body) => {
      const res = await env.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method, params } });
      return (await res.json()).result;
    };
    const names = async (key: string) => ((await mcp(key, 'tools/list', {})).tools as { name: string }[]).map((t) => t.name);
    expect(await names(adminA)).toEqual(expect.arrayContaining(['getAlertSettings', 'putAlertSettings', 'listAlertDeliveries']));
    expect(await names(env.a.key)).toEqual(expect.arrayContaining(['getAlertSettings', 'listAlertDeliveries']));
    expect(await names(env.a.key)).not.toContain('putAlertSettings');
    const called = await mcp(adminA, 'tools/call', { name: 'getAlertSettings', arguments: {} });
    expect(JSON.parse(called.content[0].text)).toEqual(view);
  });

  it('usage: flights crossing the due-soon and due thresholds send exactly two alerts on each channel; again after completion', async () => {
    const current = await hobbsOf();
    const uid = await item({ name: '100-hourly inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: current + 30, recurringInterval: 100 });
    await settle(env);
    const mine = ofItem(uid);
    const mails = () => p.mails.filter((m) => m.raw.includes(uid));
    await log(15); // 15 remaining: not yet
    expect(mine.hooks()).toHaveLength(0);
    await log(6); // 9 remaining: due soon
    expect(mine.hooks()).toHaveLength(1);
    await log(5); // 4 remaining: still due soon, nothing new
    await log(4); // 0 remaining: due
    await log(1.5); // past: nothing new
    const hooks = mine.hooks();
    expect(hooks.map((h) => JSON.parse(h.body).event)).toEqual(['maintenance.due_soon', 'maintenance.overdue']);
    expect(mails().map((m) => m.to)).toEqual([['mx@example.com'], ['mx@example.com']]);
    const texts = p.texts.filter((t) => t.get('Body')!.includes('100-hourly inspection on VH-ACM'));
    expect(texts).toHaveLength(2);

    // the webhook: Standard Webhooks headers verified by the reference library with the whsec_ secret, unchanged
    const [soon, due] = hooks.map((h) => new Webhook(WHSEC).verify(h.body, h.headers as Record<string, string>) as Body);
    expect(soon).toEqual({
      event: 'maintenance.due_soon',
      alertId: expect.any(String),
      itemUid: uid,
      title: '100-hourly inspection',
      asset: { type: 'aircraft', uid: 'acme-ac-1', name: 'VH-ACM' },
      remaining: { hours: 9 },
      dueAtValue: current + 30,
      trackingItem: 'Hobbs',
      status: 'due_soon',
      raisedAt: expect.any(String),
    });
    expect(due).toMatchObject({ event: 'maintenance.overdue', itemUid: uid, remaining: { hours: 0 }, status: 'due' });
    expect(texts.map((t) => [t.get('To'), t.get('From')])).toEqual([[PHONE, FROM], [PHONE, FROM]]);
    expect(texts[0].get('Body')).toBe(`Fleet Ops: Maintenance due soon: 100-hourly inspection on VH-ACM. 9 Hobbs remaining.`);
    expect(texts[1].get('Body')).toBe(`Fleet Ops: Maintenance due now: 100-hourly inspection on VH-ACM. 0 Hobbs remaining.`);
    expect(mails()[0].raw).toMatch(/Subject: Maintenance due soon: 100-hourly inspection on VH-ACM/);
    expect(mails()[0].raw).toContain('9 Hobbs remaining');
    expect(mails()[0].raw).toMatch(/Content-Type: text\/html/);

    // the alert deliveries log: six delivered attempts, newest first
    const logRows: Body[] = (await env.json('GET', `/api/v1/alerts/deliveries?alertId=${soon.alertId}`)).body.data;
    expect(logRows.map((d) => [d.channel, d.status, d.attempt]).sort()).toEqual([
      ['email', 'delivered', 1],
      ['sms', 'delivered', 1],
      ['webhook', 'delivered', 1],
    ]);
    expect(logRows.find((d) => d.channel === 'webhook')!.messageId).toBe(hooks[0].headers['webhook-id']);

    // completed: the thresholds roll forward (a new cycle), and only a new approach alerts again
    const done = await env.json('POST', `/api/v1/schedule-items/${uid}/complete`);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    await settle(env);
    expect(mine.hooks()).toHaveLength(2);
    await log(89); // 100 - 89 = 11 remaining: not yet
    expect(mine.hooks()).toHaveLength(2);
    await log(2); // 9 remaining: due soon again
    expect(mine.hooks().map((h) => JSON.parse(h.body).event)).toEqual(['maintenance.due_soon', 'maintenance.overdue', 'maintenance.due_soon']);
    expect(mails()).toHaveLength(3);
  });

  it('dates: advancing the clock past a calendar due date sends the date alert once, however many sweeps', async () => {
    const today = now().toISOString().slice(0, 10);
    const due = new Date(Date.parse(today) + 20 * 86_400_000).toISOString().slice(0, 10);
    const uid = await item({ name: 'Annual ELT check', relatedTo: 'acme-ac-2', relatedToType: 'aircraft', calendarDateDue: due, calendarRecurring: 365 });
    await settle(env);
    const events = () => ofItem(uid).hooks().map((h) => JSON.parse(h.body));
    const sweepAt = async (days: number) => {
      setClock(new Date(start.getTime() + days * 86_400_000));
      await env.app.alerts!.sweep();
      await settle(env);
    };
    await sweepAt(5); // 15 days to go
    expect(events()).toEqual([]);
    await sweepAt(6); // 14 days: due soon
    await sweepAt(6);
    await sweepAt(10);
    expect(events().map((e) => [e.event, e.remaining.days, e.dueAt])).toEqual([['maintenance.due_soon', 14, due]]);
    await sweepAt(21); // a day past the due date
    await sweepAt(21);
    await sweepAt(30);
    expect(events().map((e) => [e.event, e.status, e.remaining.days])).toEqual([
      ['maintenance.due_soon', 'due_soon', 14],
      ['maintenance.overdue', 'overdue', -1],
    ]);
    expect(events()[1].asset).toEqual({ type: 'aircraft', uid: 'acme-ac-2', name: 'VH-ACZ' });
  });

  it('a failing webhook is retried after 1, 5, 15, 30 and 60 minutes with the same webhook-id, then given up', async () => {
    const put = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ url: p.url('/fail-b') }] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const uid = await item({ name: 'Overdue gearbox inspection', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: 1000, recurring: false }, env.b.key);
    await settle(env);
    const hits = () => p.hooks.filter((h) => h.path === '/fail-b');
    expect(hits()).toHaveLength(1);
    let elapsed = 0;
    for (const minutes of ALERT_BACKOFF_MINUTES) {
      setClock(new Date(start.getTime() + (elapsed + minutes) * 60_000 - 1000)); // not yet
      env.app.dispatcher!.wake();
      await settle(env);
      expect(hits()).toHaveLength(1 + ALERT_BACKOFF_MINUTES.indexOf(minutes));
      elapsed += minutes;
      setClock(new Date(start.getTime() + elapsed * 60_000));
      env.app.dispatcher!.wake();
      await settle(env);
      expect(hits()).toHaveLength(2 + ALERT_BACKOFF_MINUTES.indexOf(minutes));
    }
    setClock(new Date(start.getTime() + (elapsed + 24 * 60) * 60_000));
    env.app.dispatcher!.wake();
    await settle(env);
    expect(hits()).toHaveLength(6);
    expect(new Set(hits().map((h) => h.headers['webhook-id'])).size).toBe(1);
    const rows: Body[] = (await env.json('GET', '/api/v1/alerts/deliveries?channel=webhook', { key: env.b.key })).body.data;
    expect(rows.map((d) => [d.attempt, d.status, d.statusCode])).toEqual([6, 5, 4, 3, 2, 1].map((n) => [n, 'failed', 500]));
    expect(rows.every((d) => JSON.parse(JSON.stringify(d.payload)).itemUid === uid)).toBe(true);
    // a re-send is a new first attempt to the same receiver with the same webhook-id
    const resend = await env.json('POST', `/api/v1/deliveries/${rows[0].uid}/resend`, { key: env.b.key });
    expect(resend.status).toBe(202);
    await settle(env);
    expect(hits()).toHaveLength(7);
    // company a sees none of b's alert deliveries
    const aRows: Body[] = (await env.json('GET', '/api/v1/alerts/deliveries?limit=500')).body.data;
    expect(aRows.some((d) => d.target.includes('/fail-b'))).toBe(false);
  });

  it('two apps on one database racing their evaluations raise each alert once', async () => {
    // on PostgreSQL a second pool of connections, as a second process has; the embedded store has one connection
    const other = await openSameDatabase(env);
    const second = createApp({ database: other.database, config: { rateLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent', ...p.config }, dispatch: true });
    try {
      const current = await hobbsOf();
      const before = p.hooks.length;
      const uid = await item({ name: 'Race check', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: current - 1, recurring: false });
      // both processes evaluate the company many times at once
      await Promise.all(Array.from({ length: 5 }, () => [env.app.alerts!.sweep(), second.alerts!.sweep()]).flat());
      for (let i = 0; i < 5; i++) {
        env.app.alerts!.touched(env.a.id);
        second.alerts!.touched(env.a.id);
      }
      await settle(env);
      await settle({ app: second });
      await settle(env);
      const mine = p.hooks.slice(before).filter((h) => JSON.parse(h.body).itemUid === uid);
      expect(mine.map((h) => JSON.parse(h.body).event)).toEqual(['maintenance.overdue']);
      const alerts = await env.database.prisma.maintenanceAlert.findMany({ where: { companyId: env.a.id, scheduleItemId: uid } });
      expect(alerts.map((a) => [a.event, a.notified]).sort()).toEqual([
        ['maintenance.due_soon', false],
        ['maintenance.overdue', true],
      ]);
    } finally {
      await second.close();
      await other.close();
    }
  });
  it('settings without recipients raise nothing: the items due are alerted once recipients are saved', async () => {
    const none = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { dueSoonHours: 10 } });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    const uid = await item({ name: 'Overdue with nobody to tell', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: 1000, recurring: false }, env.b.key);
    await settle(env);
    await env.app.alerts!.sweep();
    await settle(env);
    expect(await env.database.prisma.maintenanceAlert.count({ where: { companyId: env.b.id, scheduleItemId: uid } })).toBe(0);
    const put = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { dueSoonHours: 10, recipients: [{ url: p.url('/told-b') }] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await settle(env);
    expect(ofItem(uid).hooks().map((h) => [h.path, JSON.parse(h.body).event])).toEqual([['/told-b', 'maintenance.overdue']]);
  });

  it('a secret follows its endpoint however the URL is re-saved: the host in another case keeps it', async () => {
    const url = p.url('/secret-kept').replace('127.0.0.1', 'LOCALHOST');
    const one = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ url, secret: WHSEC }] } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const two = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ url: url.replace('LOCALHOST', 'localhost') }] } });
    expect(two.body.recipients).toEqual([{ url: url.replace('LOCALHOST', 'localhost'), hasSecret: true }]);
  });

  it('one recipient however it is written: an email or URL listed twice in another case is a 400', async () => {
    for (const recipients of [
      [{ email: 'Maint@Example.com' }, { email: 'maint@example.com' }],
      [{ url: 'http://127.0.0.1:9/x' }, { url: 'HTTP://127.0.0.1:9/x' }],
    ]) {
      const r = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients } });
      expect(r.status, JSON.stringify(recipients)).toBe(400);
      expect(r.body.errors).toEqual([{ path: '/recipients/1', message: expect.stringMatching(/is listed twice \(as recipients\/0 /) }]);
    }
  });

  it('a re-send while a retry waits takes the retry\u2019s place: each later attempt goes out once', async () => {
    const put = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ url: p.url('/fail-again') }] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const uid = await item({ name: 'Retried and re-sent', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: 1000, recurring: false }, env.b.key);
    await settle(env);
    const hits = () => p.hooks.filter((h) => h.path === '/fail-again' && JSON.parse(h.body).itemUid === uid);
    expect(hits()).toHaveLength(1);
    const rows = async (): Promise<Body[]> =>
      (await env.json('GET', '/api/v1/alerts/deliveries?channel=webhook&limit=500', { key: env.b.key })).body.data.filter((d: Body) => JSON.parse(JSON.stringify(d.payload)).itemUid === uid);
    const first = (await rows()).find((d) => d.attempt === 1)!;
    expect((await env.json('POST', `/api/v1/deliveries/${first.uid}/resend`, { key: env.b.key })).status).toBe(202);
    await settle(env);
    expect(hits()).toHaveLength(2);
    setClock(new Date(start.getTime() + 61_000));
    env.app.dispatcher!.wake();
    await settle(env);
    expect(hits()).toHaveLength(3);
    const resent = (await rows()).find((d) => d.attempt === 1 && d.resendOf === first.uid)!;
    const superseded = (await rows()).filter((d) => d.status === 'skipped');
    expect(superseded.map((d) => [d.attempt, d.resendOf, d.error])).toEqual([[2, first.uid, `not sent: superseded by the re-send ${resent.uid}`]]);
  });
  it('an alert email or SMS to a recipient the settings no longer list is not sent (a retry or a re-send), as a webhook is not', async () => {
    const put = await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ email: 'gone@globex.test' }, { phone: '+61412000777' }] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const uid = await item({ name: 'Told, then recipients changed', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: 1000, recurring: false }, env.b.key);
    await settle(env);
    const sent = (await env.json('GET', '/api/v1/alerts/deliveries?limit=500', { key: env.b.key })).body.data.filter((d: Body) => JSON.parse(JSON.stringify(d.payload)).itemUid === uid);
    expect(sent.map((d: Body) => [d.channel, d.status]).sort()).toEqual([['email', 'delivered'], ['sms', 'delivered']]);
    const mails = p.mails.length;
    const texts = p.texts.length;
    expect((await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ email: 'GONE@globex.test' }] } })).status).toBe(200);
    for (const d of sent) expect((await env.json('POST', `/api/v1/deliveries/${d.uid}/resend`, { key: env.b.key })).status).toBe(202);
    await settle(env);
    const again = (await env.json('GET', '/api/v1/alerts/deliveries?limit=500', { key: env.b.key })).body.data.filter((d: Body) => d.resendOf && sent.some((x: Body) => x.uid === d.resendOf));
    // the address is listed still, in another case: sent; the phone is not: skipped
    expect(again.map((d: Body) => [d.channel, d.status, d.error ?? null]).sort()).toEqual([
      ['email', 'delivered', null],
      ['sms', 'skipped', 'not sent: the alert settings no longer have this recipient'],
    ]);
    expect(p.mails.length).toBe(mails + 1);
    expect(p.texts.length).toBe(texts);
  });
  it('retries are not sent once the item is completed, deleted or its due point moved: they would say "overdue" of work done', async () => {
    expect((await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ url: p.url('/fail-done') }] } })).status).toBe(200);
    for (const [name, finish] of [
      ['Completed while its alert is retried', (uid: string) => env.json('POST', `/api/v1/schedule-items/${uid}/complete`, { key: env.b.key, body: {} })],
      ['Deleted while its alert is retried', (uid: string) => env.json('DELETE', `/api/v1/schedule-items/${uid}`, { key: env.b.key })],
      ['Put off while its alert is retried', (uid: string) => env.json('PATCH', `/api/v1/schedule-items/${uid}`, { key: env.b.key, body: { dueAtInterval: 999_999 } })],
    ] as const) {
      const uid = await item({ name, relatedTo: 'globex-ac-1', relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: 1000, recurring: false }, env.b.key);
      await settle(env);
      const hits = () => p.hooks.filter((h) => h.path === '/fail-done' && JSON.parse(h.body).itemUid === uid);
      expect(hits()).toHaveLength(1);
      const done = await finish(uid);
      expect(done.status, JSON.stringify(done.body)).toBeLessThan(300);
      await settle(env);
      setClock(new Date(start.getTime() + 24 * 3_600_000));
      env.app.dispatcher!.wake();
      await settle(env);
      setClock(start);
      expect(hits(), name).toHaveLength(1);
      const rows: Body[] = (await env.json('GET', '/api/v1/alerts/deliveries?limit=500', { key: env.b.key })).body.data.filter((d: Body) => JSON.parse(JSON.stringify(d.payload)).itemUid === uid);
      expect(rows.map((d) => [d.attempt, d.status, d.error]).sort()).toEqual([
        [1, 'failed', expect.any(String)],
        [2, 'skipped', 'not sent: the schedule item was completed, changed or deleted since the alert'],
      ]);
    }
  });

  it('a deleted vehicle raises no alert and its alert is not retried; restoring it alerts what is due then', async () => {
    expect((await env.json('PUT', '/api/v1/settings/alerts', { key: adminB, body: { recipients: [{ url: p.url('/fail-retired') }] } })).status).toBe(200);
    const made = await env.json('POST', '/api/v1/vehicles', { key: env.b.key, body: { make: 'Ford', model: 'Ranger', registration: 'RETIRED-1' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const vehicle = made.body.uid as string;
    const day = (n: number) => new Date(Date.parse(start.toISOString().slice(0, 10)) + n * 86_400_000).toISOString().slice(0, 10);
    const soon = await item({ name: 'Retired rego check', relatedTo: vehicle, relatedToType: 'vehicle', calendarDateDue: day(5), recurring: false }, env.b.key);
    const later = await item({ name: 'Retired service', relatedTo: vehicle, relatedToType: 'vehicle', calendarDateDue: day(30), recurring: false }, env.b.key);
    await settle(env);
    const events = (uid: string) => p.hooks.filter((h) => h.path === '/fail-retired' && JSON.parse(h.body).itemUid === uid).map((h) => JSON.parse(h.body).event);
    expect(events(soon)).toEqual(['maintenance.due_soon']);
    expect(events(later)).toEqual([]);

    // deleted: the first alert's retry is not sent, and neither item alerts while the vehicle stays deleted
    expect((await env.json('DELETE', `/api/v1/vehicles/${vehicle}`, { key: env.b.key })).status).toBe(200);
    await settle(env);
    setClock(new Date(start.getTime() + 20 * 86_400_000)); // soon is 15 days overdue, later 10 days away
    env.app.dispatcher!.wake();
    await settle(env);
    await env.app.alerts!.sweep();
    await settle(env);
    expect(events(soon)).toEqual(['maintenance.due_soon']);
    expect(events(later)).toEqual([]);
    const rows: Body[] = (await env.json('GET', '/api/v1/alerts/deliveries?limit=500', { key: env.b.key })).body.data.filter((d: Body) => d.target.endsWith('/fail-retired'));
    expect(rows.map((d) => [d.payload.itemUid, d.attempt, d.status, d.error]).sort()).toEqual([
      [soon, 1, 'failed', expect.any(String)],
      [soon, 2, 'skipped', 'not sent: the vehicle was deleted since the alert'],
    ]);

    // restored: what is due now is alerted at once
    expect((await env.json('POST', `/api/v1/vehicles/${vehicle}/restore`, { key: env.b.key })).status).toBe(200);
    await settle(env);
    expect(events(soon)).toEqual(['maintenance.due_soon', 'maintenance.overdue']);
    expect(events(later)).toEqual(['maintenance.due_soon']);
    // the attempt the deletion stopped can be re-sent now that the vehicle is back, but its item is overdue now: the
    // due-soon alert is not sent after the overdue one (docs/notifications.md, Retries)
    const skipped = rows.find((d) => d.status === 'skipped')!;
    const resent = await env.json('POST', `/api/v1/deliveries/${skipped.uid}/resend`, { key: env.b.key });
    expect(resent.status).toBe(202);
    await settle(env);
    expect(events(soon)).toEqual(['maintenance.due_soon', 'maintenance.overdue']);
    const again: Body[] = (await env.json('GET', '/api/v1/alerts/deliveries?limit=500', { key: env.b.key })).body.data;
    expect(again.find((d) => d.uid === resent.body.uid)).toMatchObject({ status: 'skipped', error: expect.stringMatching(/^not sent: the item has since become due or overdue \(alert al_/) });
  });
});
