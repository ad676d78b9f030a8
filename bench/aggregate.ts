// Aggregation benchmark (issue 11): flight logs over 5 years on 20 aircraft of one company, plus a fifth as many in
// another company as noise. Three queries, each timed through the service (POST /api/v1/aggregate, in-process
// app.fetch: auth, REST façade, GraphQL, validation, the generated SQL, shaping) and, in the same run against the
// same tables, as the best hand-written SQL through the same driver. The answers of both sides are compared.
// PGlite in memory (default 100,000 logs) and PostgreSQL (BENCH_DATABASE_URL, default the local server; default
// 1,000,000 logs; a temporary database is created and dropped).
// Run: npx tsx bench/aggregate.ts [--pg-logs N] [--lite-logs N] [--runs N] [--skip-lite] [--skip-pg]
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import { scopedPrisma } from '../src/db/scoped.js';
import { AggregationService } from '../src/modules/aggregation/service.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const PG_LOGS = arg('--pg-logs', 1_000_000);
const LITE_LOGS = arg('--lite-logs', 100_000);
const RUNS = arg('--runs', 5);
const AIRCRAFT = 20;
const TZ = 'Australia/Sydney';

function company(id: string, key: string, prefix: string) {
  return {
    id,
    name: prefix,
    users: [{ uid: `${prefix}-pilot`, email: `p@${prefix}.test`, displayName: 'Pilot', roles: ['pilot'] }],
    aircraft: Array.from({ length: AIRCRAFT }, (_, i) => ({
      uid: `${prefix}-ac-${String(i).padStart(2, '0')}`,
      registration: `VH-${prefix.slice(0, 1).toUpperCase()}${String(i).padStart(2, '0')}`,
      type: 'B06', category: 'rotary-wing', engineType: 'turbine', engineCount: 1, status: 'active',
      maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number' } },
      logTrackingItems: { fuelUplift: { displayText: 'Fuel', type: 'number' } },
    })),
    vehicles: [],
    apiKeys: [{ name: 'bench', key }],
  };
}

/** n logs spread evenly over 2020-01-01 .. 2024-12-31 (UTC), round-robin over the aircraft, hobbs 0.1..3.0. */
async function seed(database: Database, companyId: string, prefix: string, n: number) {
  const chunk = 100_000;
  for (let from = 0; from < n; from += chunk) {
    const to = Math.min(n, from + chunk) - 1;
    await database.sql.query(
      `INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
       SELECT $1, $2 || '-' || i, $2 || '-ac-' || lpad((i % ${AIRCRAFT})::text, 2, '0'), 'VH-' || upper(left($2, 1)) || lpad((i % ${AIRCRAFT})::text, 2, '0'),
              timestamptz '2020-01-01T00:00:00Z' + (i::float8 / $5) * interval '1827 days', $2 || '-pilot', 'YSSY', 'YSBK', 2,
              jsonb_build_object('hobbs', ((i::bigint * 7919) % 30 + 1) / 10.0, 'landings', 1 + i % 3)
                || CASE WHEN i % 4 = 0 THEN jsonb_build_object('fuelUplift', 100 + i % 50) ELSE '{}'::jsonb END,
              now()
       FROM generate_series($3::int, $4::int) i`,
      [companyId, prefix, from, to, n],
    );
  }
  // autovacuum would vacuum and analyze both tables soon after a load this size; the benchmark does not wait for it
  await database.sql.query('VACUUM ANALYZE "FlightLog"', []);
  await database.sql.query('VACUUM ANALYZE "FlightLogDaily"', []);
}

interface Query {
  name: string;
  body: Record<string, unknown>;
  sql: string;
  params: (companyId: string) => unknown[];
  /** The service's answer and the hand-written rows as comparable `group|period -> value` maps. */
  fromService: (body: any) => Map<string, number>;
  fromSql: (rows: any[]) => Map<string, number>;
}

const rowsMap = (rows: { group: string; period: string | null; value: number | null }[]) =>
  new Map(rows.map((r) => [`${r.group}|${r.period}`, r.value ?? 0]));

const QUERIES: Query[] = [
  {
    name: `month x aircraft sum of hobbs, ${TZ}, 5 years`,
    body: { collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: TZ },
    sql: `SELECT "aircraftId" AS g, to_char(date_trunc('month', "timeDate" AT TIME ZONE '${TZ}'), 'YYYY-MM') AS p, sum((tracking->>'hobbs')::numeric)::text AS v
          FROM "FlightLog" WHERE "companyId" = $1 GROUP BY 1, 2`,
    params: (c) => [c],
    fromService: (b) => rowsMap(b.results),
    fromSql: (rows) => new Map(rows.map((r) => [`${r.g}|${r.p}`, Number(r.v)])),
  },
  {
    name: `quarter count of one aircraft's logs, ${TZ}`,
    body: { collection: 'flightLogs', metric: '__count__', dateField: 'timeDate', dateGroup: 'quarter', timezone: TZ, filters: { aircraftId: 'a-ac-07' } },
    sql: `SELECT to_char(date_trunc('quarter', "timeDate" AT TIME ZONE '${TZ}'), 'YYYY-"Q"Q') AS p, count(*) AS v
          FROM "FlightLog" WHERE "companyId" = $1 AND "aircraftId" = $2 GROUP BY 1`,
    params: (c) => [c, 'a-ac-07'],
    fromService: (b) => rowsMap(b.results),
    fromSql: (rows) => new Map(rows.map((r) => [`all|${r.p}`, Number(r.v)])),
  },
  {
    name: `day buckets over one month (March 2023), sum of hobbs, ${TZ}`,
    body: {
      collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone: TZ,
      startDate: '2023-02-28T13:00:00Z', endDate: '2023-03-31T12:59:59.999Z',
    },
    sql: `SELECT to_char(date_trunc('day', "timeDate" AT TIME ZONE '${TZ}'), 'YYYY-MM-DD') AS p, sum((tracking->>'hobbs')::numeric)::text AS v
          FROM "FlightLog" WHERE "companyId" = $1 AND "timeDate" >= $2 AND "timeDate" <= $3 GROUP BY 1`,
    params: (c) => [c, '2023-02-28T13:00:00Z', '2023-03-31T12:59:59.999Z'],
    fromService: (b) => rowsMap(b.results),
    fromSql: (rows) => new Map(rows.map((r) => [`all|${r.p}`, Number(r.v)])),
  },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function run(label: string, database: Database, logs: number) {
  const s = randomBytes(3).toString('hex');
  const a = { id: `bench-a-${s}`, key: 'fo_bench_' + randomBytes(16).toString('hex') };
  const b = { id: `bench-b-${s}`, key: 'fo_bench_' + randomBytes(16).toString('hex') };
  await importData(database, { companies: [company(a.id, a.key, 'a'), company(b.id, b.key, 'b')] });
  const t0 = performance.now();
  await seed(database, a.id, 'a', logs);
  await seed(database, b.id, 'b', Math.round(logs / 5));
  console.log(`\n${label}: seeded ${logs} + ${Math.round(logs / 5)} logs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const app = createApp({ database, config: { rateLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' } });
  const service = async (q: Query) => {
    const r = await app.fetch(
      new Request('http://bench.test/api/v1/aggregate', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(q.body),
      }),
    );
    const body = await r.json();
    if (r.status !== 200) throw new Error(`${q.name}: ${r.status} ${JSON.stringify(body)}`);
    return body;
  };
  const hand = (q: Query) => database.sql.query<any>(q.sql, q.params(a.id));
  const db = scopedPrisma(database.prisma, a.id);
  const call = (q: Query) => new AggregationService(db).aggregate(q.body);
  const callRaw = (q: Query) => new AggregationService(db, { rollup: false }).aggregate(q.body);

  console.log(`median of ${RUNS} runs, ms; ratios against the hand-written SQL`);
  console.log('| query | fleetops HTTP | service call | service, raw-table plan | hand-written SQL | HTTP ratio | service ratio | groups |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const q of QUERIES) {
    // warm-up, and every side must agree with the hand-written SQL
    const want = q.fromSql(await hand(q));
    for (const got of [q.fromService(await service(q)), q.fromService(await call(q)), q.fromService(await callRaw(q))]) {
      const same = got.size === want.size && [...want].every(([k, v]) => Math.abs((got.get(k) ?? NaN) - v) < 1e-9);
      if (!same) throw new Error(`${q.name}: the service and the hand-written SQL disagree`);
    }
    const sides = [() => service(q), () => call(q), () => callRaw(q), () => hand(q)];
    const times: number[][] = sides.map(() => []);
    for (let i = 0; i < RUNS; i++) {
      // round-robin over the sides so caches and background load favour none
      for (const [j, side] of sides.entries()) {
        const t = performance.now();
        await side();
        times[j].push(performance.now() - t);
      }
    }
    const [mHttp, mCall, mRaw, mHand] = times.map(median);
    console.log(
      `| ${q.name} | ${mHttp.toFixed(1)} | ${mCall.toFixed(1)} | ${mRaw.toFixed(1)} | ${mHand.toFixed(1)} | ${(mHttp / mHand).toFixed(2)}x | ${(mCall / mHand).toFixed(2)}x | ${want.size} |`,
    );
  }
  await app.close();
}

async function main() {
  if (!process.argv.includes('--skip-lite')) {
    const lite = await openDatabase({ dataDir: 'memory://' });
    await run('PGlite (embedded, in memory)', lite, LITE_LOGS);
    await lite.close();
  }
  if (process.argv.includes('--skip-pg')) return;
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `fleetops_bench_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client(adminUrl);
  try {
    await admin.connect();
  } catch (e) {
    console.log(`\nPostgreSQL: skipped (${(e as Error).message})`);
    return;
  }
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    const v = await database.sql.query<{ server_version: string }>('SHOW server_version', []);
    await run(`PostgreSQL ${v[0].server_version}`, database, PG_LOGS);
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
}

await main();
