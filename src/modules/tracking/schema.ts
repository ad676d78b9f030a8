import { z } from 'zod';
import { trackingValue } from './value.js';
import { LABEL_MAX, tooLong } from '../../lib/text.js';
import { notInherited } from '../../lib/keys.js';

/** TrackingItemMetadata (docs/contract/api-v1.md §2.1): the value type of aircraft and vehicle tracking-item maps. */
export const TrackingItemMetadataSchema = z
  .object({
    displayText: z.string().min(1).max(LABEL_MAX, tooLong('displayText', LABEL_MAX)),
    type: z.enum(['number', 'string']),
    precision: z.number().int().min(0).max(10).optional(),
  })
  .strict();

export type TrackingItemMetadata = z.infer<typeof TrackingItemMetadataSchema>;

/**
 * Tracking keys become top-level JSON properties on flight logs and keys of totals, so they must be plain identifiers
 * and not a name every object has (`toString`, `__proto__`: src/lib/keys.ts).
 */
export const TrackingKeySchema = notInherited(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a tracking key is a letter or _ followed by up to 63 letters, digits or _'),
  'a tracking key',
);

/**
 * Names a tracking key cannot take: flight-log fields, server-controlled fields and `trackingItems`, because
 * tracking values appear as top-level properties on flight logs beside them.
 */
export const RESERVED_TRACKING_KEYS = new Set([
  'uid', 'companyId', 'createdAt', 'updatedAt', 'timeDate', 'pilot', 'copilot', 'copilotType', 'aircraftId',
  'aircraftRegistration', 'flightNumber', 'startLocation', 'endLocation', 'pax', 'notes', 'trackingItems',
]);

export const TrackingMapSchema = z.record(TrackingKeySchema, TrackingItemMetadataSchema).superRefine((map, ctx) => {
  for (const key of Object.keys(map)) {
    if (RESERVED_TRACKING_KEYS.has(key)) {
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} is a flight-log field name and cannot be a tracking key` });
    }
  }
});
export type TrackingMap = z.infer<typeof TrackingMapSchema>;

/** Initial values and totals by tracking key: each a tracking figure (value.ts: below 1e9, at most 6 decimal places). */
export const NumberMapSchema = z.record(TrackingKeySchema, trackingValue());
export type NumberMap = z.infer<typeof NumberMapSchema>;

/** The item a tracking map declares under `key`: its own keys only (`toString` is no item of any map). */
export const declaredItem = (map: TrackingMap, key: string): TrackingItemMetadata | undefined => (Object.hasOwn(map, key) ? map[key] : undefined);

/** JSON columns come back as unknown; tracking maps and totals are objects by construction. */
export const asTrackingMap = (v: unknown): TrackingMap => (v && typeof v === 'object' ? (v as TrackingMap) : {});
export const asNumberMap = (v: unknown): NumberMap => (v && typeof v === 'object' ? (v as NumberMap) : {});
