// Flight-log benchmark: list 100 logs and batch-create 50 through the service's HTTP surface (REST façade over
// GraphQL, auth, rate limit off), side by side in the same run with a bare node:http handler doing the same SQL
// and JSON. On PGlite (in memory) and on PostgreSQL (BENCH_DATABASE_URL, default the local server; a temporary
// database is created and dropped). Run: npx tsx bench/flight-logs.ts [--iterations N]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createServerAdapter } from '@whatwg-node/server';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { hashKey } from '../src/auth/keys.js';
import { openDatabase, type Database, type RawSql } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import { withTempDatabase } from './pg.js';

const ITER = Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 200;
const BATCHES = Math.max(5, Math.round(ITER / 10));


function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) });
    }),
  );
}

/** The baseline: node:http + the driver, the same statements the service runs, the same JSON out. */
function bareHandler(sql: RawSql): http.RequestListener {
  const auth = async (req: http.IncomingMessage) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const rows = await sql.query<{ companyId: string }>('SELECT "companyId", "revokedAt" FROM "ApiKey" WHERE hash = $1', [hashKey(key)]);
    return rows[0]?.companyId;
  };
  return async (req, res) => {
    const companyId = await auth(req);
    if (!companyId) return void res.writeHead(401).end();
    if (req.method === 'GET') {
      const rows = await sql.query<Record<string, any>>(
        `SELECT * FROM "FlightLog" WHERE "companyId" = $1 ORDER BY "timeDate" DESC, uid DESC LIMIT 101`,
        [companyId],
      );
      const data = rows.slice(0, 100).map((l) => {
        const { tracking, ...core } = l;
        return { ...core, timeDate: new Date(l.timeDate).toISOString(), createdAt: new Date(l.createdAt).toISOString(), updatedAt: new Date(l.updatedAt).toISOString(), ...tracking };
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data, count: data.length, nextCursor: rows.length > 100 ? 'x' : null }));
      return;
    }
    let body = '';
    for await (const c of req) body += c;
    const { items } = JSON.parse(body) as { items: Record<string, any>[] };
    const results: unknown[] = [];
    for (const it of items) {
      const { timeDate, pilot, aircraftId, aircraftRegistration, startLocation, endLocation, pax, ...tracking } = it;
      const uid = 'fl_' + randomBytes(10).toString('hex');
      await sql.transaction(async (t) => {
        const q = (text: string, params: unknown[]) => t.query<Record<string, any>>(text, params);
        await q(`SELECT uid FROM "Aircraft" WHERE "companyId" = $1 AND uid = ANY($2::text[]) ORDER BY uid FOR UPDATE`, [companyId, [aircraftId]]);
        const a = await q(`SELECT * FROM "Aircraft" WHERE "companyId" = $1 AND uid = $2`, [companyId, aircraftId]);
        if (!a[0] || a[0].registration !== aircraftRegistration) throw new Error('bad aircraft');
        await q(
          `INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10, now())`,
          [companyId, uid, aircraftId, aircraftRegistration, timeDate, pilot, startLocation, endLocation, pax, JSON.stringify(tracking)],
        );
        await q(
          `UPDATE "Aircraft" a SET totals = COALESCE((SELECT jsonb_object_agg(k.key,
             COALESCE((a.totals ->> k.key)::numeric, (a."initialValues" ->> k.key)::numeric, 0)
             + CASE WHEN jsonb_typeof($3::jsonb -> k.key) = 'number' THEN ($3::jsonb ->> k.key)::numeric ELSE 0 END)
             FROM jsonb_each(a."maintenanceTrackingItems") k WHERE k.value ->> 'type' = 'number'), '{}'::jsonb),
             "updatedAt" = now() WHERE a."companyId" = $1 AND a.uid = $2`,
          [companyId, aircraftId, JSON.stringify(tracking)],
        );
      });
      results.push({ uid, status: 'created' });
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results, errors: [] }));
  };
}

const item = (i: number) => ({
  timeDate: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
  pilot: 'bench-pilot', aircraftId: 'bench-ac', aircraftRegistration: 'VH-BEN', startLocation: 'YSSY', endLocation: 'YSBK',
  pax: 1, hobbs: 1.2, landings: 1,
});

async function time(n: number, fn: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < Math.min(10, n); i++) await fn(-1 - i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - t0) / n;
}

async function run(label: string, database: Database) {
  const sql = database.sql;
  const companyId = `bench-${randomBytes(3).toString('hex')}`;
  const key = 'fo_bench_' + randomBytes(16).toString('hex');
  await importData(database, {
    companies: [{
      id: companyId, name: 'Bench', users: [{ uid: 'bench-pilot', email: 'p@bench.test', displayName: 'Bench Pilot', roles: ['pilot'] }],
      aircraft: [{ uid: 'bench-ac', registration: 'VH-BEN', type: 'B06', category: 'rotary-wing', engineType: 'turbine', engineCount: 1,
        maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' }, landings: { displayText: 'Landings', type: 'number' } },
        initialValues: { hobbs: 100 } }],
      vehicles: [], apiKeys: [{ name: 'bench', key }],
    }],
  });
  const app = createApp({ database, config: { rateLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' } });
  const service = await listen(createServerAdapter((r: Request) => app.fetch(r)) as never);
  const bare = await listen(bareHandler(sql));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let seq = 0;
  const batch = (url: string) => async () => {
    const items = Array.from({ length: 50 }, () => item(seq++));
    const r = await fetch(`${url}/api/v1/flight-logs/batch`, { method: 'POST', headers, body: JSON.stringify({ items }) });
    const body = (await r.json()) as { results: unknown[] };
    if (body.results.length !== 50) throw new Error(`${url} batch failed`);
  };
  const list = (url: string) => async () => {
    const r = await fetch(`${url}/api/v1/flight-logs?limit=100`, { headers });
    const body = (await r.json()) as { count: number };
    if (body.count !== 100) throw new Error(`${url} list returned ${body.count}`);
  };
  // seed 1000 logs so the list reads a realistic index
  for (let i = 0; i < 20; i++) await batch(service.url)();
  const rows: [string, number, number][] = [];
  rows.push(['list 100 logs (ms/request)', await time(ITER, list(service.url)), await time(ITER, list(bare.url))]);
  rows.push(['batch-create 50 (ms/request)', await time(BATCHES, batch(service.url)), await time(BATCHES, batch(bare.url))]);
  const totals = await sql.query<{ totals: unknown }>(`SELECT totals FROM "Aircraft" WHERE "companyId" = $1`, [companyId]);
  console.log(`\n${label}: ${ITER} list requests, ${BATCHES} batches each side; totals after run ${JSON.stringify(totals[0].totals)}`);
  console.log('| operation | fleetops | bare node:http + SQL | ratio |');
  console.log('|---|---:|---:|---:|');
  for (const [name, a, b] of rows) console.log(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(a / b).toFixed(2)}x |`);
  await service.close();
  await bare.close();
  await app.close();
}

async function main() {
  const lite = await openDatabase({ dataDir: 'memory://' });
  await run('PGlite (embedded, in memory)', lite);
  await lite.close();

  await withTempDatabase('fleetops_bench', async (url) => {
    const database = await openDatabase({ databaseUrl: url });
    try {
      await run('PostgreSQL', database);
    } finally {
      await database.close();
    }
  });
}

await main();
