import DataLoader from 'dataloader';
import { z } from 'zod';
import type { Vehicle } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { ValidationError, fieldErrorsFromZod } from '../../errors.js';
import { NumberMapSchema, TrackingMapSchema, type TrackingMap } from '../tracking/schema.js';

/**
 * Vehicles (api-v1 §2.14, gaps §3). This foundation holds the vehicle rules that import and demo need:
 * the input schema and the defaults for `tracking` and the primary maintenance tracking item.
 */
export const FUEL_TYPES = ['petrol', 'diesel', 'petrolHybrid', 'dieselHybrid', 'electric'] as const;
export const TRANSMISSION_TYPES = ['manual', 'automatic'] as const;

export const VehicleTrackingSchema = z
  .object({ kilometers: z.boolean(), miles: z.boolean(), hours: z.boolean() })
  .strict()
  .refine((t) => [t.kilometers, t.miles, t.hours].filter(Boolean).length === 1, {
    message: 'exactly one of kilometers, miles and hours must be true (the primary unit)',
  });
export type VehicleTracking = z.infer<typeof VehicleTrackingSchema>;

export const TrackingDeviceSchema = z
  .object({
    provider: z.enum(['tracksolid']),
    imei: z.string().min(1),
    mapIcon: z.enum(['car', 'truck', 'bus']).optional(),
    linkedAt: z.string().optional(),
    linkedBy: z.string().optional(),
  })
  .strict();

export const VehicleFieldsSchema = z.object({
  make: z.string().min(1),
  model: z.string().min(1),
  registration: z.string().min(1),
  vin: z.string().optional(),
  serialNumber: z.string().optional(),
  color: z.string().optional(),
  description: z.string().optional(),
  registrationState: z.string().optional(),
  engineNumber: z.string().optional(),
  previousRegistration: z.string().optional(),
  year: z.number().int().min(1885).max(2200).optional(),
  fuelType: z.enum(FUEL_TYPES).optional(),
  transmissionType: z.enum(TRANSMISSION_TYPES).optional(),
  totalSeats: z.number().int().min(0).optional(),
  passengerCapacity: z.number().int().min(0).optional(),
  tracking: VehicleTrackingSchema.optional(),
  trackingDevice: TrackingDeviceSchema.optional(),
  maintenanceTrackingItems: TrackingMapSchema.optional(),
  logTrackingItems: TrackingMapSchema.optional(),
  initialValues: NumberMapSchema.optional(),
  location: z.string().optional(),
  thirdPartyUser: z.record(z.string(), z.unknown()).optional(),
  photos: z.array(z.unknown()).optional(),
});

export const VehicleImportSchema = VehicleFieldsSchema.extend({ uid: z.string().min(1).max(128) }).strict();
export type VehicleImport = z.input<typeof VehicleImportSchema>;

export const DEFAULT_TRACKING: VehicleTracking = { kilometers: false, miles: true, hours: false };

/** The one maintenance tracking item made from the primary unit when none are given (gaps §3). */
export function defaultMaintenanceItems(tracking: VehicleTracking): TrackingMap {
  if (tracking.hours) return { hours: { displayText: 'Hours', type: 'number', precision: 1 } };
  return {
    odometer: { displayText: tracking.kilometers ? 'Odometer (km)' : 'Odometer (mi)', type: 'number', precision: 0 },
  };
}

export function createVehicleLoader(db: ScopedPrisma) {
  return new DataLoader<string, Vehicle | null>(async (uids) => {
    const rows = await db.vehicle.findMany({ where: { uid: { in: [...uids] } } });
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    return uids.map((u) => byUid.get(u) ?? null);
  });
}

export class VehicleService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, Vehicle | null> = createVehicleLoader(db),
  ) {}

  /** A vehicle of the company (deleted ones too), or null. */
  find(uid: string): Promise<Vehicle | null> {
    return this.loader.load(uid);
  }

  /** Creates or updates a vehicle by uid (import, demo). */
  async upsert(input: VehicleImport, pathPrefix = ''): Promise<'created' | 'updated'> {
    const parsed = VehicleImportSchema.safeParse(input);
    if (!parsed.success) throw new ValidationError('invalid vehicle', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    const { uid, ...v } = parsed.data;
    const existing = await this.db.vehicle.findFirst({ where: { uid } });
    const tracking = v.tracking ?? (existing?.tracking as VehicleTracking | undefined) ?? DEFAULT_TRACKING;
    const maintenanceTrackingItems =
      v.maintenanceTrackingItems ?? (existing?.maintenanceTrackingItems as TrackingMap | undefined) ?? defaultMaintenanceItems(tracking);
    const initialValues = v.initialValues ?? (existing?.initialValues as Record<string, number> | undefined) ?? {};
    for (const key of Object.keys(initialValues)) {
      if (!(key in maintenanceTrackingItems)) {
        throw new ValidationError('invalid vehicle', [
          { path: `${pathPrefix}/initialValues/${key}`, message: `${key} is not a maintenance tracking item` },
        ]);
      }
    }
    const totals: Record<string, number> = {};
    for (const [key, item] of Object.entries(maintenanceTrackingItems)) {
      if (item.type === 'number') totals[key] = (existing?.totals as Record<string, number> | null)?.[key] ?? initialValues[key] ?? 0;
    }
    const data = {
      ...v,
      tracking,
      maintenanceTrackingItems,
      logTrackingItems: v.logTrackingItems ?? (existing?.logTrackingItems as TrackingMap | undefined) ?? {},
      initialValues,
      totals,
    };
    if (existing) await this.db.vehicle.updateMany({ where: { uid }, data: data as never });
    else await this.db.vehicle.create({ data: { uid, status: 'active', ...data } as never });
    return existing ? 'updated' : 'created';
  }
}
