// Aggregation benchmark (issue: aggregation in the database). Seeds N flight logs over 5 years on 20 aircraft of one
// company plus N/5 in another company as noise, then times three queries through the service (in-process HTTP:
// REST façade → SOFA → GraphQL → AggregationService → one SQL statement) and, side by side in the same run on the
// same tables, the best hand-written SQL for the same answer (plain GROUP BY; group totals added up exactly from
// its rows). PostgreSQL (temporary database on BENCH_DATABASE_URL, default the local server): 1,000,000 logs;
// PGlite in memory: 100,000. Run: npx tsx bench/aggregate.ts [--pg-logs N] [--lite-logs N] [--runs N]
import { createApp } from '../src/app.js';
import { openDatabase, type Database, type RawSql } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import { withTempDatabase } from './pg.js';
import { exactAddString } from '../src/lib/decimal.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const PG_LOGS = arg('--pg-logs', 1_000_000);
const LITE_LOGS = arg('--lite-logs', 100_000);
const RUNS = arg('--runs', 5);
const KEY = 'fo_bench_' + 'a'.repeat(32);

async function seed(database: Database, logs: number) {
  const sql = database.sql;
  const aircraft = (prefix: string) =>
    Array.from({ length: 20 }, (_, i) => ({
      uid: `${prefix}-ac-${String(i).padStart(2, '0')}`,
      registration: `VH-${prefix.slice(0, 1).toUpperCase()}${String.fromCharCode(65 + i)}${String.fromCharCode(65 + ((i * 7) % 26))}`,
      type: 'B06',
      category: 'rotary-wing',
      engineType: 'turbine',
      engineCount: 1,
      maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number' } },
    }));
  await importData(database, {
    companies: [
      { id: 'bench', name: 'Bench', users: [{ uid: 'p0', email: 'p0@b.test', displayName: 'P0', roles: ['pilot'] }], aircraft: aircraft('bench'), apiKeys: [{ name: 'bench', key: KEY }] },
      { id: 'noise', name: 'Noise', aircraft: aircraft('noise') },
    ],
  });
  // 5 years from 2021-01-01 spread evenly; hobbs 0.1..3.0 with one decimal, exact; pilots p0..p9
  const insert = async (company: string, n: number) => {
    const chunk = 100_000;
    for (let from = 0; from < n; from += chunk) {
      const to = Math.min(n, from + chunk);
      await sql.exec(`
        INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", tracking, "updatedAt")
        SELECT '${company}', '${company}-fl-' || g, a.uid, a.registration,
               timestamptz '2021-01-01 00:00:00+00' + (g * (interval '1826 days' / ${n})),
               'p' || (g % 10), 'YSSY', 'YSBK',
               jsonb_build_object('hobbs', ((g % 30) + 1) / 10.0, 'landings', (g % 3) + 1),
               now()
        FROM generate_series(${from}, ${to - 1}) g
        JOIN "Aircraft" a ON a."companyId" = '${company}' AND a.uid = '${company}-ac-' || lpad((g % 20)::text, 2, '0')`);
    }
  };
  await insert('bench', logs);
  await insert('noise', Math.round(logs / 5));
  await sql.exec('ANALYZE "FlightLog"');
}

interface Case {
  name: string;
  body: Record<string, unknown>;
  /** The hand-written SQL ($1 = company) and how its rows become the same totals. */
  sql: string;
}

const CASES: Case[] = [
  {
    name: 'month x aircraft sum of hobbs, Australia/Sydney, 5 years',
    body: { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney' },
    sql: `SELECT "aircraftId" AS g, to_char("timeDate" AT TIME ZONE 'Australia/Sydney', 'YYYY-MM') AS p, sum((tracking->>'hobbs')::numeric)::text AS v, count(*)::int AS n
          FROM "FlightLog" WHERE "companyId" = $1 GROUP BY 1, 2`,
  },
  {
    name: 'quarter count of one pilot\u2019s logs (filtered)',
    body: { collection: 'flightLogs', metric: '__count__', dateField: 'timeDate', dateGroup: 'quarter', filters: { pilot: 'p3' } },
    sql: `SELECT 'all' AS g, to_char("timeDate" AT TIME ZONE 'UTC', 'YYYY-"Q"Q') AS p, count(*)::text AS v, count(*)::int AS n
          FROM "FlightLog" WHERE "companyId" = $1 AND pilot = 'p3' GROUP BY 2`,
  },
  {
    name: 'day buckets of hobbs over one month, Australia/Sydney',
    body: { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone: 'Australia/Sydney', startDate: '2024-03-01', endDate: '2024-03-31' },
    sql: `SELECT 'all' AS g, to_char("timeDate" AT TIME ZONE 'Australia/Sydney', 'YYYY-MM-DD') AS p, sum((tracking->>'hobbs')::numeric)::text AS v, count(*)::int AS n
          FROM "FlightLog" WHERE "companyId" = $1
            AND "timeDate" >= timestamptz '2024-03-01 00:00:00+11' AND "timeDate" < timestamptz '2024-04-01 00:00:00+11' GROUP BY 2`,
  },
];

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<{ best: number; median: number; last: unknown }> {
  const times: number[] = [];
  let last: unknown;
  last = await fn(); // warm-up
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    last = await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(times.length / 2)], last };
}

async function run(label: string, database: Database, logs: number) {
  const t0 = performance.now();
  await seed(database, logs);
  console.log(`\n${label}: ${logs.toLocaleString('en')} logs (+${Math.round(logs / 5).toLocaleString('en')} noise) seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${RUNS} runs each, median (best) ms`);
  const app = createApp({ database, config: { rateLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' } });
  const sql: RawSql = database.sql;
  console.log('| query | fleetops | hand-written SQL | ratio |');
  console.log('|---|---:|---:|---:|');
  for (const c of CASES) {
    const service = await timeIt(RUNS, async () => {
      const r = await app.fetch(
        new Request('http://bench/api/v1/aggregate', { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(c.body) }),
      );
      if (r.status !== 200) throw new Error(`${c.name}: ${r.status} ${await r.text()}`);
      return r.json();
    });
    const hand = await timeIt(RUNS, async () => {
      const rows = await sql.query<{ g: string; p: string; v: string; n: number }>(c.sql, ['bench']);
      const totals: Record<string, string> = {};
      let count = 0;
      for (const r of rows) {
        totals[r.g] = totals[r.g] === undefined ? r.v : exactAddString(totals[r.g], r.v);
        count += r.n;
      }
      return { rows: rows.length, totals, count };
    });
    // same answer: row count, total count and group totals
    const s = service.last as { results: unknown[]; totals: Record<string, number>; totalCount: number };
    const h = hand.last as { rows: number; totals: Record<string, string>; count: number };
    const same = s.results.length === h.rows && s.totalCount === h.count && Object.entries(h.totals).every(([g, v]) => s.totals[g] === Number(v));
    if (!same) throw new Error(`${c.name}: the service and the hand-written SQL disagree`);
    console.log(`| ${c.name} | ${service.median.toFixed(1)} (${service.best.toFixed(1)}) | ${hand.median.toFixed(1)} (${hand.best.toFixed(1)}) | ${(service.median / hand.median).toFixed(2)}x |`);
  }
  await app.close();
}

async function main() {
  if (LITE_LOGS > 0) {
    const lite = await openDatabase({ dataDir: 'memory://' });
    await run('PGlite (embedded, in memory)', lite, LITE_LOGS);
    await lite.close();
  }
  if (PG_LOGS <= 0) return;
  await withTempDatabase('fleetops_bench', async (url) => {
    const database = await openDatabase({ databaseUrl: url });
    try {
      await run('PostgreSQL', database, PG_LOGS);
    } finally {
      await database.close();
    }
  });
}
await main();
