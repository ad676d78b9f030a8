import { randomBytes } from 'node:crypto';
import type { RawSql } from '../db/database.js';
import { BackupError } from './format.js';
import { ident, type BackupTable } from './model.js';

/**
 * Reading a table's rows as a backup holds them: `row_to_json` of every column, through a cursor fetched in chunks
 * (a table of any size streams in bounded memory), in the order the database reads them: no sort, since on PGlite a
 * sort would lengthen the moment the server waits for the snapshot (rowsSetDigest does not depend on the order).
 * Backup and restore use the same query, so a restore can read back what it loaded and compare it byte for byte.
 */
export const FETCH_ROWS = 2000;

/** The rows of `t` (of `companies`, or all when null), as JSON text per row. */
export function rowsQuery(t: BackupTable, companies: string[] | null): { text: string; params: unknown[] } {
  const where = companies ? ` WHERE x.${ident(t.companyColumn)} = ANY($1::text[])` : '';
  return { text: `SELECT row_to_json(x)::text AS r FROM ${ident(t.name)} x${where}`, params: companies ? [companies] : [] };
}

export function countQuery(t: BackupTable, companies: string[] | null): { text: string; params: unknown[] } {
  const where = companies ? ` WHERE ${ident(t.companyColumn)} = ANY($1::text[])` : '';
  return { text: `SELECT count(*)::int AS n FROM ${ident(t.name)}${where}`, params: companies ? [companies] : [] };
}

/** A cursor name no other statement of this session uses (on PGlite the server's own queries share the session). */
export const cursorName = () => `fleetops_backup_${randomBytes(6).toString('hex')}`;

/** Declares a cursor over `t`'s rows; `hold` keeps it (materialised) after the transaction commits. */
export async function declareRows(sql: RawSql, name: string, t: BackupTable, companies: string[] | null, hold: boolean): Promise<void> {
  const q = rowsQuery(t, companies);
  await sql.query(`DECLARE ${name} NO SCROLL CURSOR${hold ? ' WITH HOLD' : ''} FOR ${q.text}`, q.params);
}

/**
 * Fetches a declared cursor to its end, chunk by chunk. Between chunks the event loop gets a turn: PGlite answers
 * without any I/O, so a loop of fetches would otherwise keep the server from reading its requests until the end.
 */
export async function* fetchRows(sql: RawSql, name: string): AsyncGenerator<string[]> {
  for (;;) {
    const rows = await sql.query<{ r: string }>(`FETCH FORWARD ${FETCH_ROWS} FROM ${name}`);
    if (rows.length) yield rows.map((r) => r.r);
    if (rows.length < FETCH_ROWS) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Columns of each table of the database, in their order (current schema). */
export async function tableColumns(sql: RawSql): Promise<Map<string, string[]>> {
  const rows = await sql.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.table_name) ?? [];
    list.push(r.column_name);
    out.set(r.table_name, list);
  }
  return out;
}

/** Throws unless every table of the data model exists in the database. */
export function requireTables(columns: Map<string, string[]>, tables: BackupTable[], what: string): void {
  const missing = tables.filter((t) => !columns.has(t.name)).map((t) => t.name);
  if (missing.length) {
    throw new BackupError(`${what} has no table ${missing.join(', ')} of this release's data model: run \`fleetops migrate\` on it first`);
  }
}
