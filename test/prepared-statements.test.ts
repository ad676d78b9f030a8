// Prepared statements on PostgreSQL (src/db/statement-cache.ts, docs/decisions/0014-prepared-statements.md): Prisma's
// statements are named, so each pooled connection parses them once; the aggregation's are planned for each call; the
// number of names is bounded; DATABASE_STATEMENT_CACHE=0 (a transaction pooler) names none. The answers themselves
// are the whole suite's business: CI runs every file on PostgreSQL, through these named statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { DEFAULT_STATEMENT_CACHE, PLAN_EACH_CALL, statementNames } from '../src/db/statement-cache.js';
import { createTestEnv, flightLogBody, onPostgres, type TestEnv } from './helpers.js';

describe('statement names', () => {
  it('names a text the second time it is sent, with one name for it from then on', () => {
    const name = statementNames(10);
    expect(name({ sql: 'SELECT 1' })).toBe(''); // a one-off text takes no name
    const a = name({ sql: 'SELECT 1' });
    expect(name({ sql: 'SELECT 2' })).toBe('');
    const b = name({ sql: 'SELECT 2' });
    expect(a).toMatch(/^fleetops_\d+$/);
    expect(b).toMatch(/^fleetops_\d+$/);
    expect(a).not.toBe(b);
    expect(name({ sql: 'SELECT 1' })).toBe(a);
    expect(name({ sql: 'SELECT 2' })).toBe(b);
  });

  it('names at most `max` texts; later ones, and ones longer than the limit, run unnamed', () => {
    const name = statementNames(2, 20);
    const twice = (sql: string) => (name({ sql }), name({ sql }));
    expect(twice('SELECT 1')).not.toBe('');
    expect(twice('SELECT 2')).not.toBe('');
    expect(twice('SELECT 3')).toBe('');
    expect(name({ sql: 'SELECT 1' })).not.toBe(''); // the named ones keep their names
    const long = statementNames(5, 20);
    for (let i = 0; i < 3; i++) expect(long({ sql: `SELECT '${'x'.repeat(20)}'` })).toBe('');
    const none = statementNames(0);
    for (let i = 0; i < 3; i++) expect(none({ sql: 'SELECT 1' })).toBe('');
  });

  it('forgets the texts it met once when there are many, so they cannot grow without bound', () => {
    const name = statementNames(2);
    name({ sql: 'SELECT 0' });
    for (let i = 1; i <= 8; i++) name({ sql: `SELECT ${i}` }); // 4 × max texts met once: the set starts again
    expect(name({ sql: 'SELECT 0' })).toBe(''); // forgotten, so met once again
    expect(name({ sql: 'SELECT 0' })).toMatch(/^fleetops_\d+$/);
  });

  it('never names a statement planned for each call', () => {
    const name = statementNames(10);
    for (let i = 0; i < 3; i++) expect(name({ sql: `${PLAN_EACH_CALL} SELECT 1` })).toBe('');
  });

  it('DATABASE_STATEMENT_CACHE: 250 by default, 0 for none, and a clear error for anything else', () => {
    expect(loadConfig({}, { dotenv: false }).statementCache).toBe(DEFAULT_STATEMENT_CACHE);
    expect(DEFAULT_STATEMENT_CACHE).toBe(250);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: '0' }, { dotenv: false }).statementCache).toBe(0);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: '40' }, { dotenv: false }).statementCache).toBe(40);
    for (const bad of ['-1', '2.5', 'off']) {
      expect(() => loadConfig({ DATABASE_STATEMENT_CACHE: bad }, { dotenv: false })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_STATEMENT_CACHE: bad }, { dotenv: false })).toThrow(/DATABASE_STATEMENT_CACHE/);
    }
  });
});

/**
 * The prepared statements of each connection of the database's pool: as many transactions at once as the pool has
 * connections, each holding its connection until all have read their statements, so each reads a different one; and
 * the pool opened none besides them (an idle connection is handed out before a new one is opened).
 */
async function preparedPerConnection(database: Database): Promise<{ name: string; statement: string }[][]> {
  // every connection idle first: a request's write in the background (a key's lastUsedAt) may still hold one
  for (let i = 0; database.poolStats!().idle < database.poolStats!().total; i++) {
    if (i === 500) throw new Error('the pool never became idle');
    await new Promise((r) => setTimeout(r, 10));
  }
  const n = database.poolStats!().total;
  expect(n).toBeGreaterThan(0);
  let arrived = 0;
  let allRead!: () => void;
  const barrier = new Promise<void>((r) => (allRead = r));
  const reads = await Promise.all(
    Array.from({ length: n }, () =>
      database.sql.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number; statements: { name: string; statement: string }[] | null }>(
          `SELECT pg_backend_pid() AS pid, (SELECT json_agg(json_build_object('name', name, 'statement', statement)) FROM pg_prepared_statements) AS statements`,
        );
        if (++arrived === n) allRead();
        await barrier;
        return row;
      }),
    ),
  );
  expect(new Set(reads.map((r) => r.pid)).size).toBe(n);
  expect(database.poolStats!().total).toBe(n);
  return reads.map((r) => r.statements ?? []);
}

const prepared = async (database: Database) => (await preparedPerConnection(database)).flat();

describe.runIf(onPostgres)('prepared statements on PostgreSQL', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it("prepares Prisma's statements once per connection, and plans the aggregation's and the batch delete's for each call", async () => {
    for (let i = 0; i < 3; i++) {
      const made = await env.rest.post('/flight-logs/batch', { items: [flightLogBody({ hobbs: 1.5 }), flightLogBody({ hobbs: 0.5 })] });
      expect(made.status).toBe(200);
      const gone = await env.rest.post('/flight-logs/batch-delete', { ids: made.body.results.map((r: { uid: string }) => r.uid) });
      expect(gone.body.results.map((r: { status: string }) => r.status)).toEqual(['deleted', 'deleted']);
      const one = await env.rest.get('/aircraft/acme-ac-1');
      expect(one.status).toBe(200);
      expect(one.body.uid).toBe('acme-ac-1');
      const sum = await env.rest.post('/aggregate', { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId' });
      expect(sum.status).toBe(200);
    }
    const statements = await prepared(env.database);
    const ours = statements.filter((s) => /^fleetops_\d+$/.test(s.name));
    // the aircraft read (a Prisma statement) is among them, under one name
    expect(ours.filter((s) => /FROM "public"\."Aircraft"/.test(s.statement)).length).toBeGreaterThan(0);
    // the aggregation's statement and the batch delete's are never prepared
    expect(statements.filter((s) => s.statement.includes('GROUPING SETS'))).toEqual([]);
    expect(statements.filter((s) => s.statement.includes('DELETE FROM "FlightLog"'))).toEqual([]);
  });
});

describe.runIf(onPostgres)('DATABASE_STATEMENT_CACHE=0', () => {
  let database: Database;
  let env: TestEnv;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, statementCache: 0 });
    env = await createTestEnv({ database });
  });
  afterAll(async () => {
    await env?.close();
    await database?.close();
  });

  it('prepares no statement (for a proxy that cannot keep prepared statements)', async () => {
    for (let i = 0; i < 3; i++) expect((await env.rest.get('/aircraft/acme-ac-1')).status).toBe(200);
    expect((await prepared(database)).filter((s) => s.name.startsWith('fleetops_'))).toEqual([]);
  });
});
