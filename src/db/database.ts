import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import path from 'node:path';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock } from './data-dir-lock.js';
import { applyMigrations } from './migrate.js';
import { pgPool } from './pg-pool.js';
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

function pgSession(connectionString: string): Session {
  let client: Promise<pg.Client> | null = null;
  let generation = 0;
  let closed = false;
  const open = (): Promise<pg.Client> => {
    if (closed) return Promise.reject(new Error('the database session is closed'));
    if (client) return client;
    const c = new pg.Client({ connectionString });
    const lost = () => {
      if (client === opened) client = null;
    };
    c.on('error', lost);
    c.on('end', lost);
    const opened: Promise<pg.Client> = c.connect().then(
      () => {
        generation++;
        return c;
      },
      (e) => {
        lost();
        throw e;
      },
    );
    client = opened;
    return opened;
  };
  // one statement at a time on the connection (pg deprecates overlapping calls on one client)
  let tail: Promise<unknown> = Promise.resolve();
  return {
    query<T>(text: string, params?: unknown[]) {
      const run = tail.then(async () => (await (await open()).query(text, params as unknown[])).rows as T[]);
      tail = run.catch(() => {});
      return run;
    },
    get generation() {
      return generation;
    },
    async close() {
      closed = true;
      const c = client;
      client = null;
      await c?.then((x) => x.end()).catch(() => {});
    },
  };
}

/** The \`application_name\` of a process's connection that listens on \`channel\`. */
export function listenerName(channel: string): string {
  return `fleetops listen ${channel}`;
}

function pgListener(connectionString: string) {
  return async (channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void) => {
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    let pause = 250;
    const connect = async (): Promise<void> => {
      // named, so that others can count the processes that listen (src/auth/key-drops.ts)
      const c = new pg.Client({ connectionString, application_name: listenerName(channel) });
      c.on('notification', (n) => {
        if (n.channel === channel) onMessage(n.payload ?? '');
      });
      c.on('error', () => lost(c));
      c.on('end', () => lost(c));
      try {
        await c.connect();
        await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      } catch (e) {
        await c.end().catch(() => {});
        throw e;
      }
      if (stopped) return void (await c.end().catch(() => {}));
      client = c;
      pause = 250;
      onState(true);
    };
    const lost = (c: pg.Client) => {
      if (client !== c || stopped) return;
      client = null;
      onState(false);
      schedule();
    };
    const schedule = () => {
      retry = setTimeout(() => {
        connect().catch(() => {
          pause = Math.min(pause * 2, 30_000);
          if (!stopped) schedule();
        });
      }, pause);
      retry.unref();
    };
    onState(false);
    await connect().catch(() => schedule());
    return async () => {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    };
  };
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

function poolSql(pool: pg.Pool): RawSql {
  return {
    async query(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    async exec(text) {
      await pool.query(text);
    },
    async transaction(fn) {
      const client = await pool.connect();
      const inner: RawSql = {
        query: async (text, params) => (await client.query(text, params as unknown[])).rows,
        exec: async (text) => void (await client.query(text)),
        transaction: (f) => f(inner),
      };
      try {
        await client.query('BEGIN');
        const out = await fn(inner);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
  };
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  let db: Database;
  if (opts.databaseUrl) {
    const pool = pgPool({ connectionString: opts.databaseUrl, max: 10 });
    const adapterFactory = new PrismaPg(pool);
    const prisma = new PrismaClient({ adapter: opts.onQuery ? instrumentAdapter(adapterFactory, opts.onQuery) : adapterFactory });
    const session = pgSession(opts.databaseUrl);
    db = {
      kind: 'postgres',
      session,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      prisma,
      sql: poolSql(pool),
      adapterFactory,
      listen: pgListener(opts.databaseUrl),
      async close() {
        await session.close();
        await prisma.$disconnect();
        await pool.end();
      },
    };
  } else {
    const dataDir = opts.dataDir ?? path.resolve('data');
    const memory = dataDir.startsWith('memory://');
    // the embedded database's modules load only when it is used (not on PostgreSQL)
    const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
    const release = memory ? () => {} : acquireDataDirLock(dataDir);
    let lite: PGlite;
    try {
      lite = memory ? new PGlite(opts.snapshot ? { loadDataDir: opts.snapshot } : {}) : new PGlite(path.join(dataDir, 'pglite'));
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
