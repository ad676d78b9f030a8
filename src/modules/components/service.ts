import DataLoader from 'dataloader';
import { z } from 'zod';
import type { Component } from '../../generated/prisma/client.js';
import { retrying } from '../../db/retry.js';
import { uidLoader } from '../../db/loaders.js';
import { BoolParam } from '../../lib/params.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { AircraftService, createAircraftLoader } from '../aircraft/service.js';
import { VehicleService, createVehicleLoader } from '../vehicles/service.js';
import { AssetReader, type ComponentLiveSource, type LiveAsset, type LiveItem } from '../assets/live.js';
import {
  COUNTER_BASES,
  COUNTER_UNITS,
  DEFAULT_PRECISION,
  PARENT_TYPES,
  asCounters,
  bindCounter,
  deriveKey,
  effectivePrecision,
  evaluateTree,
  exact,
  freezeCounter,
  guessUnit,
  resetCounter,
  type AssetParentType,
  type CounterBasis,
  type CounterBinding,
  type CounterUnit,
  type ParentType,
  type Readings,
  type StoredCounter,
  type TreeNode,
} from './counters.js';

/**
 * Components (api-v1 §2.15, §3; gaps §3 "Components"). This service owns every component rule: input validation,
 * the state moves (install/remove), the tree (ancestorUids, rootAsset, childCount kept exact when a whole subtree
 * moves), soft delete/restore, and counters: bindings captured at install, values recomputed on every read from
 * the parent's live values (./counters.ts), frozen on removal, reset for `sinceEvent` counters.
 *
 * Reads are batched per request: a list of N components loads all their ancestors in one query and each root
 * aircraft/vehicle through the request's dataloaders, then evaluates every counter once. Writes run in one
 * transaction each, after locking the component rows they touch (sorted), and read everything through it.
 */
export type { Component };

export const COMPONENT_STATES = ['installed', 'inStores', 'inRepair', 'onLoan', 'inQuarantine', 'scrapped', 'sold'] as const;
export const REMOVED_STATES = ['inStores', 'inRepair', 'onLoan', 'inQuarantine', 'scrapped', 'sold'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** Fields clients never send: set by the server, or changed only by install/remove. */
export const SERVER_CONTROLLED = [
  'uid',
  'companyId',
  'status',
  'createdAt',
  'updatedAt',
  'ancestorUids',
  'childCount',
  'rootAsset',
  'rootAssetType',
  'rootAssetUid',
  'installedAt',
  'totals',
  'statusBeforeDelete',
] as const;
const PARENT_FIELDS = ['parent', 'parentUid', 'parentKind'] as const;

export type WriteStatus = 'created' | 'updated' | 'deleted' | 'restored' | 'no_changes' | 'installed' | 'removed';
export interface WriteResult {
  uid: string;
  status: WriteStatus;
}

export interface AssetRef {
  type: ParentType;
  uid: string;
  name: string;
}

export interface CounterView {
  key: string;
  displayText: string;
  unit: CounterUnit;
  precision: number;
  basis: CounterBasis;
  binding: CounterBinding | null;
  /** true when the inherited source went backwards (the value is clamped) */
  sourceDecreased: boolean;
  /** current value (also in `totals`) */
  value: number;
}

/** A component as every channel shows it: stored fields plus parent/root references and current counter values. */
export interface ComponentView {
  uid: string;
  companyId: string;
  name: string;
  type: string;
  partNumber: string;
  serialNumber: string;
  status: string;
  state: string;
  manufacturer: string | null;
  description: string | null;
  condition: string | null;
  grn: string | null;
  notes: string | null;
  alternatePartNumbers: string[];
  location: string | null;
  parent: AssetRef | null;
  installedAt: Date | null;
  rootAsset: AssetRef | null;
  ancestorUids: string[];
  childCount: number;
  canHaveChildren: boolean;
  parentType: string | null;
  counters: CounterView[];
  totals: Record<string, number>;
  createdAt: Date;
  updatedAt: Date;
}

export interface ComponentList {
  data: ComponentView[];
  count: number;
}

export interface InheritableSource {
  key: string;
  displayText: string;
  unit: CounterUnit;
  precision: number;
  basis: CounterBasis;
  currentValue: number;
}

export interface InheritableSources {
  parentName: string;
  sources: InheritableSource[];
}

// ---------------------------------------------------------------------------------------------------------------
// validation

const text = (what: string) =>
  z.string({ error: (i) => (i.input === null ? `${what} must not be null` : `${what} must be a string`) }).trim().min(1, `${what} must not be empty`);
/** optional text: null or '' clears it */
const optionalText = (what: string) =>
  z
    .string({ error: `${what} must be a string or null` })
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim()));
const stateEnum = (values: readonly string[], what = 'state') =>
  z.enum(values as [string, ...string[]], { error: `${what} must be one of ${values.join(', ')}` });
const nonNegative = (what: string) =>
  z.number({ error: `${what} must be a number` }).finite(`${what} must be a finite number`).min(0, `${what} must not be negative`);

const CounterInputSchema = z.object({
  key: z.string({ error: 'key must be a string' }).min(1, 'key must not be empty').nullish(),
  displayText: text('displayText').nullish(),
  unit: stateEnum(COUNTER_UNITS, 'unit').nullish(),
  basis: stateEnum(COUNTER_BASES, 'basis').nullish(),
  initialValue: nonNegative('initialValue').nullish(),
  precision: z
    .number({ error: 'precision must be a whole number from 0 to 10' })
    .int('precision must be a whole number from 0 to 10')
    .min(0, 'precision must be a whole number from 0 to 10')
    .max(10, 'precision must be a whole number from 0 to 10')
    .nullish(),
});
type CounterInput = z.output<typeof CounterInputSchema>;
const COUNTER_FIELDS = Object.keys(CounterInputSchema.shape);

const bodyShape = {
  name: text('name'),
  type: text('type'),
  partNumber: text('partNumber'),
  serialNumber: text('serialNumber'),
  manufacturer: optionalText('manufacturer'),
  description: optionalText('description'),
  alternatePartNumbers: z
    .array(text('each alternate part number'), { error: 'alternatePartNumbers must be an array of strings' })
    .nullable()
    .optional(),
  state: stateEnum(COMPONENT_STATES).optional(),
  location: optionalText('location'),
  condition: optionalText('condition'),
  grn: optionalText('grn'),
  notes: optionalText('notes'),
  canHaveChildren: z.boolean({ error: 'canHaveChildren must be true or false' }).nullable().optional(),
  parentType: optionalText('parentType'),
  counters: z.array(CounterInputSchema, { error: 'counters must be an array' }).nullable().optional(),
};
const CreateSchema = z.object(bodyShape);
const UpdateSchema = z.object({
  ...bodyShape,
  name: bodyShape.name.optional(),
  type: bodyShape.type.optional(),
  partNumber: bodyShape.partNumber.optional(),
  serialNumber: bodyShape.serialNumber.optional(),
});
const BODY_FIELDS = Object.keys(bodyShape);

const InstallSchema = z.object({
  parentType: stateEnum(PARENT_TYPES, 'parentType'),
  parentUid: text('parentUid'),
  mappings: z
    .array(
      z.object({
        counterKey: text('counterKey'),
        sourceKey: z.string({ error: 'sourceKey must be a string or null' }).min(1, 'sourceKey must not be empty').nullish(),
      }),
      { error: 'mappings must be an array' },
    )
    .nullish(),
});
const RemoveSchema = z.object({
  state: stateEnum(REMOVED_STATES).nullish(),
  location: optionalText('location'),
  condition: optionalText('condition'),
});
const ResetSchema = z.object({
  counterKey: text('counterKey'),
  newValue: nonNegative('newValue'),
});

export const ComponentFilterSchema = z.object({
  state: stateEnum(COMPONENT_STATES).optional().describe('Only components in this state'),
  type: z.string().min(1).optional().describe('Only components of this type'),
  parentUid: z.string().min(1).optional().describe('Only components fitted directly to this parent (aircraft, vehicle or component uid)'),
  rootAssetUid: z.string().min(1).optional().describe('Only components anywhere under this aircraft or vehicle'),
  partNumber: z.string().min(1).optional().describe('Only components with this part number'),
  serialNumber: z.string().min(1).optional().describe('Only components with this serial number'),
  includeDeleted: BoolParam('includeDeleted').optional().describe('Also list soft-deleted components (default false)'),
});
export type ComponentFilter = z.input<typeof ComponentFilterSchema>;

/** Unknown, server-controlled and parent fields are refused with a message each. */
function checkKeys(raw: Record<string, unknown>, allowed: readonly string[], errors: FieldError[], prefix = '') {
  for (const key of Object.keys(raw)) {
    if (allowed.includes(key) || raw[key] === undefined) continue;
    const path = `${prefix}/${key}`;
    if ((SERVER_CONTROLLED as readonly string[]).includes(key)) errors.push({ path, message: `${key} is set by the server and must not be sent` });
    else if ((PARENT_FIELDS as readonly string[]).includes(key)) {
      errors.push({ path, message: `${key} cannot be set here: a component is fitted and removed with the install and remove operations` });
    } else errors.push({ path, message: `${key} is not a field of this body` });
  }
}

function parse<T extends z.ZodType>(what: string, schema: T, raw: unknown, allowed: readonly string[]): z.output<T> {
  if (!isPlainObject(raw)) throw new ValidationError(`${what}: the body must be a JSON object`);
  const errors: FieldError[] = [];
  checkKeys(raw, allowed, errors);
  if (Array.isArray(raw.counters)) {
    raw.counters.forEach((c, i) => {
      if (!isPlainObject(c)) return;
      for (const key of Object.keys(c)) {
        if (COUNTER_FIELDS.includes(key) || c[key] === undefined) continue;
        const message =
          key === 'value' || key === 'binding' || key === 'sourceDecreased'
            ? `${key} is set by the server: values start at initialValue and change only through the reset operation`
            : `${key} is not a field of a counter`;
        errors.push({ path: `/counters/${i}/${key}`, message });
      }
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  if (errors.length || !parsed.success) invalid(what, errors);
  return parsed.data;
}

async function lockComponents(tx: ScopedPrisma, uids: Iterable<string>): Promise<void> {
  const list = [...new Set(uids)].sort();
  if (!list.length) return;
  await tx.$queryRaw`
    SELECT uid FROM "Component" WHERE "companyId" = ${tx.companyId} AND uid = ANY(${list}::text[])
    ORDER BY uid FOR UPDATE`;
}

/** Rewrites every descendant of `uid`: its ancestors become `prefix` + the path from `uid` down; rootAsset follows. */
async function moveDescendants(tx: ScopedPrisma, uid: string, prefix: string[], root: { type: string; uid: string } | null) {
  await tx.$executeRaw`
    UPDATE "Component"
    SET "ancestorUids" = ${prefix}::text[] || "ancestorUids"[array_position("ancestorUids", ${uid}::text):],
        "rootAssetType" = ${root?.type ?? null}::text, "rootAssetUid" = ${root?.uid ?? null}::text, "updatedAt" = now()
    WHERE "companyId" = ${tx.companyId} AND ${uid}::text = ANY("ancestorUids")`;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------------------------------------------------------
// reading: counter values and views, batched

/** Reads components and the assets they hang under through one client (the request's, or a transaction's). */
class Evaluator {
  readonly rows: DataLoader<string, Component | null>;
  private readonly liveAssets = new Map<string, Promise<LiveAsset | null>>();

  constructor(
    private readonly client: ScopedPrisma,
    private readonly assets: AssetReader,
  ) {
    this.rows = uidLoader((args) => client.component.findMany(args));
  }

  asset(type: AssetParentType, uid: string): Promise<LiveAsset | null> {
    const k = `${type}:${uid}`;
    let p = this.liveAssets.get(k);
    if (!p) {
      p = this.assets.live(type, uid);
      this.liveAssets.set(k, p);
    }
    return p;
  }

  prime(rows: Component[]) {
    for (const r of rows) this.rows.clear(r.uid).prime(r.uid, r);
  }

  /**
   * Current counter readings of `rows`: loads their ancestors (one batch) and any other component a binding on the
   * way up refers to, the live values of the aircraft/vehicles bound to, then evaluates each component once.
   */
  async readings(rows: Component[]): Promise<Map<string, Readings>> {
    const nodes = new Map<string, Component>(rows.map((r) => [r.uid, r]));
    const tried = new Set<string>(nodes.keys());
    const wanted = (r: Component, out: Set<string>) => {
      for (const a of r.ancestorUids) if (!tried.has(a)) out.add(a);
      for (const c of asCounters(r.counters)) {
        if (c.binding?.parentType === 'component' && !tried.has(c.binding.parentUid)) out.add(c.binding.parentUid);
      }
    };
    let pending = new Set<string>();
    for (const r of rows) wanted(r, pending);
    while (pending.size) {
      const uids = [...pending];
      uids.forEach((u) => tried.add(u));
      const loaded = await this.rows.loadMany(uids);
      pending = new Set();
      for (const x of loaded) {
        if (!x || x instanceof Error || nodes.has(x.uid)) continue;
        nodes.set(x.uid, x);
        wanted(x, pending);
      }
    }

    const treeNodes = new Map<string, TreeNode>();
    const assetKeys = new Map<string, [AssetParentType, string]>();
    for (const [uid, r] of nodes) {
      const counters = asCounters(r.counters);
      treeNodes.set(uid, { uid, counters });
      for (const c of counters) {
        if (c.binding && c.binding.parentType !== 'component') assetKeys.set(`${c.binding.parentType}:${c.binding.parentUid}`, [c.binding.parentType, c.binding.parentUid]);
      }
    }
    const values = new Map<string, Record<string, number>>();
    await Promise.all(
      [...assetKeys].map(async ([k, [type, uid]]) => {
        const live = await this.asset(type, uid);
        if (live) values.set(k, Object.fromEntries(live.items.map((i) => [i.key, i.value])));
      }),
    );
    return evaluateTree(treeNodes, (type, uid) => values.get(`${type}:${uid}`), rows.map((r) => r.uid));
  }

  private async ref(type: string | null, uid: string | null): Promise<AssetRef | null> {
    if (!type || !uid) return null;
    if (type === 'component') {
      const row = await this.rows.load(uid);
      return { type, uid, name: row?.name ?? uid };
    }
    if (type !== 'aircraft' && type !== 'vehicle') return null;
    const live = await this.asset(type, uid);
    return { type, uid, name: live?.name ?? uid };
  }

  async views(rows: Component[]): Promise<ComponentView[]> {
    const readings = await this.readings(rows);
    return Promise.all(
      rows.map(async (r) => {
        const [parent, rootAsset] = await Promise.all([this.ref(r.parentKind, r.parentUid), this.ref(r.rootAssetType, r.rootAssetUid)]);
        const read = readings.get(r.uid) ?? {};
        const counters = asCounters(r.counters).map((c): CounterView => {
          const reading = read[c.key] ?? { value: exact(c.value), sourceDecreased: false };
          return {
            key: c.key,
            displayText: c.displayText,
            unit: c.unit,
            precision: c.precision,
            basis: c.basis,
            binding: c.binding,
            sourceDecreased: reading.sourceDecreased,
            value: reading.value,
          };
        });
        return {
          uid: r.uid,
          companyId: r.companyId,
          name: r.name,
          type: r.type,
          partNumber: r.partNumber,
          serialNumber: r.serialNumber,
          status: r.status,
          state: r.state,
          manufacturer: r.manufacturer,
          description: r.description,
          condition: r.condition,
          grn: r.grn,
          notes: r.notes,
          alternatePartNumbers: r.alternatePartNumbers,
          location: r.location,
          parent,
          installedAt: r.installedAt,
          rootAsset,
          ancestorUids: r.ancestorUids,
          childCount: r.childCount,
          canHaveChildren: r.canHaveChildren,
          parentType: r.parentType,
          counters,
          totals: Object.fromEntries(counters.map((c) => [c.key, c.value])),
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
        };
      }),
    );
  }

  /** What a child may bind to under this parent, or null when there is no such parent (deleted components neither). */
  async sources(type: ParentType, uid: string): Promise<InheritableSources | null> {
    if (type === 'component') {
      const row = await this.rows.load(uid);
      if (!row || row.status === 'deleted') return null;
      const [view] = await this.views([row]);
      return {
        parentName: view.name,
        sources: asCounters(row.counters)
          .filter((c) => c.basis === 'sinceNew')
          .map((c) => ({
            key: c.key,
            displayText: c.displayText,
            unit: c.unit,
            precision: effectivePrecision(c),
            basis: c.basis,
            currentValue: view.totals[c.key] ?? exact(c.value),
          })),
      };
    }
    if (type === 'vehicle') {
      // soft-deleted vehicles are readable but are no parent to fit to
      const v = await this.client.vehicle.findFirst({ where: { uid }, select: { status: true } });
      if (!v || v.status === 'deleted') return null;
    }
    const live = await this.asset(type, uid);
    if (!live) return null;
    return {
      parentName: live.name,
      sources: live.items.map((i) => {
        const unit = guessUnit(i.key, i.displayText);
        return {
          key: i.key,
          displayText: i.displayText,
          unit,
          precision: i.precision ?? DEFAULT_PRECISION[unit],
          basis: 'sinceNew' as const,
          currentValue: exact(i.value),
        };
      }),
    };
  }
}

/** An asset reader whose aircraft and vehicle reads go through a transaction. */
function transactionAssets(tx: ScopedPrisma): AssetReader {
  return new AssetReader(new AircraftService(tx, createAircraftLoader(tx)), new VehicleService(tx, createVehicleLoader(tx)));
}

// ---------------------------------------------------------------------------------------------------------------

export class ComponentService implements ComponentLiveSource {
  private ev!: Evaluator;
  private viewLoader!: DataLoader<string, ComponentView | null>;
  private childLoader!: DataLoader<string, ComponentView[]>;

  constructor(
    private readonly db: ScopedPrisma,
    private readonly assets: AssetReader,
  ) {
    this.resetCaches();
  }

  /** After a write, later reads in the same request see it. */
  private resetCaches() {
    const ev = new Evaluator(this.db, this.assets);
    this.ev = ev;
    this.viewLoader = new DataLoader(async (uids) => {
      const rows = await ev.rows.loadMany(uids);
      const found = rows.filter((r): r is Component => !!r && !(r instanceof Error));
      const views = new Map((await ev.views(found)).map((v) => [v.uid, v]));
      return uids.map((u) => views.get(u) ?? null);
    });
    this.childLoader = new DataLoader(async (parents) => {
      const rows = await this.db.component.findMany({
        where: { parentKind: 'component', parentUid: { in: [...parents] }, status: { not: 'deleted' } },
        orderBy: [{ name: 'asc' }, { serialNumber: 'asc' }, { uid: 'asc' }],
      });
      ev.prime(rows);
      const views = await ev.views(rows);
      return parents.map((p) => views.filter((v) => v.parent?.uid === p));
    });
  }

  async list(filter: ComponentFilter = {}): Promise<ComponentList> {
    const parsed = ComponentFilterSchema.safeParse(filter);
    if (!parsed.success) throw new ValidationError('invalid component query', fieldErrorsFromZod(parsed.error.issues, '/query'));
    const f = parsed.data;
    const where: Record<string, unknown> = {};
    if (!f.includeDeleted) where.status = { not: 'deleted' };
    for (const k of ['state', 'type', 'parentUid', 'rootAssetUid', 'partNumber', 'serialNumber'] as const) if (f[k] !== undefined) where[k] = f[k];
    const rows = await this.db.component.findMany({ where, orderBy: [{ name: 'asc' }, { serialNumber: 'asc' }, { uid: 'asc' }] });
    this.ev.prime(rows);
    const data = await this.ev.views(rows);
    for (const v of data) this.viewLoader.prime(v.uid, v);
    return { data, count: data.length };
  }

  /** A component of the company (soft-deleted ones too, with status `deleted`), or 404. */
  async get(uid: string): Promise<ComponentView> {
    const view = await this.find(uid);
    if (!view) throw new NotFoundError('component', uid);
    return view;
  }

  find(uid: string): Promise<ComponentView | null> {
    return this.viewLoader.load(uid);
  }

  /** Components fitted directly to this component (not deleted). */
  children(uid: string): Promise<ComponentView[]> {
    return this.childLoader.load(uid);
  }

  /** ComponentLiveSource: the component's counters as live items (fitted counters show their source's precision). */
  async live(uid: string): Promise<LiveAsset | null> {
    const view = await this.find(uid);
    if (!view) return null;
    return {
      type: 'component',
      uid,
      name: view.name,
      items: view.counters.map(
        (c): LiveItem => ({
          key: c.key,
          displayText: c.displayText,
          precision: c.binding?.sourcePrecision ?? c.precision,
          unit: c.unit,
          basis: c.basis,
          value: c.value,
        }),
      ),
    };
  }

  async create(raw: unknown): Promise<WriteResult> {
    const body = parse('component', CreateSchema, raw, BODY_FIELDS);
    const errors: FieldError[] = [];
    if (body.state === 'installed') {
      errors.push({ path: '/state', message: 'a component is fitted with the install operation (POST /components/{id}/install); create it in another state' });
    }
    const counters: StoredCounter[] = [];
    (body.counters ?? []).forEach((c, i) => {
      if (c.key != null) errors.push({ path: `/counters/${i}/key`, message: 'key is derived from displayText on create; leave it out' });
      const made = newCounter(c, i, new Set(counters.map((x) => x.key)), errors);
      if (made) counters.push(made);
    });
    if (errors.length) invalid('component', errors);
    const uid = newUid('cmp');
    await this.db.component.create({
      data: {
        uid,
        name: body.name,
        type: body.type,
        partNumber: body.partNumber,
        serialNumber: body.serialNumber,
        status: 'active',
        state: body.state ?? 'inStores',
        manufacturer: body.manufacturer ?? null,
        description: body.description ?? null,
        condition: body.condition ?? null,
        grn: body.grn ?? null,
        notes: body.notes ?? null,
        alternatePartNumbers: body.alternatePartNumbers ?? [],
        location: body.location ?? null,
        canHaveChildren: body.canHaveChildren ?? true,
        parentType: body.parentType ?? null,
        ancestorUids: [],
        childCount: 0,
        counters: counters as never,
      } as never,
    });
    this.resetCaches();
    return { uid, status: 'created' };
  }

  async update(uid: string, raw: unknown): Promise<WriteResult> {
    const body = parse('component', UpdateSchema, raw, BODY_FIELDS);
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        await lockComponents(tx, [uid]);
        const current = await this.lockedRow(tx, uid);
        const errors: FieldError[] = [];
        const conflicts: string[] = [];
        const installed = current.state === 'installed';

        if (body.state !== undefined && body.state !== current.state) {
          if (body.state === 'installed') {
            errors.push({ path: '/state', message: 'a component is fitted with the install operation (POST /components/{id}/install)' });
          } else if (installed) {
            conflicts.push(`component ${uid} is installed; take it off with the remove operation, which sets its new state`);
          }
        }
        if (installed && body.location != null && body.location !== current.location) {
          conflicts.push(`component ${uid} is installed; its location comes from its parent`);
        }
        if (body.canHaveChildren === false && current.childCount > 0) {
          conflicts.push(`component ${uid} has ${current.childCount} component(s) fitted; remove them before setting canHaveChildren to false`);
        }

        const counters = asCounters(current.counters);
        if (body.counters) {
          const seen = new Set<string>();
          body.counters.forEach((c, i) => {
            const at = `/counters/${i}`;
            if (c.key == null) {
              const made = newCounter(c, i, new Set(counters.map((x) => x.key)), errors);
              if (made) counters.push(made);
              return;
            }
            const idx = counters.findIndex((x) => x.key === c.key);
            if (idx < 0) {
              errors.push({ path: `${at}/key`, message: `no counter ${c.key} on this component (its counters: ${counters.map((x) => x.key).join(', ') || 'none'}); leave key out to add one` });
              return;
            }
            if (seen.has(c.key)) {
              errors.push({ path: `${at}/key`, message: `counter ${c.key} is given twice` });
              return;
            }
            seen.add(c.key);
            const existing = counters[idx];
            if (c.initialValue != null) {
              errors.push({ path: `${at}/initialValue`, message: 'an existing counter\u2019s value changes only through the counter reset operation' });
            }
            if (c.basis != null && c.basis !== existing.basis) {
              errors.push({ path: `${at}/basis`, message: `the basis of a counter is fixed when it is added (${existing.key} is ${existing.basis})` });
            }
            counters[idx] = {
              ...existing,
              displayText: c.displayText ?? existing.displayText,
              unit: (c.unit as CounterUnit | null | undefined) ?? existing.unit,
              precision: c.precision ?? existing.precision,
            };
          });
        }
        if (errors.length) invalid('component', errors);
        if (conflicts.length) throw new ConflictError(conflicts.join('; '));

        const pick = <T>(v: T | undefined, cur: T) => (v === undefined ? cur : v);
        const next = {
          name: pick(body.name, current.name),
          type: pick(body.type, current.type),
          partNumber: pick(body.partNumber, current.partNumber),
          serialNumber: pick(body.serialNumber, current.serialNumber),
          manufacturer: pick(body.manufacturer, current.manufacturer),
          description: pick(body.description, current.description),
          condition: pick(body.condition, current.condition),
          grn: pick(body.grn, current.grn),
          notes: pick(body.notes, current.notes),
          alternatePartNumbers: body.alternatePartNumbers === undefined ? current.alternatePartNumbers : (body.alternatePartNumbers ?? []),
          state: pick(body.state, current.state),
          location: installed ? current.location : pick(body.location, current.location),
          canHaveChildren: body.canHaveChildren == null ? current.canHaveChildren : body.canHaveChildren,
          parentType: pick(body.parentType, current.parentType),
          counters,
        };
        const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) =>
          k === 'counters' ? !sameJson(asCounters(current.counters), next.counters) : !sameJson(current[k], next[k]),
        );
        if (!changed) return { uid, status: 'no_changes' as const };
        await tx.component.updateMany({ where: { uid }, data: next as never });
        return { uid, status: 'updated' as const };
      }),
    );
    this.resetCaches();
    return result;
  }

  /** Soft delete: status `deleted`, hidden from lists. 409 while installed, while it has children, or when already deleted. */
  async delete(uid: string): Promise<WriteResult> {
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        await lockComponents(tx, [uid]);
        const current = await this.lockedRow(tx, uid);
        // as for vehicles: a deleted component is gone for DELETE
        if (current.status === 'deleted') throw new NotFoundError('component', uid);
        if (current.state === 'installed') throw new ConflictError(`component ${uid} is installed; remove it before deleting it`);
        if (current.childCount > 0) {
          throw new ConflictError(`component ${uid} has ${current.childCount} component(s) fitted; remove them before deleting it`);
        }
        await tx.component.updateMany({ where: { uid }, data: { status: 'deleted', statusBeforeDelete: current.status } });
        return { uid, status: 'deleted' as const };
      }),
    );
    this.resetCaches();
    return result;
  }

  async restore(uid: string): Promise<WriteResult> {
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        await lockComponents(tx, [uid]);
        const current = await this.lockedRow(tx, uid);
        if (current.status !== 'deleted') throw new ConflictError(`component ${uid} is not deleted`);
        await tx.component.updateMany({
          where: { uid },
          data: { status: current.statusBeforeDelete && current.statusBeforeDelete !== 'deleted' ? current.statusBeforeDelete : 'active', statusBeforeDelete: null },
        });
        return { uid, status: 'restored' as const };
      }),
    );
    this.resetCaches();
    return result;
  }

  async inheritableSources(uid: string, parentType: string, parentUid: string): Promise<InheritableSources> {
    const errors: FieldError[] = [];
    if (!(PARENT_TYPES as readonly string[]).includes(parentType)) {
      errors.push({ path: '/query/parentType', message: `parentType must be one of ${PARENT_TYPES.join(', ')}` });
    }
    if (typeof parentUid !== 'string' || !parentUid) errors.push({ path: '/query/parentUid', message: 'parentUid is required' });
    if (errors.length) throw new ValidationError('invalid inheritable-sources query', errors);
    await this.get(uid);
    const sources = await this.ev.sources(parentType as ParentType, parentUid);
    if (!sources) throw new NotFoundError(parentType, parentUid);
    return sources;
  }

  /**
   * Fits the component to a parent. Bindings are rebuilt from `mappings` (unmapped counters stay frozen); the whole
   * subtree under the component moves with it; the new parent's childCount goes up by one.
   */
  async install(uid: string, raw: unknown): Promise<WriteResult> {
    const body = parse('install request', InstallSchema, raw, ['parentType', 'parentUid', 'mappings']);
    const parentType = body.parentType as ParentType;
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        await lockComponents(tx, parentType === 'component' ? [uid, body.parentUid] : [uid]);
        const self = await this.lockedRow(tx, uid);
        if (self.status === 'deleted') throw new ConflictError(`component ${uid} is deleted; restore it before installing it`);
        if (self.state === 'installed') {
          throw new ConflictError(`component ${uid} is already installed (on ${self.parentKind} ${self.parentUid}); remove it first`);
        }
        const ev = new Evaluator(tx, transactionAssets(tx));
        let ancestors: string[];
        let root: { type: string; uid: string } | null;
        if (parentType === 'component') {
          if (body.parentUid === uid) throw new ConflictError(`component ${uid} cannot be installed under itself`);
          const parent = await ev.rows.load(body.parentUid);
          if (!parent || parent.status === 'deleted') {
            invalid('install request', [{ path: '/parentUid', message: `component ${body.parentUid} is not a component of your company` }]);
          }
          if (parent.ancestorUids.includes(uid)) {
            throw new ConflictError(`component ${body.parentUid} is fitted under ${uid}; a component cannot be installed under its own descendant`);
          }
          if (!parent.canHaveChildren) throw new ConflictError(`component ${body.parentUid} cannot have components fitted (canHaveChildren is false)`);
          ancestors = [...parent.ancestorUids, parent.uid];
          root = parent.rootAssetType && parent.rootAssetUid ? { type: parent.rootAssetType, uid: parent.rootAssetUid } : null;
        } else {
          ancestors = [body.parentUid];
          root = { type: parentType, uid: body.parentUid };
        }
        const sources = await ev.sources(parentType, body.parentUid);
        if (!sources) {
          invalid('install request', [{ path: '/parentUid', message: `${parentType} ${body.parentUid} is not a${parentType === 'aircraft' ? 'n' : ''} ${parentType} of your company` }]);
        }

        const counters = asCounters(self.counters);
        const current = (await ev.readings([self])).get(uid) ?? {};
        const mapped = new Map<string, string | null>();
        const errors: FieldError[] = [];
        (body.mappings ?? []).forEach((m, i) => {
          if (!counters.some((c) => c.key === m.counterKey)) {
            errors.push({ path: `/mappings/${i}/counterKey`, message: `no counter ${m.counterKey} on this component (its counters: ${counters.map((c) => c.key).join(', ') || 'none'})` });
          } else if (mapped.has(m.counterKey)) {
            errors.push({ path: `/mappings/${i}/counterKey`, message: `counter ${m.counterKey} is mapped twice` });
          } else mapped.set(m.counterKey, m.sourceKey ?? null);
          if (m.sourceKey != null && !sources.sources.some((s) => s.key === m.sourceKey)) {
            errors.push({
              path: `/mappings/${i}/sourceKey`,
              message: `${m.sourceKey} is not an inheritable source of ${parentType} ${body.parentUid} (its sources: ${sources.sources.map((s) => s.key).join(', ') || 'none'})`,
            });
          }
        });
        if (errors.length) invalid('install request', errors);

        const now = new Date();
        const next = counters.map((c) => {
          const value = current[c.key]?.value ?? exact(c.value);
          const sourceKey = mapped.get(c.key);
          const source = sourceKey ? sources.sources.find((s) => s.key === sourceKey) : undefined;
          if (!source) return freezeCounter(c, value);
          return bindCounter(
            c,
            value,
            { parentType, parentUid: body.parentUid, key: source.key, value: source.currentValue, displayText: source.displayText, precision: source.precision },
            now,
          );
        });

        await tx.component.updateMany({
          where: { uid },
          data: {
            state: 'installed',
            location: null,
            parentKind: parentType,
            parentUid: body.parentUid,
            installedAt: now,
            rootAssetType: root?.type ?? null,
            rootAssetUid: root?.uid ?? null,
            ancestorUids: ancestors,
            counters: next as never,
          },
        });
        await moveDescendants(tx, uid, ancestors, root);
        if (parentType === 'component') await tx.component.updateMany({ where: { uid: body.parentUid }, data: { childCount: { increment: 1 } } });
        return { uid, status: 'installed' as const };
      }),
    );
    this.resetCaches();
    return result;
  }

  /**
   * Takes the component off its parent: each bound counter freezes at its current value; the subtree under it
   * comes along (off any aircraft/vehicle); the old parent's childCount goes down by one.
   */
  async remove(uid: string, raw?: unknown): Promise<WriteResult> {
    const body = parse('remove request', RemoveSchema, raw ?? {}, ['state', 'location', 'condition']);
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        await lockComponents(tx, [uid]);
        let self = await this.lockedRow(tx, uid);
        if (self.state !== 'installed') throw new ConflictError(`component ${uid} is not installed (state ${self.state})`);
        if (self.parentKind === 'component' && self.parentUid) {
          await lockComponents(tx, [self.parentUid]);
          self = await this.lockedRow(tx, uid);
        }
        const ev = new Evaluator(tx, transactionAssets(tx));
        const current = (await ev.readings([self])).get(uid) ?? {};
        const counters = asCounters(self.counters).map((c) => freezeCounter(c, current[c.key]?.value ?? exact(c.value)));
        await tx.component.updateMany({
          where: { uid },
          data: {
            state: body.state ?? 'inStores',
            location: body.location ?? null,
            ...(body.condition !== undefined ? { condition: body.condition } : {}),
            parentKind: null,
            parentUid: null,
            installedAt: null,
            rootAssetType: null,
            rootAssetUid: null,
            ancestorUids: [],
            counters: counters as never,
          },
        });
        await moveDescendants(tx, uid, [], null);
        if (self.parentKind === 'component' && self.parentUid) {
          await tx.component.updateMany({ where: { uid: self.parentUid, childCount: { gt: 0 } }, data: { childCount: { decrement: 1 } } });
        }
        return { uid, status: 'removed' as const };
      }),
    );
    this.resetCaches();
    return result;
  }

  /** Resets a `sinceEvent` counter (e.g. after an overhaul); a bound counter re-binds from now. */
  async resetCounter(uid: string, raw: unknown): Promise<WriteResult> {
    const body = parse('counter reset', ResetSchema, raw, ['counterKey', 'newValue']);
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        await lockComponents(tx, [uid]);
        const self = await this.lockedRow(tx, uid);
        const counters = asCounters(self.counters);
        const idx = counters.findIndex((c) => c.key === body.counterKey);
        if (idx < 0) {
          invalid('counter reset', [
            { path: '/counterKey', message: `no counter ${body.counterKey} on this component (its counters: ${counters.map((c) => c.key).join(', ') || 'none'})` },
          ]);
        }
        const c = counters[idx];
        if (c.basis === 'sinceNew') throw new ConflictError(`counter ${c.key} counts since new and is never reset; only sinceEvent counters are`);
        let parentCurrent: number | undefined;
        if (c.binding) {
          const ev = new Evaluator(tx, transactionAssets(tx));
          const b = c.binding;
          if (b.parentType === 'component') {
            const parent = await ev.rows.load(b.parentUid);
            parentCurrent = parent ? (await ev.readings([parent])).get(parent.uid)?.[b.sourceKey]?.value : undefined;
          } else {
            parentCurrent = (await ev.asset(b.parentType, b.parentUid))?.items.find((i) => i.key === b.sourceKey)?.value;
          }
        }
        counters[idx] = resetCounter(c, body.newValue, parentCurrent, new Date());
        await tx.component.updateMany({ where: { uid }, data: { counters: counters as never } });
        return { uid, status: 'updated' as const };
      }),
    );
    this.resetCaches();
    return result;
  }

  /** The row, read in the transaction after its lock; 404 when missing. */
  private async lockedRow(tx: ScopedPrisma, uid: string): Promise<Component> {
    const row = await tx.component.findFirst({ where: { uid } });
    if (!row) throw new NotFoundError('component', uid);
    return row;
  }
}

/** A counter from create/update input (displayText and unit required); null with errors when invalid. */
function newCounter(c: CounterInput, i: number, taken: Set<string>, errors: FieldError[]): StoredCounter | null {
  const at = `/counters/${i}`;
  const before = errors.length;
  if (c.displayText == null) errors.push({ path: `${at}/displayText`, message: 'displayText is required for a new counter' });
  if (c.unit == null) errors.push({ path: `${at}/unit`, message: `unit is required for a new counter (${COUNTER_UNITS.join(', ')})` });
  if (errors.length > before) return null;
  const unit = c.unit as CounterUnit;
  return {
    key: deriveKey(c.displayText!, taken),
    displayText: c.displayText!,
    unit,
    precision: c.precision ?? DEFAULT_PRECISION[unit],
    basis: (c.basis ?? 'sinceNew') as CounterBasis,
    value: exact(c.initialValue ?? 0),
    binding: null,
  };
}
