import { Prisma } from '../generated/prisma/client.js';
import { COMPANY, type ScopedPrisma } from './scoped.js';
import { NotFoundError } from '../errors.js';
import { retrying } from './retry.js';

/**
 * Row locks: `lockRows` locks a company's rows for read-modify-write; `lockAndRead` and
 * `lockedWrite` run one row's read-modify-write under its lock, retried on a lost deadlock or serialization race.
 * (The data directory's lock file, which keeps a second server off an embedded database, is src/db/data-dir-lock.ts.)
 */
/**
 * Row locks for read-modify-write: `SELECT ... FOR UPDATE` on a company's rows, sorted by uid so two writers
 * never wait on each other in opposite orders. Returns the uids that exist (and are now locked).
 */
const TABLES = new Set(['Aircraft', 'Vehicle', 'Component', 'ScheduleItem', 'FlightLog', 'Form', 'User']);

export async function lockRows(tx: ScopedPrisma, table: string, uids: Iterable<string>): Promise<Set<string>> {
  if (!TABLES.has(table)) throw new Error(`lockRows: unknown table ${table}`);
  const list = [...new Set(uids)].sort();
  if (!list.length) return new Set();
  const rows = await tx.$queryRaw<{ uid: string }[]>(
    Prisma.sql`SELECT uid FROM ${Prisma.raw(`"${table}"`)} WHERE "companyId" = ${COMPANY} AND uid = ANY(${list}::text[]) ORDER BY uid FOR UPDATE`,
  );
  return new Set(rows.map((r) => r.uid));
}

/**
 * As lockRows, but in the order given rather than by uid (one statement: rows are locked in the order it returns
 * them), for rows with an order of their own that every writer follows: a component's ancestors from the top down,
 * then the component (src/modules/components/service.ts). Returns the uids that exist (and are now locked).
 */
export async function lockRowsInOrder(tx: ScopedPrisma, table: string, uids: readonly string[]): Promise<Set<string>> {
  if (!TABLES.has(table)) throw new Error(`lockRowsInOrder: unknown table ${table}`);
  const list = [...new Set(uids)];
  if (!list.length) return new Set();
  const rows = await tx.$queryRaw<{ uid: string }[]>(
    Prisma.sql`SELECT uid FROM ${Prisma.raw(`"${table}"`)} WHERE "companyId" = ${COMPANY} AND uid = ANY(${list}::text[])
      ORDER BY array_position(${list}::text[], uid) FOR UPDATE`,
  );
  return new Set(rows.map((r) => r.uid));
}

/**
 * Read-modify-write of one row. The row is locked before it is read, so no other writer can change it between the
 * read and the write, and a transaction that loses a deadlock or serialization race is run again rather than
 * answered as a 500 (docs/api-notes.md: totals are applied "inside each write's transaction, after locking";
 * schedule completion changes the item "in one transaction, under a row lock").
 */
export interface LockTarget<Row> {
  /** The table, as `lockRows` knows it. */
  table: string;
  /** What a 404 calls the row, e.g. `component`. */
  what: string;
  /** Reads the row through the transaction; only called once the row is locked. */
  read(tx: ScopedPrisma, uid: string): Promise<Row | null>;
}

/**
 * Locks `uid`'s row and the rows of `alsoLock` (in one statement, sorted, so two writers never wait on each other
 * in opposite orders), then reads `uid`'s row. The company scope of the lock makes another company's row a 404.
 */
export async function lockAndRead<Row>(tx: ScopedPrisma, target: LockTarget<Row>, uid: string, alsoLock: Iterable<string> = []): Promise<Row> {
  const found = await lockRows(tx, target.table, [uid, ...alsoLock]);
  const row = found.has(uid) ? await target.read(tx, uid) : null;
  if (!row) throw new NotFoundError(target.what, uid);
  return row;
}

/** Runs `write` on the locked row in a transaction of its own, retried as a whole when it loses a race. */
export function lockedWrite<Row, T>(
  db: ScopedPrisma,
  target: LockTarget<Row>,
  uid: string,
  write: (tx: ScopedPrisma, row: Row) => Promise<T>,
  alsoLock: Iterable<string> = [],
): Promise<T> {
  const also = [...alsoLock];
  return lockedBy(db, (tx) => lockAndRead(tx, target, uid, also), write);
}

/**
 * Runs `write` on what `lock` locked and read (its own order of locks: a component's place, components/place.ts), in
 * a transaction of its own, retried as a whole when it loses a race.
 */
export function lockedBy<Row, T>(db: ScopedPrisma, lock: (tx: ScopedPrisma) => Promise<Row>, write: (tx: ScopedPrisma, row: Row) => Promise<T>): Promise<T> {
  return retrying(() => db.$transaction(async (tx) => write(tx, await lock(tx))));
}
