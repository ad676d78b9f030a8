// fleetops restore refuses a wrong or edited backup (docs/backup.md "Restore"): a clear message on stderr (no stack
// trace), exit 1, and the target store as it was (no rows, no migrations it did not have, no database created in a
// DATA_DIR that had none); fleetops backup's file is 0600 whatever an earlier run left; docs/backup.md names every
// table a backup holds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../bench/pg.js';
import { rowsHash } from '../src/backup/format.js';
import { companyTables } from '../src/backup/model.js';
import { runCli } from '../src/cli/main.js';
import { embeddedDatabaseIn, openDatabase, type Database } from '../src/db/database.js';
import { appliedMigrations, readMigrations } from '../src/db/migrate.js';
import { loadDemo } from '../src/modules/companies/demo.js';
import { companyRowCount, onPostgres, openEmbeddedTestDatabase } from './helpers.js';

const LONG = 180_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fobak-refusals-'));
const opened: Database[] = [];
const dropped: (() => Promise<void>)[] = [];
let source: Database;
let lines: string[];

const BASE_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'LOG_LEVEL']) delete env[k];
  return { ...env, LOG_LEVEL: 'silent' };
})();

beforeAll(async () => {
  source = await openEmbeddedTestDatabase();
  opened.push(source);
  await loadDemo(source);
  const file = path.join(dir, 'all.jsonl');
  const r = await runCli(['backup', file], { database: source, cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
}, LONG);
afterAll(async () => {
  for (const d of opened) await d.close().catch(() => {});
  for (const drop of dropped) await drop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, ls: string[]): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, ls.join('\n') + '\n');
  return f;
}
const section = (ls: string[], table: string) => ({
  start: ls.findIndex((l) => l.startsWith(`["table","${table}",`)),
  end: ls.findIndex((l) => l.startsWith(`["end","${table}",`)),
});
/** The backup without the sections of `tables` and their header entries. */
function without(tables: Set<string>): string[] {
  let ls = [...lines];
  for (const name of tables) {
    const { start, end } = section(ls, name);
    expect(end - start - 1, `rows of ${name} in the demo company`).toBeGreaterThanOrEqual(0);
    ls = [...ls.slice(0, start), ...ls.slice(end + 1)];
  }
  const [f, v, header] = JSON.parse(ls[0]!);
  header.tables = header.tables.filter((t: { name: string }) => !tables.has(t.name));
  ls[0] = JSON.stringify([f, v, header]);
  return ls;
}
/** The backup with its header changed by `edit`. */
function withHeader(edit: (header: Record<string, any>) => void): string[] {
  const ls = [...lines];
  const [f, v, header] = JSON.parse(ls[0]!);
  edit(header);
  ls[0] = JSON.stringify([f, v, header]);
  return ls;
}
/** The backup with rows of `table` edited, its SHA-256 made to match again. */
function editedRows(table: string, edit: (row: string, i: number) => string): string[] {
  const ls = [...lines];
  const { start, end } = section(ls, table);
  for (let i = start + 1; i < end; i++) ls[i] = edit(ls[i]!, i - start - 1);
  const h = rowsHash();
  h.update(ls.slice(start + 1, end));
  const [tag, name, info] = JSON.parse(ls[end]!);
  ls[end] = JSON.stringify([tag, name, { ...info, sha256: h.digest() }]);
  return ls;
}


/** The backup with the first aircraft's hobbs total a tenth more than its flight logs make (its SHA-256 made to match). */
function driftedTotal(): string[] {
  let edited = false;
  const ls = editedRows('Aircraft', (row) => {
    if (edited) return row;
    const next = row.replace(/("totals":\{"hobbs": )([\d.]+)/, (_, pre, v) => `${pre}${(Number(v) + 0.1).toFixed(1)}`);
    edited = next !== row;
    return next;
  });
  expect(edited).toBe(true);
  return ls;
}

/** The backup with an aircraft's engineCount "two" (its SHA-256 made to match). */
function badEngineCount(): string[] {
  let edited = false;
  const ls = editedRows('Aircraft', (row) => {
    if (edited || !/"engineCount":\d+/.test(row)) return row;
    edited = true;
    return row.replace(/"engineCount":\d+/, '"engineCount":"two"');
  });
  expect(edited).toBe(true);
  return ls;
}

/** A migrated empty store, or (`migrated: false`) a new one without any migration. */
async function store({ migrated = true } = {}): Promise<Database> {
  const db = migrated ? await openEmbeddedTestDatabase() : await openDatabase({ dataDir: 'memory://', migrate: false });
  opened.push(db);
  return db;
}

/** `fleetops restore FILE` into `db` is refused with `message`, and `db` is left as it was (rows and migrations). */
async function refused(file: string, message: RegExp, db: Database): Promise<void> {
  const migrations = await appliedMigrations(db.sql);
  const r = await runCli(['restore', file], { database: db, cwd: dir });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  // what is left once the progress lines (restore: and verify:, a backup of over 1,000 rows) are taken out
  const said = r.stderr.replace(/^(restore|verify): .*\n/gm, '');
  expect(said).toMatch(/^fleetops: /);
  expect(said).not.toMatch(/TypeError|\n\s+at /);
  expect(said).toMatch(message);
  expect(await companyRowCount(db)).toBe(0);
  expect(await appliedMigrations(db.sql)).toEqual(migrations);
}

describe('fleetops restore refuses a backup that lacks tables its migrations have', () => {
  it('the ApiKey section and its header entry taken out', async () => {
    await refused(
      write('no-apikey.jsonl', without(new Set(['ApiKey']))),
      /^fleetops: the backup has no table ApiKey, which the schema of its migrations has: the file is incomplete or was edited\. Nothing was restored\.\n$/,
      await store(),
    );
  }, LONG);

  it('ScheduleItem and the tables referring to it taken out, into a new store', async () => {
    const out = new Set(['ScheduleItem']);
    for (const t of companyTables()) if (t.refersTo.some((r) => out.has(r))) out.add(t.name);
    expect(out.size).toBeGreaterThan(1);
    await refused(write('no-schedule.jsonl', without(out)), /^fleetops: the backup has no table ScheduleItem, [^\n]*, which the schema of its migrations has/, await store({ migrated: false }));
  }, LONG);
});

describe('fleetops restore refuses a damaged file', () => {
  it('an end-of-backup line whose counts are not the file’s', async () => {
    const ls = [...lines];
    const [, info] = JSON.parse(ls.at(-1)!);
    ls[ls.length - 1] = JSON.stringify(['end-of-backup', { tables: info.tables, rows: info.rows + 1 }]);
    await refused(write('bad-end-rows.jsonl', ls), new RegExp(`^fleetops: the backup is damaged at line ${ls.length}: its end-of-backup line says ${info.tables} tables and ${info.rows + 1} rows, the file holds ${info.tables} tables and ${info.rows} rows\\. Nothing was restored\\.\\n$`), await store());
    ls[ls.length - 1] = JSON.stringify(['end-of-backup', { tables: info.tables + 5, rows: info.rows }]);
    await refused(write('bad-end-tables.jsonl', ls), /its end-of-backup line says \d+ tables and \d+ rows, the file holds/, await store());
    ls[ls.length - 1] = JSON.stringify(['end-of-backup']);
    await refused(write('bad-end-none.jsonl', ls), /its end-of-backup line says undefined tables and undefined rows/, await store());
  }, LONG);

  it('a header without its check figures, or with a table entry without columns, or other fields of the wrong shape', async () => {
    const db = await store({ migrated: false });
    await refused(write('no-check.jsonl', withHeader((h) => delete h.check)), /^fleetops: no-check\.jsonl: the header of this backup is damaged \(check\.componentCounters is missing or not an object\)\. Nothing was restored\.\n$/, db);
    await refused(write('no-columns.jsonl', withHeader((h) => delete h.tables[0].columns)), /^fleetops: no-columns\.jsonl: the header of this backup is damaged \(tables\[0\]\.columns is missing or not a list of names\)\. Nothing was restored\.\n$/, db);
    await refused(write('rows-text.jsonl', withHeader((h) => (h.tables[1].rows = '3'))), /the header of this backup is damaged \(tables\[1\]\.rows is missing or not a count\)/, db);
    await refused(write('counter-text.jsonl', withHeader((h) => (h.check.componentCounters.demo = { c1: { hours: '12' } }))), /the header of this backup is damaged \(check\.componentCounters\.demo\.c1\.hours is not a number\)/, db);
    await refused(write('no-source.jsonl', withHeader((h) => delete h.source)), /the header of this backup is damaged \(source is missing or not an object\)/, db);
    await refused(write('migration-number.jsonl', withHeader((h) => (h.migrations = [1]))), /the header of this backup is damaged \(migrations is missing or not a list of names\)/, db);
    await refused(write('dup-table.jsonl', withHeader((h) => h.tables.push(h.tables[0]))), /the header of this backup is damaged \(table Company is listed twice\)/, db);
  }, LONG);

  it('a row that does not fit its column (its SHA-256 made to match): refused as damaged, naming the table and lines', async () => {
    const ls = badEngineCount();
    const { start, end } = section(ls, 'Aircraft');
    await refused(
      write('bad-value.jsonl', ls),
      new RegExp(`^fleetops: the backup is damaged at lines ${start + 2}-${end}: the database refuses rows of table Aircraft \\(.*"two".*\\)\\. Nothing was restored\\.\\n$`),
      await store(),
    );
  }, LONG);
});

describe('a refused restore leaves the target as it was', () => {
  it('a new store whose restore fails verification is not migrated either', async () => {
    await refused(write('drifted.jsonl', driftedTotal()), /^fleetops: the restored data does not verify, so nothing was restored \(rolled back\):\n {2}aircraft /, await store({ migrated: false }));
  }, LONG);

  it.skipIf(!onPostgres)('a new PostgreSQL database: a restore that fails verification, or holds a row that does not fit, leaves it without migrations or rows', async () => {
    const temp = await createTempDatabase(process.env.TEST_DATABASE_URL!, 'fleetops_refusals');
    dropped.push(() => temp.drop());
    const db = await openDatabase({ databaseUrl: temp.url, migrate: false });
    opened.push(db);
    const env = { ...BASE_ENV, DATABASE_URL: temp.url };
    const cases: [string, string[], RegExp][] = [
      ['pg-drifted.jsonl', driftedTotal(), /^fleetops: the restored data does not verify, so nothing was restored \(rolled back\):\n {2}aircraft /],
      ['pg-bad-value.jsonl', badEngineCount(), /^fleetops: the backup is damaged at lines? [\d-]+: the database refuses rows of table Aircraft \(.*"two".*\)\. Nothing was restored\.\n$/],
      ['pg-no-apikey.jsonl', without(new Set(['ApiKey'])), /^fleetops: the backup has no table ApiKey, which the schema of its migrations has/],
    ];
    for (const [name, ls, message] of cases) {
      const r = await runCli(['restore', write(name, ls)], { env, cwd: dir });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.replace(/^(restore|verify): .*\n/gm, '')).toMatch(message);
      expect(await appliedMigrations(db.sql)).toEqual([]);
      expect(await companyRowCount(db)).toBe(0);
    }
  }, LONG);

  it('a new store that takes a good backup is migrated to this release', async () => {
    const db = await store({ migrated: false });
    const r = await runCli(['restore', write('good.jsonl', lines)], { database: db, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(await appliedMigrations(db.sql)).toEqual(readMigrations().map((m) => m.name));
    expect(await companyRowCount(db)).toBe(lines.filter((l) => l.startsWith('{')).length);
  }, LONG);

  it('a file that is not a backup, into a DATA_DIR that holds no database: refused before any database is created there', async () => {
    const file = write('not-a-backup.json', ['{"companies": []}']);
    const dataDir = path.join(dir, 'typo-data-dir');
    const r = await runCli(['restore', file], { env: { ...BASE_ENV, DATA_DIR: dataDir }, cwd: dir });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'fleetops: not-a-backup.json is not a fleetops backup (its first line is not ["fleetops-backup", version, ...])\n' });
    expect(embeddedDatabaseIn(dataDir)).toBe(false);
    expect(fs.existsSync(dataDir)).toBe(false);
    // and a backup of that DATA_DIR is still refused, not taken of an empty store
    const b = await runCli(['backup', path.join(dir, 'b.jsonl')], { env: { ...BASE_ENV, DATA_DIR: dataDir }, cwd: dir });
    expect(b.code, b.stdout).toBe(1);
    expect(b.stderr).toMatch(/there is no embedded database in/);
  }, LONG);
});

describe('fleetops backup', () => {
  it('writes its file with mode 0600 even over a FILE.partial an interrupted run left world-readable', async () => {
    const file = path.join(dir, 'secrets.jsonl');
    fs.writeFileSync(`${file}.partial`, 'left by a backup killed half-way\n');
    fs.chmodSync(`${file}.partial`, 0o644);
    const r = await runCli(['backup', file], { database: source, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^\["fleetops-backup",1,/);
  }, LONG);
});

describe('docs/backup.md', () => {
  const doc = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'backup.md'), 'utf8');
  it('its table of what a backup holds names every table a backup holds, and no other', () => {
    const part = doc.slice(doc.indexOf('## What is in a backup'), doc.indexOf('Not in it:'));
    // the first column's model names (`Aircraft` (with `totals`): the names begin with a capital)
    const named = [...part.matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z]\w*)`/g)].map((x) => x[1]!));
    expect([...named].sort()).toEqual(companyTables().map((t) => t.name).sort());
  });
  it('its count of the tables, and its example of the last line, are the number of tables there are', () => {
    expect(doc).toMatch(new RegExp(`Today, ${companyTables().length}\\s+tables`));
    expect(doc).toContain(`["end-of-backup", {"tables": ${companyTables().length}, "rows": 123456}]`);
  });
});
