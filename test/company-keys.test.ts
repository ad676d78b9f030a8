// The precondition of docs/scaling.md (Citus distributing every company table by companyId): in the migrated
// database's own catalog, every company table's primary key and every unique index begin with its company column,
// so each one can be enforced on one shard. The deliberate exceptions are listed with their reason and what they
// become in a distributed deployment; an exception that no longer holds fails too, so the list stays true.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyTables } from '../src/backup/model.js';
import type { Database } from '../src/db/database.js';
import { openTestDatabase } from './helpers.js';

/** `Table.index` → why it does not begin with companyId (docs/scaling.md "What crosses companies today"). */
const EXCEPTIONS: Record<string, string> = {
  'ApiKey.ApiKey_pkey':
    'a key is found by its hash before its company is known; ApiKey stays a reference table (every node has all keys), so its primary key (id) is enforced as is',
  'ApiKey.ApiKey_hash_key': 'the bearer key lookup: unique across all companies by design; enforced on the reference table',
  'Form.Form_publicId_key':
    'public forms are opened by publicId alone (no key, no company); distributed, the index becomes (companyId, publicId) and a reference table maps publicId to its company',
};

interface UniqueIndex {
  table: string;
  index: string;
  columns: string[];
}

let db: Database;
let indexes: UniqueIndex[];

beforeAll(async () => {
  db = await openTestDatabase();
  indexes = await db.sql.query<UniqueIndex>(
    `SELECT t.relname AS table, i.relname AS index,
            array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                  JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace s ON s.oid = t.relnamespace
     WHERE s.nspname = current_schema() AND (x.indisunique OR x.indisprimary)
     ORDER BY 1, 2`,
  );
}, 180_000);
afterAll(async () => {
  await db?.close();
});

describe('company tables are keyed by company first (the precondition for distributing them by companyId)', () => {
  it('every primary key and unique index of a company table begins with its company column, but the listed exceptions', () => {
    const tables = new Map(companyTables().map((t) => [t.name, t.companyColumn]));
    const offenders: string[] = [];
    const seen = new Set<string>();
    for (const ix of indexes) {
      const column = tables.get(ix.table);
      if (!column) continue;
      const name = `${ix.table}.${ix.index}`;
      if (ix.columns[0] === column) continue;
      seen.add(name);
      if (!EXCEPTIONS[name]) offenders.push(`${name} (${ix.columns.join(', ')})`);
    }
    expect(offenders, 'lead the key with companyId, or list it in EXCEPTIONS with its reason and docs/scaling.md with its plan').toEqual([]);
    expect([...seen].sort(), 'an exception that no longer exists: remove it here and in docs/scaling.md').toEqual(Object.keys(EXCEPTIONS).sort());
  });

  it('reads what it checks: every company table has a primary key in the catalog', () => {
    const keyed = new Set(indexes.filter((ix) => ix.index.endsWith('_pkey')).map((ix) => ix.table));
    for (const t of companyTables()) expect(keyed.has(t.name), t.name).toBe(true);
    expect(indexes.find((ix) => ix.index === 'FlightLog_pkey')?.columns).toEqual(['companyId', 'uid']);
  });
});
