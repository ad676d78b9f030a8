import { GivenUid } from '../../lib/params.js';
import type DataLoader from 'dataloader';
import { uidLoader } from '../../db/loaders.js';
import { z } from 'zod';
import { lockRows } from '../../db/row-locks.js';
import { pageArgs, readPage, type Page, type PageArgs } from '../../db/keyset.js';
import { retrying } from '../../db/retry.js';
import type { Aircraft } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, invalid, takenError, type FieldError } from '../../errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY } from '../../db/scoped.js';
import { serviceCheck } from '../../graphql/validation.js';
import { newUid } from '../../lib/ids.js';
import { rowFields } from '../../lib/keys.js';
import type { UpsertStatus, WriteResult } from '../../lib/write-result.js';
import { changesBetween, recordAudit, type AuditActor } from '../audit/service.js';
import { trackingValue } from '../tracking/value.js';
import { recomputeAircraftTotals } from './totals.js';
import { keysInUse, leavingNumberItems } from '../assets/tracked-keys.js';
import { TotalsMoves } from '../assets/totals-moves.js';
import { plural } from '../../lib/text.js';
import { NumberMapSchema, RESERVED_TRACKING_KEYS, TrackingItemMetadataSchema, TrackingKeySchema, TrackingMapSchema, asNumberMap, asTrackingMap, type NumberMap, type TrackingMap } from '../tracking/schema.js';

export type { Aircraft };

/** The contract's Aircraft fields a client writes (docs/contract/api-v1.md §2.2): not uid, companyId, totals or the timestamps. */
const AircraftFields = z.object({
  registration: z.string().trim().min(1).max(32),
  type: z.string().trim().min(1).max(64).describe('Aircraft type code'),
  category: z.string().trim().min(1).max(64).describe('Fixed-wing, rotary-wing, drone, ...'),
  manufacturer: z.string().max(128).optional(),
  model: z.string().max(128).optional(),
  engineType: z.string().trim().min(1).max(64),
  engineCount: z.number().int().min(0).max(64),
  status: z.string().trim().min(1).max(32).default('active'),
  maintenanceTrackingItems: TrackingMapSchema.default({}).describe('map<string, TrackingItemMetadata>: fields on flight logs that accumulate into totals'),
  logTrackingItems: TrackingMapSchema.default({}).describe('map<string, TrackingItemMetadata>: fields on flight logs that do not accumulate'),
  initialValues: NumberMapSchema.default({}).describe('map<string, number>: starting value per number maintenance tracking item'),
});

type Schemas = { maintenanceTrackingItems: TrackingMap; logTrackingItems: TrackingMap; initialValues: NumberMap };

/** The rules across an aircraft's tracking maps: a key is in one map only; initial values are for number maintenance items. */
function schemaIssues(a: Schemas): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(a.logTrackingItems)) {
    if (Object.hasOwn(a.maintenanceTrackingItems, key)) errors.push({ path: `/logTrackingItems/${key}`, message: `${key} is already a maintenance tracking item` });
  }
  for (const key of Object.keys(a.initialValues)) {
    const item = a.maintenanceTrackingItems[key];
    if (!item) errors.push({ path: `/initialValues/${key}`, message: `${key} is not a maintenance tracking item` });
    else if (item.type !== 'number') errors.push({ path: `/initialValues/${key}`, message: `${key} is not a number item` });
  }
  return errors;
}
/** 400 naming each broken rule across the maps, under `pathPrefix` (an import entry's pointer). */
function refuseIssues(a: Schemas, pathPrefix: string): void {
  const issues = schemaIssues(a);
  if (issues.length) throw new ValidationError('invalid aircraft', issues.map((e) => ({ ...e, path: pathPrefix + e.path })));
}
const refineSchemas = (a: Schemas, ctx: z.core.$RefinementCtx) => {
  for (const e of schemaIssues(a)) ctx.addIssue({ code: 'custom', path: e.path.split('/').slice(1), message: e.message });
};

/**
 * Aircraft as an import file or the demo describes it: the fields and its uid (created or updated by uid). The rules
 * across its maps are checked by `upsert` on the aircraft the entry makes: for an existing one, with the fields the
 * entry leaves out kept (an entry giving only `initialValues` is checked against the stored tracking items).
 */
export const AircraftInputSchema = AircraftFields.extend({ uid: GivenUid }).strict();
export type AircraftInput = z.input<typeof AircraftInputSchema>;

/** The order of the aircraft list; its cursor continues it. */
const AIRCRAFT_ORDER = ['registration', 'uid'];
/** The aircraft list's arguments: a page (gaps.md §17). */
export const AircraftListArgsSchema = z.object(pageArgs('aircraft', AIRCRAFT_ORDER)).strict();
/** Fields the server sets: sending one is a 400 that names it (not "unknown field"). */
const AIRCRAFT_SERVER_CONTROLLED = ['uid', 'companyId', 'totals', 'createdAt', 'updatedAt'] as const;

function refuseServerControlled(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(`invalid ${what}: the body must be a JSON object`, [{ path: '', message: 'must be a JSON object' }]);
  const errors: FieldError[] = [];
  for (const key of AIRCRAFT_SERVER_CONTROLLED) {
    if (key in raw) errors.push({ path: `/${key}`, message: key === 'totals' ? 'totals are kept by the server (initialValues plus the flight logs); set initialValues instead' : `${key} is set by the server and must not be sent` });
  }
  if (errors.length) invalid(what, errors);
  return raw as Record<string, unknown>;
}

/** An aircraft body's check: the fields the server sets are named first (not "unknown field"), then the schema's issues. */
const aircraftCheck = <S extends z.ZodType>(schema: S) =>
  serviceCheck('aircraft', schema, (raw) => {
    refuseServerControlled(raw, 'aircraft');
    const r = schema.safeParse(raw);
    if (!r.success) invalid('aircraft', fieldErrorsFromZod(r.error.issues));
    return r.data;
  });

/** `POST /aircraft`, `createAircraft` (docs/contract/gaps.md §12): the contract's fields minus uid, companyId and totals. */
export const CreateAircraftSchema = AircraftFields.strict().superRefine(refineSchemas);
export const CreateAircraftCheck = aircraftCheck(CreateAircraftSchema);
export type CreateAircraft = z.output<typeof CreateAircraftSchema>;

const nullableMap = <V extends z.ZodType>(value: V, what: string) =>
  z
    .record(TrackingKeySchema, value.nullable())
    .superRefine((map, ctx) => {
      for (const key of Object.keys(map)) {
        if (RESERVED_TRACKING_KEYS.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is a flight-log field name and cannot be a tracking key` });
      }
    })
    .optional()
    .describe(what);

/**
 * `PATCH /aircraft/{id}`, `updateAircraft`: only the fields sent change. The three maps are merged key by key
 * (JSON Merge Patch, RFC 7396): a key sent with a value adds or replaces it, a key sent as null removes it, keys not
 * sent stay. Totals follow: initialValues + the sum over the aircraft's flight logs, recomputed in the transaction.
 */
export const UpdateAircraftSchema = z
  .object({
    registration: AircraftFields.shape.registration.optional().describe('A new registration; the aircraft’s flight logs follow it'),
    type: AircraftFields.shape.type.optional(),
    category: AircraftFields.shape.category.optional(),
    manufacturer: z.string().max(128).nullable().optional(),
    model: z.string().max(128).nullable().optional(),
    engineType: AircraftFields.shape.engineType.optional(),
    engineCount: AircraftFields.shape.engineCount.optional(),
    status: z.string().trim().min(1).max(32).optional(),
    maintenanceTrackingItems: nullableMap(TrackingItemMetadataSchema, 'Items to add or change (a key with null removes the item: 409 while flight logs carry it)'),
    logTrackingItems: nullableMap(TrackingItemMetadataSchema, 'Items to add or change (a key with null removes the item: 409 while flight logs carry it)'),
    initialValues: nullableMap(trackingValue(), 'Initial values to set (null sets none, i.e. 0); totals move by exactly the difference'),
  })
  .strict();
export const UpdateAircraftCheck = aircraftCheck(UpdateAircraftSchema);
export type UpdateAircraft = z.output<typeof UpdateAircraftSchema>;


/** The stored fields an audit entry compares (everything a client writes). */
const AUDITED = ['registration', 'type', 'category', 'manufacturer', 'model', 'engineType', 'engineCount', 'status', 'maintenanceTrackingItems', 'logTrackingItems', 'initialValues'] as const;

/** Merge-patches a map: a value adds or replaces its key, null removes it. */
function merged<V>(current: Record<string, V>, patch: Record<string, V | null> | undefined): Record<string, V> {
  if (!patch) return current;
  const out: Record<string, V> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export function createAircraftLoader(db: ScopedPrisma) {
  return uidLoader((args) => db.aircraft.findMany(args));
}

/** Totals at rest hold exactly initialValues + the sum over live flight logs; every maintenance key is present. */
export function totalsOf(a: Pick<Aircraft, 'totals' | 'maintenanceTrackingItems' | 'initialValues'>) {
  const totals = asNumberMap(a.totals);
  const initial = asNumberMap(a.initialValues);
  const out: Record<string, number> = {};
  for (const [key, item] of Object.entries(asTrackingMap(a.maintenanceTrackingItems))) {
    if (item.type === 'number') out[key] = totals[key] ?? initial[key] ?? 0;
  }
  return out;
}

/** The row fields of a checked aircraft input: the audited ones, an absent optional one as null. */
const rowData = (a: z.output<typeof AircraftFields>) => rowFields(a, AUDITED);
type AircraftRow = ReturnType<typeof rowData>;

/** The optional fields of an import entry: left out of an existing aircraft's entry, each keeps its stored value. */
const KEPT_WHEN_LEFT_OUT = ['manufacturer', 'model', 'status', 'maintenanceTrackingItems', 'logTrackingItems', 'initialValues'] as const;

const asRow = (a: Aircraft): AircraftRow => ({
  registration: a.registration,
  type: a.type,
  category: a.category,
  manufacturer: a.manufacturer,
  model: a.model,
  engineType: a.engineType,
  engineCount: a.engineCount,
  status: a.status,
  maintenanceTrackingItems: asTrackingMap(a.maintenanceTrackingItems),
  logTrackingItems: asTrackingMap(a.logTrackingItems),
  initialValues: asNumberMap(a.initialValues),
});


/** What a tracking key is on an aircraft: which map holds it and its type (null: neither). */
function kindOf(a: Pick<AircraftRow, 'maintenanceTrackingItems' | 'logTrackingItems'>, key: string): string | null {
  const m = a.maintenanceTrackingItems[key];
  if (m) return `maintenance:${m.type}`;
  const l = a.logTrackingItems[key];
  return l ? `log:${l.type}` : null;
}

export class AircraftService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, Aircraft | null>,
    /** Who is acting, for the audit log (the request's key and user and its channel). */
    private readonly actor: () => AuditActor = () => ({ keyId: null, userId: null, channel: 'internal' }),
    private readonly moves: TotalsMoves = new TotalsMoves(),
  ) {}

  /** A write changed the aircraft (its totals perhaps): later reads in the request read it again. */
  forget(uid: string): void {
    this.loader.clear(uid);
    this.moves.moved();
  }

  /** A page of aircraft by registration, then uid (docs/api-notes.md, lists). */
  async list(page: PageArgs = {}): Promise<Page<Aircraft>> {
    const out = await readPage(page, AIRCRAFT_ORDER, 'aircraft', {}, (q) => this.db.aircraft.findMany(q));
    for (const r of out.data) this.loader.prime(r.uid, r);
    return out;
  }

  /** The aircraft, or 404 (an aircraft of another company is not found). */
  async get(uid: string): Promise<Aircraft> {
    const row = await this.loader.load(uid);
    if (!row) throw new NotFoundError('aircraft', uid);
    return row;
  }

  find(uid: string): Promise<Aircraft | null> {
    return this.loader.load(uid);
  }

  /** 409 when another aircraft of the company has the registration (the unique index says so too, under races). */
  private async registrationFree(tx: ScopedPrisma, registration: string, uid: string | null): Promise<void> {
    const other = await tx.aircraft.findFirst({ where: { registration, ...(uid ? { uid: { not: uid } } : {}) }, select: { uid: true } });
    if (other) throw takenError('registration', `registration ${registration} is already aircraft ${other.uid}`);
  }

  /** `createAircraft` (admin): a new aircraft; its totals start at its initial values. */
  async create(a: CreateAircraft): Promise<WriteResult<'created'>> {
    const uid = newUid('ac');
    const data = rowData(a);
    await retrying(() =>
      this.db.$transaction(async (tx) => {
        await this.registrationFree(tx, data.registration, null);
        await tx.aircraft.create({ data: { uid, ...data } });
        await recomputeAircraftTotals(tx, [uid]);
        await recordAudit(tx, this.actor(), { entity: 'aircraft', entityId: uid, action: 'created', changes: changesBetween(null, data, AUDITED) });
      }),
    );
    this.forget(uid);
    return { uid, status: 'created' };
  }

  /**
   * `updateAircraft` (admin). Under the aircraft's lock, in one transaction: the change, the registration on its
   * logs, the totals recomputed from scratch (initialValues + the logs) and the audit entry. A tracking key that
   * flight logs carry cannot be removed, change type or move between the maintenance and log maps (409 with the
   * count): the logged values would be orphaned or change meaning.
   */
  async update(uid: string, p: UpdateAircraft): Promise<WriteResult<'updated' | 'no_changes'>> {
    const status = await retrying(() =>
      this.db.$transaction(async (tx) => {
        if (!(await lockRows(tx, 'Aircraft', [uid])).size) throw new NotFoundError('aircraft', uid);
        const current = asRow((await tx.aircraft.findFirst({ where: { uid } }))!);
        const maintenanceTrackingItems = merged(current.maintenanceTrackingItems, p.maintenanceTrackingItems);
        const logTrackingItems = merged(current.logTrackingItems, p.logTrackingItems);
        const initialValues = merged(current.initialValues, p.initialValues);
        // an item that is no longer a number maintenance item takes its initial value with it, unless the patch sets one
        for (const key of Object.keys(initialValues)) {
          if (maintenanceTrackingItems[key]?.type !== 'number' && !(p.initialValues && key in p.initialValues)) delete initialValues[key];
        }
        const next: AircraftRow = {
          registration: p.registration ?? current.registration,
          type: p.type ?? current.type,
          category: p.category ?? current.category,
          manufacturer: p.manufacturer === undefined ? current.manufacturer : p.manufacturer,
          model: p.model === undefined ? current.model : p.model,
          engineType: p.engineType ?? current.engineType,
          engineCount: p.engineCount ?? current.engineCount,
          status: p.status ?? current.status,
          maintenanceTrackingItems,
          logTrackingItems,
          initialValues,
        };
        const issues = schemaIssues(next);
        if (issues.length) invalid('aircraft', issues);
        return this.change(tx, uid, current, next);
      }),
    );
    this.forget(uid);
    return { uid, status };
  }

  /**
   * Writes `next` over `current` (the aircraft locked by the caller's transaction), as every change of an aircraft
   * is made, whoever asks (PATCH, an import): nothing when nothing differs; a tracking key that flight logs carry is
   * not removed, retyped or moved (409); a new registration is free in the company and is written to the
   * aircraft's logs too; the totals are recomputed from scratch; the change is audited.
   */
  private async change(tx: ScopedPrisma, uid: string, current: AircraftRow, next: AircraftRow): Promise<'updated' | 'no_changes'> {
    const changes = changesBetween(current, next, AUDITED);
    if (!Object.keys(changes).length) return 'no_changes';

    const keys = [...new Set([...Object.keys(current.maintenanceTrackingItems), ...Object.keys(current.logTrackingItems)])];
    const altered = keys.filter((k) => kindOf(current, k) !== kindOf(next, k));
    if (altered.length) await this.refuseOrphans(tx, uid, current, next, altered);
    if (next.registration !== current.registration) await this.registrationFree(tx, next.registration, uid);

    await tx.aircraft.updateMany({ where: { uid }, data: next });
    // the stored registration of a log always follows its aircraft (docs/contract/gaps.md §4)
    if (next.registration !== current.registration) await tx.flightLog.updateMany({ where: { aircraftId: uid }, data: { aircraftRegistration: next.registration } });
    await recomputeAircraftTotals(tx, [uid]);
    await recordAudit(tx, this.actor(), { entity: 'aircraft', entityId: uid, action: 'updated', changes });
    return 'updated';
  }

  /**
   * 409 when logs carry a key being removed, retyped or moved, or when a number maintenance item going away (removed,
   * retyped, moved) is tracked by active schedule items or counted by fitted components (../assets/tracked-keys.ts).
   */
  private async refuseOrphans(tx: ScopedPrisma, uid: string, current: AircraftRow, next: AircraftRow, keys: string[]): Promise<void> {
    const counts = await tx.$queryRaw<{ key: string; n: number }[]>(Prisma.sql`
      SELECT k.key, count(f.uid)::int AS n
      FROM unnest(${keys}::text[]) AS k(key)
      JOIN "FlightLog" f ON f."companyId" = ${COMPANY} AND f."aircraftId" = ${uid} AND (f.tracking -> k.key) IS NOT NULL
      GROUP BY k.key ORDER BY k.key`);
    const errors: FieldError[] = [];
    for (const { key, n } of counts) {
      if (!n) continue;
      const what = kindOf(next, key) === null ? 'removed' : 'changed in type or kind';
      const map = current.maintenanceTrackingItems[key] ? 'maintenanceTrackingItems' : 'logTrackingItems';
      errors.push({ path: `/${map}/${key}`, message: `${plural(n, 'flight log')} of this aircraft carry ${key}: it cannot be ${what} while they do` });
    }
    const leaving = leavingNumberItems(current.maintenanceTrackingItems, next.maintenanceTrackingItems).filter((k) => keys.includes(k));
    errors.push(...(await keysInUse(tx, 'aircraft', uid, leaving, next.maintenanceTrackingItems)));
    if (errors.length) throw new ConflictError(errors.map((e) => e.message).join('; '), errors);
  }

  /**
   * `deleteAircraft` (admin): only an aircraft nothing refers to. With flight logs, installed components or
   * schedule items it is a 409 with the counts (deleting it would orphan logged values and history).
   */
  async delete(uid: string): Promise<WriteResult<'deleted'>> {
    await retrying(() =>
      this.db.$transaction(async (tx) => {
        if (!(await lockRows(tx, 'Aircraft', [uid])).size) throw new NotFoundError('aircraft', uid);
        const current = (await tx.aircraft.findFirst({ where: { uid } }))!;
        const [logs, components, items, inactive] = await Promise.all([
          tx.flightLog.count({ where: { aircraftId: uid } }),
          tx.component.count({ where: { rootAssetType: 'aircraft', rootAssetUid: uid, state: 'installed' } }),
          tx.scheduleItem.count({ where: { relatedTo: uid, relatedToType: 'aircraft' } }),
          tx.scheduleItem.count({ where: { relatedTo: uid, relatedToType: 'aircraft', status: 'inactive' } }),
        ]);
        // inactive (deleted) items keep the aircraft's maintenance history, and count: said so, since a list shows
        // only the active ones
        const refs = [
          logs ? plural(logs, 'flight log') : null,
          components ? plural(components, 'installed component') : null,
          items ? `${plural(items, 'schedule item')}${inactive ? ` (${inactive === items ? (items === 1 ? 'inactive' : 'all inactive') : `${inactive} of them inactive`})` : ''}` : null,
        ].filter(Boolean);
        if (refs.length) throw new ConflictError(`aircraft ${uid} has ${refs.join(', ')}: it cannot be deleted while they refer to it`);
        await tx.flightLogDaily.deleteMany({ where: { aircraftId: uid } });
        await tx.aircraft.deleteMany({ where: { uid } });
        await recordAudit(tx, this.actor(), { entity: 'aircraft', entityId: uid, action: 'deleted', changes: changesBetween(asRow(current), null, AUDITED) });
      }),
    );
    this.forget(uid);
    return { uid, status: 'deleted' };
  }

  /**
   * Creates or updates an aircraft by uid (import, demo), under the rules of `createAircraft` and `updateAircraft`
   * (`change`). Totals are recomputed from initial values and logs. `input` is an AircraftInput, or an import file's
   * entry as it came: checked here, as a request body is. `unchanged` when the aircraft is as the input says.
   */
  async upsert(input: unknown, pathPrefix = ''): Promise<UpsertStatus> {
    const parsed = AircraftInputSchema.safeParse(input);
    if (!parsed.success) {
      throw new ValidationError('invalid aircraft', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    }
    const a = parsed.data;
    const data = rowData(a);
    const given = new Set(Object.keys(input as object));
    // Recomputing from scratch is exact only under the aircraft's lock, in one transaction with the change: a log
    // written meanwhile would otherwise add its difference to totals that the recompute then overwrites without it.
    const status = await retrying(() =>
      this.db.$transaction(async (tx): Promise<UpsertStatus> => {
        if ((await lockRows(tx, 'Aircraft', [a.uid])).size) {
          const current = asRow((await tx.aircraft.findFirst({ where: { uid: a.uid } }))!);
          // an existing aircraft's entry changes what it gives: a field it leaves out keeps its stored value (as a
          // vehicle's entry does), so an entry without initialValues does not take the aircraft's starting hours away
          const next: AircraftRow = { ...data };
          for (const k of KEPT_WHEN_LEFT_OUT) if (!given.has(k)) (next as Record<string, unknown>)[k] = current[k];
          refuseIssues(next, pathPrefix);
          return (await this.change(tx, a.uid, current, next)) === 'updated' ? 'updated' : 'unchanged';
        }
        refuseIssues(data, pathPrefix);
        await this.registrationFree(tx, data.registration, null);
        await tx.aircraft.create({ data: { uid: a.uid, ...data } });
        await recomputeAircraftTotals(tx, [a.uid]);
        await recordAudit(tx, this.actor(), { entity: 'aircraft', entityId: a.uid, action: 'created', changes: changesBetween(null, data, AUDITED) });
        return 'created';
      }),
    );
    this.forget(a.uid);
    return status;
  }
}
