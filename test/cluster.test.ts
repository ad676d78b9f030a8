import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../bench/pg.js';
import { openDatabase } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import {
  fleetopsCommand,
  localPortsOf,
  sleep,
  startCluster,
  startProxy,
  startReceiver,
  until,
  type Node,
  type Proxy,
  type Receiver,
} from './cluster-harness.js';
import { companyFixture, newKey } from './helpers.js';

/**
 * Issue 25, item 3: three real `fleetops serve` processes (node bin/fleetops.js serve) on one PostgreSQL database
 * and one Redis, behind a round-robin proxy, with concurrent writers reaching every process:
 * - totals exact: every aircraft's totals equal initialValues + the sum over its live logs, and the live logs are
 *   exactly the writes the clients had acknowledged;
 * - Idempotency-Key honoured across processes: one request sent to the three at once writes once, and all three
 *   answer the same;
 * - the per-key rate limit is one budget for the cluster (Redis);
 * - a key revoked (`fleetops keys revoke`, a fourth process) is refused by all three;
 * - every form webhook and every maintenance alert (gaps §14: items on both aircraft come due while the writers run,
 *   and the three processes evaluate after each write and in their sweeps) is delivered exactly once while the
 *   three dispatchers race (a local receiver counts `webhook-id`s);
 * - then one process is SIGKILLed while writers and submissions run: no acknowledged write and no delivery is lost;
 *   a delivery the killed process had sent (or had in flight) may arrive twice, with the same `webhook-id`
 *   (docs/scaling.md); every other delivery still arrives exactly once.
 * No assertion is about time: every wait is for a condition, with a generous limit. Runs when TEST_DATABASE_URL
 * and TEST_REDIS_URL are set, on a database of its own on that server (the dispatchers claim every company's
 * deliveries, so they must not share a database with other suites).
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const RATE_LIMIT = 150; // per key per minute, for the whole cluster
const WRITERS = 6;
const WRITES_EACH = 14;
const SUBMITTERS = 3;
const SUBMISSIONS_EACH = 6;
const WAIT = 60_000; // the limit of any wait for a condition (never reached on a healthy run)

type Body = Record<string, any>;
interface Result {
  status: number;
  body: Body;
  headers: Headers;
}

const figures: Record<string, number | string> = {};

describe.skipIf(!pgUrl || !redisUrl)('three server processes on one PostgreSQL and Redis', () => {
  let temp: { url: string; drop(): Promise<void> };
  let nodes: Node[] = [];
  let proxy: Proxy;
  let receiver: Receiver;
  const company = `cluster-${randomBytes(3).toString('hex')}`;
  const ownerKey = newKey();
  const writerKeys = Array.from({ length: WRITERS + SUBMITTERS }, () => newKey());
  const idemKey = newKey();
  const rateKey = newKey();
  const revokedKey = newKey();
  const adminKey = newKey();
  let formId: string;
  /** The schedule items that come due while the writers run (maintenance alerts). */
  const alertItems = new Set<string>();
  const DUE_SOON_HOURS = 10;
  let revokedKeyId: string;

  beforeAll(async () => {
    temp = await createTempDatabase(pgUrl!, 'fleetops_cluster');
    const db = await openDatabase({ databaseUrl: temp.url });
    try {
      const fixture = companyFixture(company, ownerKey, 'acme');
      // a string item on both aircraft: each write carries a marker, to find a write whose answer was lost
      (fixture.aircraft[1] as { logTrackingItems: object }).logTrackingItems = { remarks: { displayText: 'Remarks', type: 'string' } };
      fixture.apiKeys.push(
        ...writerKeys.map((key, i) => ({ name: `writer-${i}`, key })),
        { name: 'idempotency', key: idemKey },
        { name: 'rate', key: rateKey },
        { name: 'to-revoke', key: revokedKey },
      );
      (fixture.apiKeys as { name: string; key: string; scope?: string }[]).push({ name: 'admin', key: adminKey, scope: 'admin' });
      await importData(db, { companies: [fixture] });
      revokedKeyId = (await db.sql.query<{ id: string }>(`SELECT id FROM "ApiKey" WHERE "companyId" = $1 AND name = 'to-revoke'`, [company]))[0].id;
    } finally {
      await db.close();
    }
    receiver = await startReceiver();
    nodes = await startCluster(3, {
      DATABASE_URL: temp.url,
      REDIS_URL: redisUrl!,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      AUTH_FAIL_LIMIT_PER_MINUTE: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '10000',
    });
    proxy = await startProxy(nodes.map((n) => n.url));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await proxy?.close();
    await receiver?.close();
    await temp?.drop();
    // eslint-disable-next-line no-console
    console.log(`cluster figures: ${JSON.stringify(figures)}`);
  }, 120_000);

  async function call(base: string, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<Result> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text.startsWith('{') || text.startsWith('[') ? text : JSON.stringify({ text })) : {}, headers: res.headers };
  }
  const api = (method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>) =>
    call(proxy.url, method, `/api/v1${path}`, key, body, headers);

  /**
   * A write as a careful client sends it: with an Idempotency-Key, again with the same key while the answer is not
   * definite (the connection failed, 502 from the proxy, or 409: the first attempt still runs). Returns the definite
   * answer, or `lost` when the write was done by a process that died before storing its answer (422
   * idempotency_outcome_lost: done, never run again).
   */
  async function write(method: string, path: string, key: string, body?: unknown): Promise<{ result?: Result; lost?: boolean }> {
    const idem = `w-${randomBytes(8).toString('hex')}`;
    const end = Date.now() + WAIT;
    for (;;) {
      let r: Result | undefined;
      try {
        r = await api(method, path, key, body, { 'idempotency-key': idem });
      } catch {
        /* the proxy connection itself failed: send again */
      }
      if (r && r.status === 422 && r.body.code === 'idempotency_outcome_lost') return { lost: true };
      if (r && r.status !== 502 && r.status !== 409) {
        if (r.status < 300) writesDone++;
        return { result: r };
      }
      if (Date.now() > end) throw new Error(`${method} ${path}: no definite answer within ${WAIT} ms (last ${r?.status})`);
      await sleep(50);
    }
  }

  /** Tracking values of acknowledged logs, in tenths (exact integer arithmetic). */
  interface Expected {
    aircraftId: string;
    t: Record<string, number>;
  }
  const ledger = new Map<string, Expected>();
  /** Creates done by the killed process whose answer it took with it (422 idempotency_outcome_lost): marker → values. */
  const doubtful = new Map<string, Expected>();

  function rng(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }

  function logBody(r: () => number, marker: string): { body: Body; expected: Expected } {
    const onFirst = r() < 0.7;
    const t: Record<string, number> = onFirst ? { hobbs: 1 + Math.floor(r() * 30), landings: 1 + Math.floor(r() * 3) } : { tacho: 1 + Math.floor(r() * 25) };
    const body: Body = {
      timeDate: new Date(Date.UTC(2026, 2, 1) + Math.floor(r() * 30 * 86_400_000)).toISOString(),
      pilot: 'acme-pilot',
      aircraftId: onFirst ? 'acme-ac-1' : 'acme-ac-2',
      aircraftRegistration: onFirst ? 'VH-ACM' : 'VH-ACZ',
      startLocation: 'YSSY',
      endLocation: 'YSBK',
      pax: 1,
      remarks: marker,
      ...(onFirst ? { hobbs: t.hobbs / 10, landings: t.landings } : { tacho: t.tacho / 10 }),
    };
    // landings are whole numbers: kept in tenths like the others
    if (onFirst) t.landings *= 10;
    return { body, expected: { aircraftId: body.aircraftId, t } };
  }

  /** One writer: creates, updates and deletes its own logs through the proxy; records what was acknowledged. */
  async function writer(index: number, count: number, seed: number, mix: boolean, stopWhen?: () => boolean) {
    const r = rng(seed);
    const key = writerKeys[index];
    const mine: string[] = [];
    for (let i = 0; i < count && !stopWhen?.(); i++) {
      const x = r();
      if (mix && mine.length && x < 0.15) {
        const uid = mine[Math.floor(r() * mine.length)];
        const e = ledger.get(uid)!;
        const field = e.aircraftId === 'acme-ac-1' ? 'hobbs' : 'tacho';
        const v = 1 + Math.floor(r() * 40);
        const { result } = await write('PATCH', `/flight-logs/${uid}`, key, { [field]: v / 10 });
        expect(result?.status, JSON.stringify(result?.body)).toBe(200);
        e.t[field] = v;
      } else if (mix && mine.length && x < 0.3) {
        const uid = mine.splice(Math.floor(r() * mine.length), 1)[0];
        const { result } = await write('DELETE', `/flight-logs/${uid}`, key);
        expect(result?.status, JSON.stringify(result?.body)).toBe(200);
        ledger.delete(uid);
      } else {
        const marker = `m-${randomBytes(6).toString('hex')}`;
        const { body, expected } = logBody(r, marker);
        const out = await write('POST', '/flight-logs', key, body);
        if (out.lost) {
          doubtful.set(marker, expected);
          continue;
        }
        expect(out.result!.status, JSON.stringify(out.result!.body)).toBe(201);
        ledger.set(out.result!.body.uid, expected);
        mine.push(out.result!.body.uid);
        acknowledged++;
      }
    }
  }
  let acknowledged = 0;
  let writesDone = 0;

  const completions = new Set<string>();
  async function submitter(index: number, count: number, stopWhen?: () => boolean) {
    const key = writerKeys[WRITERS + index];
    for (let i = 0; i < count && !stopWhen?.(); i++) {
      const out = await write('POST', '/form-completions', key, { formId, answers: { vehicle: 'acme-v-1', notes: `submission ${index}.${i}` } });
      if (out.lost) continue; // done: its deliveries are checked by what the database holds, below
      expect(out.result!.status, JSON.stringify(out.result!.body)).toBe(201);
      completions.add(out.result!.body.uid);
    }
  }

  async function allPages(path: string, key = ownerKey): Promise<Body[]> {
    const out: Body[] = [];
    let cursor: string | null = null;
    for (;;) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await api('GET', `${path}${sep}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      out.push(...r.body.data);
      cursor = r.body.nextCursor;
      if (!cursor) return out;
    }
  }

  const tenths = (v: unknown) => (v === undefined || v === null ? 0 : Math.round(Number(v) * 10));
  const remarksOf = (l: Body) => l.remarks ?? l.trackingItems?.remarks;

  /**
   * The live logs are exactly the acknowledged writes (plus those done by a process that died before answering), and each aircraft's totals are initialValues + the sum over its live logs, recomputed here.
   */
  async function expectTotalsExact() {
    const logs = await allPages('/flight-logs');
    expect(new Set(logs.map((l) => l.uid)).size, 'no log listed twice').toBe(logs.length);
    const byMarker = new Map<string, Body[]>();
    for (const l of logs) if (remarksOf(l)) byMarker.set(remarksOf(l), [...(byMarker.get(remarksOf(l)) ?? []), l]);
    for (const [marker, found] of byMarker) expect(found.length, `the write marked ${marker} is in the logs once`).toBe(1);
    const live = new Map(ledger);
    for (const [marker, e] of doubtful) {
      const found = byMarker.get(marker);
      expect(found, `the write marked ${marker} (done, its answer lost) is in the logs`).toBeDefined();
      live.set(found![0].uid, e);
    }
    const listed = new Set(logs.map((l) => l.uid));
    const lost = [...ledger.keys()].filter((uid) => !listed.has(uid));
    expect(lost, 'acknowledged writes missing from the logs').toEqual([]);
    expect(logs.length, 'no log that no client wrote').toBe(live.size);
    for (const l of logs) {
      const e = live.get(l.uid)!;
      expect(l.aircraftId, l.uid).toBe(e.aircraftId);
      for (const k of ['hobbs', 'landings', 'tacho']) expect(tenths(l[k] ?? l.trackingItems?.[k]), `${l.uid}.${k}`).toBe(e.t[k] ?? 0);
    }
    for (const [id, initial] of [['acme-ac-1', { hobbs: 1200.5, landings: 3000 }], ['acme-ac-2', { tacho: 0 }]] as const) {
      const ac = await api('GET', `/aircraft/${id}`, ownerKey);
      expect(ac.status).toBe(200);
      const expected: Record<string, number> = {};
      for (const [k, v] of Object.entries(initial)) {
        let t = tenths(v);
        for (const l of logs) if (l.aircraftId === id) t += tenths(l[k] ?? l.trackingItems?.[k]);
        expected[k] = t / 10;
      }
      expect(ac.body.totals, `totals of ${id} = initialValues + the sum over its live logs`).toEqual(expected);
    }
    return logs.length;
  }

  /**
   * Whether the alerts the items' final positions call for were raised: an item due soon has its due-soon alert (or
   * the overdue one, when it was overdue before a log was deleted), an overdue one its overdue alert.
   */
  async function alertsRaised(rows: Body[]): Promise<boolean> {
    const events = new Set(rows.map((r) => `${r.payload.itemUid}/${r.payload.event}`));
    const status = (await allPages('/maintenance-status')).filter((s) => alertItems.has(s.scheduleItemUid));
    for (const s of status) {
      const overdue = events.has(`${s.scheduleItemUid}/maintenance.overdue`);
      if (s.remaining <= 0 && !overdue) return false;
      if (s.remaining <= DUE_SOON_HOURS && !overdue && !events.has(`${s.scheduleItemUid}/maintenance.due_soon`)) return false;
    }
    return true;
  }

  /**
   * A due-soon alert whose item went overdue (and raised its overdue alert, delivered) before it was sent is not sent
   * (docs/notifications.md, Retries): with writers logging at full speed, and a receiver held at the kill, that
   * happens; such a delivery is recorded skipped with the reason, and counts as settled.
   */
  const superseded = (x: Body) => x.status === 'skipped' && /^not sent: the item has since become due or overdue/.test(String(x.error ?? ''));

  /** What the processes logged at warn or error level (LOG_LEVEL=warn), for a failure's message. */
  const warnings = () => JSON.stringify(nodes.map((n) => ({ [n.name]: n.output().split('\n').filter(Boolean).slice(-15) })));

  /**
   * Waits until every delivery of the form and every alert delivery is recorded delivered (and the alerts the items'
   * positions call for are raised), then checks the receiver saw each id exactly once (or, for `allowRepeat`, once
   * or twice) and no id the database does not know.
   */
  async function expectDeliveries(allowRepeat: Set<string> = new Set()) {
    const expected = (await allPages('/form-completions?formId=' + formId)).length * 2;
    const { rows, alerts } = await until(
      `${expected} deliveries and every alert recorded delivered`,
      async () => {
        const d = await allPages(`/forms/${formId}/deliveries?channel=webhook`);
        if (d.length !== expected || d.some((x) => x.status !== 'delivered')) return false;
        const a = await allPages('/alerts/deliveries');
        if (a.some((x) => x.status !== 'delivered' && !superseded(x)) || !(await alertsRaised(a))) return false;
        return { rows: d, alerts: a };
      },
      WAIT,
      200,
    );
    const perEvent = new Map<string, number>();
    for (const a of alerts) perEvent.set(`${a.payload.itemUid}/${a.payload.event}`, (perEvent.get(`${a.payload.itemUid}/${a.payload.event}`) ?? 0) + 1);
    expect([...perEvent].filter(([, n]) => n !== 1), 'one alert per item and event').toEqual([]);
    expect(alerts.every((a) => a.attempt === 1), 'no alert delivery needed a retry').toBe(true);
    const all = [...rows, ...alerts];
    const ids = new Set(all.map((d) => d.messageId));
    expect(ids.size, 'one webhook-id per delivery').toBe(all.length);
    const skipped = new Set(alerts.filter(superseded).map((a) => a.messageId));
    for (const id of ids) {
      const n = receiver.ids.get(id) ?? 0;
      if (skipped.has(id)) {
        // never sent, unless the killed process sent it before its outcome was recorded
        expect(n, `superseded due-soon alert ${id} not sent`).toBeLessThanOrEqual(allowRepeat.has(id) ? 1 : 0);
      } else if (!allowRepeat.has(id)) {
        const seen = receiver.arrivals.map((a, i) => ({ ...a, i })).filter((a) => a.id === id);
        expect(n, `webhook-id ${id} arrived exactly once (arrivals: ${JSON.stringify(seen)} of ${receiver.arrivals.length}; held: ${JSON.stringify(receiver.held.filter((h) => h.id === id))}; the processes' warnings: ${warnings()})`).toBe(1);
      } else {
        expect(n, `webhook-id ${id} arrived once or, sent again after the kill, twice`).toBeGreaterThanOrEqual(1);
        expect(n, `webhook-id ${id} arrived once or, sent again after the kill, twice`).toBeLessThanOrEqual(2);
      }
    }
    expect([...receiver.ids.keys()].filter((id) => !ids.has(id)), 'no webhook-id the database does not know').toEqual([]);
    figures.alerts = alerts.length;
    return all.length;
  }

  it('serves through the proxy from all three processes', async () => {
    const f = await api('POST', '/forms', ownerKey, {
      name: 'Pre-start check',
      code: `prestart-${randomBytes(3).toString('hex')}`,
      department: 'Ops',
      sections: [{ name: 'S', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'notes', label: 'Notes', type: 'text' }] }],
      webhooks: [{ url: `${receiver.url}/a` }, { url: `${receiver.url}/b`, secret: 'cluster-secret' }],
    });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    formId = f.body.uid;
    // maintenance alerts to the same receiver; items on both aircraft that the writers' hours bring due soon and due
    const settings = await api('PUT', '/settings/alerts', adminKey, { dueSoonHours: DUE_SOON_HOURS, recipients: [{ url: `${receiver.url}/alerts`, secret: 'cluster-alerts' }] });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    for (const [aircraftId, trackingItem, start] of [['acme-ac-1', 'hobbs', 1200.5], ['acme-ac-2', 'tacho', 0]] as const) {
      for (let k = 1; k <= 6; k++) {
        const it = await api('POST', '/schedule-items', ownerKey, { name: `${trackingItem} check ${k}`, type: 'Inspection', relatedTo: aircraftId, relatedToType: 'aircraft', recurring: false, trackingItem, dueAtInterval: start + 15 * k });
        expect(it.status, JSON.stringify(it.body)).toBe(201);
        alertItems.add(it.body.uid);
      }
    }
    for (const n of nodes) expect((await call(n.url, 'GET', '/readyz', ownerKey)).body.status).toBe('ok');
  });

  it('concurrent writers on every process: totals exact, every webhook and alert delivered exactly once', async () => {
    const before = new Map(proxy.served);
    const started = performance.now();
    const writesBefore = writesDone;
    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, i) => writer(i, WRITES_EACH, 1000 + i, true)),
      ...Array.from({ length: SUBMITTERS }, (_, i) => submitter(i, SUBMISSIONS_EACH)),
    ]);
    // a figure, not an assertion: writes (logs created, updated, deleted; forms submitted) per second across the cluster
    figures.writesPerSecond = Math.round((writesDone - writesBefore) / ((performance.now() - started) / 1000));
    for (const n of nodes) expect((proxy.served.get(n.url) ?? 0) - (before.get(n.url) ?? 0), `${n.name} served writes`).toBeGreaterThan(10);
    figures.logs = await expectTotalsExact();
    figures.deliveries = await expectDeliveries();
  }, 120_000);

  it('one Idempotency-Key sent to the three processes at once: one write, the same answer from each', async () => {
    const marker = `idem-${randomBytes(6).toString('hex')}`;
    const body = logBody(rng(7), marker).body;
    body.aircraftId = 'acme-ac-1';
    body.aircraftRegistration = 'VH-ACM';
    body.hobbs = 0.3;
    body.landings = 1;
    body.remarks = marker;
    delete body.tacho;
    const headers = { 'idempotency-key': marker };
    const send = (n: Node) => call(n.url, 'POST', '/api/v1/flight-logs', idemKey, body, headers);
    const first = await Promise.all(nodes.map(send));
    for (const r of first) expect([201, 409], JSON.stringify(r.body)).toContain(r.status);
    // those that found the first still running ask again until it is done
    const answers = await Promise.all(nodes.map((n, i) => (first[i].status === 201 ? first[i] : until(`${n.name}'s replay`, async () => {
      const r = await send(n);
      return r.status === 409 ? false : r;
    }, WAIT))));
    for (const r of answers) expect(r.status).toBe(201);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size, 'the same answer from every process').toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') !== 'true').length, 'one of them ran the write').toBe(1);
    // and once more through the proxy, to whichever process: replayed
    const again = await api('POST', '/flight-logs', idemKey, body, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(answers[0].body);
    ledger.set(answers[0].body.uid, { aircraftId: 'acme-ac-1', t: { hobbs: 3, landings: 10 } });
    const logs = (await allPages('/flight-logs')).filter((l) => remarksOf(l) === marker);
    expect(logs.length, 'written once').toBe(1);
    await expectTotalsExact();
  }, 120_000);

  it('one rate-limit budget for the three processes (Redis)', async () => {
    // RATE_LIMIT requests spread over the three (RATE_LIMIT / 3 each): all within the budget
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, RATE_LIMIT - i) }, () => api('GET', '/aircraft', rateKey)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // the budget is spent: every process refuses the next one, although each saw only a third of them
    for (const n of nodes) {
      const r = await call(n.url, 'GET', '/api/v1/aircraft', rateKey);
      expect(r.status, `${n.name}`).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // another key's budget is its own
    expect((await api('GET', '/aircraft', ownerKey)).status).toBe(200);
  }, 120_000);

  it('a key revoked with `fleetops keys revoke` is refused by every process', async () => {
    // each process has authenticated (and cached) the key
    for (const n of nodes) for (let i = 0; i < 2; i++) expect((await call(n.url, 'GET', '/api/v1/aircraft', revokedKey)).status).toBe(200);
    const id = revokedKeyId;
    const revoke = await fleetopsCommand(['keys', 'revoke', id], { DATABASE_URL: temp.url, LOG_LEVEL: 'silent' });
    expect(revoke.code, revoke.stderr).toBe(0);
    // the revocation is announced when it commits (NOTIFY); each process drops its cached copy when it hears it.
    // Counted, not timed: how many requests were still accepted after the command had returned
    let acceptedAfter = 0;
    for (const n of nodes) {
      await until(`${n.name} to refuse the revoked key`, async () => {
        const s = (await call(n.url, 'GET', '/api/v1/aircraft', revokedKey)).status;
        if (s === 200) acceptedAfter++;
        return s === 401;
      }, WAIT, 10);
    }
    figures.acceptedAfterRevoke = acceptedAfter;
    // and refused for good, on every process
    for (const n of nodes) for (let i = 0; i < 3; i++) expect((await call(n.url, 'GET', '/api/v1/aircraft', revokedKey)).status).toBe(401);
  }, 120_000);

  it('one process SIGKILLed midway: no acknowledged write lost, no delivery lost', async () => {
    const victim = nodes[1];
    const startAcks = acknowledged;
    let killed = false;
    // every webhook from now on is known by its sender: the process whose socket it came from (open while it
    // arrives). The killed process's sockets leave /proc with it, so a request it sent that is read after it died
    // has no sender found: '' is the victim's
    const tagFrom = receiver.arrivals.length;
    receiver.tag = (port) => nodes.find((n) => localPortsOf(n.proc.pid).has(port))?.name ?? '';
    // Kill once the writers are well under way (a condition, not a time), and while the victim has a webhook in
    // flight: the receiver holds its answers, submissions go to the victim (whose dispatcher its own submissions
    // wake), until a held request came from one of the victim's sockets.
    const killer = (async () => {
      await until('writes under way', () => acknowledged - startAcks >= (WRITERS * WRITES_EACH) / 3, WAIT, 5);
      receiver.hold = true;
      let tries = 0;
      await until(
        'a webhook in flight from the process to be killed',
        async () => {
          const ports = localPortsOf(victim.proc.pid);
          if (receiver.held.some((h) => ports.has(h.remotePort))) return true;
          if (tries++ % 20 === 0) {
            const r = await call(victim.url, 'POST', '/api/v1/form-completions', ownerKey, { formId, answers: { vehicle: 'acme-v-1', notes: 'to the victim' } });
            expect(r.status, JSON.stringify(r.body)).toBe(201);
          }
          return false;
        },
        WAIT,
        25,
      );
      await victim.kill();
      killed = true;
      // its held requests lost their sender; the others are answered, and nothing is held from here on
      await until('the killed sender\'s connections to close', () => receiver.held.some((h) => h.gone), WAIT, 10);
      figures.inFlightAtKill = receiver.held.filter((h) => h.gone).length;
      receiver.release();
    })();
    await Promise.all([
      killer,
      ...Array.from({ length: WRITERS }, (_, i) => writer(i, WRITES_EACH, 2000 + i, false)),
      ...Array.from({ length: SUBMITTERS }, (_, i) => submitter(i, SUBMISSIONS_EACH)),
    ]);
    expect(killed).toBe(true);
    expect(proxy.down.has(victim.url), 'the proxy took the dead process out of rotation').toBe(true);
    figures.answerLostAtKill = doubtful.size;
    figures.logsAfterKill = await expectTotalsExact();
    // every delivery the database holds is delivered. The killed process's deliveries (those it sent, or had in
    // flight, before it died) may arrive twice, with the same webhook-id: it may have sent one and died before its
    // outcome was recorded, so the survivors send it again. Every other delivery arrives exactly once.
    const inFlight = new Set(receiver.held.filter((h) => h.gone).map((h) => h.id));
    const sentByVictim = new Set(receiver.arrivals.slice(tagFrom).filter((a) => a.tag === victim.name || a.tag === '').map((a) => a.id));
    receiver.tag = undefined;
    figures.repeatsAttributedToVictim = new Set([...inFlight, ...sentByVictim]).size;
    figures.deliveriesAfterKill = await expectDeliveries(new Set([...inFlight, ...sentByVictim]));
    // each delivery held in flight at the kill was sent again (by a survivor), with the same webhook-id
    for (const id of inFlight) expect(receiver.ids.get(id), `webhook-id ${id}, in flight at the kill, sent again`).toBe(2);
    figures.redeliveredInFlightAtKill = [...receiver.ids.values()].filter((n) => n > 1).length;
    // asserted above; printed for the record
    figures.lostWrites = 0;
    figures.lostDeliveries = 0;
    figures.duplicatedDeliveries = [...receiver.ids].filter(([id, n]) => n > 1 && !inFlight.has(id) && !sentByVictim.has(id)).length;
    // the survivors still serve
    for (const n of nodes.filter((x) => x !== victim)) expect((await call(n.url, 'GET', '/readyz', ownerKey)).status).toBe(200);
  }, 120_000);

});
