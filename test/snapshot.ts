import type { Database } from '../src/db/database.js';

/**
 * A digest of everything a company's tables hold (every table with a `companyId` column, found in the catalog, so
 * a new table is covered without editing this): equal digests mean a request changed nothing. One statement.
 */
export async function companySnapshot(database: Database, companyId: string): Promise<() => Promise<string>> {
  const tables = await database.sql.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE column_name = 'companyId' AND table_schema = current_schema() AND table_name <> 'IdempotencyKey'
      ORDER BY table_name`,
  );
  const names = tables.map((t) => t.table_name);
  // the key's last use is recorded off the request's path: not a change the request made
  const row = (t: string) => (t === 'ApiKey' ? `(x.id, x.name, x.scope, x."revokedAt")` : 'x');
  const sql = `SELECT ${names.map((t, i) => `(SELECT md5(string_agg(${row(t)}::text, '|' ORDER BY ${row(t)}::text)) FROM "${t}" x WHERE "companyId" = $1) AS h${i}`).join(', ')}`;
  return async () => {
    const [r] = await database.sql.query<Record<string, string | null>>(sql, [companyId]);
    return names.map((t, i) => `${t}:${r[`h${i}`] ?? '-'}`).join(',');
  };
}
