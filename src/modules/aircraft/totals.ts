import { Prisma } from '../../generated/prisma/client.js';
import { lockRows } from '../../db/row-locks.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { updatedAtNow } from '../../db/timestamps.js';

/**
 * THE totals rule (docs/contract/api-v1.md §2.2, docs/contract/gaps.md §4): for every number maintenance tracking item of an aircraft,
 *   totals[key] = initialValues[key] + sum of key over the aircraft's live flight logs.
 * All arithmetic is SQL `numeric` (jsonb numbers are numeric), so the stored figures are exact decimals.
 *
 * `recomputeAircraftTotals` computes the rule from scratch (when an aircraft's items or initial values change).
 * A flight-log write instead applies its own difference with `applyTotalsDelta`, in the transaction that writes the
 * log and after `lockAircraft`, so concurrent writers serialise on the aircraft row and each applies its change to
 * the committed totals: exact, and O(1) per write however many logs the aircraft has. The tests recompute from
 * scratch after concurrent mixed writes and compare.
 */
export async function recomputeAircraftTotals(tx: ScopedPrisma, uids: Iterable<string>): Promise<void> {
  const list = [...new Set(uids)];
  if (!list.length) return;
  await tx.$executeRaw`
    UPDATE "Aircraft" a SET totals = ${TOTALS_FROM_LOGS}, "updatedAt" = ${updatedAtNow('a')}
    WHERE a."companyId" = ${COMPANY} AND a.uid = ANY(${list}::text[])`;
}

/**
 * The rule from scratch for the aircraft row `a`, as a jsonb expression: the initial value plus the sum over the
 * aircraft's flight logs of each number maintenance item. Also what `fleetops restore` checks stored totals against.
 */
export const TOTALS_FROM_LOGS = Prisma.sql`COALESCE((
      SELECT jsonb_object_agg(k.key, COALESCE((a."initialValues" ->> k.key)::numeric, 0) + COALESCE((
        SELECT SUM((f.tracking ->> k.key)::numeric) FROM "FlightLog" f
        WHERE f."companyId" = a."companyId" AND f."aircraftId" = a.uid
          AND jsonb_typeof(f.tracking -> k.key) = 'number'), 0))
      FROM jsonb_each(a."maintenanceTrackingItems") k
      WHERE k.value ->> 'type' = 'number'), '{}'::jsonb)`;

/** Locks aircraft rows (sorted, so two writers never wait on each other in opposite orders). */
export async function lockAircraft(tx: ScopedPrisma, uids: Iterable<string>): Promise<void> {
  await lockRows(tx, 'Aircraft', uids);
}

type Tracking = Record<string, unknown> | null | undefined;

/**
 * The totals of aircraft row `a` after adding the values of the jsonb array `adds` and taking off those of `subs`
 * (each an array of log tracking objects), for its number maintenance items only, in exact `numeric`. The one SQL
 * form of the rule's difference: every write path (single, batch, the one-statement insert) uses it.
 */
export function totalsAfter(adds: Prisma.Sql, subs: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`COALESCE((
      SELECT jsonb_object_agg(k.key,
        COALESCE((a.totals ->> k.key)::numeric, (a."initialValues" ->> k.key)::numeric, 0)
        + COALESCE((SELECT SUM((e ->> k.key)::numeric) FROM jsonb_array_elements(${adds}) e
                    WHERE jsonb_typeof(e -> k.key) = 'number'), 0)
        - COALESCE((SELECT SUM((e ->> k.key)::numeric) FROM jsonb_array_elements(${subs}) e
                    WHERE jsonb_typeof(e -> k.key) = 'number'), 0))
      FROM jsonb_each(a."maintenanceTrackingItems") k
      WHERE k.value ->> 'type' = 'number'), '{}'::jsonb)`;
}

/**
 * Adds `add` and subtracts `sub` (a log's tracking values after and before a write; null for none) to the
 * aircraft's totals. Callers hold the lock from `lockAircraft`.
 */
export async function applyTotalsDelta(tx: ScopedPrisma, uid: string, add: Tracking, sub: Tracking): Promise<void> {
  await applyTotalsDeltas(tx, uid, add ? [add] : [], sub ? [sub] : []);
}

/** The same for many logs of one aircraft at once (batches): the values added and taken off summed in SQL, exactly. */
export async function applyTotalsDeltas(tx: ScopedPrisma, uid: string, adds: Record<string, unknown>[], subs: Record<string, unknown>[] = []): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Aircraft" a
    SET totals = ${totalsAfter(Prisma.sql`${JSON.stringify(adds)}::jsonb`, Prisma.sql`${JSON.stringify(subs)}::jsonb`)}, "updatedAt" = ${updatedAtNow('a')}
    WHERE a."companyId" = ${COMPANY} AND a.uid = ${uid}`;
}
