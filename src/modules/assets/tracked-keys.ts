import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import type { FieldError } from '../../errors.js';
import { plural } from '../../lib/text.js';
import type { TrackingMap } from '../tracking/schema.js';

/**
 * One rule for aircraft and vehicles alike: a number maintenance item whose total something follows cannot be taken
 * away. Active schedule items compare their thresholds with that total, and the counters of components fitted to the
 * asset grow with it; removing the item, retyping it or moving it out of the maintenance items would leave them with
 * no total (a schedule item falls to "unknown", a counter freezes at its value when bound) and, for a vehicle, drop
 * the readings the total holds. Callers answer 409 with these errors (docs/api-notes.md, "Aircraft" and "Vehicles").
 */

/** Keys that are number maintenance items in `current` and are not in `next` (removed, retyped or moved). */
export function leavingNumberItems(current: TrackingMap, next: TrackingMap): string[] {
  return Object.keys(current).filter((k) => current[k]?.type === 'number' && next[k]?.type !== 'number');
}

/** Why each of `keys` of the asset cannot leave: the active schedule items tracking it and the counters bound to it. */
export async function keysInUse(tx: ScopedPrisma, assetType: 'aircraft' | 'vehicle', uid: string, keys: string[], next: TrackingMap): Promise<FieldError[]> {
  if (!keys.length) return [];
  const [tracked, bound] = await Promise.all([
    tx.scheduleItem.groupBy({
      by: ['trackingItem'],
      where: { relatedTo: uid, relatedToType: assetType, status: 'active', trackingItem: { in: keys } },
      _count: { _all: true },
    }),
    // a fitted component's counter bound to the asset's key (binding: parentType, parentUid, sourceKey)
    tx.$queryRaw<{ key: string; n: number }[]>(Prisma.sql`
      SELECT e.value -> 'binding' ->> 'sourceKey' AS key, count(DISTINCT c.uid)::int AS n
      FROM "Component" c CROSS JOIN LATERAL jsonb_array_elements(c.counters) AS e(value)
      WHERE c."companyId" = ${COMPANY} AND c.state = 'installed' AND c."parentKind" = ${assetType} AND c."parentUid" = ${uid}
        AND e.value -> 'binding' ->> 'parentType' = ${assetType} AND e.value -> 'binding' ->> 'parentUid' = ${uid}
        AND e.value -> 'binding' ->> 'sourceKey' = ANY(${keys}::text[])
      GROUP BY 1`),
  ]);
  const what = (key: string) => (next[key] ? 'changed in type or moved' : 'removed');
  const errors: FieldError[] = [];
  for (const key of [...keys].sort()) {
    const items = tracked.find((t) => t.trackingItem === key)?._count._all ?? 0;
    const components = bound.find((b) => b.key === key)?.n ?? 0;
    if (items) errors.push({ path: `/maintenanceTrackingItems/${key}`, message: `${plural(items, 'active schedule item')} of this ${assetType} track ${key}: it cannot be ${what(key)} while they do` });
    if (components) errors.push({ path: `/maintenanceTrackingItems/${key}`, message: `${plural(components, 'fitted component')} of this ${assetType} count ${key} (a counter bound to it): it cannot be ${what(key)} while they do` });
  }
  return errors;
}
