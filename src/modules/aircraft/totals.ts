import type { ScopedPrisma } from '../../db/scoped.js';

/**
 * THE totals rule (api-v1 §2.2, gaps §4): for every number maintenance tracking item of an aircraft,
 *   totals[key] = initialValues[key] + sum of key over the aircraft's live flight logs.
 * Recomputed from scratch in SQL on `numeric` (jsonb numbers are numeric), so the stored figures are exact
 * decimals and cannot drift. Callers run it inside the transaction that changed the logs, after locking the
 * aircraft rows with `lockAircraft`, so concurrent writers serialise and every recompute sees committed logs.
 */
export async function recomputeAircraftTotals(tx: ScopedPrisma, uids: Iterable<string>): Promise<void> {
  const list = [...new Set(uids)];
  if (!list.length) return;
  await tx.$executeRaw`
    UPDATE "Aircraft" a SET totals = COALESCE((
      SELECT jsonb_object_agg(k.key, COALESCE((a."initialValues" ->> k.key)::numeric, 0) + COALESCE((
        SELECT SUM((f.tracking ->> k.key)::numeric) FROM "FlightLog" f
        WHERE f."companyId" = a."companyId" AND f."aircraftId" = a.uid
          AND jsonb_typeof(f.tracking -> k.key) = 'number'), 0))
      FROM jsonb_each(a."maintenanceTrackingItems") k
      WHERE k.value ->> 'type' = 'number'), '{}'::jsonb), "updatedAt" = now()
    WHERE a."companyId" = ${tx.companyId} AND a.uid = ANY(${list}::text[])`;
}

/** Locks aircraft rows (sorted, so two writers never wait on each other in opposite orders). */
export async function lockAircraft(tx: ScopedPrisma, uids: Iterable<string>): Promise<void> {
  const list = [...new Set(uids)].sort();
  if (!list.length) return;
  await tx.$queryRaw`
    SELECT uid FROM "Aircraft" WHERE "companyId" = ${tx.companyId} AND uid = ANY(${list}::text[])
    ORDER BY uid FOR UPDATE`;
}
