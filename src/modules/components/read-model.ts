import DataLoader from 'dataloader';
import { parseFilter } from '../../lib/params.js';
import type { Component } from '../../generated/prisma/client.js';
import { uidLoader } from '../../db/loaders.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { NotFoundError, ValidationError, type FieldError } from '../../errors.js';
import { AircraftService, createAircraftLoader } from '../aircraft/service.js';
import { VehicleService, createVehicleLoader } from '../vehicles/service.js';
import { AssetReader, type ComponentLiveSource, type LiveAsset, type LiveItem } from '../assets/live.js';
import {
  DEFAULT_PRECISION,
  PARENT_TYPES,
  asCounters,
  effectivePrecision,
  evaluateTree,
  exact,
  guessUnit,
  type AssetParentType,
  type CounterBasis,
  type CounterBinding,
  type CounterUnit,
  type ParentType,
  type Readings,
  type TreeNode,
} from './counters.js';
import { ComponentFilterSchema, type ComponentFilter } from './schema.js';

/**
 * Components as every channel reads them (docs/api-notes.md "Components"): counter values are recomputed on every
 * read from the parent's live values rather than stored, so a read must see the whole chain up to the aircraft or
 * vehicle. Reads are batched per request: a list of N components loads all their ancestors in one query and each
 * root aircraft/vehicle through the request's dataloaders, then evaluates every counter once.
 */
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

/** Reads components and the assets they hang under through one client (the request's, or a transaction's). */
export class Evaluator {
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

/** Writes read the assets through their own transaction, so they see what it has locked and changed. */
export function transactionAssets(tx: ScopedPrisma): AssetReader {
  return new AssetReader(new AircraftService(tx, createAircraftLoader(tx)), new VehicleService(tx, createVehicleLoader(tx)));
}

/** The reads of ComponentService; its writes (./service.ts) reset these caches so later reads see them. */
export class ComponentReader implements ComponentLiveSource {
  private ev!: Evaluator;
  private viewLoader!: DataLoader<string, ComponentView | null>;
  private childLoader!: DataLoader<string, ComponentView[]>;

  constructor(
    protected readonly db: ScopedPrisma,
    protected readonly assets: AssetReader,
  ) {
    this.resetCaches();
  }

  /** After a write, later reads in the same request see it. */
  protected resetCaches() {
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
    const f = parseFilter(ComponentFilterSchema, filter, 'invalid component query', '/query');
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
}
