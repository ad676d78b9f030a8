import { Prisma } from '../generated/prisma/client.js';
import { COMPANY } from './scoped.js';

const COLUMN = /^[A-Za-z][A-Za-z0-9_]*$/;
const NULLS: unknown[] = [Prisma.DbNull, Prisma.JsonNull, Prisma.AnyNull];

/** A column's value as PostgreSQL's JSON-to-row conversion takes it: Prisma.DbNull is SQL NULL. */
function columnValue(v: unknown): unknown {
  if (v === Prisma.DbNull) return null;
  if (NULLS.includes(v)) throw new Error('insertRows: a JSON null value is not supported (Prisma.DbNull is SQL NULL)');
  return v;
}

function checkColumn(table: string, c: string) {
  if (!COLUMN.test(c) || c === 'companyId') throw new Error(`insertRows: ${table} has no writable column ${JSON.stringify(c)}`);
}

/**
 * `INSERT INTO "<table>" … SELECT … WHERE <when>` for new rows of one model, as an SQL fragment of a statement composed
 * from several writes (a data-modifying CTE: a submission's rows, src/modules/completions/write.ts; new flight logs
 * with their aircraft's totals, src/modules/flight-logs/set-write.ts). The rows go as one JSON parameter and each
 * value is typed by its column (`jsonb_populate_recordset` over the table's row type: timestamps from ISO strings,
 * numerics, text arrays, JSON columns as they are); the company is the scoped client's (`COMPANY`). Every row carries
 * the same keys, the columns written; a column left out takes its default. `same` holds columns whose value is the
 * same in every row (a write's timestamp): each is bound once, typed by its column, instead of repeated per row.
 * Values are what Prisma's `createMany` takes: Date, Decimal, arrays, JSON values, and `Prisma.DbNull` (as a
 * column's value) for SQL NULL; a sentinel nested inside a JSON value is not supported. Null when there are no rows.
 */
export function insertRows(
  table: Prisma.ModelName,
  rows: readonly Record<string, unknown>[],
  when: Prisma.Sql,
  same: Record<string, unknown> = {},
): Prisma.Sql | null {
  if (!rows.length) return null;
  const first = rows[0]!;
  const columns = Object.keys(first);
  const constant = Object.keys(same);
  for (const c of columns) checkColumn(table, c);
  for (const c of constant) {
    checkColumn(table, c);
    if (Object.hasOwn(first, c)) throw new Error(`insertRows: ${table}.${c} is given per row and for every row`);
  }
  // Sentinels do not serialise as SQL NULL: when a row holds one, the rows are copied with it replaced (otherwise
  // they go to JSON.stringify as they are). Keys are a row's own: one inherited from a prototype would be dropped.
  let sentinel = false;
  for (const r of rows) {
    let n = 0;
    for (const k in r) {
      if (!Object.hasOwn(r, k)) continue;
      n++;
      const v = r[k];
      if (v !== null && typeof v === 'object' && NULLS.includes(v)) sentinel = true;
    }
    if (n !== columns.length || (r !== first && !columns.every((c) => Object.hasOwn(r, c)))) throw new Error(`insertRows: every ${table} row must name the same columns`);
  }
  const json = (list: readonly Record<string, unknown>[], keys: string[]) =>
    JSON.stringify(sentinel || list !== rows ? list.map((r) => Object.fromEntries(keys.map((c) => [c, columnValue(r[c])]))) : list);
  const t = Prisma.raw(`"${table}"`);
  const names = Prisma.raw([...columns, ...constant].map((c) => `"${c}"`).join(', '));
  const values = Prisma.raw([...columns.map((c) => `r."${c}"`), ...constant.map((c) => `s."${c}"`)].join(', '));
  // the shared values are one more row of the table's type, typed like the others
  const shared = constant.length ? Prisma.sql`, jsonb_populate_record(NULL::${t}, (${json([same], constant)}::jsonb)->0) AS s` : Prisma.empty;
  return Prisma.sql`INSERT INTO ${t} ("companyId", ${names})
    SELECT ${COMPANY}::text, ${values} FROM jsonb_populate_recordset(NULL::${t}, ${json(rows, columns)}::jsonb) AS r${shared}
    WHERE ${when}`;
}
