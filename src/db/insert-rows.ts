import { Prisma } from '../generated/prisma/client.js';
import { COMPANY } from './scoped.js';

const COLUMN = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A value as PostgreSQL's JSON-to-row conversion takes it: Prisma.DbNull is SQL NULL; Dates and Decimals by their toJSON. */
function jsonValue(_key: string, v: unknown): unknown {
  if (v === Prisma.DbNull) return null;
  if (v === Prisma.JsonNull || v === Prisma.AnyNull) throw new Error('insertRows: a JSON null value is not supported (Prisma.DbNull is SQL NULL)');
  return v;
}

/**
 * `INSERT INTO "<table>" … SELECT … WHERE <when>` for new rows of one model, as an SQL fragment of a statement composed
 * from several writes (a data-modifying CTE: a submission's rows, src/modules/completions/write.ts; new flight logs
 * with their aircraft's totals, src/modules/flight-logs/set-write.ts). The rows go as one JSON parameter and each value is typed by its column (`jsonb_populate_recordset` over the table's row type: timestamps
 * from ISO strings, numerics, text arrays, JSON columns as they are); the company is the scoped client's (`COMPANY`).
 * Every row carries the same keys, the columns written; a column left out takes its default. Values are what
 * Prisma's `createMany` takes: Date, Decimal, arrays, JSON values, and `Prisma.DbNull` for SQL NULL. Null when
 * there are no rows.
 */
export function insertRows(table: Prisma.ModelName, rows: readonly Record<string, unknown>[], when: Prisma.Sql): Prisma.Sql | null {
  if (!rows.length) return null;
  const columns = Object.keys(rows[0]!);
  for (const c of columns) if (!COLUMN.test(c) || c === 'companyId') throw new Error(`insertRows: ${table} has no writable column ${JSON.stringify(c)}`);
  for (const r of rows) {
    const keys = Object.keys(r);
    if (keys.length !== columns.length || keys.some((k) => !(k in rows[0]!))) throw new Error(`insertRows: every ${table} row must name the same columns`);
  }
  const list = Prisma.raw(columns.map((c) => `"${c}"`).join(', '));
  const values = Prisma.raw(columns.map((c) => `r."${c}"`).join(', '));
  return Prisma.sql`INSERT INTO ${Prisma.raw(`"${table}"`)} ("companyId", ${list})
    SELECT ${COMPANY}::text, ${values} FROM jsonb_populate_recordset(NULL::${Prisma.raw(`"${table}"`)}, ${JSON.stringify(rows, jsonValue)}::jsonb) AS r
    WHERE ${when}`;
}
