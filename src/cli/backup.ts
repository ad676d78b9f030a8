import fs from 'node:fs';
import path from 'node:path';
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import { embeddedDatabaseIn, openDatabase, type Database } from '../db/database.js';
import { lockHolder } from '../db/data-dir-lock.js';
import type { OnProgress, Progress } from '../backup/backup.js';
import { BackupError, FORMAT_VERSION, openBackup } from '../backup/format.js';
import type { Io } from './main.js';
import { terminalBar } from './progress.js';

/**
 * `fleetops backup`, `fleetops restore` and `fleetops move-to-postgres` (docs/backup.md, docs/contract/gaps.md §15).
 * The work is in src/backup/; this file parses the commands, shows progress and prints the outcome.
 */
export type BackupCliIo = Pick<Io, 'out' | 'err' | 'writeErr' | 'cwd' | 'tty' | 'columns' | 'server'>;

type WithDb = <T>(fn: (db: Database) => Promise<T>, opts?: { migrate?: boolean }) => Promise<T>;

const n = (x: number) => x.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const size = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`);
const storeName = (db: Database) => (db.kind === 'pglite' ? 'the embedded database' : 'PostgreSQL');
const companiesText = (list: string[]) => `${list.length} compan${list.length === 1 ? 'y' : 'ies'}${list.length ? ` (${list.slice(0, 5).join(', ')}${list.length > 5 ? ', ...' : ''})` : ''}`;

/** Runs under 1,000 rows finish before progress would help; above that: a bar on a terminal, else a line per tenth. */
const QUIET_BELOW = 1000;

/** Progress of backup, restore and verification: a bar on a terminal, otherwise a line at every tenth of the rows. */
export function progressReporter(io: BackupCliIo): { onProgress: OnProgress; stop(): void } {
  let bar: SingleBar | undefined;
  let phase: Progress['phase'] | undefined;
  let step = -1;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  const onProgress: OnProgress = (p) => {
    if (p.total < QUIET_BELOW) return;
    if (p.phase !== phase) {
      stop();
      phase = p.phase;
      step = -1;
      bar = terminalBar(io, `${p.phase.padEnd(7)} {bar} {value}/{total} rows  {table}`);
      bar?.start(p.total, 0, { table: p.table });
    }
    if (bar) return void bar.update(p.done, { table: p.table });
    const tenth = Math.floor((p.done * 10) / p.total);
    if (tenth > step) {
      step = tenth;
      io.err(`${p.phase}: ${n(p.done)}/${n(p.total)} rows (${tenth * 10}%), ${p.table}`);
    }
  };
  return { onProgress, stop };
}

export function registerBackupCommands(cmd: Command, io: BackupCliIo, withDb: WithDb, config: () => Config): void {
  cmd
    .command('backup')
    .description('write a consistent snapshot of every company (or one) to FILE while the server keeps serving (docs/backup.md)')
    .argument('<file>', 'the backup file; gzip-compressed when it ends in .gz')
    .option('--company <id>', 'back up this company only')
    .option('--force', 'replace FILE if it exists')
    .action(async (file: string, o: { company?: string; force?: boolean }) => {
      const target = path.resolve(io.cwd, file);
      if (fs.existsSync(target) && !o.force) throw new BackupError(`${file} exists already; choose another name, or pass --force to replace it`);
      const c = config();
      if (!c.databaseUrl && !io.server && !embeddedDatabaseIn(c.dataDir)) throw new BackupError(noEmbeddedDatabase(c.dataDir));
      await withDb(async (db) => {
        const { writeBackup } = await import('../backup/backup.js');
        const progress = progressReporter(io);
        try {
          const s = await writeBackup(db, target, { company: o.company, onProgress: progress.onProgress });
          progress.stop();
          io.out(
            `backup of ${companiesText(s.companies)} from ${storeName(db)} written to ${file}: ${s.tables} tables, ${n(s.rows)} rows, ` +
              `${size(s.bytes)} in ${secs(s.ms)} (snapshot taken in ${secs(s.snapshotMs)}); format version ${FORMAT_VERSION}`,
          );
        } finally {
          progress.stop();
        }
      });
    });

  cmd
    .command('restore')
    .description('load a backup into an empty store (this DATA_DIR, or DATABASE_URL) and verify it, in one transaction (docs/backup.md)')
    .argument('<file>', 'a file written by `fleetops backup`')
    .action(async (file: string) => {
      // the header first: a file that is not a backup (or not one this release reads) is refused before the store is
      // opened, since opening an embedded database that does not exist creates one (a mistyped DATA_DIR)
      const backup = await openBackup(path.resolve(io.cwd, file));
      backup.close();
      await withDb(
        async (db) => {
          await restoreInto(db, path.resolve(io.cwd, file), file, io);
        },
        { migrate: false },
      );
    });

  cmd
    .command('move-to-postgres')
    .description('move the embedded database (DATA_DIR) to the PostgreSQL database at URL: backup, restore, verify, then print the DATABASE_URL line to set')
    .argument('<url>', 'postgres://user:password@host:5432/database, an empty database')
    .option('--backup <file>', 'where to keep the backup the move is made from (default: DATA_DIR/backups/move-to-postgres-<time>.jsonl.gz)')
    .action(async (url: string, o: { backup?: string }) => {
      if (!/^postgres(ql)?:\/\//.test(url)) throw new BackupError(`${url} is not a PostgreSQL URL (postgres://user:password@host:5432/database)`);
      const c = config();
      const holder = lockHolder(c.dataDir);
      if (io.server || holder !== null) {
        throw new BackupError(
          `a fleetops process (pid ${holder ?? process.pid}) holds the embedded database in ${c.dataDir}: stop it first, ` +
            `so that no write made after the move stays behind in the embedded database (\`fleetops backup\` works while a server runs)`,
        );
      }
      if (!embeddedDatabaseIn(c.dataDir)) throw new BackupError(noEmbeddedDatabase(c.dataDir));
      if (c.databaseUrl) io.err(`note: DATABASE_URL is set already; the embedded database in ${c.dataDir} is what is moved`);
      const file = o.backup ? path.resolve(io.cwd, o.backup) : defaultMoveBackup(c.dataDir);
      if (fs.existsSync(file)) throw new BackupError(`${file} exists already; choose another --backup file`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const { writeBackup } = await import('../backup/backup.js');
      const source = await openDatabase({ dataDir: c.dataDir });
      io.out(`moving the embedded database in ${c.dataDir} to PostgreSQL`);
      try {
        const progress = progressReporter(io);
        try {
          const s = await writeBackup(source, file, { onProgress: progress.onProgress });
          progress.stop();
          io.out(`backup of ${companiesText(s.companies)}: ${s.tables} tables, ${n(s.rows)} rows, kept at ${file}`);
        } finally {
          progress.stop();
        }
      } finally {
        await source.close();
      }
      const target = await openDatabase({ databaseUrl: url, migrate: false });
      await target.sql.query('SELECT 1').catch(async (e: Error) => {
        await target.close();
        throw new BackupError(`cannot reach ${redact(url)}: ${e.message}`);
      });
      try {
        await restoreInto(target, file, file, io);
      } finally {
        await target.close();
      }
      io.out(`the embedded database in ${c.dataDir} is left as it was. Set this (in the environment or .env) and start \`fleetops serve\`:`);
      io.out(`DATABASE_URL=${url}`);
    });
}

async function restoreInto(db: Database, file: string, shown: string, io: BackupCliIo): Promise<void> {
  const { restoreBackup } = await import('../backup/restore.js');
  const progress = progressReporter(io);
  try {
    const r = await restoreBackup(db, file, { onProgress: progress.onProgress });
    progress.stop();
    const h = r.header;
    io.out(
      `restored ${shown} (format version ${FORMAT_VERSION}, taken ${h.createdAt} from ${h.source.database === 'pglite' ? 'an embedded database' : 'PostgreSQL'}) ` +
        `into ${storeName(db)}: ${companiesText(h.companies)}, ${r.tables} tables, ${n(r.rows)} rows in ${secs(r.ms)}`,
    );
    io.out(
      `verified: all ${r.verified.tables} tables read back, row for row as in the backup; totals of ${n(r.verified.aircraft)} aircraft recomputed ` +
        `from the flight logs; ${n(r.verified.counters)} counters of ${n(r.verified.components)} components recomputed from those totals; every childCount counted again`,
    );
    if (r.migrated.after.length) io.out(`then applied ${r.migrated.after.length} newer migration(s): ${r.migrated.after.join(', ')}`);
  } finally {
    progress.stop();
  }
}

/** What a command that reads the embedded data says when DATA_DIR has none (a wrong DATA_DIR or working directory). */
function noEmbeddedDatabase(dataDir: string): string {
  return `there is no embedded database in ${dataDir} (DATA_DIR): nothing to read. Set DATA_DIR to the directory the server uses, or DATABASE_URL for PostgreSQL`;
}

/** DATA_DIR/backups/move-to-postgres-<time>.jsonl.gz, numbered when a move of the same millisecond left one. */
function defaultMoveBackup(dataDir: string): string {
  const base = path.join(dataDir, 'backups', `move-to-postgres-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  let file = `${base}.jsonl.gz`;
  for (let n = 2; fs.existsSync(file); n++) file = `${base}-${n}.jsonl.gz`;
  return file;
}

/** A URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the URL';
  }
}
