import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * A new, empty database on the PostgreSQL server of `serverUrl` (any database URL of that server): its URL, and
 * `drop()` to remove it. Benchmarks and the tests that need a database of their own (restore targets) use it.
 */
export async function createTempDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client(serverUrl);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client(serverUrl);
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A throw-away PostgreSQL database for a benchmark: created on BENCH_DATABASE_URL's server (default the local one),
 * handed to `fn` as a URL, dropped afterwards. Resolves to null (and says so) when no server answers.
 */
export async function withTempDatabase<T>(prefix: string, fn: (url: string) => Promise<T>): Promise<T | null> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let temp;
  try {
    temp = await createTempDatabase(adminUrl, prefix);
  } catch (e) {
    console.log(`\nPostgreSQL: skipped (${(e as Error).message})`);
    return null;
  }
  try {
    return await fn(temp.url);
  } finally {
    await temp.drop();
  }
}
