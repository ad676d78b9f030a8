// fleetops backup / restore (docs/backup.md, docs/contract/gaps.md §15): round trips between the two kinds of store
// with the demo company and a generated one, through the command as an operator runs it; what a restore refuses
// (another format version, a damaged or cut file, a non-empty store, figures that do not recompute), leaving the
// store empty; and a snapshot taken while writes keep coming is consistent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../bench/pg.js';
import { createApp, type App } from '../src/app.js';
import { writeBackup } from '../src/backup/backup.js';
import { rowsHash } from '../src/backup/format.js';
import { companyTables } from '../src/backup/model.js';
import { rowsQuery } from '../src/backup/tables.js';
import { runCli } from '../src/cli/main.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { appliedMigrations, readMigrations } from '../src/db/migrate.js';
import { loadDemo } from '../src/modules/companies/demo.js';
import { generateCompany, type GeneratedCompany } from './generated-company.js';
import { companyRowCount, onPostgres, openEmbeddedTestDatabase, seedDataDir } from './helpers.js';

const LONG = 180_000;
const kinds = onPostgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
type Kind = (typeof kinds)[number];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
}, LONG);

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fobak-${label}-`));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A store and the `fleetops` command pointed at it. An embedded one is opened in memory by the test and the
 * command runs on it as it does inside a server (runCli with the open database: PGlite is one connection), except
 * `dataDir` stores, which the command opens itself from a DATA_DIR as an operator's would; a PostgreSQL one is a
 * database of its own that the command reaches through DATABASE_URL.
 */
interface Store {
  kind: Kind;
  fleetops(args: string[]): ReturnType<typeof runCli>;
  /** Runs `fn` on the store (opened for it when the command owns it). */
  use<T>(fn: (db: Database) => Promise<T>): Promise<T>;
}

const BASE_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'LOG_LEVEL']) delete env[k];
  return env;
})();

function commandOn(env: Record<string, string>, open: () => Promise<Database>, kind: Kind): Store {
  return {
    kind,
    fleetops: (args) => runCli(args, { env: { ...BASE_ENV, LOG_LEVEL: 'silent', ...env }, cwd: os.tmpdir() }),
    async use(fn) {
      const db = await open();
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    },
  };
}

/**
 * A new, empty store. `migrated: false`: without any migration, as a new DATA_DIR or a new PostgreSQL database is;
 * `dataDir`: an embedded database in a DATA_DIR that the command opens.
 */
async function emptyStore(kind: Kind, { migrated = true, dataDir = false } = {}): Promise<Store> {
  if (kind === 'postgres') {
    const temp = await createTempDatabase(process.env.TEST_DATABASE_URL!, 'fleetops_backup');
    cleanups.push(() => temp.drop());
    if (migrated) await (await openDatabase({ databaseUrl: temp.url })).close();
    return commandOn({ DATABASE_URL: temp.url }, () => openDatabase({ databaseUrl: temp.url, migrate: false }), kind);
  }
  if (dataDir) {
    const dir = tempDir('store');
    if (migrated) await seedDataDir(dir);
    return commandOn({ DATA_DIR: dir }, () => openDatabase({ dataDir: dir, migrate: false }), kind);
  }
  const db = migrated ? await openEmbeddedTestDatabase() : await openDatabase({ dataDir: 'memory://', migrate: false });
  cleanups.push(() => db.close());
  return {
    kind,
    fleetops: (args) => runCli(args, { database: db, cwd: os.tmpdir() }),
    use: (fn) => fn(db),
  };
}

function appOn(database: Database): App {
  return createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
}

/** Every company table's rows as the backup format writes them, by table, sorted (a store reads them in its own order). */
async function contents(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of companyTables()) {
    const q = rowsQuery(t, null);
    out[t.name] = (await db.sql.query<{ r: string }>(q.text, q.params)).map((r) => r.r).sort();
  }
  return out;
}


/** A store holding the demo company and a generated one, and what it holds. */
interface Source {
  store: Store;
  generated: GeneratedCompany;
  demoKey: string;
  contents: Record<string, string[]>;
  /** API answers of the generated company, to compare after a restore. */
  answers: Record<string, unknown>;
}

const PROBES = (g: GeneratedCompany) => [
  '/aircraft',
  `/aircraft/${g.aircraft[0]}`,
  `/components/${g.components[2]}`,
  `/vehicles/${g.vehicles[0]}`,
  '/schedule-completions',
  '/flight-logs?limit=5',
];

async function answers(app: App, g: GeneratedCompany): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const p of PROBES(g)) {
    const res = await app.fetch(new Request(`http://fleetops.test/api/v1${p}`, { headers: { authorization: `Bearer ${g.key}` } }));
    out[p] = { status: res.status, body: await res.json() };
  }
  return out;
}

async function source(kind: Kind, logs: number): Promise<Source> {
  const store = await emptyStore(kind);
  return store.use(async (db) => {
    const { key: demoKey } = await loadDemo(db);
    const app = appOn(db);
    try {
      const generated = await generateCompany(app, db, { logs });
      return { store, generated, demoKey, contents: await contents(db), answers: await answers(app, generated) };
    } finally {
      await app.close();
    }
  });
}

const sources: Partial<Record<Kind, Source>> = {};
let plainBackup: string; // the embedded source's backup, uncompressed (the refusal tests edit it)

beforeAll(async () => {
  for (const kind of kinds) sources[kind] = await source(kind, 600);
  plainBackup = path.join(tempDir('files'), 'all.jsonl');
  const r = await sources.pglite!.store.fleetops(['backup', plainBackup]);
  expect(r.code, r.stderr).toBe(0);
}, LONG);

describe('fleetops backup → fleetops restore', () => {
  for (const from of kinds) {
    for (const to of kinds) {
      it(`from ${from === 'pglite' ? 'the embedded database' : 'PostgreSQL'} to ${to === 'pglite' ? 'a new embedded database' : 'an empty PostgreSQL database'}, every row and every answer the same`, async () => {
        const src = sources[from]!;
        const file = path.join(tempDir('files'), 'backup.jsonl.gz');
        const b = await src.store.fleetops(['backup', file]);
        expect(b.code, b.stderr).toBe(0);
        expect(b.stdout).toMatch(/^backup of 2 companies \(demo, gen-[0-9a-f]+\) from .* written to .*backup\.jsonl\.gz: \d+ tables, [\d,]+ rows, .* format version 1\n$/);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600); // key hashes and webhook secrets are inside
        expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

        // a target that was never migrated (a new DATA_DIR, a new PostgreSQL database): restore migrates it
        const target = await emptyStore(to, { migrated: false, dataDir: true });
        const r = await target.fleetops(['restore', file]);
        expect(r.code, r.stderr).toBe(0);
        const components = src.contents.Component!.map((r) => JSON.parse(r) as { counters: unknown[] });
        const counters = components.reduce((n, c) => n + c.counters.length, 0);
        expect(r.stdout).toMatch(
          new RegExp(
            `^restored .* into (the embedded database|PostgreSQL): 2 companies \\(demo, gen-[0-9a-f]+\\), \\d+ tables, [\\d,]+ rows in .*\n` +
              `verified: all \\d+ tables read back, row for row as in the backup; totals of ${src.contents.Aircraft!.length} aircraft recomputed from the flight logs; ` +
              `${counters} counters of ${components.length} components recomputed from those totals; every childCount counted again\n$`,
          ),
        );

        await target.use(async (db) => {
          expect(await appliedMigrations(db.sql)).toEqual(readMigrations().map((m) => m.name));
          expect(await contents(db)).toEqual(src.contents);
          const app = appOn(db);
          try {
            expect(await answers(app, src.generated)).toEqual(src.answers);
            // the keys came across as hashes: the demo key still works
            const res = await app.fetch(new Request('http://fleetops.test/api/v1/aircraft', { headers: { authorization: `Bearer ${src.demoKey}` } }));
            expect(res.status).toBe(200);
          } finally {
            await app.close();
          }
        });
      }, LONG);
    }
  }

  it('--company backs up one company; the file is plain JSON Lines with the documented lines', async () => {
    const src = sources.pglite!;
    const file = path.join(tempDir('files'), 'one.jsonl');
    const b = await src.store.fleetops(['backup', file, '--company', src.generated.id]);
    expect(b.code, b.stderr).toBe(0);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const [format, version, header] = JSON.parse(lines[0]!);
    expect([format, version]).toEqual(['fleetops-backup', 1]);
    expect(header).toMatchObject({ scope: 'company', companies: [src.generated.id], source: { database: 'pglite' }, migrations: readMigrations().map((m) => m.name) });
    expect(header.tables.map((t: { name: string }) => t.name)).toEqual(companyTables().map((t) => t.name));
    expect(JSON.parse(lines.at(-1)!)).toEqual(['end-of-backup', { tables: header.tables.length, rows: lines.filter((l) => l.startsWith('{')).length }]);
    for (const t of header.tables) {
      const start = lines.findIndex((l) => l.startsWith(`["table","${t.name}",`));
      const end = lines.findIndex((l) => l.startsWith(`["end","${t.name}",`));
      const rows = lines.slice(start + 1, end);
      expect(rows.length).toBe(t.rows);
      for (const r of rows) expect(JSON.parse(r)[t.name === 'Company' ? 'id' : 'companyId']).toBe(src.generated.id);
      const hash = rowsHash();
      hash.update(rows);
      expect(JSON.parse(lines[end]!)).toEqual(['end', t.name, { rows: t.rows, sha256: hash.digest() }]);
    }
    const target = await emptyStore('pglite');
    const r = await target.fleetops(['restore', file]);
    expect(r.code, r.stderr).toBe(0);
    await target.use(async (db) => {
      const all = await contents(db);
      for (const [table, rows] of Object.entries(all)) {
        expect(rows, table).toEqual(src.contents[table]!.filter((l) => JSON.parse(l)[table === 'Company' ? 'id' : 'companyId'] === src.generated.id));
      }
    });
  }, LONG);

  it('long runs report progress: a line at every tenth without a terminal', async () => {
    const src = sources.pglite!;
    const file = path.join(tempDir('files'), 'progress.jsonl');
    const b = await src.store.fleetops(['backup', file]);
    expect(b.stderr).toMatch(/^backup: [\d,]+\/[\d,]+ rows \(0%\), Company\n/);
    expect(b.stderr).toMatch(/\nbackup: ([\d,]+)\/\1 rows \(100%\), \w+\n$/);
    const r = await (await emptyStore('pglite')).fleetops(['restore', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^restore: /);
    expect(r.stderr).toMatch(/\nrestore: ([\d,]+)\/\1 rows \(100%\)/);
    expect(r.stderr).toMatch(/\nverify: ([\d,]+)\/\1 rows \(100%\), \w+\n$/);
  }, LONG);

  it('refuses an existing file unless --force, and an unknown company', async () => {
    const src = sources.pglite!;
    const again = await src.store.fleetops(['backup', plainBackup]);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toMatch(/all\.jsonl exists already; choose another name, or pass --force/);
    const nobody = await src.store.fleetops(['backup', path.join(tempDir('files'), 'x.jsonl'), '--company', 'no-such-company']);
    expect(nobody).toMatchObject({ code: 1, stderr: 'fleetops: there is no company "no-such-company" to back up\n' });
  }, LONG);
});

describe('fleetops restore refuses, and loads nothing', () => {
  const lines = () => fs.readFileSync(plainBackup, 'utf8').trimEnd().split('\n');
  const write = (name: string, ls: string[], gzip = false) => {
    const file = path.join(tempDir('files'), name);
    const text = ls.join('\n') + '\n';
    fs.writeFileSync(file, gzip ? zlib.gzipSync(text) : text);
    return file;
  };
  /**
   * The backup with rows of `table` changed by `edit` (the row's text, or null to leave it), and its SHA-256 made to
   * match again: data that had drifted in the source store before it was backed up.
   */
  function drifted(table: string, edit: (row: string, i: number) => string | null): string[] {
    const ls = lines();
    const start = ls.findIndex((l) => l.startsWith(`["table","${table}",`));
    const end = ls.findIndex((l) => l.startsWith(`["end","${table}",`));
    let changed = 0;
    for (let i = start + 1; i < end; i++) {
      const row = edit(ls[i]!, i);
      if (row !== null && row !== ls[i]) {
        ls[i] = row;
        changed++;
      }
    }
    expect(changed).toBeGreaterThan(0);
    const hash = rowsHash();
    hash.update(ls.slice(start + 1, end));
    const [tag, name, info] = JSON.parse(ls[end]!);
    ls[end] = JSON.stringify([tag, name, { ...info, sha256: hash.digest() }]);
    return ls;
  }

  // one empty store takes every refused restore in turn, and must still be empty after each
  let blank: Store;
  beforeAll(async () => {
    blank = await emptyStore('pglite');
  }, LONG);
  async function refused(file: string, message: RegExp, store = blank) {
    const r = await store.fleetops(['restore', file]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    await store.use(async (db) => expect(await companyRowCount(db)).toBe(0));
  }

  it('a backup of another format version, before touching the store', async () => {
    const ls = lines();
    ls[0] = ls[0]!.replace(/^\["fleetops-backup",1,/, '["fleetops-backup",2,');
    const store = await emptyStore('pglite', { migrated: false });
    await refused(
      write('v2.jsonl.gz', ls, true),
      /^fleetops: v2\.jsonl\.gz is a fleetops backup of format version 2; this fleetops reads format version 1 only\. Restore it with the fleetops release that wrote it .*Nothing was restored\.\n$/,
      store,
    );
    await store.use(async (db) => expect(await appliedMigrations(db.sql)).toEqual([])); // not even migrated
  }, LONG);

  it('a file that is not a backup, or does not exist', async () => {
    await refused(write('other.json', ['{"companies": []}']), /^fleetops: other\.json is not a fleetops backup \(its first line is not \["fleetops-backup", version, \.\.\.\]\)\n$/);
    await refused(path.join(os.tmpdir(), 'no-such-backup.jsonl'), /^fleetops: cannot read .*no-such-backup\.jsonl: ENOENT/);
  }, LONG);

  it('a copy cut short, or a row changed in the file', async () => {
    const ls = lines();
    await refused(write('cut.jsonl', ls.slice(0, Math.floor(ls.length * 0.8))), /the backup is incomplete: it stops inside table \w+ without its end-of-backup line .*Nothing was restored\./);
    const log = ls.findIndex((l) => l.startsWith('{') && l.includes('"aircraftRegistration"'));
    ls[log] = ls[log]!.replace(/"pax":\d+/, '"pax":9');
    await refused(write('changed.jsonl', ls), /the backup is damaged at line \d+: the rows of table FlightLog do not match their SHA-256/);
  }, LONG);

  it('into a store that is not empty', async () => {
    const src = sources.pglite!;
    const r = await src.store.fleetops(['restore', plainBackup]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/^fleetops: the target store is not empty \(table Company has rows\): a backup is restored into an empty store only/);
    await src.store.use(async (db) => expect(await contents(db)).toEqual(src.contents));
  }, LONG);

  it('an aircraft total that its flight logs do not make', async () => {
    // as PostgreSQL wrote it: {"hobbs": 5103.7, ...}; a tenth more
    const ls = drifted('Aircraft', (row) => (row.includes('"companyId":"gen-') ? row.replace(/("totals":\{[^}]*"hobbs": )([\d.]+)/, (_, pre, v) => `${pre}${(Number(v) + 0.1).toFixed(1)}`) : null));
    await refused(write('totals.jsonl', ls), /the restored data does not verify, so nothing was restored \(rolled back\):\n {2}aircraft \S+-heli of gen-\w+: hobbs total is [\d.]+, its initial value and flight logs make [\d.]+\n/);
  }, LONG);

  it('rows that do not read back as the backup holds them (a file edited by hand: JSON re-serialised)', async () => {
    // the same values, but not as PostgreSQL writes them ({"hobbs": 1.2} becomes {"hobbs":1.2}): the check reads back text
    const ls = drifted('FlightLog', (row, i) => (i % 7 === 0 ? JSON.stringify(JSON.parse(row)) : null));
    await refused(write('reserialised.jsonl', ls), /the restored data does not verify, so nothing was restored \(rolled back\):\n {2}table FlightLog: the rows read back differ from the backup's\n/);
  }, LONG);

  it('a component counter that differs from the one the backup recorded', async () => {
    const ls = lines();
    const [f, v, header] = JSON.parse(ls[0]!);
    const [company, byUid] = Object.entries(header.check.componentCounters as Record<string, Record<string, Record<string, number>>>).find(([c]) => c.startsWith('gen-'))!;
    const [uid, counters] = Object.entries(byUid).find(([, c]) => 'hoursSinceNew' in c)!;
    counters.hoursSinceNew! += 0.5;
    ls[0] = JSON.stringify([f, v, header]);
    await refused(write('counter.jsonl', ls), new RegExp(`component ${uid} of ${company}: counter hoursSinceNew was [\\d.]+ in the backup, the restored logs make [\\d.]+`));
  }, LONG);

  it('a backup from a release with migrations this one lacks; a target past the backup', async () => {
    const ls = lines();
    const [f, v, header] = JSON.parse(ls[0]!);
    ls[0] = JSON.stringify([f, v, { ...header, migrations: [...header.migrations, '29990101000000_future'] }]);
    await refused(write('future.jsonl', ls), /^fleetops: the backup was taken by a newer or different fleetops release \(its migration 29990101000000_future is not this release's\): restore it with that release or a later one\. Nothing was restored\.\n$/);

    const older = JSON.parse(lines()[0]!);
    older[2].migrations = older[2].migrations.slice(0, -1);
    const past = lines();
    past[0] = JSON.stringify(older);
    await refused(write('older.jsonl', past), /^fleetops: the target database has migration \d+_\w+, which the backup's schema does not \(the backup is at \d+_\w+\): restore into a database no newer than the backup/);
  }, LONG);
});

describe('a snapshot while writes keep coming', () => {
  for (const kind of kinds) {
    it(`${kind}: the server keeps writing during the backup; the backup is one instant (totals equal their logs)`, async () => {
      const store = await emptyStore(kind);
      const file = path.join(tempDir('files'), 'live.jsonl');
      await store.use(async (db) => {
        const app = appOn(db);
        try {
          const g = await generateCompany(app, db, { logs: 300 });
          const heli = g.aircraft[0]!;
          const logsOf = async () => (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "FlightLog" WHERE "companyId" = $1`, [g.id]))[0]!.n;
          // a writer posting and deleting flight logs as fast as the store lets it
          let stop = false;
          let during = 0;
          let backingUp = false;
          const registration = (await db.sql.query<{ r: string }>(`SELECT registration AS r FROM "Aircraft" WHERE "companyId" = $1 AND uid = $2`, [g.id, heli]))[0]!.r;
          const writer = (async () => {
            for (let i = 0; !stop; i++) {
              const res = await app.fetch(
                new Request('http://fleetops.test/api/v1/flight-logs', {
                  method: 'POST',
                  headers: { authorization: `Bearer ${g.key}`, 'content-type': 'application/json' },
                  body: JSON.stringify({ timeDate: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), pilot: `${g.id.slice(0, 12)}-pilot`, aircraftId: heli, aircraftRegistration: registration, startLocation: 'A', endLocation: 'B', pax: 1, hobbs: 0.1, landings: 1 }),
                }),
              );
              if (res.status !== 201) throw new Error(`flight log refused: ${res.status} ${await res.text()}`);
              if (backingUp) during++;
            await new Promise((r) => setImmediate(r)); // as requests arriving over sockets do: the event loop turns between them
            }
          })();
          let failed: unknown;
          writer.catch((e) => (failed = e));
          while ((await logsOf()) < 310 && !failed) await new Promise((r) => setTimeout(r, 10));
          const before = await logsOf();
          backingUp = true;
          await writeBackup(db, file, { company: g.id });
          backingUp = false;
          const after = await logsOf();
          stop = true;
          await writer;
          expect(during, 'writes answered while the backup ran').toBeGreaterThan(0);

          const target = await emptyStore('pglite');
          const r = await target.fleetops(['restore', file]);
          expect(r.code, r.stderr).toBe(0);
          await target.use(async (restored) => {
            const n = (await restored.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "FlightLog"`))[0]!.n;
            expect(n).toBeGreaterThanOrEqual(before);
            expect(n).toBeLessThanOrEqual(after);
          });
        } finally {
          await app.close();
        }
      });
    }, LONG);
  }
});
