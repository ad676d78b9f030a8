import { z } from 'zod';
import type { Vehicle } from '../../generated/prisma/client.js';
import { ValidationError, fieldErrorsFromZod, invalid, type FieldError } from '../../errors.js';
import { BoolParam, GivenUid } from '../../lib/params.js';
import { graphqlType } from '../../lib/graphql-hint.js';
import { pageArgs } from '../../db/keyset.js';
import { serviceCheck } from '../../graphql/validation.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, tooLong } from '../../lib/text.js';
import type { WriteStatus } from '../../lib/write-result.js';
import { TrackingKeySchema, TrackingMapSchema, type TrackingMap } from '../tracking/schema.js';
import { trackingValue } from '../tracking/value.js';

/**
 * Vehicles (docs/contract/api-v1.md §2.14, docs/contract/gaps.md §3). This foundation holds the vehicle rules that import and demo need:
 * the input schema and the defaults for `tracking` and the primary maintenance tracking item.
 */
export const FUEL_TYPES = ['petrol', 'diesel', 'petrolHybrid', 'dieselHybrid', 'electric'] as const;
export const TRANSMISSION_TYPES = ['manual', 'automatic'] as const;

export const VehicleTrackingSchema = graphqlType(
  z
  .object({ kilometers: z.boolean(), miles: z.boolean(), hours: z.boolean() })
  .strict()
  .refine((t) => [t.kilometers, t.miles, t.hours].filter(Boolean).length === 1, {
    message: 'exactly one of kilometers, miles and hours must be true (the primary unit)',
  }),
  'VehicleTrackingInput',
);
export type VehicleTracking = z.infer<typeof VehicleTrackingSchema>;

export const TrackingDeviceSchema = graphqlType(
  z
  .object({
    provider: z.enum(['tracksolid']),
    imei: z.string().min(1),
    mapIcon: z.enum(['car', 'truck', 'bus']).optional(),
    linkedAt: z.string().optional(),
    linkedBy: z.string().optional(),
  })
  .strict(),
  'VehicleTrackingDeviceInput',
);

const line = (what: string) => z.string().max(SHORT_TEXT_MAX, tooLong(what, SHORT_TEXT_MAX));

/**
 * A vehicle's initial values and starting totals, by number maintenance item: tracking figures (the one rule,
 * ../tracking/value.ts) that are readings of a meter (odometer, hours), so never below 0, as a reading never is
 * (docs/forms.md). Its totals follow them and odometer readings (withDefaults in ./service.ts).
 */
export const VEHICLE_FIGURE_NEGATIVE = "initial values and totals of a vehicle are meter readings (odometer, hours), never below 0";
export const VehicleFiguresSchema = z.record(TrackingKeySchema, trackingValue().min(0, VEHICLE_FIGURE_NEGATIVE));

export const VehicleFieldsSchema = z.object({
  make: line('make').min(1),
  model: line('model').min(1),
  registration: line('registration').min(1),
  vin: line('vin').optional(),
  serialNumber: line('serialNumber').optional(),
  color: line('color').optional(),
  description: z.string().max(LONG_TEXT_MAX, tooLong('description', LONG_TEXT_MAX)).optional(),
  registrationState: line('registrationState').optional(),
  engineNumber: line('engineNumber').optional(),
  previousRegistration: line('previousRegistration').optional(),
  year: z.number().int().min(1885).max(2200).optional(),
  fuelType: z.enum(FUEL_TYPES).optional(),
  transmissionType: z.enum(TRANSMISSION_TYPES).optional(),
  totalSeats: z.number().int().min(0).max(10_000, 'totalSeats must be at most 10000').optional(),
  passengerCapacity: z.number().int().min(0).max(10_000, 'passengerCapacity must be at most 10000').optional(),
  tracking: VehicleTrackingSchema.optional().describe('Exactly one primary unit true; defaults to miles on create'),
  trackingDevice: TrackingDeviceSchema.optional(),
  maintenanceTrackingItems: TrackingMapSchema.optional().describe('Defaults to one item from the primary unit (odometer or hours)'),
  logTrackingItems: TrackingMapSchema.optional(),
  initialValues: VehicleFiguresSchema.optional().describe(
    'Starting readings, 0 or more. A change moves a total no reading has set; one a reading set never drops',
  ),
  location: line('location').optional(),
  thirdPartyUser: z.record(z.string(), z.unknown()).optional(),
  photos: z.array(z.unknown()).optional(),
});

export const VehicleImportSchema = VehicleFieldsSchema.extend({ uid: GivenUid }).strict();
export type VehicleImport = z.input<typeof VehicleImportSchema>;

/** Fields the server controls: refused on create and update (docs/contract/api-v1.md §2.14). */
const VEHICLE_SERVER_CONTROLLED = ['uid', 'companyId', 'status', 'createdAt', 'updatedAt', 'totals'] as const;

export const CreateVehicleSchema = VehicleFieldsSchema.strict();
/**
 * An update: only the fields to change; `null` clears an optional field (as on aircraft, components, users and forms:
 * a vehicle's `vin` or linked `trackingDevice` could not be taken off). What every vehicle has (make, model,
 * registration, its tracking and items, its initial values) cannot be cleared.
 */
const F = VehicleFieldsSchema.shape;
export const UpdateVehicleSchema = VehicleFieldsSchema.partial()
  .extend({
    vin: F.vin.unwrap().nullable().optional(),
    serialNumber: F.serialNumber.unwrap().nullable().optional(),
    color: F.color.unwrap().nullable().optional(),
    description: F.description.unwrap().nullable().optional(),
    registrationState: F.registrationState.unwrap().nullable().optional(),
    engineNumber: F.engineNumber.unwrap().nullable().optional(),
    previousRegistration: F.previousRegistration.unwrap().nullable().optional(),
    year: F.year.unwrap().nullable().optional(),
    fuelType: F.fuelType.unwrap().nullable().optional(),
    transmissionType: F.transmissionType.unwrap().nullable().optional(),
    totalSeats: F.totalSeats.unwrap().nullable().optional(),
    passengerCapacity: F.passengerCapacity.unwrap().nullable().optional(),
    trackingDevice: F.trackingDevice.unwrap().nullable().optional(),
    location: F.location.unwrap().nullable().optional(),
    thirdPartyUser: F.thirdPartyUser.unwrap().nullable().optional(),
    photos: F.photos.unwrap().nullable().optional(),
  })
  .strict();
/** The create input: the contract also lets a new vehicle's starting figures come as `totals` (CreateVehicleCheck). */
export const CreateVehicleBodySchema = CreateVehicleSchema.extend({
  totals: VehicleFiguresSchema.optional().describe('Starting figures; on create the same as initialValues'),
});
export type CreateVehicleInput = z.input<typeof CreateVehicleSchema>;

/** The order of the vehicle list (registration, then uid); its cursor continues it. */
export const VEHICLE_ORDER = ['registration', 'uid'];

export const VehicleFilterSchema = z
  .object({
    status: z.string().min(1).optional().describe('Only vehicles with this status (e.g. active, deleted)'),
    includeDeleted: BoolParam('includeDeleted')
      .optional()
      .describe('Also list soft-deleted vehicles (default false)'),
    ...pageArgs('vehicle', VEHICLE_ORDER),
  })
  .strict();
export type VehicleFilter = z.output<typeof VehicleFilterSchema>;

export type VehicleWriteStatus = Exclude<WriteStatus, 'installed' | 'removed'>;

function checkBody<S extends z.ZodType>(raw: unknown, schema: S, what: string): z.output<S> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(`a ${what} must be a JSON object`);
  const errors: FieldError[] = [];
  for (const key of VEHICLE_SERVER_CONTROLLED) {
    if (key in raw) errors.push({ path: `/${key}`, message: `${key} is set by the server and must not be sent` });
  }
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([k]) => !(VEHICLE_SERVER_CONTROLLED as readonly string[]).includes(k))));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  if (errors.length) invalid(what, errors);
  return parsed.data!;
}

/**
 * The checks of a vehicle's inputs (docs/decisions/0007-defined-once.md): the GraphQL input types and the REST body
 * documents are read off the schemas; the checks refuse server-controlled fields by name and, on create, make the
 * starting `totals` the contract allows the initialValues they must equal.
 */
export const CreateVehicleCheck = serviceCheck('vehicle', CreateVehicleBodySchema, (raw) => checkBody(startingTotals(raw), CreateVehicleSchema, 'vehicle'));
export const UpdateVehicleCheck = serviceCheck('vehicle', UpdateVehicleSchema, (raw) => checkBody(raw, UpdateVehicleSchema, 'vehicle'));
export type NewVehicle = z.output<typeof CreateVehicleSchema>;
export type VehiclePatch = z.output<typeof UpdateVehicleSchema>;

export const DEFAULT_TRACKING: VehicleTracking = { kilometers: false, miles: true, hours: false };

/** The names a vehicle's primary item goes by, per primary unit, in order of preference. */
const PRIMARY_NAMES = { hours: ['hours'], kilometers: ['odometer', 'kilometers', 'km'], miles: ['odometer', 'miles', 'mi'] } as const;

/**
 * The key of a vehicle's primary total, the item an odometer reading sets: the first number maintenance tracking item
 * named for its primary unit (`hours` for an hours vehicle; `odometer`, then `kilometers` or `km`, `miles` or `mi`),
 * else its only number maintenance item. Null when it has none, or several and none named so: which one a reading
 * is, nothing says (the order of a JSON object's keys is not kept by the database, so "the first" is no rule), and a
 * reading must not raise engine hours by a distance.
 */
export function primaryTotalKey(v: Pick<Vehicle, 'tracking' | 'maintenanceTrackingItems'>): string | null {
  const items = (v.maintenanceTrackingItems ?? {}) as Record<string, { type?: string }>;
  const unit = primaryUnit(v);
  const named = PRIMARY_NAMES[unit].find((k) => items[k]?.type === 'number');
  if (named) return named;
  const numbers = Object.keys(items).filter((k) => items[k]?.type === 'number');
  // the only number item, unless it is named for another unit: a kilometre reading never becomes `hours` (or `miles`)
  return numbers.length === 1 && !FOREIGN_NAMES[unit].has(numbers[0]!) ? numbers[0]! : null;
}

/** Per unit, the names of other units' primary items, not its own (`hours`, `miles`, `mi` for a kilometre vehicle). */
const FOREIGN_NAMES = Object.fromEntries(
  (Object.keys(PRIMARY_NAMES) as (keyof typeof PRIMARY_NAMES)[]).map((unit) => {
    const own = new Set<string>(PRIMARY_NAMES[unit]);
    return [unit, new Set(Object.values(PRIMARY_NAMES).flat().filter((k) => !own.has(k)))];
  }),
) as Record<keyof typeof PRIMARY_NAMES, Set<string>>;

/** A vehicle's primary unit (hours, kilometers or miles; miles by default). */
export function primaryUnit(v: Pick<Vehicle, 'tracking'>): keyof typeof PRIMARY_NAMES {
  const t = v.tracking as VehicleTracking | null;
  return t?.hours ? 'hours' : t?.kilometers ? 'kilometers' : 'miles';
}

/** The one maintenance tracking item made from the primary unit when none are given (docs/contract/gaps.md §3). */
export function defaultMaintenanceItems(tracking: VehicleTracking): TrackingMap {
  if (tracking.hours) return { hours: { displayText: 'Hours', type: 'number', precision: 1 } };
  return {
    odometer: { displayText: tracking.kilometers ? 'Odometer (km)' : 'Odometer (mi)', type: 'number', precision: 0 },
  };
}


/**
 * A create body may carry `totals` (docs/contract/api-v1.md §2.14 allows every Vehicle field but uid, companyId and status): with
 * no readings yet, totals are the starting figures, so they become `initialValues` (the same key given in both
 * with different values is a 400). Updates refuse `totals`: after creation they follow readings and initial values.
 */
function startingTotals(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('totals' in raw)) return raw;
  const { totals, ...rest } = raw as Record<string, unknown>;
  const parsed = VehicleFiguresSchema.safeParse(totals);
  // invalid() names the field once: the detail is "invalid vehicle: /totals/odometer: <why>", and a batch item's
  // error is that line, not the path again (oneLineMessage adds only what the detail does not say)
  if (!parsed.success) invalid('vehicle', fieldErrorsFromZod(parsed.error.issues, '/totals'));
  const initial = (rest.initialValues ?? {}) as Record<string, unknown>;
  // not a map: the schema reports initialValues (the totals went with it; left in, they were also refused as "set
  // by the server", which on create they are not)
  if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) return rest;
  for (const [key, value] of Object.entries(parsed.data)) {
    if (key in initial && initial[key] !== value) {
      invalid('vehicle', [{ path: `/totals/${key}`, message: `totals.${key} differs from initialValues.${key}; on create they are the same figure` }]);
    }
  }
  return { ...rest, initialValues: { ...parsed.data, ...initial } };
}
