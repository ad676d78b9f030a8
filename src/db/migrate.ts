import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RawSql } from './database.js';

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, all in one transaction under an advisory lock (a
 * failed migration leaves the database as it was, and concurrent starters wait), recording them in Prisma's own `_prisma_migrations` table (same columns and checksum), so `prisma migrate deploy` agrees with us
 * wherever the native schema engine is available.
 */
/** prisma/migrations of this checkout, found upwards from this module (it runs from src/db/ or from the dist/ bundle). */
export const MIGRATIONS_DIR = (() => {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'prisma', 'migrations');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error('prisma/migrations not found above ' + fileURLToPath(import.meta.url));
  }
})();

const LOCK_KEY = 72707369; // arbitrary constant: "fleetops migrations"

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export class MigrationError extends Error {}

export async function applyMigrations(sql: RawSql, dir = MIGRATIONS_DIR, options: { through?: string } = {}): Promise<string[]> {
  let migrations = readMigrations(dir);
  if (options.through !== undefined) {
    // only up to and including this one (fleetops restore brings a database to a backup's level before loading it)
    const last = migrations.findIndex((m) => m.name === options.through);
    if (last < 0) throw new MigrationError(`migration ${options.through} is not one of this release's`);
    migrations = migrations.slice(0, last + 1);
  }
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const rows = await tx.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const seen = done.get(m.name);
      if (seen !== undefined) {
        if (seen !== m.checksum) {
          throw new MigrationError(`migration ${m.name} was changed after it was applied (checksum mismatch)`);
        }
        continue;
      }
      const id = randomUUID();
      await tx.exec(m.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [id, m.checksum, m.name],
      );
      applied.push(m.name);
    }
    return applied;
  });
}

/** The migrations applied to the database, in name (= applying) order; none when it was never migrated. */
export async function appliedMigrations(sql: RawSql): Promise<string[]> {
  const exists = await sql.query<{ t: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS t`);
  if (!exists[0]?.t) return [];
  const rows = await sql.query<{ migration_name: string }>(
    'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name COLLATE "C"',
  );
  return rows.map((r) => r.migration_name);
}

export async function pendingMigrations(sql: RawSql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const done = new Set(await appliedMigrations(sql));
  return readMigrations(dir)
    .map((m) => m.name)
    .filter((n) => !done.has(n));
}
