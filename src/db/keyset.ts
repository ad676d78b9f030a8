import { ValidationError } from '../errors.js';
import { z } from 'zod';
import { LimitParam, PAGE_MAX } from '../lib/params.js';

/**
 * Keyset pagination on (a timestamp, uid), both descending: stable under inserts, no offsets. The cursor is the
 * list's name and the last row's pair, base64url-encoded JSON, opaque to clients: a cursor of one list is no cursor
 * of another (it would be read as a position in an order it was not made in, and skip records).
 */
const BAD_CURSOR = 'cursor is not a nextCursor this service issued';

export interface Cursor {
  t: Date;
  u: string;
}

export function encodeCursor(list: string, c: Cursor): string {
  return Buffer.from(JSON.stringify([list, c.t.toISOString(), c.u]), 'utf8').toString('base64url');
}

export function decodeCursor(list: string, s: string): Cursor | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3 || v[0] !== list || typeof v[1] !== 'string' || typeof v[2] !== 'string') return null;
    const t = new Date(v[1]);
    // a crafted cursor must not reach the database with a time it cannot hold or a uid no row has; the time is the
    // instant as encodeCursor writes it (toISOString), never another text Date reads (`2026-03-03`, `Tue Mar 03 2026`)
    const year = t.getUTCFullYear();
    if (Number.isNaN(t.getTime()) || year < 1 || year > 9999 || t.toISOString() !== v[1]) return null;
    if (v[2].length > 200 || v[2].includes('\u0000')) return null;
    return { t, u: v[2] };
  } catch {
    return null;
  }
}

/**
 * The `cursor` argument of a list ordered by time (`list` names it, as the service's afterCursor and toPage do):
 * checked with the other arguments, so a cursor this service did not issue for the list is refused where and as a
 * bad limit is, on every channel (`/query/cursor` on REST and MCP).
 */
export const timeCursorArg = (list: string) =>
  z
    .string()
    // a cursor too short or too long is said once (without `abort` the refinement below said it again)
    .min(1, { error: BAD_CURSOR, abort: true })
    .max(4000, { error: BAD_CURSOR, abort: true })
    .refine((s) => decodeCursor(list, s) !== null, BAD_CURSOR)
    .describe('The nextCursor of the previous page');

/** The Prisma `where` for rows after the cursor of the list `what` (400 for a cursor this service did not issue for it). */
export function afterCursor(field: string, cursor: string, what: string) {
  const c = decodeCursor(what, cursor);
  if (!c) {
    throw new ValidationError(`invalid ${what} query`, [{ path: '/cursor', message: BAD_CURSOR }]);
  }
  // the first condition lets the (companyId, field desc, uid desc) index seek to the cursor; the OR breaks ties
  return { AND: [{ [field]: { lte: c.t } }, { OR: [{ [field]: { lt: c.t } }, { [field]: c.t, uid: { lt: c.u } }] }] };
}

/** Cuts the `limit + 1` rows read into a page of the list `what` and the cursor of the next one (null at the end). */
export function toPage<T extends { uid: string }>(rows: T[], limit: number, time: (row: T) => Date, what: string) {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return {
    data,
    count: data.length,
    nextCursor: rows.length > limit && last ? encodeCursor(what, { t: time(last), u: last.uid }) : null,
  };
}

/** Every row of a keyset-paged list, page by page (exports): `list` is called with each page's cursor. */
export async function* allPages<T>(list: (cursor: string | undefined) => Promise<{ data: T[]; nextCursor: string | null }>): AsyncGenerator<T[]> {
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    if (page.data.length) yield page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * Every other list (gaps.md §17) is ordered by columns ascending, the last one unique (the uid, or a key's id):
 * aircraft by registration, users by displayName, vehicles by registration, components by name and serial number,
 * API keys by creation time (a time key travels as its ISO 8601 text: see `isoKey`). One cursor,
 * one `where` and one page cut serve them all, so a list keeps its documented order and the cursor continues it
 * exactly: each record once, none skipped, stable under inserts.
 */


/** Records a list answers when no `limit` is sent: small companies see every record, no list is unbounded. */
export const LIST_DEFAULT = 1000;

/**
 * The page arguments of every list, one definition (REST query parameters, GraphQL arguments, MCP tool inputs are
 * derived from it): spread into a list's filter schema, or used alone by a list without filters. `list` names the
 * list (as its service's readPage does: a cursor carries it); `valid` checks a cursor's values further (a list whose
 * sort key is not all text).
 */
export const pageArgs = (list: string, order: readonly string[], valid: (values: string[]) => boolean = () => true) => ({
  limit: LimitParam.optional().describe(
    `Page size, 1 to ${PAGE_MAX}; without it at most ${LIST_DEFAULT.toLocaleString('en-US')} records, and a nextCursor when there are more`,
  ),
  // checked with the other arguments, so a bad cursor is refused where and as a bad limit is, on every channel
  cursor: z
    .string()
    // a cursor too short or too long is said once (without `abort` the refinement below said it again)
    .min(1, { error: BAD_CURSOR, abort: true })
    .max(4000, { error: BAD_CURSOR, abort: true })
    .refine((s) => {
      const values = decodeKeys(list, s, order.length);
      return values !== null && valid(values);
    }, BAD_CURSOR)
    .optional()
    .describe('The nextCursor of the previous page'),
});
export interface PageArgs {
  limit?: number;
  cursor?: string;
}

/** A page of a list: `nextCursor` is null on the last page (always present, see docs/api-notes.md). */
export interface Page<T> {
  data: T[];
  count: number;
  nextCursor: string | null;
}


/** The sort key a cursor of the list `list` carries, or null for one this service did not issue for that list. */
function decodeKeys(list: string, s: string, size: number): string[] | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== size + 1 || v[0] !== list) return null;
    const values = v.slice(1);
    if (!values.every((x) => typeof x === 'string' && x.length <= 1000 && !x.includes('\u0000'))) return null;
    return values as string[];
  } catch {
    return null;
  }
}

/**
 * The Prisma `where` for rows after the cursor in the order `keys` (string columns, ascending, last one unique).
 * 400 `invalid <what> query` with `/cursor` for a cursor this service did not issue for such a list.
 */
export function afterKeys(keys: readonly string[], cursor: string, what: string): Record<string, unknown> {
  const values = cursorKeys(cursor, keys.length, what);
  // (k0 > v0) or (k0 = v0 and k1 > v1) or ...; the leading k0 >= v0 lets the index seek to the cursor
  const or = keys.map((key, i) => ({ ...Object.fromEntries(keys.slice(0, i).map((k, j) => [k, values[j]])), [key]: { gt: values[i] } }));
  return { AND: [{ [keys[0]!]: { gte: values[0] } }, { OR: or }] };
}

/** A cursor of the list `list` at a record's sort key (its values as strings, in the order's key order): opaque to clients. */
export function encodeKeys(list: string, values: readonly string[]): string {
  return Buffer.from(JSON.stringify([list, ...values]), 'utf8').toString('base64url');
}

/**
 * The sort key a cursor of `size` keys carries. 400 `invalid <what> query` with `/cursor` for a cursor this service
 * did not issue: the schema (pageArgs) refused it already on every channel; this guards a service called without it.
 */
export function cursorKeys(cursor: string, size: number, what: string): string[] {
  const values = decodeKeys(what, cursor, size);
  if (!values) throw badCursor(what);
  return values;
}

/** The 400 of a cursor this service did not issue (also for a list that checks its cursor's values further). */
export const badCursor = (what: string) => new ValidationError(`invalid ${what} query`, [{ path: '/cursor', message: BAD_CURSOR }]);

/**
 * A cursor value of a time key: an instant's ISO 8601 text exactly as toISOString writes it, in years 1 to 9999
 * (pageArgs' `valid`): a row's time is one, and the database takes no other (`+275760-09-13T00:00:00.000Z`, which
 * toISOString also writes, answered 500).
 */
export const isoKey = (s: string) => {
  const t = new Date(s);
  return !Number.isNaN(t.getTime()) && t.toISOString() === s && !s.startsWith('+') && !s.startsWith('-') && !s.startsWith('0000');
};

/** Prisma orderBy of `keys`, ascending. */
export const orderOf = (keys: readonly string[]) => keys.map((k) => ({ [k]: 'asc' as const }));

/** Cuts the `limit + 1` rows of the list `what` read in the order `keys` into a page and the cursor of the next one (null at the end). */
export function pageByKeys<T>(rows: T[], limit: number, keys: readonly string[], what: string): Page<T> {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1] as Record<string, unknown> | undefined;
  // a time key is its ISO 8601 text, which the next page's `where` compares as the same instant
  const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
  const nextCursor = rows.length > limit && last ? encodeKeys(what, keys.map((k) => text(last[k]))) : null;
  return { data, count: data.length, nextCursor };
}

/**
 * One page of a list ordered by `keys`: `read` gets the `where` (filter plus cursor), the order and `take`.
 * The filter's own `where` is kept as is; the cursor's condition is added beside it.
 */
export async function readPage<T>(
  args: PageArgs,
  keys: readonly string[],
  what: string,
  where: object,
  read: (q: { where: object; orderBy: Record<string, 'asc'>[]; take: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const limit = args.limit ?? LIST_DEFAULT;
  const w = args.cursor ? { AND: [where, afterKeys(keys, args.cursor, what)] } : where;
  const rows = await read({ where: w, orderBy: orderOf(keys), take: limit + 1 });
  return pageByKeys(rows, limit, keys, what);
}
