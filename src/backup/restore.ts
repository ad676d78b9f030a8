import type { Database, RawSql } from '../db/database.js';
import { appliedMigrations, applyMigrations, readMigrations } from '../db/migrate.js';
import type { OnProgress } from './backup.js';
import { BackupError, openBackup, rowsHash, rowsSetDigest, type BackupHeader, type TableHeader } from './format.js';
import { companyTables, ident, type BackupTable } from './model.js';
import { cursorName, declareRows, fetchRows, tableColumns } from './tables.js';
import { recomputeAndCompare } from './verify.js';

export interface RestoreSummary {
  header: BackupHeader;
  tables: number;
  rows: number;
  /** What the verification covered. */
  verified: { tables: number; rows: number; aircraft: number; components: number; counters: number };
  /** Migrations applied before loading (to the backup's level) and after (this release's newer ones). */
  migrated: { before: string[]; after: string[] };
  ms: number;
}

/** Rows per INSERT: one statement takes a JSON array of them (json_populate_recordset). */
const INSERT_ROWS = 1000;
const INSERT_BYTES = 4 << 20;

/**
 * `fleetops restore FILE` (docs/backup.md): loads a backup into an empty store of either kind, in one transaction
 * that also verifies it, so a backup is restored whole or not at all.
 *
 * 1. The header is read first: another format version, or a file that is not a backup, is refused before anything
 *    is touched.
 * 2. The target is brought to the backup's migrations (it may have fewer; more, or others, are refused), since the
 *    rows fit that schema; this release's newer migrations run after the load, as they would on the old store.
 * 3. In one transaction: every company table must be empty; user triggers are off while rows load (the stored
 *    rollups and counters come from the backup as they were, and are checked below instead of rebuilt); rows are
 *    inserted as PostgreSQL wrote them (json_populate_recordset: no number passes through JavaScript).
 * 4. Still in the transaction: row counts, a byte-for-byte read-back of every table against the backup's rows,
 *    every aircraft total and the flight-log rollup recomputed from the logs, every component counter recomputed
 *    from those totals against the value the backup recorded, every childCount. Any difference: rollback, exit 1.
 */
export async function restoreBackup(db: Database, file: string, opts: { onProgress?: OnProgress } = {}): Promise<RestoreSummary> {
  const started = performance.now();
  const backup = await openBackup(file);
  try {
    const { header } = backup;
    const known = new Map(companyTables().map((t) => [t.name, t]));
    const tables: BackupTable[] = header.tables.map((th) => {
      const t = known.get(th.name);
      if (!t) throw new BackupError(`the backup holds table ${th.name}, which this release's data model does not have: restore it with the release that wrote it`);
      return t;
    });
    // refused before anything changes (and checked again inside the loading transaction)
    await requireEmpty(db.sql, await tableColumns(db.sql));

    const total = header.tables.reduce((n, t) => n + t.rows, 0);
    let before: string[] = [];
    const result = await db.sql.transaction(async (tx) => {
      // the migrations to the backup's level run inside this transaction (PostgreSQL's DDL is transactional, and
      // applyMigrations runs in the transaction it is given): a refused restore leaves the target unmigrated too
      before = await migrateToBackupLevel(tx, header.migrations);
      await tx.exec(`SET LOCAL TimeZone = 'UTC'`);
      const columns = await tableColumns(tx);
      await requireEmpty(tx, columns);
      requireEveryTable(header, columns);
      for (const th of header.tables) {
        const have = columns.get(th.name);
        const missing = have ? th.columns.filter((c) => !have.includes(c)) : th.columns;
        if (missing.length) throw new BackupError(`table ${th.name} of the target has no column ${missing.join(', ')}: the target's schema is not the backup's`);
      }
      for (const t of tables) await tx.exec(`ALTER TABLE ${ident(t.name)} DISABLE TRIGGER USER`);
      const loaded = await load(tx, backup.lines, header, total, opts.onProgress);
      for (const t of tables) await tx.exec(`ALTER TABLE ${ident(t.name)} ENABLE TRIGGER USER`);
      const mismatches: string[] = [];
      let readBack = 0;
      for (const [i, t] of tables.entries()) {
        const th = header.tables[i]!;
        const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ident(t.name)}`);
        if (n !== th.rows) mismatches.push(`table ${t.name}: ${n} rows in the store, ${th.rows} in the backup`);
        const name = cursorName();
        await declareRows(tx, name, t, null, false);
        const hash = rowsSetDigest();
        for await (const chunk of fetchRows(tx, name)) {
          hash.update(chunk);
          readBack += chunk.length;
          opts.onProgress?.({ phase: 'verify', table: t.name, done: readBack, total });
        }
        await tx.exec(`CLOSE ${name}`);
        if (hash.digest() !== loaded.digests.get(t.name)) mismatches.push(`table ${t.name}: the rows read back differ from the backup's`);
      }
      const recomputed = await recomputeAndCompare(tx, header.check.componentCounters);
      mismatches.push(...recomputed.mismatches);
      if (mismatches.length) {
        const shown = mismatches.slice(0, 20);
        throw new BackupError(
          `the restored data does not verify, so nothing was restored (rolled back):\n  ${shown.join('\n  ')}` +
            (mismatches.length > shown.length ? `\n  ... and ${mismatches.length - shown.length} more` : ''),
        );
      }
      return { rows: loaded.rows, readBack, recomputed };
    });
    const after = await applyMigrations(db.sql);
    return {
      header,
      tables: tables.length,
      rows: result.rows,
      verified: { tables: tables.length, rows: result.readBack, aircraft: result.recomputed.aircraft, components: result.recomputed.components, counters: result.recomputed.counters },
      migrated: { before, after },
      ms: performance.now() - started,
    };
  } finally {
    backup.close();
  }
}

/**
 * Applies this release's migrations up to the backup's last one. The target may have none, or a first part of
 * them; a target that is past the backup's level, or a backup from a release with migrations this one lacks, is
 * refused with what to do instead.
 */
async function migrateToBackupLevel(sql: RawSql, wanted: string[]): Promise<string[]> {
  const ours = readMigrations().map((m) => m.name);
  const unknown = wanted.filter((m, i) => ours[i] !== m);
  if (unknown.length) {
    throw new BackupError(
      `the backup was taken by a newer or different fleetops release (its migration ${unknown[0]} is not this release's): ` +
        `restore it with that release or a later one. Nothing was restored.`,
    );
  }
  const applied = await appliedMigrations(sql);
  const ahead = applied.filter((m, i) => wanted[i] !== m);
  if (ahead.length) {
    throw new BackupError(
      `the target database has migration ${ahead[0]}, which the backup's schema does not (the backup is at ${wanted.at(-1) ?? 'no migration'}): ` +
        `restore into a database no newer than the backup (a new DATA_DIR, or an empty PostgreSQL database that \`fleetops serve\` has not started on); ` +
        `\`fleetops restore\` migrates it past the backup after loading. Nothing was restored.`,
    );
  }
  if (applied.length === wanted.length || !wanted.length) return [];
  return applyMigrations(sql, undefined, { through: wanted.at(-1)! });
}

async function requireEmpty(tx: RawSql, columns: Map<string, string[]>): Promise<void> {
  for (const t of companyTables()) {
    if (!columns.has(t.name)) continue;
    const rows = await tx.query(`SELECT 1 FROM ${ident(t.name)} LIMIT 1`);
    if (rows.length) {
      throw new BackupError(
        `the target store is not empty (table ${t.name} has rows): a backup is restored into an empty store only ` +
          `(a new DATA_DIR, or an empty PostgreSQL database). Nothing was restored.`,
      );
    }
  }
}

/**
 * The target is at the backup's migrations: the backup must hold exactly the company tables that schema has. A
 * backup whose header and sections leave a table out (cut by hand, or edited) would otherwise restore without it
 * and verify, since every check is made table by table against the header.
 */
function requireEveryTable(header: BackupHeader, columns: Map<string, string[]>): void {
  const inBackup = new Set(header.tables.map((t) => t.name));
  const inSchema = companyTables().filter((t) => columns.has(t.name)).map((t) => t.name);
  const missing = inSchema.filter((name) => !inBackup.has(name));
  if (missing.length) {
    throw new BackupError(
      `the backup has no table ${missing.join(', ')}, which the schema of its migrations has: the file is incomplete or was edited. Nothing was restored.`,
    );
  }
  const extra = header.tables.map((t) => t.name).filter((name) => !columns.has(name));
  if (extra.length) {
    throw new BackupError(
      `the backup holds table ${extra.join(', ')}, which the schema of its migrations does not have: the file was edited. Nothing was restored.`,
    );
  }
}

/** Loads the table sections in file order, checking each section's count and SHA-256 against its end line. */
async function load(
  tx: RawSql,
  lines: AsyncIterableIterator<import('./format.js').BackupLine>,
  header: BackupHeader,
  total: number,
  onProgress?: OnProgress,
): Promise<{ rows: number; digests: Map<string, string> }> {
  const digests = new Map<string, string>();
  let rows = 0;
  let current: {
    th: TableHeader;
    n: number;
    hash: ReturnType<typeof rowsHash>;
    set: ReturnType<typeof rowsSetDigest>;
    batch: string[];
    bytes: number;
    /** The file's line numbers of the batch's first and last rows. */
    lines: [number, number];
  } | null = null;
  let next = 0;
  let ended = false;
  const flush = async () => {
    const c = current!;
    if (!c.batch.length) return;
    const cols = c.th.columns.map(ident).join(', ');
    try {
      await tx.query(`INSERT INTO ${ident(c.th.name)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${ident(c.th.name)}, $1::json)`, [
        `[${c.batch.join(',')}]`,
      ]);
    } catch (e) {
      // a value that does not fit its column, a broken reference or key, a row that is not JSON: the file's fault
      const code = String((e as { code?: unknown }).code ?? '');
      if (!/^(22|23)/.test(code)) throw e;
      const [a, b] = c.lines;
      throw new BackupError(
        `the backup is damaged at ${a === b ? `line ${a}` : `lines ${a}-${b}`}: the database refuses rows of table ${c.th.name} (${(e as Error).message}). Nothing was restored.`,
      );
    }
    c.hash.update(c.batch);
    c.set.update(c.batch);
    c.n += c.batch.length;
    rows += c.batch.length;
    c.batch = [];
    c.bytes = 0;
    onProgress?.({ phase: 'restore', table: c.th.name, done: rows, total });
  };
  const damaged = (lineNo: number | string, what: string) => new BackupError(`the backup is damaged at line ${lineNo}: ${what}. Nothing was restored.`);
  for await (const line of lines) {
    if (ended) throw damaged('after the end', 'there is more after its end-of-backup line');
    if (line.kind === 'row') {
      if (!current) throw damaged('?', 'a row outside a table section');
      if (!current.batch.length) current.lines[0] = line.lineNo;
      current.lines[1] = line.lineNo;
      current.batch.push(line.text);
      current.bytes += line.text.length;
      if (current.batch.length >= INSERT_ROWS || current.bytes >= INSERT_BYTES) await flush();
      continue;
    }
    const [tag, name, info] = line.value as [string, unknown, Record<string, unknown> | undefined];
    if (tag === 'table') {
      const th = header.tables[next];
      if (current || !th || th.name !== name) throw damaged(line.lineNo, `table ${JSON.stringify(name)} is not the one its header announces next (${th?.name ?? 'none'})`);
      current = { th, n: 0, hash: rowsHash(), set: rowsSetDigest(), batch: [], bytes: 0, lines: [line.lineNo, line.lineNo] };
    } else if (tag === 'end') {
      if (!current || current.th.name !== name) throw damaged(line.lineNo, `an end line for ${JSON.stringify(name)} outside its section`);
      await flush();
      const sha = current.hash.digest();
      if (info?.rows !== current.n || current.n !== current.th.rows) {
        throw damaged(line.lineNo, `table ${current.th.name} has ${current.n} rows, its end line says ${String(info?.rows)} and the header ${current.th.rows}`);
      }
      if (info?.sha256 !== sha) throw damaged(line.lineNo, `the rows of table ${current.th.name} do not match their SHA-256`);
      digests.set(current.th.name, current.set.digest());
      current = null;
      next++;
    } else if (tag === 'end-of-backup') {
      if (current || next !== header.tables.length) throw damaged(line.lineNo, 'it ends before every table announced in its header');
      const counts = name as { tables?: unknown; rows?: unknown } | undefined; // ["end-of-backup", {tables, rows}]
      if (counts?.tables !== next || counts?.rows !== rows) {
        throw damaged(line.lineNo, `its end-of-backup line says ${String(counts?.tables)} tables and ${String(counts?.rows)} rows, the file holds ${next} tables and ${rows} rows`);
      }
      ended = true;
    } else {
      throw damaged(line.lineNo, `unknown line ${JSON.stringify(tag)}`);
    }
  }
  if (!ended) {
    throw new BackupError(
      `the backup is incomplete: it stops ${current ? `inside table ${current.th.name}` : `after ${next} of ${header.tables.length} tables`} without its end-of-backup line (a copy cut short?). Nothing was restored.`,
    );
  }
  return { rows, digests };
}
