import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * A throw-away PostgreSQL database for a benchmark: created on BENCH_DATABASE_URL's server (default the local one),
 * handed to `fn` as a URL, dropped afterwards. Resolves to null (and says so) when no server answers.
 */
export async function withTempDatabase<T>(prefix: string, fn: (url: string) => Promise<T>): Promise<T | null> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client(adminUrl);
  try {
    await admin.connect();
  } catch (e) {
    console.log(`\nPostgreSQL: skipped (${(e as Error).message})`);
    return null;
  }
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
