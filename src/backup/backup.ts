import type { Database, RawSql } from '../db/database.js';
import { appliedMigrations } from '../db/migrate.js';
import { BackupError, BackupWriter, FORMAT, FORMAT_VERSION, type BackupHeader } from './format.js';
import { companyTables, type BackupTable } from './model.js';
import { countQuery, cursorName, declareRows, fetchRows, requireTables, tableColumns } from './tables.js';
import { componentCounters } from './verify.js';

/** Progress of a long run: rows done of the total, and the table being worked on. */
export interface Progress {
  phase: 'backup' | 'restore' | 'verify';
  table: string;
  done: number;
  total: number;
}
export type OnProgress = (p: Progress) => void;

export interface BackupSummary {
  file: string;
  companies: string[];
  tables: number;
  rows: number;
  bytes: number;
  /** How long the store was held for the snapshot (PGlite: writes wait this long; PostgreSQL: nobody waits). */
  snapshotMs: number;
  ms: number;
}

/**
 * `fleetops backup FILE [--company ID]` (docs/backup.md): one consistent snapshot of every company table, written
 * while the server keeps serving.
 *
 * - PostgreSQL: one REPEATABLE READ READ ONLY transaction on its own connection; every table is read through a
 *   cursor inside it. Writers are never blocked; they simply are not in the snapshot.
 * - PGlite is one connection (one session) shared with the server: a transaction held open for the whole backup
 *   would stop every request for its length. Instead one short transaction declares a WITH HOLD cursor per table,
 *   and at its commit PostgreSQL materialises all of them from that transaction's snapshot; the rows are then
 *   fetched in chunks between the server's own statements. Writes wait only for the materialisation.
 */
export async function writeBackup(db: Database, file: string, opts: { company?: string; onProgress?: OnProgress } = {}): Promise<BackupSummary> {
  const started = performance.now();
  const tables = companyTables();
  const writer = BackupWriter.open(file);
  try {
    let snapshotMs = 0;
    let header: BackupHeader;
    let rows = 0;
    const cursors = tables.map(() => cursorName());
    const prepare = async (tx: RawSql) => {
      const t0 = performance.now();
      await tx.exec(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL TimeZone = 'UTC'`);
      header = await readHeader(tx, db, tables, opts.company);
      const companies = header.scope === 'all' ? null : header.companies;
      for (const [i, t] of tables.entries()) await declareRows(tx, cursors[i]!, t, companies, db.kind === 'pglite');
      snapshotMs = performance.now() - t0;
    };
    const write = async (sql: RawSql) => {
      const t0 = performance.now();
      await writer.control([FORMAT, FORMAT_VERSION, header]);
      const total = header.tables.reduce((n, t) => n + t.rows, 0);
      for (const [i, t] of tables.entries()) {
        const th = header.tables[i]!;
        await writer.beginTable(th);
        let n = 0;
        for await (const chunk of fetchRows(sql, cursors[i]!)) {
          await writer.rows(chunk);
          n += chunk.length;
          rows += chunk.length;
          opts.onProgress?.({ phase: 'backup', table: t.name, done: rows, total });
        }
        if (n !== th.rows) throw new Error(`backup: ${t.name} gave ${n} rows in the snapshot that counted ${th.rows}`);
        opts.onProgress?.({ phase: 'backup', table: t.name, done: rows, total });
        await writer.endTable(t.name, n);
      }
      await writer.control(['end-of-backup', { tables: tables.length, rows }]);
      return performance.now() - t0;
    };
    if (db.kind === 'postgres') {
      await db.sql.transaction(async (tx) => {
        await prepare(tx);
        await write(tx);
      });
    } else {
      // the materialisation happens at this commit: it is what the server's writes wait for
      const t0 = performance.now();
      await db.sql.transaction(prepare);
      snapshotMs = performance.now() - t0;
      try {
        await write(db.sql);
      } finally {
        for (const c of cursors) await db.sql.exec(`CLOSE ${c}`).catch(() => {});
      }
    }
    const bytes = await writer.finish();
    return { file, companies: header!.companies, tables: tables.length, rows, bytes, snapshotMs, ms: performance.now() - started };
  } catch (e) {
    await writer.abort();
    throw e;
  }
}

async function readHeader(tx: RawSql, db: Database, tables: BackupTable[], company: string | undefined): Promise<BackupHeader> {
  const columns = await tableColumns(tx);
  requireTables(columns, tables, 'the database');
  let companies: string[];
  if (company !== undefined) {
    const found = await tx.query(`SELECT 1 FROM "Company" WHERE id = $1`, [company]);
    if (!found.length) throw new BackupError(`there is no company ${JSON.stringify(company)} to back up`);
    companies = [company];
  } else {
    companies = (await tx.query<{ id: string }>(`SELECT id FROM "Company" ORDER BY id COLLATE "C"`)).map((r) => r.id);
  }
  const filter = company !== undefined ? companies : null;
  const counts: number[] = [];
  for (const t of tables) {
    const q = countQuery(t, filter);
    counts.push((await tx.query<{ n: number }>(q.text, q.params))[0]!.n);
  }
  const [{ v }] = await tx.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
  const [{ now }] = await tx.query<{ now: string }>(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now`);
  const counters = await componentCounters(tx, false, filter);
  return {
    createdAt: now,
    source: { database: db.kind, serverVersion: v },
    migrations: await appliedMigrations(tx),
    scope: company !== undefined ? 'company' : 'all',
    companies,
    tables: tables.map((t, i) => ({ name: t.name, columns: columns.get(t.name)!, rows: counts[i]! })),
    check: { componentCounters: counters },
  };
}
