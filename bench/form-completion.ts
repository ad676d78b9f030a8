// Form-completion benchmark (issue 27: "form completion with side effects ≤ 6 statements and ≤ 2× a flight-log
// create"): a daily vehicle check answered with an odometer reading and two defects, through the service's real HTTP
// surface, against (a) the service's own flight-log create and (b) the floor: a bare node:http handler doing the
// least SQL for the same answer (ONE statement: the completion, its defect items and the vehicle's odometer, with
// the form's code and name read inside it; no validation beyond what the answer needs). The three are alternated
// request by request, so a load change hits all alike. Prints ms per request (medians of RUNS runs), the ratios and
// the completion's SQL statements. PGlite in memory and PostgreSQL (a temporary database on BENCH_DATABASE_URL).
// Run: npx tsx bench/form-completion.ts [--iterations N] [--runs R]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import { openDatabase, type Database, type RawSql } from '../src/db/database.js';
import { benchApp, listen, logItems } from './fixture.js';
import { floorCompany } from './floor.js';
import { withTempDatabase } from './pg.js';

if (process.env.NODE_ENV !== 'production') {
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  process.exit(r.status ?? 1);
}
const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(name) + 1]) || d;
const ITER = arg('--iterations', 100);
const RUNS = arg('--runs', 3);

/** The floor's completion: one statement writes the completion, the defects and the reading (if not lower). */
function floorCompletion(sql: RawSql): http.RequestListener {
  const company = floorCompany(sql);
  return async (req, res) => {
    const companyId = await company(req);
    if (!companyId) return void res.writeHead(401).end();
    let body = '';
    for await (const c of req) body += c;
    const { formId, answers } = JSON.parse(body) as { formId: string; answers: { vehicle: string; odometer: number; defects: { description: string; severity?: string }[] } };
    const uid = 'fc_' + randomBytes(10).toString('hex');
    const [row] = await sql.query<{ uid: string; created: number; updated: number }>(
      `WITH f AS (SELECT code, name FROM "Form" WHERE "companyId" = $1 AND uid = $2),
       v AS (UPDATE "Vehicle" SET totals = totals || jsonb_build_object('odometer', $4::numeric), "updatedAt" = now()
             WHERE "companyId" = $1 AND uid = $3 AND COALESCE((totals ->> 'odometer')::numeric, 0) <= $4 RETURNING uid),
       d AS (INSERT INTO "ScheduleItem" ("companyId", uid, name, type, documentation, "archivedDocumentation", "relatedTo", "relatedToType", recurring, notes, "updatedAt")
             SELECT $1, 'si_' || md5(random()::text), 'Defect: ' || u.descr, 'Defect', '{}', '{}', $3, 'vehicle', false, u.sev, now()
             FROM unnest($5::text[], $6::text[]) u(descr, sev) RETURNING uid),
       c AS (INSERT INTO "FormCompletion" ("companyId", uid, "formId", code, name, "userId", data, signatories, "sideEffects", "updatedAt")
             SELECT $1, $7, $2, f.code, f.name, 'api', $8::jsonb, '{}',
                    jsonb_build_object('scheduleItemsCreated', COALESCE((SELECT jsonb_agg(uid) FROM d), '[]'), 'vehiclesUpdated', COALESCE((SELECT jsonb_agg(uid) FROM v), '[]')), now()
             FROM f RETURNING uid)
       SELECT (SELECT uid FROM c) AS uid, (SELECT count(*) FROM d)::int AS created, (SELECT count(*) FROM v)::int AS updated`,
      [companyId, formId, answers.vehicle, answers.odometer, answers.defects.map((d) => d.description), answers.defects.map((d) => d.severity ?? null), uid, JSON.stringify(answers)],
    );
    res.writeHead(201, { 'content-type': 'application/json' }).end(
      JSON.stringify({ uid: row!.uid, status: 'created', sideEffects: { scheduleItemsCreated: row!.created, vehiclesUpdated: row!.updated, warnings: [] } }),
    );
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(label: string, database: Database, statements: { n: number }) {
  const { app, key, companyId } = await benchApp(database);
  const service = await listen(createServerAdapter((r: Request) => app.fetch(r)) as never);
  const floor = await listen(floorCompletion(database.sql));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = async (url: string, p: string, body: unknown) => {
    const r = await fetch(url + p, { method: 'POST', headers, body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`${url}${p}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<any>;
  };
  const vehicle = await post(service.url, '/api/v1/vehicles', { make: 'Toyota', model: 'Hilux', registration: 'BEN-1' });
  const form = await post(service.url, '/api/v1/forms', {
    name: 'Daily vehicle check', code: `daily-${randomBytes(3).toString('hex')}`, department: 'Ground ops',
    sections: [{ name: 'Check', fields: [
      { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
      { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' },
      { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
    ] }],
  });
  let reading = 1000;
  const completion = (url: string) => async () => {
    reading += 7;
    const r = await post(url, '/api/v1/form-completions', {
      formId: form.uid,
      answers: { vehicle: vehicle.uid, odometer: reading, defects: [{ description: 'Cracked mirror', severity: 'low' }, { description: 'Worn tyre' }] },
    });
    if (r.sideEffects.scheduleItemsCreated !== 2 || r.sideEffects.vehiclesUpdated !== 1) throw new Error(`side effects ${JSON.stringify(r.sideEffects)}`);
  };
  const item = logItems();
  const create = async () => void (await post(service.url, '/api/v1/flight-logs', item()));
  const sides = { completion: completion(service.url), create, floor: completion(floor.url) };
  const perRun: Record<keyof typeof sides, number[]> = { completion: [], create: [], floor: [] };
  for (let i = 0; i < 10; i++) for (const f of Object.values(sides)) await f(); // warm-up
  for (let r = 0; r < RUNS; r++) {
    const t: Record<keyof typeof sides, number> = { completion: 0, create: 0, floor: 0 };
    for (let i = 0; i < ITER; i++) {
      for (const [name, f] of Object.entries(sides) as [keyof typeof sides, () => Promise<void>][]) {
        const t0 = performance.now();
        await f();
        t[name] += performance.now() - t0;
      }
    }
    for (const name of Object.keys(t) as (keyof typeof sides)[]) perRun[name].push(t[name] / ITER);
  }
  statements.n = 0;
  await sides.completion();
  const sqlCount = statements.n;
  const [c, l, f] = [median(perRun.completion), median(perRun.create), median(perRun.floor)];
  console.log(`\n${label}: ${RUNS} runs of ${ITER} alternated requests each; ms per request, medians (load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')})`);
  console.log('| request | ms | runs |');
  console.log('|---|---:|---|');
  console.log(`| form completion (odometer + 2 defects), fleetops | ${c.toFixed(2)} | ${perRun.completion.map((x) => x.toFixed(2)).join(', ')} |`);
  console.log(`| flight-log create 1, fleetops | ${l.toFixed(2)} | ${perRun.create.map((x) => x.toFixed(2)).join(', ')} |`);
  console.log(`| form completion, floor | ${f.toFixed(2)} | ${perRun.floor.map((x) => x.toFixed(2)).join(', ')} |`);
  console.log(`completion / create: ${(c / l).toFixed(2)}× (goal ≤ 2×); floor / completion: ${(f / c).toFixed(2)}x; SQL statements of one completion (BEGIN/COMMIT included where the driver reports them): ${sqlCount}`);
  const [odo] = await database.sql.query<{ odometer: string }>(`SELECT totals ->> 'odometer' AS odometer FROM "Vehicle" WHERE "companyId" = $1 AND uid = $2`, [companyId, vehicle.uid]);
  const exact = Number(odo?.odometer) === reading;
  console.log(`vehicle odometer after both sides' writes: ${odo?.odometer}, last reading ${reading}: ${exact ? 'exact' : 'MISMATCH'}`);
  if (!exact) process.exitCode = 1;
  await service.close();
  await floor.close();
  await app.close();
}

const statements = { n: 0 };
const lite = await openDatabase({ dataDir: 'memory://', onQuery: () => statements.n++ });
await run('PGlite (embedded, in memory)', lite, statements);
await lite.close();
await withTempDatabase('fleetops_bench_fc', async (url) => {
  const database = await openDatabase({ databaseUrl: url, onQuery: () => statements.n++ });
  try {
    await run('PostgreSQL', database, statements);
  } finally {
    await database.close();
  }
});
