import { Prisma } from '../generated/prisma/client.js';
import { writtenAt } from '../lib/clock.js';

/**
 * `"updatedAt"` for SQL that updates rows itself: the time of the write from the same wall clock Prisma stamps
 * `createdAt` and `@updatedAt` with (src/lib/clock.ts), never the database's `now()`, which is the start of the
 * transaction (earlier than a row created in it) and another machine's clock on PostgreSQL. Never before the
 * row's `createdAt`, so a clock that steps back cannot make a row updated before it was created.
 */
export function updatedAtNow(alias?: string): Prisma.Sql {
  return Prisma.sql`GREATEST(${Prisma.raw(alias ? `${alias}."createdAt"` : '"createdAt"')}, ${writtenAt()}::timestamptz)`;
}
