import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { insertRows } from '../../db/insert-rows.js';
import { PLAN_EACH_CALL } from '../../db/statement-cache.js';
import { updatedAtNow } from '../../db/timestamps.js';
import { writtenAt } from '../../lib/clock.js';
import { totalsAfter } from '../aircraft/totals.js';

/** A new log's stored row (see `logRow` in service.ts). */
export type NewLogRow = {
  uid: string;
  timeDate: Date;
  pilot: string;
  copilot: string | null;
  copilotType: string | null;
  aircraftId: string;
  aircraftRegistration: string;
  flightNumber: string | null;
  startLocation: string;
  endLocation: string;
  pax: number | null;
  notes: string | null;
  tracking: Record<string, number | string>;
};

/** What the logs were checked against: the fields of an aircraft that decide whether a log is valid. */
export interface AircraftChecked {
  uid: string;
  registration: string;
  maintenanceTrackingItems: unknown;
  logTrackingItems: unknown;
}

/**
 * Writes new logs and their totals in ONE SQL statement (one round trip, no interactive transaction), provided
 * every aircraft still has the registration and tracking items the logs were checked against.
 *
 * Why this is exact (docs/api-notes.md, "Flight logs"; docs/benchmarks.md):
 * - the statement locks the aircraft rows first (`FOR UPDATE`, sorted by uid, as every other writer does); under
 *   READ COMMITTED a locked row is re-read at its newest committed version, so the comparison with what was checked
 *   is made on the row as it is now, and nobody can change it until this statement commits;
 * - if any aircraft changed (or is gone), nothing is written and the caller falls back to the locked path, which
 *   re-reads and re-checks;
 * - the totals take the inserted rows' values through `totalsAfter`, the same rule every write path uses, applied
 *   to the newest version of the locked row.
 * Returns whether the logs were written.
 */
export async function insertLogsIfAircraftUnchanged(
  db: ScopedPrisma,
  rows: NewLogRow[],
  checked: AircraftChecked[],
  /** false when the caller already holds the aircraft's locks and read them under those locks */
  compare = true,
): Promise<boolean> {
  if (!rows.length) return true;
  const seen = JSON.stringify(
    checked.map((a) => ({ uid: a.uid, registration: a.registration, mti: a.maintenanceTrackingItems ?? {}, lti: a.logTrackingItems ?? {} })),
  );
  const at = writtenAt();
  const insert = insertRows('FlightLog', rows, Prisma.sql`(SELECT ok FROM go)`, { createdAt: at, updatedAt: at });
  if (!insert) return true;
  const added = Prisma.sql`COALESCE((SELECT jsonb_agg(i.tracking) FROM ins i WHERE i."aircraftId" = a.uid), '[]'::jsonb)`;
  const [r] = await db.$queryRaw<{ inserted: number }[]>`
    WITH seen AS (
      SELECT * FROM jsonb_to_recordset(${seen}::jsonb) AS s(uid text, registration text, mti jsonb, lti jsonb)
    ), locked AS (
      SELECT a.uid FROM "Aircraft" a JOIN seen s ON s.uid = a.uid
      WHERE a."companyId" = ${COMPANY} AND (NOT ${compare}::boolean OR (a.registration = s.registration
        AND a."maintenanceTrackingItems" = s.mti AND a."logTrackingItems" = s.lti))
      ORDER BY a.uid FOR UPDATE OF a
    ), go AS (
      SELECT (SELECT count(*) FROM locked) = (SELECT count(*) FROM seen) AS ok
    ), ins AS (
      ${insert}
      RETURNING "aircraftId", tracking
    ), upd AS (
      UPDATE "Aircraft" a SET totals = ${totalsAfter(added, Prisma.sql`'[]'::jsonb`)}, "updatedAt" = ${updatedAtNow('a')}
      WHERE a."companyId" = ${COMPANY} AND a.uid IN (SELECT "aircraftId" FROM ins)
      RETURNING a.uid
    )
    SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM upd)::int AS updated`;
  return Number(r?.inserted ?? 0) === rows.length;
}

/**
 * Deletes logs and takes their values off their aircraft's totals in ONE SQL statement. The delete locks each log
 * at its newest committed version (a log moved to another aircraft meanwhile is taken off that aircraft), and the
 * totals update applies `totalsAfter` to the newest version of each aircraft row, so it is exact under concurrent
 * writers; logs are locked before aircraft, as in every other write. Returns the deleted logs.
 * Planned for each call on PostgreSQL (src/db/statement-cache.ts): one kept plan scanned all of a company's logs for
 * 50 ids where the primary key finds them (a plan made while the company's statistics were stale).
 */
export async function deleteLogsWithTotals(db: ScopedPrisma, uids: string[]): Promise<{ uid: string; aircraftId: string }[]> {
  if (!uids.length) return [];
  const taken = Prisma.sql`COALESCE((SELECT jsonb_agg(d.tracking) FROM del d WHERE d."aircraftId" = a.uid), '[]'::jsonb)`;
  return db.$queryRaw<{ uid: string; aircraftId: string }[]>`${Prisma.raw(PLAN_EACH_CALL)}
    WITH del AS (
      DELETE FROM "FlightLog" WHERE "companyId" = ${COMPANY} AND uid = ANY(${uids}::text[])
      RETURNING uid, "aircraftId", tracking
    ), upd AS (
      UPDATE "Aircraft" a SET totals = ${totalsAfter(Prisma.sql`'[]'::jsonb`, taken)}, "updatedAt" = ${updatedAtNow('a')}
      WHERE a."companyId" = ${COMPANY} AND a.uid IN (SELECT "aircraftId" FROM del)
      RETURNING a.uid
    )
    SELECT d.uid, d."aircraftId" FROM del d`; // upd runs whether or not it is read (a data-modifying WITH always does)
}
