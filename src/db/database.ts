import type { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import fs from 'node:fs';
import path from 'node:path';
import { PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock } from './data-dir-lock.js';
import { applyMigrations } from './migrate.js';
import { instrumentAdapter, type QueryListener } from './instrument.js';

/** A raw SQL connection that works the same on PGlite and PostgreSQL (used by migrations and tests). */
export interface RawSql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Run statements (several separated by `;`) without parameters. */
  exec(text: string): Promise<void>;
  /** Run `fn` on one connection inside BEGIN/COMMIT. */
  transaction<T>(fn: (sql: RawSql) => Promise<T>): Promise<T>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Connection-pool figures (PostgreSQL): total, idle and waiting clients. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Unscoped client: only for auth, CLI and migrations. Requests use the company-scoped client (scoped.ts). */
  prisma: PrismaClient;
  sql: RawSql;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /**
   * Hears `NOTIFY channel` from other processes on the same database (PostgreSQL only: an embedded database has
   * one process). `onState(false)` is called whenever the listening connection is down, when notifications may be
   * missed, and `onState(true)` once it listens again; it is re-opened with a growing pause. Returns a function
   * that stops listening.
   */
  listen?(channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void): Promise<() => Promise<void>>;
  /**
   * This process's own connection (PostgreSQL only), for session-level advisory locks that say "this process is
   * alive and working on X": PostgreSQL releases them when the process dies, whatever it was doing (the delivery
   * dispatcher and Idempotency-Key claims). Opened on first use and again after it was lost.
   */
  session?: Session;
  /** The embedded database's data directory as one archive (PGlite `dumpDataDir`), to open copies from. */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

/** One connection of this process, kept open (see `Database.session`). */
export interface Session {
  /** Runs a statement on the connection, opening it first when needed; throws while it cannot be opened. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Moves on every new connection: the session-level locks taken on an older one were released with it. */
  readonly generation: number;
  close(): Promise<void>;
}

/** The \`application_name\` of a process's connection that listens on \`channel\`. */
export function listenerName(channel: string): string {
  return `fleetops listen ${channel}`;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** Directory of the embedded database (when no databaseUrl); `memory://` for a throw-away in-memory one. */
  dataDir?: string;
  migrate?: boolean;
  /** Called with every SQL statement Prisma sends (tests count statements; trace logging). */
  onQuery?: QueryListener;
  /**
   * For `memory://`: start from this snapshot of a data directory (PGlite `dumpDataDir`) instead of creating a new
   * cluster, which takes seconds; the tests open one migrated snapshot per file this way (test/global-setup.ts).
   */
  snapshot?: Blob;
  /** PostgreSQL: how many distinct statements are prepared (DATABASE_STATEMENT_CACHE, src/db/statement-cache.ts); 0 none. */
  statementCache?: number;
}

function pgliteSql(db: PGlite): RawSql {
  const self: RawSql = {
    async query<T>(text: string, params?: unknown[]) {
      return (await db.query<T>(text, params)).rows;
    },
    async exec(text) {
      await db.exec(text);
    },
    async transaction(fn) {
      return db.transaction(async (tx) => {
        const inner: RawSql = {
          query: async <T,>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows,
          exec: async (text) => void (await tx.exec(text)),
          transaction: (f) => f(inner),
        };
        return fn(inner);
      });
    },
  };
  return self;
}

/**
 * Whether DATA_DIR holds an embedded database (a PostgreSQL cluster in DATA_DIR/pglite). Opening one that does not
 * exist creates it, which a command that reads the data (backup, move-to-postgres) must not take for the data.
 */
export function embeddedDatabaseIn(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));
}

/**
 * The embedded database's buffer pool. PostgreSQL's default, 128 MB, is zeroed by WebAssembly at every start: about
 * 0.45 s of a 2 s start on a 2-core machine, and 128 MB resident before the first request. 32 MB starts about 0.3 s
 * sooner and holds 80 MB less; pages beyond it are read from PGlite's files (the OS cache), and a scan of 100,000
 * logs was no slower (docs/benchmarks.md, 2026-11-29; decision 0003).
 */
export const EMBEDDED_SHARED_BUFFERS = '32MB';

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  let db: Database;
  if (opts.databaseUrl) {
    // PostgreSQL's modules (pg, the Prisma adapter) load only when it is used: the embedded store starts without them
    const { openPostgres } = await import('./postgres.js');
    db = openPostgres(opts.databaseUrl, opts.onQuery, opts.statementCache);
  } else {
    const dataDir = opts.dataDir ?? path.resolve('data');
    const memory = dataDir.startsWith('memory://');
    // the embedded database's modules load only when it is used (not on PostgreSQL)
    const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
    const release = memory ? () => {} : acquireDataDirLock(dataDir);
    let lite: PGlite;
    try {
      const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`];
      lite = memory
        ? new PGlite({ startParams, ...(opts.snapshot ? { loadDataDir: opts.snapshot } : {}) })
        : new PGlite(path.join(dataDir, 'pglite'), { startParams });
      await lite.waitReady;
    } catch (e) {
      release();
      throw e;
    }
    const adapterFactory = new PrismaPGlite(lite);
    const prisma = new PrismaClient({ adapter: opts.onQuery ? instrumentAdapter(adapterFactory, opts.onQuery) : adapterFactory });
    db = {
      kind: 'pglite',
      snapshot: () => lite.dumpDataDir('none'),
      prisma,
      sql: pgliteSql(lite),
      adapterFactory,
      async close() {
        await prisma.$disconnect();
        await lite.close();
        release();
      },
    };
  }
  if (opts.migrate !== false) {
    try {
      await applyMigrations(db.sql);
    } catch (e) {
      await db.close();
      throw e;
    }
  }
  return db;
}
