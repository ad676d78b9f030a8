// Flight-log benchmark: list 100, GET one aircraft, create 1, batch-create 50, batch-delete 50 and a GraphQL page of 100 logs with
// aircraft and pilot, through the service's real HTTP surface (node:http → REST façade → SOFA → GraphQL → service
// → Prisma), side by side in the same run with the floor (bench/floor.ts: bare node:http + the driver, the least
// SQL for the same answer). Prints each ratio as floor time / service time (1.00 = as fast as the floor), the SQL
// statements of the GraphQL page, and the time from `fleetops serve` to a ready /readyz on a new and on an
// existing data directory. PGlite in memory and PostgreSQL (a temporary database on BENCH_DATABASE_URL).
// Each operation's requests alternate between the two sides, request by request (ms per request are means).
// Run: npx tsx bench/flight-logs.ts [--iterations N] [--runs R] (R > 1 adds each store's median ratios of the R runs)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServerAdapter } from '@whatwg-node/server';
import { openDatabase, type Database } from '../src/db/database.js';
import { benchApp, listen, logItems } from './fixture.js';
import { floorHandler } from './floor.js';
import { withTempDatabase } from './pg.js';

if (process.argv.includes('--help')) {
  console.log('npx tsx bench/flight-logs.ts [--iterations N] [--runs R]: the service against its floor, alternated (docs/benchmarks.md)');
  process.exit(0);
}

// measured as `fleetops serve` runs: in production mode (bin/fleetops.js), which graphql-js reads when it loads
if (process.env.NODE_ENV !== 'production') {
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  process.exit(r.status ?? 1);
}

const ITER = Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 100;
const BATCHES = Math.max(5, Math.round(ITER / 10));
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;

/**
 * Both sides' ms per request (mean), alternated request by request, the order flipped every other request (service
 * then floor, floor then service, ...), so the two see the same machine and neither always follows the other (the
 * garbage one side leaves is collected during either side's requests); after a few warm-up calls of each.
 */
async function alternated(n: number, service: () => Promise<void>, floor: () => Promise<void>): Promise<[number, number]> {
  for (let i = 0; i < Math.min(5, n); i++) {
    await service();
    await floor();
  }
  let a = 0;
  let b = 0;
  const timed = async (fn: () => Promise<void>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < n; i++) {
    if (i % 2) {
      b += await timed(floor);
      a += await timed(service);
    } else {
      a += await timed(service);
      b += await timed(floor);
    }
  }
  return [a / n, b / n];
}

async function run(label: string, database: Database, statements: { n: number }): Promise<[string, number, number][]> {
  const { app, key } = await benchApp(database);
  const service = await listen(createServerAdapter((r: Request) => app.fetch(r)) as never);
  const floor = await listen(floorHandler(database.sql));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const item = logItems();
  const post = async (url: string, p: string, body: unknown) => {
    const r = await fetch(url + p, { method: 'POST', headers, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${url}${p}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  const created: Record<string, string[]> = {};
  const ops = {
    list: (url: string) => async () => {
      const body = (await (await fetch(`${url}/api/v1/flight-logs?limit=100`, { headers })).json()) as { count: number };
      if (body.count !== 100) throw new Error(`list returned ${body.count}`);
    },
    aircraft: (url: string) => async () => {
      const body = (await (await fetch(`${url}/api/v1/aircraft/bench-ac`, { headers })).json()) as { registration: string };
      if (body.registration !== 'VH-BEN') throw new Error('GET aircraft failed');
    },
    create: (url: string) => async () => void (await post(url, '/api/v1/flight-logs', item())),
    batch: (url: string) => async () => {
      const r = await post(url, '/api/v1/flight-logs/batch', { items: Array.from({ length: 50 }, item) });
      if (r.results.length !== 50) throw new Error('batch failed');
      (created[url] ??= []).push(...r.results.map((x: { uid: string }) => x.uid));
    },
    batchDelete: (url: string) => async () => {
      const ids = (created[url] ?? []).splice(0, 50);
      const r = await post(url, '/api/v1/flight-logs/batch-delete', { ids });
      if (r.results.length !== ids.length) throw new Error('batch-delete failed');
    },
    graphql: (url: string) => async () => {
      const r = await post(url, '/graphql', { query: '{ flightLogs(limit: 100) { count data { uid timeDate trackingItems aircraft { registration totals } pilotUser { displayName } } } }' });
      if (r.data.flightLogs.data.length !== 100) throw new Error('graphql failed');
    },
  };
  for (let i = 0; i < 20; i++) await ops.batch(service.url)(); // 1000 logs so the list reads a realistic index
  const rows: [string, number, number][] = [];
  const measure = async (name: string, n: number, op: (url: string) => () => Promise<void>) =>
    rows.push([name, ...(await alternated(n, op(service.url), op(floor.url)))]);
  await measure('list 100 logs', ITER, ops.list);
  await measure('GET one aircraft', ITER, ops.aircraft);
  await measure('create 1 log', ITER, ops.create);
  await measure('batch-create 50', BATCHES, ops.batch);
  await measure('batch-delete 50', Math.min(BATCHES, 5), ops.batchDelete);
  await measure('GraphQL 100 logs with aircraft and pilot', ITER, ops.graphql);
  statements.n = 0;
  await ops.graphql(service.url)();
  const gqlStatements = statements.n;
  console.log(`\n${label}: ${ITER} requests per single operation, ${BATCHES} batches; ms per request`);
  console.log('| operation | fleetops | floor | ratio (floor/fleetops) |');
  console.log('|---|---:|---:|---:|');
  for (const [name, a, b] of rows) console.log(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)}x |`);
  console.log(`GraphQL page of 100 logs with aircraft and pilot: ${gqlStatements} SQL statements`);
  // both sides wrote to the same aircraft: its totals must still be initialValues + the sum over its logs, exactly
  const [check] = await database.sql.query<{ stored: string; expected: string }>(
    `SELECT (a.totals ->> 'hobbs') AS stored,
            ((a."initialValues" ->> 'hobbs')::numeric + COALESCE((SELECT SUM((f.tracking ->> 'hobbs')::numeric) FROM "FlightLog" f
              WHERE f."companyId" = a."companyId" AND f."aircraftId" = a.uid), 0))::text AS expected
     FROM "Aircraft" a JOIN "ApiKey" k ON k."companyId" = a."companyId" WHERE k.name = 'bench' AND a.uid = 'bench-ac'
     ORDER BY k."createdAt" DESC LIMIT 1`,
  );
  const exact = check && Number(check.stored) === Number(check.expected);
  console.log(`totals after both sides' writes: hobbs ${check?.stored} stored, ${check?.expected} from the logs: ${exact ? 'exact' : 'MISMATCH'}`);
  if (!exact) process.exitCode = 1;
  await service.close();
  await floor.close();
  await app.close();
  return rows;
}

/** `runs` runs of one store, each printed; with more than one, the median ratio of each operation and the runs'. */
async function runs(label: string, database: Database, statements: { n: number }) {
  const all: [string, number, number][][] = [];
  for (let i = 0; i < RUNS; i++) all.push(await run(RUNS > 1 ? `${label}, run ${i + 1} of ${RUNS}` : label, database, statements));
  if (RUNS < 2) return;
  console.log(`\n${label}: median ratio (floor/fleetops) of ${RUNS} runs`);
  console.log('| operation | median | runs |');
  console.log('|---|---:|---|');
  for (const [j, [name]] of all[0].entries()) {
    const ratios = all.map((rows) => rows[j][2] / rows[j][1]);
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
    console.log(`| ${name} | ${median.toFixed(2)}x | ${ratios.map((r) => r.toFixed(2)).join(', ')} |`);
  }
}

/** Seconds from `fleetops serve` to a 200 from /readyz. */
async function startup(env: Record<string, string>): Promise<number> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['bin/fleetops.js', 'serve'], { env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent' }, stdio: 'ignore' });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return (performance.now() - t0) / 1000;
      } catch {
        /* not yet */
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
}

async function main() {
  // start-up first, while this process is idle: the child's time is then its own, not shared with this process's
  // leftover work from the runs below (a second core is all the machine has)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-start-'));
  const fresh = await startup({ DATA_DIR: dir });
  const existing: number[] = [];
  for (let i = 0; i < 5; i++) existing.push(await startup({ DATA_DIR: dir }));
  fs.rmSync(dir, { recursive: true, force: true });
  existing.sort((a, b) => a - b);
  const startLine =
    `\nfleetops serve → ready /readyz (embedded database): new data directory ${fresh.toFixed(2)} s; ` +
    `existing, median of 5: ${existing[2].toFixed(2)} s (${existing.map((x) => x.toFixed(2)).join(', ')})`;

  const statements = { n: 0 };
  const lite = await openDatabase({ dataDir: 'memory://', onQuery: () => statements.n++ });
  await runs('PGlite (embedded, in memory)', lite, statements);
  await lite.close();
  await withTempDatabase('fleetops_bench', async (url) => {
    const database = await openDatabase({ databaseUrl: url, onQuery: () => statements.n++ });
    try {
      await runs('PostgreSQL', database, statements);
    } finally {
      await database.close();
    }
  });
  console.log(startLine);
}
await main();
