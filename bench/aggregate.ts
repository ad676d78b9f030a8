// Aggregation benchmark (issues 11 and 27): POST /api/v1/aggregate through the service's real HTTP surface
// (node:http → REST façade → SOFA → GraphQL → AggregationService → SQL) against the floor (bench/aggregate-floor.ts:
// a bare node:http + driver handler doing the least SQL for the same answer, one hand-written GROUP BY over
// FlightLog), alternated request by request in one run, on PostgreSQL and on the embedded store.
//
// Data: three companies in the same tables, with 1,400, 100,000 and 1,000,000 flight logs spread evenly over
// 2020-01-01..2024-12-31 (UTC) on 20 aircraft each (tracking hobbs 0.1..3.0, landings, fuelUplift on every fourth
// log), written with set-based SQL (the rollup triggers run as for any write), then VACUUM ANALYZE (what autovacuum
// does soon after a load). Shapes, each asked of every company:
//   month x aircraft   sum of hobbs per aircraft and month in Australia/Sydney, whole history
//   week count         __count__ per ISO week in Australia/Sydney over 2024 (dates alone: UTC days)
//   Sydney days, cut   sum of hobbs per day in Australia/Sydney from 2023-03-20T05:30Z to 2023-04-09T18:45Z (the
//                      range starts and ends mid-day and spans the end of daylight saving)
// Before timing, both sides' JSON answers must be identical (results, totals, totalCount, params). Each shape runs
// three times; a run alternates service and floor request by request (who goes first alternates too) and keeps the
// median of each side; the figures printed are the medians of the three runs, and the ratio is floor / service
// (1.00 = as fast as the floor), the median of the three runs' ratios. SQL statements per service request are
// counted as Prisma sends them.
// With --breakdown, a second table says where each side's time goes, medians of alternated calls: the floor's
// statement through the driver alone, the service's statement through the driver alone and through Prisma, the
// service call (AggregationService.aggregate, in-process), the same through the app (app.fetch: auth, REST façade,
// SOFA, GraphQL, JSON) and both over HTTP.
// Run: npx tsx bench/aggregate.ts [--pg-sizes 1400,100000,1000000] [--lite-sizes 1400,100000] [--runs 3]
//        [--budget-ms 1500] [--skip-lite] [--skip-pg] [--shapes month,week,day] [--breakdown]
// (BENCH_DATABASE_URL: the PostgreSQL server, default the local one; a temporary database is created and dropped.)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { createServerAdapter } from '@whatwg-node/server';
import { createApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import type { Prisma } from '../src/generated/prisma/client.js';
import { COMPANY, scopedPrisma } from '../src/db/scoped.js';
import { AggregateCheck, AggregationService } from '../src/modules/aggregation/service.js';
import { aggregateFloorHandler, floorStatement } from './aggregate-floor.js';
import { withTempDatabase } from './pg.js';

if (process.argv.includes('--help')) {
  console.log('npx tsx bench/aggregate.ts [--pg-sizes 1400,100000,1000000] [--lite-sizes 1400,100000] [--runs 3] [--budget-ms 1500] [--skip-lite] [--skip-pg] [--shapes month,week,day] [--breakdown]: the aggregation against its floor, alternated (docs/benchmarks.md)');
  process.exit(0);
}

// measured as `fleetops serve` runs: in production mode (bin/fleetops.js), which graphql-js reads when it loads
if (process.env.NODE_ENV !== 'production') {
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  process.exit(r.status ?? 1);
}

const opt = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const sizes = (name: string, dflt: number[]) => opt(name)?.split(',').map(Number) ?? dflt;
const PG_SIZES = sizes('--pg-sizes', [1_400, 100_000, 1_000_000]);
const LITE_SIZES = sizes('--lite-sizes', [1_400, 100_000]);
const RUNS = Number(opt('--runs') ?? 3);
/** Time one run of one shape may take per side, roughly: sets how many requests a run alternates (3 to 40). */
const BUDGET_MS = Number(opt('--budget-ms') ?? 1500);
const AIRCRAFT = 20;
const TZ = 'Australia/Sydney';

const SHAPES: { id: string; name: string; body: Record<string, unknown> }[] = [
  {
    id: 'month',
    name: 'month x aircraft (sum of hobbs)',
    body: { collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: TZ },
  },
  {
    id: 'week',
    name: 'week count, 2024',
    body: { collection: 'flightLogs', metric: '__count__', dateField: 'timeDate', dateGroup: 'week', timezone: TZ, startDate: '2024-01-01', endDate: '2024-12-31' },
  },
  {
    id: 'day',
    name: 'Sydney days, cut range',
    body: {
      collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone: TZ,
      startDate: '2023-03-20T05:30:00Z', endDate: '2023-04-09T18:45:00Z',
    },
  },
].filter((s) => !opt('--shapes') || opt('--shapes')!.split(',').includes(s.id));

function company(id: string, key: string, prefix: string) {
  return {
    id,
    name: prefix,
    users: [{ uid: `${prefix}-pilot`, email: `p@${prefix}.test`, displayName: 'Pilot', roles: ['pilot'] }],
    aircraft: Array.from({ length: AIRCRAFT }, (_, i) => ({
      uid: `${prefix}-ac-${String(i).padStart(2, '0')}`,
      registration: `VH-${prefix.toUpperCase()}${String(i).padStart(2, '0')}`,
      type: 'B06', category: 'rotary-wing', engineType: 'turbine', engineCount: 1, status: 'active',
      maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number' } },
      logTrackingItems: { fuelUplift: { displayText: 'Fuel', type: 'number' } },
    })),
    vehicles: [],
    apiKeys: [{ name: 'bench', key }],
  };
}

/** n logs spread evenly over 2020-01-01 .. 2024-12-31 (UTC), round-robin over the aircraft, in set-based chunks. */
async function seed(database: Database, companyId: string, prefix: string, n: number) {
  const chunk = 100_000;
  for (let from = 0; from < n; from += chunk) {
    const to = Math.min(n, from + chunk) - 1;
    await database.sql.query(
      `INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
       SELECT $1, $2 || '-' || i, $2 || '-ac-' || lpad((i % ${AIRCRAFT})::text, 2, '0'), 'VH-' || upper($2) || lpad((i % ${AIRCRAFT})::text, 2, '0'),
              timestamptz '2020-01-01T00:00:00Z' + (i::float8 / $5) * interval '1827 days', $2 || '-pilot', 'YSSY', 'YSBK', 2,
              jsonb_build_object('hobbs', ((i::bigint * 7919) % 30 + 1) / 10.0, 'landings', 1 + i % 3)
                || CASE WHEN i % 4 = 0 THEN jsonb_build_object('fuelUplift', 100 + i % 50) ELSE '{}'::jsonb END,
              now()
       FROM generate_series($3::int, $4::int) i`,
      [companyId, prefix, from, to, n],
    );
  }
}

function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) });
    }),
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function run(label: string, database: Database, counter: { n: number; rollup: number }, sizes: number[]) {
  const tag = randomBytes(2).toString('hex');
  const companies = sizes.map((n, i) => ({ n, id: `bench-${tag}-${i}`, prefix: `${'smlx'[i] ?? `c${i}`}${tag}`, key: 'fo_bench_' + randomBytes(16).toString('hex') }));
  await importData(database, { companies: companies.map((c) => company(c.id, c.key, c.prefix)) });
  const t0 = performance.now();
  for (const c of companies) await seed(database, c.id, c.prefix, c.n);
  // autovacuum would vacuum and analyze both tables soon after a load this size; the benchmark does not wait for it
  await database.sql.query('VACUUM ANALYZE "FlightLog"', []);
  await database.sql.query('VACUUM ANALYZE "FlightLogDaily"', []);
  console.log(`\n${label}: seeded ${sizes.map((n) => n.toLocaleString('en')).join(' + ')} logs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
  await app.ready;
  const service = await listen(createServerAdapter((r: Request) => app.fetch(r)) as never);
  const floor = await listen(aggregateFloorHandler(database.sql));
  const ask = async (url: string, key: string, body: unknown) => {
    const r = await fetch(`${url}/api/v1/aggregate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  const timed = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };

  console.log(`medians of ${RUNS} runs (each alternating service and floor request by request), ms; ratio = floor / service`);
  console.log('| logs | shape | fleetops | floor | ratio | runs\' ratios | requests per run | statements | plan | rows |');
  console.log('|---:|---|---:|---:|---:|---|---:|---:|---|---:|');
  const summary: { logs: number; shape: string; ratio: number }[] = [];
  for (const c of companies) {
    for (const shape of SHAPES) {
      const ours = () => ask(service.url, c.key, shape.body);
      const theirs = () => ask(floor.url, c.key, shape.body);
      // warm-up, and the answers must be identical
      const [a, b] = [await ours(), await theirs()];
      if (!isDeepStrictEqual(a, b)) {
        console.error(JSON.stringify(a).slice(0, 2000), '\n', JSON.stringify(b).slice(0, 2000));
        throw new Error(`${label}, ${c.n} logs, ${shape.name}: the service and the floor disagree`);
      }
      counter.n = 0;
      counter.rollup = 0;
      const probe = await timed(ours);
      const statements = counter.n;
      const plan = counter.rollup ? 'rollup' : 'logs';
      const per = Math.max(3, Math.min(40, Math.round(BUDGET_MS / Math.max(probe, await timed(theirs)))));
      const runs: { ours: number; floor: number }[] = [];
      for (let r = 0; r < RUNS; r++) {
        const t: { ours: number[]; floor: number[] } = { ours: [], floor: [] };
        for (let i = 0; i < per; i++) {
          if ((i + r) % 2) {
            t.ours.push(await timed(ours));
            t.floor.push(await timed(theirs));
          } else {
            t.floor.push(await timed(theirs));
            t.ours.push(await timed(ours));
          }
        }
        runs.push({ ours: median(t.ours), floor: median(t.floor) });
      }
      const ratios = runs.map((r) => r.floor / r.ours);
      const ratio = median(ratios);
      summary.push({ logs: c.n, shape: shape.id, ratio });
      console.log(
        `| ${c.n.toLocaleString('en')} | ${shape.name} | ${median(runs.map((r) => r.ours)).toFixed(2)} | ${median(runs.map((r) => r.floor)).toFixed(2)} | ` +
          `**${ratio.toFixed(2)}** | ${ratios.map((x) => x.toFixed(2)).join(', ')} | ${per} | ${statements} | ${plan} | ${a.results.length} |`,
      );
    }
  }
  if (process.argv.includes('--breakdown')) await breakdown(database, app, companies, service.url, floor.url, ask);
  await service.close();
  await floor.close();
  await app.close();
  return summary;
}

/** Where the time goes: each part alone, alternated call by call, medians (see the header). */
async function breakdown(
  database: Database,
  app: ReturnType<typeof createApp>,
  companies: { n: number; id: string; key: string }[],
  serviceUrl: string,
  floorUrl: string,
  ask: (url: string, key: string, body: unknown) => Promise<any>,
) {
  console.log('\nwhere the time goes, ms (medians of alternated calls)');
  console.log('| logs | shape | floor statement (driver) | our statement (driver) | our statement (Prisma) | service call | app.fetch | fleetops HTTP | floor HTTP |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const c of companies) {
    const db = scopedPrisma(database.prisma, c.id);
    for (const shape of SHAPES) {
      // the service's statement, as it sends it
      let statement: Prisma.Sql | null = null;
      const capture = new Proxy(db, {
        get(target, prop, receiver) {
          if (prop !== '$queryRaw') return Reflect.get(target, prop, receiver);
          return (q: Prisma.Sql) => {
            if (q.sql.includes('GROUPING SETS')) statement = q;
            return target.$queryRaw(q);
          };
        },
      });
      await new AggregationService(capture).aggregate(AggregateCheck.parse(shape.body));
      const ours = statement as Prisma.Sql | null;
      if (!ours) throw new Error('no statement captured');
      const ourValues = ours.values.map((v) => (v === COMPANY ? c.id : v));
      const hand = floorStatement(c.id, shape.body);
      const sides: (() => Promise<unknown>)[] = [
        () => database.sql.query(hand.text, hand.params),
        () => database.sql.query(ours.text, ourValues),
        () => db.$queryRaw(ours),
        () => new AggregationService(db).aggregate(AggregateCheck.parse(shape.body)),
        () =>
          app.fetch(new Request('http://bench.test/api/v1/aggregate', {
            method: 'POST', headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' }, body: JSON.stringify(shape.body),
          })).then((r) => r.text()),
        () => ask(serviceUrl, c.key, shape.body),
        () => ask(floorUrl, c.key, shape.body),
      ];
      const times: number[][] = sides.map(() => []);
      const t0 = performance.now();
      for (const side of sides) await side();
      const per = Math.max(3, Math.min(60, Math.round((BUDGET_MS * 2) / Math.max(1, performance.now() - t0))));
      for (let i = 0; i < per; i++) {
        for (const [j, side] of sides.entries()) {
          const t = performance.now();
          await side();
          times[j].push(performance.now() - t);
        }
      }
      console.log(`| ${c.n.toLocaleString('en')} | ${shape.name} | ${times.map((x) => median(x).toFixed(2)).join(' | ')} |`);
    }
  }
}

async function main() {
  const counter = { n: 0, rollup: 0 };
  const onQuery = (sql: string) => {
    counter.n++;
    if (sql.includes('"FlightLogDaily"')) counter.rollup++;
  };
  if (!process.argv.includes('--skip-lite')) {
    const lite = await openDatabase({ dataDir: 'memory://', onQuery });
    await run('PGlite (embedded, in memory)', lite, counter, LITE_SIZES);
    await lite.close();
  }
  if (process.argv.includes('--skip-pg')) return;
  await withTempDatabase('fleetops_bench', async (url) => {
    const database = await openDatabase({ databaseUrl: url, onQuery });
    try {
      const [v] = await database.sql.query<{ server_version: string }>('SHOW server_version', []);
      await run(`PostgreSQL ${v.server_version}`, database, counter, PG_SIZES);
    } finally {
      await database.close();
    }
  });
}

await main();
