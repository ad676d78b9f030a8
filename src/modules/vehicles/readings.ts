import { Prisma, type Vehicle } from '../../generated/prisma/client.js';
import { COMPANY } from '../../db/scoped.js';
import { updatedAtNow } from '../../db/timestamps.js';
import { NotFoundError } from '../../errors.js';
import { asNumberMap } from '../tracking/schema.js';
import { primaryTotalKey, primaryUnit } from './schema.js';

/**
 * Odometer readings (a form's odometer answers, docs/contract/gaps.md §9): the rule (`planReadings`, pure) and its
 * write as parts of one SQL statement (`readingsWrite`, used by src/modules/completions/write.ts).
 */

/** What an odometer reading needs of a vehicle (VehicleService.forReadings). */
export type ReadingVehicle = Pick<Vehicle, 'uid' | 'registration' | 'tracking' | 'maintenanceTrackingItems' | 'totals' | 'readings'>;
export interface ReadingOutcome {
  applied: boolean;
  key: string | null;
  warning?: string;
}
export interface ReadingsPlan {
  outcomes: ReadingOutcome[];
  /** each changed vehicle's totals after its readings (its row's totals and its highest readings, by uid) */
  totals: Map<string, Record<string, number>>;
  /** each changed vehicle's highest readings after these (a reading equal to its total is kept too, as a floor) */
  readings: Map<string, Record<string, number>>;
  /** the vehicles the plan was made from (every one a reading names) */
  seen: ReadingVehicle[];
}

/**
 * Readings of vehicles' primary totals, in order, on `rows` as read: a higher reading raises the total; a lower one
 * is not applied and comes back as a warning; an equal one changes no total. Each changed vehicle gets its last total,
 * and its highest reading of each item, applied or not (`readings`: the floor its total keeps when an initial value
 * is lowered).
 * A vehicle missing from `rows` is a 404.
 */
export function planReadings(rows: Map<string, ReadingVehicle>, readings: readonly { uid: string; reading: number }[]): ReadingsPlan {
  const totals = new Map<string, Record<string, number>>();
  const changed = new Map<string, Record<string, number>>();
  const kept = new Map<string, Record<string, number>>();
  const read = new Map<string, Record<string, number>>();
  const outcomes = readings.map(({ uid, reading }): ReadingOutcome => {
    const v = rows.get(uid);
    if (!v) throw new NotFoundError('vehicle', uid);
    const key = primaryTotalKey(v);
    if (!key) {
      const numbers = Object.entries((v.maintenanceTrackingItems ?? {}) as Record<string, { type?: string }>).filter(([, m]) => m?.type === 'number').map(([k]) => k);
      const unit = primaryUnit(v);
      const why =
        numbers.length > 1
          ? 'has several number maintenance tracking items and none is named for its unit (odometer, or hours for an hours vehicle)'
          : numbers.length === 1
            ? `counts ${unit}, and its only number maintenance tracking item, ${numbers[0]}, is named for another unit`
            : 'has no number maintenance tracking item';
      return { applied: false, key, warning: `vehicle ${v.registration} ${why}; reading ${reading} not recorded` };
    }
    const t = totals.get(uid) ?? { ...asNumberMap(v.totals) }; // a copy: `seen` keeps the totals as read
    totals.set(uid, t);
    const current = t[key] ?? 0;
    const r = read.get(uid) ?? { ...asNumberMap(v.readings) };
    read.set(uid, r);
    // the highest reading, which the total never goes under (vehicleTotal in ./service.ts), whether or not it moved
    // the total: one equal to a total an initial value set, or below one an initial value raised above it (refused
    // with a warning), is what the odometer showed, so a lower initial value later does not take the total under it
    if (reading > (r[key] ?? -1)) {
      r[key] = reading;
      kept.set(uid, r);
    }
    if (reading < current) {
      return { applied: false, key, warning: `${key} reading ${reading} for vehicle ${v.registration} is below its current total ${current}; not applied` };
    }
    if (reading === current) return { applied: false, key };
    t[key] = reading;
    changed.set(uid, t);
    return { applied: true, key };
  });
  const seen = [...new Set(readings.map((r) => r.uid))].sort().map((uid) => rows.get(uid)!);
  for (const uid of kept.keys()) if (!changed.has(uid)) changed.set(uid, totals.get(uid)!);
  return { outcomes, totals: changed, readings: kept, seen };
}

/**
 * The plan's write as parts of one statement:
 * - `lock`: a query of the vehicles the plan was made from, locked (`FOR UPDATE`, sorted by uid, as every writer of
 *   vehicles locks), that are still not deleted and, with `compare`, still have the registration, units, tracking
 *   items and totals the plan read. Under READ COMMITTED a locked row is re-read at its newest committed version,
 *   so the comparison is made on the row as it is now, and nobody can change it until the statement commits.
 *   Without `compare` the caller already holds the locks and read the rows under them.
 * - `expected`: how many rows `lock` must find for the plan to hold;
 * - `update(when)`: the changed totals, written when `when` holds (null when nothing changes).
 */
export function readingsWrite(plan: ReadingsPlan, compare: boolean): { lock: Prisma.Sql; expected: number; update: (when: Prisma.Sql) => Prisma.Sql | null } {
  const seen = JSON.stringify(
    plan.seen.map((v) => ({ uid: v.uid, registration: v.registration, tracking: v.tracking, mti: v.maintenanceTrackingItems, totals: v.totals, readings: v.readings })),
  );
  const lock = Prisma.sql`SELECT v.uid FROM "Vehicle" v
    JOIN jsonb_to_recordset(${seen}::jsonb) AS s(uid text, registration text, tracking jsonb, mti jsonb, totals jsonb, readings jsonb) ON s.uid = v.uid
    WHERE v."companyId" = ${COMPANY} AND v.status <> 'deleted' AND (NOT ${compare}::boolean OR (v.registration = s.registration
      AND v.tracking = s.tracking AND v."maintenanceTrackingItems" = s.mti AND v.totals = s.totals AND v.readings = s.readings))
    ORDER BY v.uid FOR UPDATE OF v`;
  // each vehicle's totals and highest readings as planned on its row (locked, and with `compare` still as read)
  const changed = JSON.stringify([...plan.totals].map(([uid, totals]) => ({ uid, totals, readings: plan.readings.get(uid) ?? null })));
  const update = (when: Prisma.Sql) =>
    plan.totals.size
      ? // a vehicle whose totals stay (only its highest reading is kept) is not shown as changed: updatedAt stays
        Prisma.sql`UPDATE "Vehicle" v SET totals = n.totals, readings = COALESCE(n.readings, v.readings),
          "updatedAt" = CASE WHEN v.totals = n.totals THEN v."updatedAt" ELSE ${updatedAtNow('v')} END
          FROM jsonb_to_recordset(${changed}::jsonb) AS n(uid text, totals jsonb, readings jsonb)
          WHERE v."companyId" = ${COMPANY} AND v.uid = n.uid AND ${when}`
      : null;
  return { lock, expected: plan.seen.length, update };
}
