import { ValidationError } from '../errors.js';

/**
 * Keyset pagination on (a timestamp, uid), both descending: stable under inserts, no offsets. The cursor is the
 * last row's pair, base64url-encoded JSON, opaque to clients.
 */
export interface Cursor {
  t: Date;
  u: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.t.toISOString(), c.u]), 'utf8').toString('base64url');
}

export function decodeCursor(s: string): Cursor | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string') return null;
    const t = new Date(v[0]);
    // a crafted cursor must not reach the database with a time it cannot hold or a uid no row has
    const year = t.getUTCFullYear();
    if (Number.isNaN(t.getTime()) || year < 1 || year > 9999) return null;
    if (v[1].length > 200 || v[1].includes('\u0000')) return null;
    return { t, u: v[1] };
  } catch {
    return null;
  }
}

/** The Prisma `where` for rows after the cursor (400 for a cursor this service did not issue). */
export function afterCursor(field: string, cursor: string, what: string) {
  const c = decodeCursor(cursor);
  if (!c) {
    throw new ValidationError(`invalid ${what} query`, [{ path: '/cursor', message: 'cursor is not a nextCursor this service issued' }]);
  }
  // the first condition lets the (companyId, field desc, uid desc) index seek to the cursor; the OR breaks ties
  return { AND: [{ [field]: { lte: c.t } }, { OR: [{ [field]: { lt: c.t } }, { [field]: c.t, uid: { lt: c.u } }] }] };
}

/** Cuts the `limit + 1` rows read into a page and the cursor of the next one (null at the end). */
export function toPage<T extends { uid: string }>(rows: T[], limit: number, time: (row: T) => Date) {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return {
    data,
    count: data.length,
    nextCursor: rows.length > limit && last ? encodeCursor({ t: time(last), u: last.uid }) : null,
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
