import { Prisma } from '../generated/prisma/client.js';
import { COMPANY, type ScopedPrisma } from './scoped.js';

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
