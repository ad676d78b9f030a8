// The migrations in prisma/migrations must build exactly the schema of prisma/schema.prisma (no drift), on PGlite
// always and on PostgreSQL when TEST_DATABASE_URL is set (a fresh database is created on that server and dropped).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.js';
import { applyMigrations, readMigrations } from '../src/db/migrate.js';
import { type DatabaseSource, diffSql, ENGINE_APPLICATION_NAME, isEmptyDiff, schemaEngineVersion } from '../src/db/schema-engine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schema = { kind: 'schema', text: fs.readFileSync(path.join(ROOT, 'prisma/schema.prisma'), 'utf8') } as const;
const TIMEOUT = 60_000;

/** Applies every migration to an empty database, then diffs it (reached as `database`) against the schema. */
async function checkNoDrift(db: Database, database: DatabaseSource): Promise<void> {
  // The check can fail: an empty database is far from the schema.
  const fromEmpty = await diffSql(database, schema);
  expect(isEmptyDiff(fromEmpty)).toBe(false);
  expect(fromEmpty).toMatch(/CREATE TABLE "Company"/);

  const names = readMigrations().map((m) => m.name);
  expect(await applyMigrations(db.sql)).toEqual(names);
  expect(await applyMigrations(db.sql)).toEqual([]); // idempotent

  const drift = await diffSql(database, schema);
  expect(drift, `migrations and prisma/schema.prisma differ; to catch up:\n${drift}`).toBe('');
}

describe('migrations', () => {
  it('exist, in Prisma folder format, with a postgresql lock file', () => {
    const dir = path.join(ROOT, 'prisma/migrations');
    expect(fs.readFileSync(path.join(dir, 'migration_lock.toml'), 'utf8')).toMatch(/^provider = "postgresql"$/m);
    const names = readMigrations().map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/^\d{14}_[A-Za-z0-9_]+$/);
  });

  it('the Wasm schema engine is the one prisma was released with', async () => {
    const fromPrisma = createRequire(createRequire(import.meta.url).resolve('prisma/package.json'));
    const fromEngines = createRequire(fromPrisma.resolve('@prisma/engines/package.json'));
    const { prisma } = fromEngines('@prisma/engines-version/package.json') as { prisma: { enginesVersion: string } };
    expect(await schemaEngineVersion()).toBe(prisma.enginesVersion);
  }, TIMEOUT);

  it('diffSql: schema-only diffs and "no difference"', async () => {
    const full = await diffSql({ kind: 'empty' }, schema);
    expect(full.match(/^CREATE TABLE /gm)).toHaveLength(17);
    expect(await diffSql(schema, schema)).toBe('');
    expect(await diffSql({ kind: 'empty' }, { kind: 'empty' })).toBe('');
    expect(isEmptyDiff('-- This is an empty migration.\n')).toBe(true);
    expect(isEmptyDiff('-- x\nSELECT 1;\n')).toBe(false);
    await expect(diffSql({ kind: 'empty' }, { kind: 'schema', text: 'model X { id Int }' })).rejects.toThrow(
      /Error validating/,
    );
  }, TIMEOUT);

  it('build prisma/schema.prisma on PGlite (no drift)', async () => {
    const db = await openDatabase({ dataDir: 'memory://', migrate: false });
    try {
      await checkNoDrift(db, { kind: 'database', adapterFactory: db.adapterFactory });
    } finally {
      await db.close();
    }
  }, TIMEOUT);

  const serverUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!serverUrl)('build prisma/schema.prisma on PostgreSQL (TEST_DATABASE_URL, no drift)', async () => {
    const name = `fleetops_mig_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
      try {
        const url = new URL(serverUrl!);
        url.pathname = `/${name}`;
        const db = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', migrate: false });
        try {
          // the engine's own connections (by URL): the service's @prisma/adapter-pg factory cannot read its queries
          await expect(diffSql({ kind: 'database', adapterFactory: db.adapterFactory }, schema)).rejects.toThrow(
            /pass a PostgreSQL database as \{ kind: 'database', url \}/,
          );
          await checkNoDrift(db, { kind: 'database', url: url.toString() });
          // the engine's connections are closed after each diff (a closed connection's server process leaves
          // pg_stat_activity a moment after the client has gone: looked at again for up to 5 s)
          const engineBackends = async () =>
            (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [name, ENGINE_APPLICATION_NAME]))
              .rows[0].n as number;
          let open = await engineBackends();
          for (let i = 0; open > 0 && i < 50; i++) {
            await new Promise((r) => setTimeout(r, 100));
            open = await engineBackends();
          }
          expect(open).toBe(0);
        } finally {
          await db.close();
        }
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    } finally {
      await admin.end();
    }
  }, TIMEOUT);
});

describe('the embedded store', () => {
  // PostgreSQL zeroes its buffer pool at every start; the default 128 MB made an embedded start 0.3-0.45 s slower and
  // its process 80 MB larger (docs/benchmarks.md, 2026-11-29). Both kinds of embedded store start with the smaller pool.
  it('starts with a 32 MB buffer pool, on a data directory and in memory', async () => {
    const dataDir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'fleetops-pool-'));
    try {
      for (const source of [dataDir, 'memory://']) {
        const db = await openDatabase({ dataDir: source, migrate: false });
        try {
          expect(await db.sql.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '32MB' }]);
        } finally {
          await db.close();
        }
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, TIMEOUT);
});
