import type DataLoader from 'dataloader';
import { uidLoader } from '../../db/loaders.js';
import { z } from 'zod';
import { Prisma, type Vehicle } from '../../generated/prisma/client.js';
export type { Vehicle };
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, type FieldError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { withKeys, type RowQuery } from '../../db/selection.js';
import { readPage, type Page } from '../../db/keyset.js';
import { lockedWrite, lockRows, type LockTarget } from '../../db/row-locks.js';
import { retrying } from '../../db/retry.js';
import type { UpsertStatus } from '../../lib/write-result.js';
import { batchList, runSetBatch } from '../../lib/batch.js';
import { jsonEqual } from '../../lib/json.js';
import { asNumberMap, asTrackingMap, type TrackingMap } from '../tracking/schema.js';
import { keysInUse, leavingNumberItems } from '../assets/tracked-keys.js';
import { TotalsMoves } from '../assets/totals-moves.js';
import { VEHICLE_ORDER, CreateVehicleCheck, primaryTotalKey, type VehicleFilter, type NewVehicle, type VehiclePatch, type VehicleWriteStatus, type VehicleTracking, VehicleFieldsSchema, VehicleImportSchema, DEFAULT_TRACKING, defaultMaintenanceItems } from './schema.js';
import type { ReadingVehicle } from './readings.js';
/** The vehicle's schemas and checks (./schema.ts) and its odometer readings (./readings.ts), for callers that import the service. */
export * from './schema.js';
export * from './readings.js';

export function createVehicleLoader(db: ScopedPrisma) {
  return uidLoader((args) => db.vehicle.findMany(args));
}

/** A JSON column as a raw query answers it (an object, or its text on a driver that leaves it as text). */
const json = <T>(v: T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** A vehicle's row for read-modify-write (src/db/row-locks.ts). */
const VEHICLE_ROW: LockTarget<Vehicle> = { table: 'Vehicle', what: 'vehicle', read: (tx, uid) => tx.vehicle.findFirst({ where: { uid } }) };

export class VehicleService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, Vehicle | null> = createVehicleLoader(db),
    private readonly moves: TotalsMoves = new TotalsMoves(),
  ) {}

  /** A vehicle of the company (deleted ones too), or null. */
  find(uid: string): Promise<Vehicle | null> {
    return this.loader.load(uid);
  }

  /**
   * The vehicles of a (checked) filter. `query` is the selection a GraphQL request makes (plugin-prisma's select: the
   * scalar columns, and the JSON columns asked for, decision 0007); without one, whole rows, which the request's
   * loader keeps.
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
      const next = withDefaults(overStored(current, patch), current);
      const changed = Object.entries(next).filter(([k, v]) => !jsonEqual(v, (current as Record<string, unknown>)[k]));
      if (!changed.length) return { uid, status: 'no_changes' };
      await refuseTakenKeys(tx, uid, current, next);
      await tx.vehicle.updateMany({ where: { uid }, data: Object.fromEntries(changed) });
      return { uid, status: 'updated' };
    });
  }

  /** Soft delete: status `deleted`, hidden from lists; the previous status is kept for restore. */
  /**
   * Soft delete: status `deleted`, hidden from lists. 409 while components are fitted to it (as for an aircraft, and
   * for a component with children): their counters follow its totals, which a deleted vehicle no longer gets.
   */
  async delete(uid: string): Promise<{ uid: string; status: VehicleWriteStatus }> {
    return this.locked(uid, async (tx, current) => {
      if (current.status === 'deleted') throw new NotFoundError('vehicle', uid);
      const fitted = await tx.component.count({ where: { rootAssetType: 'vehicle', rootAssetUid: uid, state: 'installed' } });
      if (fitted) throw new ConflictError(`vehicle ${uid} has ${fitted} installed component${fitted === 1 ? '' : 's'}; remove them before deleting it`);
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
    this.forget([uid]);
    return result;
  }

  /**
   * The vehicles of `uids` that are not deleted, as odometer readings need them (./readings.ts), in one statement.
   * With `lock` the rows are locked (FOR UPDATE, sorted by uid so two writers never wait on each other in opposite
   * orders) until the caller's transaction ends.
   */
  async forReadings(uids: Iterable<string>, lock: boolean): Promise<Map<string, ReadingVehicle>> {
    const list = [...new Set(uids)].sort();
    if (!list.length) return new Map();
    // unlocked: a model read (not a write, so outside a transaction it is not tied to the request's commit hooks)
    const rows = lock
      ? await this.db.$queryRaw<ReadingVehicle[]>(
          Prisma.sql`SELECT uid, registration, tracking, "maintenanceTrackingItems", totals, readings FROM "Vehicle"
            WHERE "companyId" = ${COMPANY} AND uid = ANY(${list}::text[]) AND status <> 'deleted' ORDER BY uid FOR UPDATE`,
        )
      : await this.db.vehicle.findMany({
          where: { uid: { in: list }, status: { not: 'deleted' } },
          select: { uid: true, registration: true, tracking: true, maintenanceTrackingItems: true, totals: true, readings: true },
        });
    return new Map(
      rows.map((r) => [r.uid, { ...r, tracking: json(r.tracking), maintenanceTrackingItems: json(r.maintenanceTrackingItems), totals: json(r.totals), readings: json(r.readings) }]),
    );
  }

  /** Forgets what this request's loader holds of vehicles another statement changed (readings). */
  forget(uids: Iterable<string>): void {
    for (const uid of uids) this.loader.clear(uid);
    this.moves.moved();
  }

  /**
   * Creates or updates a vehicle by uid (import, demo). `input` is a VehicleImport, or an import file's entry as
   * it came: checked here, as a request body is. Read and written under the vehicle's row lock, as every change of
   * its totals is: an odometer reading committed meanwhile is kept, never overwritten with the figures read before
   * it. `unchanged` when the vehicle is as the input says.
   */
  async upsert(input: unknown, pathPrefix = ''): Promise<UpsertStatus> {
    const parsed = VehicleImportSchema.safeParse(input);
    if (!parsed.success) throw new ValidationError('invalid vehicle', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    const { uid, ...v } = parsed.data;
    const status = await retrying(() =>
      this.db.$transaction(async (tx): Promise<UpsertStatus> => {
        const existing = (await lockRows(tx, 'Vehicle', [uid])).size ? await tx.vehicle.findFirst({ where: { uid } }) : null;
        let data;
        try {
          data = withDefaults(existing ? overStored(existing, v) : v, existing);
        } catch (e) {
          if (e instanceof ValidationError) throw new ValidationError(e.message, e.errors?.map((f) => ({ ...f, path: pathPrefix + f.path })));
          throw e;
        }
        if (!existing) {
          await tx.vehicle.create({ data: { uid, status: 'active', ...data } });
          return 'created';
        }
        const row = existing as unknown as Record<string, unknown>;
        if (Object.entries(data).every(([k, value]) => jsonEqual(row[k] ?? null, value ?? null))) return 'unchanged';
        // as every channel refuses it (update): an import changed a deleted vehicle it still listed as deleted
        if (existing.status === 'deleted') throw new ConflictError(`vehicle ${uid} is deleted; restore it before changing it`);
        await refuseTakenKeys(tx, uid, existing, data);
        await tx.vehicle.updateMany({ where: { uid }, data });
        return 'updated';
      }),
    );
    this.forget([uid]);
    return status;
  }
}

/**
 * 409 when the change takes away a number maintenance item that active schedule items track or fitted components
 * count (../assets/tracked-keys.ts, the aircraft's rule too): the item's total holds the vehicle's readings.
 */
async function refuseTakenKeys(tx: ScopedPrisma, uid: string, current: Vehicle, next: VehicleColumns): Promise<void> {
  const now = asTrackingMap(next.maintenanceTrackingItems);
  const errors = await keysInUse(tx, 'vehicle', uid, leavingNumberItems(asTrackingMap(current.maintenanceTrackingItems), now), now);
  if (errors.length) throw new ConflictError(errors.map((e) => e.message).join('; '), errors);
}

/** A checked new vehicle as the row to insert. */
function newRow(v: NewVehicle) {
  return { uid: newUid('vh'), status: 'active', ...withDefaults(v, null) };
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
 * A change laid over the stored vehicle (PATCH, GraphQL, MCP, import): each map it sends replaces the stored one
 * whole. A number item the change takes away takes its stored initial value with it (the aircraft's rule); initial
 * values the change sends are checked as sent (one for an item that is not a number item is a 400).
 */
function overStored(current: Vehicle, change: Partial<VehicleFields> | VehiclePatch): VehicleColumns & Partial<VehicleFields> {
  // a null in an update clears its field: the row is written with it
  const merged = { ...pick(current), ...change } as VehicleColumns & Partial<VehicleFields>;
  if (change.initialValues === undefined && change.maintenanceTrackingItems !== undefined && merged.initialValues) {
    const items: TrackingMap = merged.maintenanceTrackingItems ?? defaultMaintenanceItems(merged.tracking ?? DEFAULT_TRACKING);
    merged.initialValues = Object.fromEntries(Object.entries(merged.initialValues).filter(([key]) => items[key]?.type === 'number'));
  }
  return merged;
}

/**
 * Defaults and derived values (docs/contract/gaps.md §3): `tracking` defaults to miles; without maintenance items one is made from
 * the primary unit; totals per number item by vehicleTotal (new items start at their initial value, or 0).
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
    if (Object.hasOwn(maintenanceTrackingItems, key)) errors.push({ path: `/logTrackingItems/${key}`, message: `${key} is already a maintenance tracking item` });
  }
  if (errors.length) throw new ValidationError(`invalid vehicle: ${errors[0].path}: ${errors[0].message}`, errors);
  const old = asNumberMap(existing?.totals);
  const oldInitial = asNumberMap(existing?.initialValues);
  const oldReadings = asNumberMap(existing?.readings);
  const totals: Record<string, number> = {};
  // the highest readings of the items that stay (an item taken away takes its readings with it, as its total)
  const readings: Record<string, number> = {};
  for (const [key, item] of Object.entries(maintenanceTrackingItems)) {
    if (item.type !== 'number') continue;
    const stays = Object.hasOwn(old, key);
    const reading = stays && Object.hasOwn(oldReadings, key) ? oldReadings[key] : null;
    if (reading !== null) readings[key] = reading;
    totals[key] = vehicleTotal(stays ? old[key] : null, oldInitial[key] ?? 0, initialValues[key] ?? 0, reading);
  }
  const data: VehicleColumns = { ...v, tracking, maintenanceTrackingItems, logTrackingItems, initialValues, totals, readings };
  for (const key of Object.keys(VehicleFieldsSchema.shape)) if (!(key in data)) data[key] = null;
  return data;
}

/**
 * A vehicle's total of one number item after its initial value is set to `initial` (docs/api-notes.md "Vehicles").
 * Readings are absolute (an odometer shows the distance itself, not what was added to a starting figure), so the
 * aircraft's rule (total = initial value + what the logs add) does not apply: the total is the higher of the
 * initial value and the highest reading taken (`reading`, kept with the vehicle; null when none was taken).
 * - a new item (`total` null) starts at its initial value;
 * - an initial value left as it was leaves the total as it is;
 * - otherwise the total is the new initial value, or the highest reading when that is higher: an initial value
 *   raised above the readings and set back gives the reading back, never less.
 * A total that differs from its initial value with no reading kept (a row of an earlier release the migration did
 * not see as read) is never lowered.
 */
export function vehicleTotal(total: number | null, wasInitial: number, initial: number, reading: number | null = null): number {
  if (total === null) return initial;
  if (initial === wasInitial) return total;
  if (reading !== null) return Math.max(initial, reading);
  if (total === wasInitial) return initial;
  return Math.max(total, initial);
}
