import type DataLoader from 'dataloader';
import { uidLoader } from '../../db/loaders.js';
import { z } from 'zod';
import type { Vehicle } from '../../generated/prisma/client.js';
export type { Vehicle };
import type { ScopedPrisma } from '../../db/scoped.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, invalid, type FieldError } from '../../errors.js';
import { exactSum } from '../../lib/decimal.js';
import { newUid } from '../../lib/ids.js';
import { BoolParam } from '../../lib/params.js';
import { graphqlType } from '../../lib/graphql-hint.js';
import { withKeys, type RowQuery } from '../../db/selection.js';
import { pageArgs, readPage, type Page } from '../../db/keyset.js';
import { serviceCheck } from '../../graphql/validation.js';
import { lockAndRead, lockedWrite, type LockTarget } from '../../db/row-locks.js';
import { batchList, runSetBatch } from '../../lib/batch.js';
import { jsonEqual } from '../../lib/json.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, tooLong } from '../../lib/text.js';
import type { WriteStatus } from '../../lib/write-result.js';
import { NumberMapSchema, TrackingMapSchema, asNumberMap, type TrackingMap } from '../tracking/schema.js';

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
  initialValues: NumberMapSchema.optional(),
  location: line('location').optional(),
  thirdPartyUser: z.record(z.string(), z.unknown()).optional(),
  photos: z.array(z.unknown()).optional(),
});

export const VehicleImportSchema = VehicleFieldsSchema.extend({ uid: z.string().min(1).max(128) }).strict();
export type VehicleImport = z.input<typeof VehicleImportSchema>;

/** Fields the server controls: refused on create and update (docs/contract/api-v1.md §2.14). */
const VEHICLE_SERVER_CONTROLLED = ['uid', 'companyId', 'status', 'createdAt', 'updatedAt', 'totals'] as const;

export const CreateVehicleSchema = VehicleFieldsSchema.strict();
export const UpdateVehicleSchema = VehicleFieldsSchema.partial().strict();
/** The create input: the contract also lets a new vehicle's starting figures come as `totals` (CreateVehicleCheck). */
export const CreateVehicleBodySchema = CreateVehicleSchema.extend({
  totals: NumberMapSchema.optional().describe('Starting figures; on create the same as initialValues'),
});
export type CreateVehicleInput = z.input<typeof CreateVehicleSchema>;

/** The order of the vehicle list (registration, then uid); its cursor continues it. */
const VEHICLE_ORDER = ['registration', 'uid'];

export const VehicleFilterSchema = z
  .object({
    status: z.string().min(1).optional().describe('Only vehicles with this status (e.g. active, deleted)'),
    includeDeleted: BoolParam('includeDeleted')
      .optional()
      .describe('Also list soft-deleted vehicles (default false)'),
    ...pageArgs(VEHICLE_ORDER),
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

/**
 * The key of a vehicle's primary total: the item made from its primary unit (`hours` for an hours vehicle, else
 * `odometer`) when it has one, else its first number maintenance tracking item.
 */
export function primaryTotalKey(v: Pick<Vehicle, 'tracking' | 'maintenanceTrackingItems'>): string | null {
  const items = (v.maintenanceTrackingItems ?? {}) as Record<string, { type?: string }>;
  const preferred = (v.tracking as VehicleTracking | null)?.hours ? 'hours' : 'odometer';
  if (items[preferred]?.type === 'number') return preferred;
  return Object.keys(items).find((k) => items[k]?.type === 'number') ?? null;
}

/** The one maintenance tracking item made from the primary unit when none are given (docs/contract/gaps.md §3). */
export function defaultMaintenanceItems(tracking: VehicleTracking): TrackingMap {
  if (tracking.hours) return { hours: { displayText: 'Hours', type: 'number', precision: 1 } };
  return {
    odometer: { displayText: tracking.kilometers ? 'Odometer (km)' : 'Odometer (mi)', type: 'number', precision: 0 },
  };
}

export function createVehicleLoader(db: ScopedPrisma) {
  return uidLoader((args) => db.vehicle.findMany(args));
}

/** A vehicle's row for read-modify-write (src/db/row-locks.ts). */
const VEHICLE_ROW: LockTarget<Vehicle> = { table: 'Vehicle', what: 'vehicle', read: (tx, uid) => tx.vehicle.findFirst({ where: { uid } }) };

export class VehicleService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, Vehicle | null> = createVehicleLoader(db),
  ) {}

  /** A vehicle of the company (deleted ones too), or null. */
  find(uid: string): Promise<Vehicle | null> {
    return this.loader.load(uid);
  }

  /**
   * The vehicles of a (checked) filter. `query` is the selection a GraphQL request makes (plugin-prisma's select), so
   * only the columns it asks for are read; without one, whole rows, which the request's loader keeps.
   */
  async list(filter: VehicleFilter = {}, query?: RowQuery): Promise<Page<Vehicle>> {
    const { status, includeDeleted, ...page } = filter;
    const where = status ? { status } : includeDeleted ? {} : { status: { not: 'deleted' } };
    if (query) return readPage(page, VEHICLE_ORDER, 'vehicle', where, (q) => this.db.vehicle.findMany({ ...withKeys(query, VEHICLE_ORDER), ...q }) as Promise<Vehicle[]>);
    const out = await readPage(page, VEHICLE_ORDER, 'vehicle', where, (q) => this.db.vehicle.findMany(q));
    for (const r of out.data) this.loader.prime(r.uid, r);
    return out;
  }

  /** The vehicle (soft-deleted ones too: they are hidden from lists, not gone), or 404; `query` as for list. */
  async get(uid: string, query?: RowQuery): Promise<Vehicle> {
    const row = query ? await this.db.vehicle.findFirst({ ...query, where: { uid } }) : await this.loader.load(uid);
    if (!row) throw new NotFoundError('vehicle', uid);
    return row;
  }

  /** A checked new vehicle (CreateVehicleCheck: GraphQL's validation, or the caller's parse). */
  async create(input: NewVehicle): Promise<{ uid: string; status: VehicleWriteStatus }> {
    return this.insert(newRow(input));
  }

  /**
   * 1 to 50 vehicles, set-based: every item checked first (a bad one reported with its index), then all valid ones
   * inserted in one statement; should that fail as a whole, item by item so each failure is its own.
   */
  async batchCreate(items: unknown) {
    return runSetBatch(
      batchList(items, 'items'),
      (item) => newRow(CreateVehicleCheck.parse(item)),
      async (rows) => {
        await this.db.vehicle.createMany({ data: rows });
        return rows.map((r) => ({ uid: r.uid, status: 'created' as const }));
      },
      (row) => this.insert(row),
    );
  }

  private async insert(row: ReturnType<typeof newRow>): Promise<{ uid: string; status: VehicleWriteStatus }> {
    await this.db.vehicle.create({ data: row });
    return { uid: row.uid, status: 'created' };
  }

  /** A checked change (UpdateVehicleCheck). */
  async update(uid: string, patch: VehiclePatch): Promise<{ uid: string; status: VehicleWriteStatus }> {
    return this.locked(uid, async (tx, current) => {
      if (current.status === 'deleted') throw new ConflictError(`vehicle ${uid} is deleted; restore it before changing it`);
      const next = withDefaults({ ...pick(current), ...patch }, current);
      const changed = Object.entries(next).filter(([k, v]) => !jsonEqual(v, (current as Record<string, unknown>)[k]));
      if (!changed.length) return { uid, status: 'no_changes' };
      await tx.vehicle.updateMany({ where: { uid }, data: Object.fromEntries(changed) });
      return { uid, status: 'updated' };
    });
  }

  /** Soft delete: status `deleted`, hidden from lists; the previous status is kept for restore. */
  async delete(uid: string): Promise<{ uid: string; status: VehicleWriteStatus }> {
    return this.locked(uid, async (tx, current) => {
      if (current.status === 'deleted') throw new NotFoundError('vehicle', uid);
      await tx.vehicle.updateMany({ where: { uid }, data: { status: 'deleted', statusBeforeDelete: current.status } });
      return { uid, status: 'deleted' };
    });
  }

  async restore(uid: string): Promise<{ uid: string; status: VehicleWriteStatus }> {
    return this.locked(uid, async (tx, current) => {
      if (current.status !== 'deleted') throw new ConflictError(`vehicle ${uid} is not deleted`);
      await tx.vehicle.updateMany({ where: { uid }, data: { status: current.statusBeforeDelete ?? 'active', statusBeforeDelete: null } });
      return { uid, status: 'restored' };
    });
  }

  /**
   * Read-modify-write of one vehicle under its row lock, so a concurrent change (an odometer reading raising
   * totals) is never overwritten with stale figures. 404 when the company has no such vehicle.
   */
  private async locked<R>(uid: string, fn: (tx: ScopedPrisma, current: Vehicle) => Promise<R>): Promise<R> {
    const result = await lockedWrite(this.db, VEHICLE_ROW, uid, fn);
    this.loader.clear(uid);
    return result;
  }

  /**
   * A reading of the vehicle's primary total (an odometer answer of a form, docs/contract/gaps.md §9): raises the total when the
   * reading is higher; a lower reading is not applied and comes back as a warning; an equal one changes nothing.
   * Joins the caller's transaction (the completion's), under the vehicle's row lock.
   */
  async recordReading(uid: string, reading: number): Promise<{ applied: boolean; key: string | null; warning?: string }> {
    const result = await this.db.$transaction(async (tx) => {
      const v = await lockAndRead(tx, VEHICLE_ROW, uid);
      const key = primaryTotalKey(v);
      if (!key) return { applied: false, key, warning: `vehicle ${v.registration} has no number maintenance tracking item; reading ${reading} not recorded` };
      const totals = asNumberMap(v.totals);
      const current = totals[key] ?? 0;
      if (reading < current) {
        return { applied: false, key, warning: `${key} reading ${reading} for vehicle ${v.registration} is below its current total ${current}; not applied` };
      }
      if (reading === current) return { applied: false, key };
      await tx.vehicle.updateMany({ where: { uid }, data: { totals: { ...totals, [key]: reading } } });
      return { applied: true, key };
    });
    this.loader.clear(uid);
    return result;
  }

  /**
   * Creates or updates a vehicle by uid (import, demo). `input` is a VehicleImport, or an import file's entry as
   * it came: checked here, as a request body is.
   */
  async upsert(input: unknown, pathPrefix = ''): Promise<'created' | 'updated'> {
    const parsed = VehicleImportSchema.safeParse(input);
    if (!parsed.success) throw new ValidationError('invalid vehicle', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    const { uid, ...v } = parsed.data;
    const existing = await this.db.vehicle.findFirst({ where: { uid } });
    let data;
    try {
      data = withDefaults(existing ? { ...pick(existing), ...v } : v, existing);
    } catch (e) {
      if (e instanceof ValidationError) throw new ValidationError(e.message, e.errors?.map((f) => ({ ...f, path: pathPrefix + f.path })));
      throw e;
    }
    if (existing) await this.db.vehicle.updateMany({ where: { uid }, data });
    else await this.db.vehicle.create({ data: { uid, status: 'active', ...data } });
    this.loader.clear(uid);
    return existing ? 'updated' : 'created';
  }
}

/** A checked new vehicle as the row to insert. */
function newRow(v: NewVehicle) {
  return { uid: newUid('vh'), status: 'active', ...withDefaults(v, null) };
}

/**
 * A create body may carry `totals` (docs/contract/api-v1.md §2.14 allows every Vehicle field but uid, companyId and status): with
 * no readings yet, totals are the starting figures, so they become `initialValues` (the same key given in both
 * with different values is a 400). Updates refuse `totals`: after creation they follow readings and initial values.
 */
function startingTotals(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('totals' in raw)) return raw;
  const { totals, ...rest } = raw as Record<string, unknown>;
  const parsed = NumberMapSchema.safeParse(totals);
  if (!parsed.success) throw new ValidationError('invalid vehicle: /totals', fieldErrorsFromZod(parsed.error.issues, '/totals'));
  const initial = (rest.initialValues ?? {}) as Record<string, unknown>;
  if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) return raw; // reported by the schema
  for (const [key, value] of Object.entries(parsed.data)) {
    if (key in initial && initial[key] !== value) {
      throw new ValidationError(`invalid vehicle: /totals/${key}`, [
        { path: `/totals/${key}`, message: `totals.${key} differs from initialValues.${key}; on create they are the same figure` },
      ]);
    }
  }
  return { ...rest, initialValues: { ...parsed.data, ...initial } };
}

type VehicleFields = z.output<typeof VehicleFieldsSchema>;
/**
 * A vehicle's fields as withDefaults takes and gives them: the ones a row cannot do without typed, the others as
 * VehicleFieldsSchema checked them (on this write, or on the one that stored them).
 */
type VehicleColumns = Record<string, unknown> & Pick<VehicleFields, 'make' | 'model' | 'registration'>;

/** The stored input fields of a vehicle (for merging an update over it). */
function pick(v: Vehicle): VehicleColumns {
  const out: VehicleColumns = { make: v.make, model: v.model, registration: v.registration };
  for (const key of Object.keys(VehicleFieldsSchema.shape)) {
    const value = (v as Record<string, unknown>)[key];
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Defaults and derived values (docs/contract/gaps.md §3): `tracking` defaults to miles; without maintenance items one is made from
 * the primary unit; totals keep their value per item (new items start at their initial value, or 0).
 */
function withDefaults(v: VehicleColumns & Partial<VehicleFields>, existing: Vehicle | null): VehicleColumns {
  const tracking: VehicleTracking = v.tracking ?? DEFAULT_TRACKING;
  const maintenanceTrackingItems: TrackingMap = v.maintenanceTrackingItems ?? defaultMaintenanceItems(tracking);
  const initialValues: Record<string, number> = v.initialValues ?? {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(initialValues)) {
    if (maintenanceTrackingItems[key]?.type !== 'number') {
      errors.push({ path: `/initialValues/${key}`, message: `${key} is not a number maintenance tracking item` });
    }
  }
  const logTrackingItems: TrackingMap = v.logTrackingItems ?? {};
  for (const key of Object.keys(logTrackingItems)) {
    if (key in maintenanceTrackingItems) errors.push({ path: `/logTrackingItems/${key}`, message: `${key} is already a maintenance tracking item` });
  }
  if (errors.length) throw new ValidationError(`invalid vehicle: ${errors[0].path}: ${errors[0].message}`, errors);
  const old = asNumberMap(existing?.totals);
  const oldInitial = asNumberMap(existing?.initialValues);
  const totals: Record<string, number> = {};
  for (const [key, item] of Object.entries(maintenanceTrackingItems)) {
    if (item.type !== 'number') continue;
    // a changed initial value moves the total by the same amount; readings recorded since are kept
    const base = old[key] ?? oldInitial[key] ?? 0;
    totals[key] = key in old ? exactSum(base, initialValues[key] ?? 0, -(oldInitial[key] ?? 0)) : (initialValues[key] ?? 0);
  }
  const data: VehicleColumns = { ...v, tracking, maintenanceTrackingItems, logTrackingItems, initialValues, totals };
  for (const key of Object.keys(VehicleFieldsSchema.shape)) if (!(key in data)) data[key] = null;
  return data;
}
