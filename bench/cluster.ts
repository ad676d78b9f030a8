// Three `fleetops serve` processes on one PostgreSQL and Redis behind a round-robin proxy, against one process as
// the baseline, side by side (issue 25, item 3; test/cluster.test.ts proves the same set-up correct). The same load
// for both: C concurrent clients for S seconds, each request one of: create a flight log (with an Idempotency-Key),
// list 50 logs, read an aircraft (its totals), submit a form whose webhook goes to a local receiver; maintenance
// items on every aircraft come due as the hours add up, alerted to the same receiver. Prints requests/s, p50/p99
// latency, errors, writes per second, and after the run: totals recomputed from the logs, webhooks and alerts
// delivered, lost and duplicated.
// Run: npx tsx bench/cluster.ts [--seconds 15] [--connections 24] [--processes 3]
//      (BENCH_DATABASE_URL: a PostgreSQL server, default the local one; BENCH_REDIS_URL: default redis://127.0.0.1:6379)
// On a 2-core machine three processes share two cores with PostgreSQL, Redis, the proxy and this load generator:
// read the figures as "what the cluster costs and keeps", not as how it scales on real hardware.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import { percentile, startCluster, startProxy, startReceiver, until, type Node, type Proxy, type Receiver } from '../test/cluster-harness.js';
import { withTempDatabase } from './pg.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('--seconds', 15);
const CONNECTIONS = arg('--connections', 24);
const PROCESSES = arg('--processes', 3);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const AIRCRAFT = 5;

interface Figures {
  label: string;
  requests: number;
  rps: number;
  writesPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  totalsExact: boolean;
  webhooks: number;
  lost: number;
  duplicated: number;
  alerts: number;
  alertsLost: number;
  alertsSuperseded: number;
  alertsDuplicated: number;
}

/** Every page of a list route. */
async function allPages<T>(base: string, path: string, headers: Record<string, string>): Promise<T[]> {
  let all: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await (await fetch(`${base}${path}${sep}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers })).json();
    all = all.concat(r.data);
    cursor = r.nextCursor ?? null;
  } while (cursor);
  return all;
}

async function setUp(url: string, key: string, admin: string) {
  const db = await openDatabase({ databaseUrl: url });
  try {
    await importData(db, {
      companies: [
        {
          id: 'bench',
          name: 'Bench Aviation',
          users: [{ uid: 'owner', email: 'o@bench.test', displayName: 'Owner', status: 'Active', roles: ['owner', 'admin'] }],
          aircraft: Array.from({ length: AIRCRAFT }, (_, i) => ({
            uid: `ac-${i}`,
            registration: `VH-B${'ABCDEFGH'[i]}`,
            type: 'B06',
            category: 'rotary-wing',
            engineType: 'turbine',
            engineCount: 1,
            status: 'active',
            maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number', precision: 0 } },
            logTrackingItems: {},
            initialValues: { hobbs: 100, landings: 10 },
          })),
          vehicles: [{ uid: 'v-1', make: 'Toyota', model: 'Hilux', registration: 'BEN123', tracking: { kilometers: true, miles: false, hours: false } }],
          apiKeys: [{ name: 'bench', key }, { name: 'admin', key: admin, scope: 'admin' }],
        },
      ],
    } as never);
  } finally {
    await db.close();
  }
}

async function run(label: string, count: number, url: string, receiver: Receiver): Promise<Figures> {
  const key = 'fo_bench_' + randomBytes(16).toString('hex');
  const admin = 'fo_bench_' + randomBytes(16).toString('hex');
  await setUp(url, key, admin);
  const env = {
    DATABASE_URL: url,
    REDIS_URL,
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAIL_LIMIT_PER_MINUTE: '0',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'error',
  };
  const nodes: Node[] = await startCluster(count, env);
  // the baseline goes through the same proxy (one upstream), so the proxy's hop is in both columns
  const proxy: Proxy = await startProxy(nodes.map((n) => n.url));
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const form = await (
      await fetch(`${proxy.url}/api/v1/forms`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'Bench check',
          department: 'Ops',
          code: `bench-${randomBytes(3).toString('hex')}`,
          sections: [{ name: 'S', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }] }],
          webhooks: [{ url: `${receiver.url}/${label}` }],
        }),
      })
    ).json();
    if (!form.uid) throw new Error(`creating the form failed: ${JSON.stringify(form)}`);
    // maintenance alerts: every 20 hours of each aircraft an item comes due (soon at 10 hours before)
    const put = await fetch(`${proxy.url}/api/v1/settings/alerts`, {
      method: 'PUT',
      headers: { ...headers, authorization: `Bearer ${admin}` },
      body: JSON.stringify({ dueSoonHours: 10, recipients: [{ url: `${receiver.url}/alerts-${label}` }] }),
    });
    if (put.status !== 200) throw new Error(`saving the alert settings failed: ${await put.text()}`);
    for (let a = 0; a < AIRCRAFT; a++) {
      for (let k = 1; k <= 20; k++) {
        const item = await fetch(`${proxy.url}/api/v1/schedule-items`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `Check ${k}`, type: 'Inspection', relatedTo: `ac-${a}`, relatedToType: 'aircraft', recurring: false, trackingItem: 'hobbs', dueAtInterval: 100 + 20 * k }),
        });
        if (item.status !== 201) throw new Error(`creating a schedule item failed: ${await item.text()}`);
      }
    }
    const latencies: number[] = [];
    let errors = 0;
    let writes = 0;
    let n = 0;
    const perAircraft = new Array<number>(AIRCRAFT).fill(0);
    const completions: string[] = [];
    const end = Date.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, c) => {
        for (let i = 0; Date.now() < end; i++) {
          const kind = (c + i) % 4;
          const t0 = performance.now();
          let acIndex = 0;
          let res: Response;
          try {
            if (kind === 0) {
              const k = n++;
              acIndex = k % AIRCRAFT;
              res = await fetch(`${proxy.url}/api/v1/flight-logs`, {
                method: 'POST',
                headers: { ...headers, 'idempotency-key': `b-${label}-${k}` },
                body: JSON.stringify({
                  timeDate: new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString(),
                  pilot: 'owner',
                  aircraftId: `ac-${k % AIRCRAFT}`,
                  aircraftRegistration: `VH-B${'ABCDEFGH'[k % AIRCRAFT]}`,
                  startLocation: 'YSSY',
                  endLocation: 'YSBK',
                  pax: 1,
                  hobbs: 1.3,
                  landings: 1,
                }),
              });
            } else if (kind === 1) res = await fetch(`${proxy.url}/api/v1/flight-logs?limit=50`, { headers });
            else if (kind === 2) res = await fetch(`${proxy.url}/api/v1/aircraft/ac-${i % AIRCRAFT}`, { headers });
            else {
              res = await fetch(`${proxy.url}/api/v1/form-completions`, {
                method: 'POST',
                headers: { ...headers, 'idempotency-key': `f-${label}-${c}-${i}` },
                body: JSON.stringify({ formId: form.uid, answers: { vehicle: 'v-1' } }),
              });
            }
            const body = await res.text();
            latencies.push(performance.now() - t0);
            if (res.status >= 400) errors++;
            else if (kind === 0) {
              writes++;
              perAircraft[acIndex]++;
            }
            else if (kind === 3) completions.push(JSON.parse(body).uid);
          } catch {
            errors++;
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    // after the run: every delivery arrived once, and the totals are the logs' sum
    const ids = await until(
      'every webhook delivered',
      async () => {
        const r = await (await fetch(`${proxy.url}/api/v1/forms/${form.uid}/deliveries?limit=500`, { headers })).json();
        let all = r.data as { messageId: string; status: string }[];
        let cursor = r.nextCursor;
        while (cursor) {
          const p = await (await fetch(`${proxy.url}/api/v1/forms/${form.uid}/deliveries?limit=500&cursor=${encodeURIComponent(cursor)}`, { headers })).json();
          all = all.concat(p.data);
          cursor = p.nextCursor;
        }
        return all.length === completions.length && all.every((d) => d.status !== 'pending') ? all.map((d) => d.messageId) : false;
      },
      120_000,
      250,
    );
    const lost = ids.filter((id) => !receiver.ids.has(id)).length;
    const duplicated = ids.filter((id) => (receiver.ids.get(id) ?? 0) > 1).length;
    let totalsExact = true;
    for (let a = 0; a < AIRCRAFT; a++) {
      const ac = await (await fetch(`${proxy.url}/api/v1/aircraft/ac-${a}`, { headers })).json();
      const logs = perAircraft[a];
      if (ac.totals.landings !== 10 + logs || Math.round(ac.totals.hobbs * 10) !== 1000 + 13 * logs) totalsExact = false;
    }
    // the alerts: settled once the sweeps and evaluations are done and nothing is pending
    const alertRows = await until(
      'every alert delivered',
      async () => {
        const all = await allPages<{ messageId: string; status: string; error?: string }>(proxy.url, '/api/v1/alerts/deliveries', headers);
        return all.length > 0 && all.every((d) => d.status !== 'pending') ? all : false;
      },
      120_000,
      500,
    );
    // a due-soon alert whose item went overdue before it was sent is not sent (docs/notifications.md): not lost
    const superseded = alertRows.filter((d) => d.status === 'skipped' && /^not sent: the item has since become due or overdue/.test(d.error ?? ''));
    const alertIds = alertRows.filter((d) => !superseded.includes(d)).map((d) => d.messageId);
    return {
      label,
      requests: latencies.length,
      rps: latencies.length / seconds,
      writesPerSecond: (writes + completions.length) / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
      totalsExact,
      webhooks: ids.length,
      lost,
      duplicated,
      alerts: alertIds.length,
      alertsLost: alertIds.filter((id) => !receiver.ids.has(id)).length,
      alertsSuperseded: superseded.length,
      alertsDuplicated: alertIds.filter((id) => (receiver.ids.get(id) ?? 0) > 1).length,
    };
  } finally {
    await proxy.close();
    await Promise.all(nodes.map((n) => n.stop()));
  }
}

const receiver = await startReceiver();
const results: Figures[] = [];
try {
  for (const [label, count] of [
    ['1 process', 1],
    [`${PROCESSES} processes`, PROCESSES],
  ] as const) {
    const r = await withTempDatabase('fleetops_cluster', (url) => run(label.replace(' ', '-'), count, url, receiver));
    if (!r) process.exit(0);
    results.push({ ...r, label });
  }
} finally {
  await receiver.close();
}

const row = (name: string, f: (r: Figures) => string) => `${name.padEnd(24)}${results.map((r) => f(r).padStart(16)).join('')}`;
console.log(`\n${SECONDS} s, ${CONNECTIONS} concurrent clients through a round-robin proxy, PostgreSQL + Redis\n`);
console.log(row('', (r) => r.label));
console.log(row('requests/s', (r) => r.rps.toFixed(0)));
console.log(row('writes/s', (r) => r.writesPerSecond.toFixed(0)));
console.log(row('p50 ms', (r) => r.p50.toFixed(1)));
console.log(row('p99 ms', (r) => r.p99.toFixed(1)));
console.log(row('requests', (r) => String(r.requests)));
console.log(row('errors', (r) => String(r.errors)));
console.log(row('totals exact', (r) => (r.totalsExact ? 'yes' : 'NO')));
console.log(row('webhooks delivered', (r) => String(r.webhooks - r.lost)));
console.log(row('webhooks lost', (r) => String(r.lost)));
console.log(row('webhooks duplicated', (r) => String(r.duplicated)));
console.log(row('alerts delivered', (r) => String(r.alerts - r.alertsLost)));
console.log(row('alerts lost', (r) => String(r.alertsLost)));
console.log(row('alerts superseded (due soon, overdue before sent)', (r) => String(r.alertsSuperseded)));
console.log(row('alerts duplicated', (r) => String(r.alertsDuplicated)));
console.log(`\nratio ${results[1].label} / ${results[0].label}: requests/s ×${(results[1].rps / results[0].rps).toFixed(2)}, p99 ×${(results[1].p99 / results[0].p99).toFixed(2)}`);
