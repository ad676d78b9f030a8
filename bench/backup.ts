// Backup and restore benchmark (issue 25): a generated company of 100,000 flight logs (components fitted three deep,
// schedule, forms, completions, deliveries, through the API; the bulk of the logs inserted with SQL and the aircraft
// totals set by the totals rule, so the restore verifies a real company), then on each kind of store:
//   - `fleetops backup` (writeBackup, what the command runs) to a plain and to a gzip file, while a writer posts
//     flight logs through the API: how long the store was held for the snapshot, and the writes' worst latency;
//   - `fleetops restore` of it into an empty store of the same kind: load, then verification;
// side by side with the floor in the same run: the same rows read with the driver alone (one SELECT row_to_json per
// table, no snapshot, no order, no hashing) and inserted alone (json_populate_recordset in one transaction, no
// verification). Ratios are floor time / fleetops time.
// PGlite in memory and PostgreSQL (a temporary database on BENCH_DATABASE_URL, default the local server).
// Run: npx tsx bench/backup.ts [--logs N] [--skip-lite] [--skip-pg]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp, type App } from '../src/app.js';
import { writeBackup } from '../src/backup/backup.js';
import { openBackup } from '../src/backup/format.js';
import { companyTables, ident } from '../src/backup/model.js';
import { restoreBackup } from '../src/backup/restore.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { TOTALS_FROM_LOGS } from '../src/modules/aircraft/totals.js';
import { generateCompany, type GeneratedCompany } from '../test/generated-company.js';
import { createTempDatabase } from './pg.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const LOGS = arg('--logs', 100_000);
const THROUGH_API = 3_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-bench-backup-'));

const ms = (t: number) => `${t.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`;

function appOn(database: Database): App {
  return createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
}

/** The company: THROUGH_API logs and everything else through the API, the rest of the logs by SQL, totals by the rule. */
async function company(db: Database, app: App): Promise<GeneratedCompany> {
  const t0 = performance.now();
  const g = await generateCompany(app, db, { logs: Math.min(THROUGH_API, LOGS) });
  const rest = LOGS - Math.min(THROUGH_API, LOGS);
  if (rest > 0) {
    const [heli, plane, drone] = g.aircraft;
    await db.sql.query(
      `INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
       SELECT $1, 'bulk-' || i, a.uid, a.registration, timestamptz '2025-01-01T00:00:00Z' + (i::float8 / $3) * interval '365 days',
              $5 || '-pilot', 'YSSY', 'YBBN', i % 6,
              CASE i % 3 WHEN 0 THEN jsonb_build_object('hobbs', ((i * 7919) % 25 + 3) / 10.0, 'landings', 1 + i % 5, 'cycles', 1 + i % 3)
                         WHEN 1 THEN jsonb_build_object('tacho', ((i * 104729) % 250 + 30) / 100.0, 'airframeHours', ((i * 7919) % 25 + 3) / 10.0)
                         ELSE jsonb_build_object('flightTime', ((i * 31) % 90) / 100.0, 'battery', 'B' || i % 4) END,
              now()
       FROM generate_series(1::bigint, $2::bigint) i
       JOIN "Aircraft" a ON a."companyId" = $1 AND a.uid = (ARRAY[$4, $6, $7])[i % 3 + 1]`,
      [g.id, rest, LOGS, heli, g.id.slice(0, 12), plane, drone],
    );
    await db.sql.query(`UPDATE "Aircraft" a SET totals = ${TOTALS_FROM_LOGS.text} WHERE a."companyId" = $1`, [g.id]);
  }
  const [{ n }] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "FlightLog" WHERE "companyId" = $1`, [g.id]);
  console.log(`  company ${g.id}: ${n.toLocaleString('en-US')} flight logs (${Math.min(THROUGH_API, LOGS)} and everything else through the API) in ${ms(performance.now() - t0)}`);
  return g;
}

/** Posts flight logs one after another until stopped; the worst and median latency while `measuring`. */
function writer(app: App, g: GeneratedCompany, registration: string) {
  let stop = false;
  let measuring = false;
  const latencies: number[] = [];
  const done = (async () => {
    for (let i = 0; !stop; i++) {
      const t0 = performance.now();
      const res = await app.fetch(
        new Request('http://bench/api/v1/flight-logs', {
          method: 'POST',
          headers: { authorization: `Bearer ${g.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ timeDate: new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString(), pilot: `${g.id.slice(0, 12)}-pilot`, aircraftId: g.aircraft[0], aircraftRegistration: registration, startLocation: 'A', endLocation: 'B', pax: 1, hobbs: 0.2, landings: 1 }),
        }),
      );
      if (res.status !== 201) throw new Error(`write refused: ${res.status} ${await res.text()}`);
      if (measuring) latencies.push(performance.now() - t0);
      await new Promise((r) => setImmediate(r)); // as requests arriving on sockets: the event loop turns between them
    }
  })();
  return {
    start: () => void (measuring = true),
    async stop() {
      measuring = false;
      stop = true;
      await done;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { writes: sorted.length, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
    },
  };
}

/** The floor of a backup: every row of the company, one SELECT per table, written as lines to a file. */
async function floorBackup(db: Database, companyId: string, file: string): Promise<number> {
  const t0 = performance.now();
  const out = fs.openSync(file, 'w');
  for (const t of companyTables()) {
    const rows = await db.sql.query<{ r: string }>(`SELECT row_to_json(x)::text AS r FROM ${ident(t.name)} x WHERE ${ident(t.companyColumn)} = $1`, [companyId]);
    fs.writeSync(out, rows.map((r) => r.r).join('\n') + '\n');
  }
  fs.closeSync(out);
  return performance.now() - t0;
}

/** The floor of a restore: the backup's rows inserted table by table in one transaction, triggers off, nothing checked. */
async function floorRestore(db: Database, file: string): Promise<number> {
  const backup = await openBackup(file);
  const t0 = performance.now();
  await db.sql.transaction(async (tx) => {
    let table = '';
    let columns = '';
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length) await tx.query(`INSERT INTO ${ident(table)} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${ident(table)}, $1::json)`, [`[${batch.join(',')}]`]);
      batch = [];
    };
    for (const t of backup.header.tables) await tx.exec(`ALTER TABLE ${ident(t.name)} DISABLE TRIGGER USER`);
    for await (const line of backup.lines) {
      if (line.kind === 'row') {
        batch.push(line.text);
        if (batch.length >= 1000) await flush();
      } else if (line.value[0] === 'table') {
        table = line.value[1] as string;
        columns = (line.value[2] as { columns: string[] }).columns.map(ident).join(', ');
      } else if (line.value[0] === 'end') await flush();
    }
    for (const t of backup.header.tables) await tx.exec(`ALTER TABLE ${ident(t.name)} ENABLE TRIGGER USER`);
  });
  backup.close();
  return performance.now() - t0;
}

async function run(label: string, open: () => Promise<Database>) {
  console.log(`\n${label}`);
  const db = await open();
  const app = appOn(db);
  const rows: [string, number, number | null, string][] = [];
  try {
    const g = await company(db, app);
    const registration = (await db.sql.query<{ r: string }>(`SELECT registration AS r FROM "Aircraft" WHERE "companyId" = $1 AND uid = $2`, [g.id, g.aircraft[0]]))[0]!.r;

    const floorFile = path.join(dir, `${label}-floor.jsonl`);
    const floorMs = await floorBackup(db, g.id, floorFile);

    const plain = path.join(dir, `${label}.jsonl`);
    const w = writer(app, g, registration);
    await new Promise((r) => setTimeout(r, 300));
    // PGlite runs in this thread: while it works, the event loop (and a server's sockets) waits; its longest delay
    // is the longest a request could wait to be read
    const loop = monitorEventLoopDelay({ resolution: 5 });
    w.start();
    loop.enable();
    const b = await writeBackup(db, plain, { company: g.id });
    loop.disable();
    const during = await w.stop();
    rows.push([
      'backup (plain file)', b.ms, floorMs,
      `${b.rows.toLocaleString('en-US')} rows, ${mb(b.bytes)}; snapshot ${ms(b.snapshotMs)}; event loop blocked at most ${ms(loop.max / 1e6)}; ` +
        `${during.writes} writes meanwhile, median ${ms(during.median)}, worst ${ms(during.max)}`,
    ]);

    const gz = path.join(dir, `${label}.jsonl.gz`);
    const bz = await writeBackup(db, gz, { company: g.id });
    rows.push(['backup (gzip file)', bz.ms, null, `${mb(fs.statSync(gz).size)} on disk`]);

    const target = await open();
    try {
      // the floor first: whatever warming up the first load of a new store costs falls on it
      const floorTarget = await open();
      let restoreFloor: number;
      try {
        restoreFloor = await floorRestore(floorTarget, gz);
      } finally {
        await floorTarget.close();
      }
      let loaded = 0;
      const t0 = performance.now();
      const r = await restoreBackup(target, gz, { onProgress: (p) => void (p.phase === 'verify' && !loaded && (loaded = performance.now() - t0)) });
      rows.push(['restore: load', loaded, restoreFloor, `${r.rows.toLocaleString('en-US')} rows into an empty store`]);
      rows.push(['restore: verification', r.ms - loaded, null, `read back ${r.verified.rows.toLocaleString('en-US')} rows; totals of ${r.verified.aircraft} aircraft from the logs; ${r.verified.counters} counters`]);
      rows.push(['restore: whole', r.ms, restoreFloor, '']);
    } finally {
      await target.close();
    }
  } finally {
    await app.close();
    await db.close();
  }
  console.log(`  ${'step'.padEnd(24)} ${'fleetops'.padStart(10)} ${'floor'.padStart(10)} ${'ratio'.padStart(7)}  notes`);
  for (const [step, t, floor, note] of rows) {
    console.log(`  ${step.padEnd(24)} ${ms(t).padStart(10)} ${(floor === null ? '' : ms(floor)).padStart(10)} ${(floor === null ? '' : `${(floor / t).toFixed(2)}x`).padStart(7)}  ${note}`);
  }
}

try {
  if (!process.argv.includes('--skip-lite')) await run('PGlite (in memory)', () => openDatabase({ dataDir: 'memory://' }));
  if (!process.argv.includes('--skip-pg')) {
    const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const temps: { url: string; drop(): Promise<void> }[] = [];
    try {
      await run('PostgreSQL', async () => {
        const t = await createTempDatabase(server, 'fleetops_bench_backup');
        temps.push(t);
        return openDatabase({ databaseUrl: t.url });
      });
    } catch (e) {
      console.log(`PostgreSQL: skipped (${(e as Error).message})`);
    } finally {
      for (const t of temps) await t.drop();
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
