import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { listenerName, type Database, type RawSql, type Session } from './database.js';
import { instrumentAdapter, type QueryListener } from './instrument.js';
import { pgPool } from './pg-pool.js';
import { DEFAULT_STATEMENT_CACHE, statementNames } from './statement-cache.js';

/**
 * The PostgreSQL store (DATABASE_URL): a pooled Prisma client, this process's own session connection, and LISTEN.
 * A module of its own so that the embedded store never loads pg or Prisma's pg adapter (src/db/database.ts).
 */
export function openPostgres(databaseUrl: string, onQuery?: QueryListener, statementCache = DEFAULT_STATEMENT_CACHE): Database {
  const pool = pgPool({ connectionString: databaseUrl, max: 10 });
  // Prisma's statements as prepared statements, parsed once per connection (statement-cache.ts)
  const adapterFactory = new PrismaPg(pool, statementCache > 0 ? { statementNameGenerator: statementNames(statementCache) } : undefined);
  const prisma = new PrismaClient({ adapter: onQuery ? instrumentAdapter(adapterFactory, onQuery) : adapterFactory });
  const session = pgSession(databaseUrl);
  return {
    kind: 'postgres',
    session,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    prisma,
    sql: poolSql(pool),
    adapterFactory,
    listen: pgListener(databaseUrl),
    async close() {
      await session.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
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
