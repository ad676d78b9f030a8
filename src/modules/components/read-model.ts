import DataLoader from 'dataloader';
import type { Component, Prisma } from '../../generated/prisma/client.js';
import { withKeys, type RowQuery } from '../../db/selection.js';
import { LIST_DEFAULT, badCursor, cursorKeys, orderOf, pageByKeys, readPage, type Page } from '../../db/keyset.js';
import { uidLoader } from '../../db/loaders.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { NotFoundError, ValidationError, invalid, type FieldError } from '../../errors.js';
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
import { CHILDREN_LIST, CHILDREN_ORDER, COMPONENT_ORDER, type ComponentChildrenArgs, type ComponentFilter } from './schema.js';

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

export type ComponentList = Page<Component>;

/** What counter readings need of a component row (a request may have read no more of it). */
export type CounterRow = Pick<Component, 'uid' | 'ancestorUids' | 'counters'>;

/** A component's counters with their current readings. */
export function counterViews(row: Pick<Component, 'counters'>, read: Readings): CounterView[] {
  return asCounters(row.counters).map((c) => {
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
  async readings(rows: readonly CounterRow[]): Promise<Map<string, Readings>> {
    const nodes = new Map<string, CounterRow>(rows.map((r) => [r.uid, r]));
    const tried = new Set<string>(nodes.keys());
    const wanted = (r: CounterRow, out: Set<string>) => {
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

  /** A parent or root asset: aircraft and vehicles by registration, components by name (the uid when gone). */
  async ref(type: string | null, uid: string | null): Promise<AssetRef | null> {
    if (!type || !uid) return null;
    if (type === 'component') {
      const row = await this.rows.load(uid);
      return { type, uid, name: row?.name ?? uid };
    }
    if (type !== 'aircraft' && type !== 'vehicle') return null;
    const live = await this.asset(type, uid);
    return { type, uid, name: live?.name ?? uid };
  }

  /** What a child may bind to under this parent, or null when there is no such parent (deleted components neither). */
  async sources(type: ParentType, uid: string): Promise<InheritableSources | null> {
    if (type === 'component') {
      const row = await this.rows.load(uid);
      if (!row || row.status === 'deleted') return null;
      const read = (await this.readings([row])).get(uid) ?? {};
      return {
        parentName: row.name,
        sources: asCounters(row.counters)
          .filter((c) => c.basis === 'sinceNew')
          .map((c) => ({
            key: c.key,
            displayText: c.displayText,
            unit: c.unit,
            precision: effectivePrecision(c),
            basis: c.basis,
            currentValue: read[c.key]?.value ?? exact(c.value),
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

/** The same, components included (a schedule item's asset may be one, its counters its tracking items). */
export function transactionAssetsWithComponents(tx: ScopedPrisma): AssetReader {
  const assets = transactionAssets(tx);
  assets.setComponents(new ComponentReader(tx, assets));
  return assets;
}

/**
 * The reads of ComponentService; its writes (./service.ts) reset these caches so later reads see them. Rows are read
 * with the columns a GraphQL request selects (`query`, plugin-prisma's select: a component has no Prisma relations
 * to include) where there is one; counter readings
 * are computed once per request for all the rows that ask for them (DataLoader).
 */
export class ComponentReader implements ComponentLiveSource {
  private evaluator!: Evaluator;
  private readings!: DataLoader<CounterRow, Readings, string>;
  /** The request's writes of totals when the caches were made (AssetReader.moves). */
  private movesSeen = 0;
  /** Per selection (a request's `query`): the rows it asks for with the same selection are read in one query. */
  private rowLoaders!: Map<string, DataLoader<string, Component | null>>;
  private childLoaders!: Map<string, DataLoader<string, ComponentList>>;

  /**
   * The evaluator and the readings derive counters from the assets' totals: once a write of this request moved
   * totals (a flight log, an odometer reading, an initial value), they start again, so a later read in the same
   * operation (a schedule completion after a flight log) sees the counters moved.
   */
  private get ev(): Evaluator {
    if (this.movesSeen !== this.assets.moves.count) this.resetCaches();
    return this.evaluator;
  }
  private get readingLoader(): DataLoader<CounterRow, Readings, string> {
    if (this.movesSeen !== this.assets.moves.count) this.resetCaches();
    return this.readings;
  }

  constructor(
    protected readonly db: ScopedPrisma,
    protected readonly assets: AssetReader,
  ) {
    this.resetCaches();
  }

  /** After a write, later reads in the same request see it. */
  protected resetCaches() {
    const ev = new Evaluator(this.db, this.assets);
    this.evaluator = ev;
    this.movesSeen = this.assets.moves.count;
    this.readings = new DataLoader(
      async (rows) => {
        const read = await ev.readings(rows);
        return rows.map((r) => read.get(r.uid) ?? {});
      },
      { cacheKeyFn: (r) => r.uid },
    );
    this.rowLoaders = new Map();
    this.childLoaders = new Map();
  }

  /** The components of a checked filter, by name, serial number and uid. */
  async list(filter: ComponentFilter = {}, query?: RowQuery): Promise<ComponentList> {
    const { state, type, parentUid, rootAssetUid, partNumber, serialNumber, includeDeleted, ...page } = filter;
    // a filter left out is undefined, which Prisma reads as no condition
    const where: Prisma.ComponentWhereInput = { state, type, parentUid, rootAssetUid, partNumber, serialNumber };
    if (!includeDeleted) where.status = { not: 'deleted' };
    const select = withKeys(query, COMPONENT_ORDER)?.select;
    const out = await readPage(page, COMPONENT_ORDER, 'component', where, (q) => this.db.component.findMany({ ...q, select }) as Promise<Component[]>);
    if (!query) this.ev.prime(out.data); // whole rows only: the evaluator reads ancestors and names from them
    return out;
  }

  /** A component of the company (soft-deleted ones too, with status `deleted`), or 404. */
  async get(uid: string, query?: RowQuery): Promise<Component> {
    const row = await this.find(uid, query);
    if (!row) throw new NotFoundError('component', uid);
    return row;
  }

  async find(uid: string, query?: RowQuery): Promise<Component | null> {
    if (!query) return this.ev.rows.load(uid);
    const key = JSON.stringify(query.select ?? null);
    let loader = this.rowLoaders.get(key);
    if (!loader) {
      const select = withKeys(query, ['uid'])?.select;
      loader = uidLoader((args) => this.db.component.findMany({ ...args, select }));
      this.rowLoaders.set(key, loader);
    }
    return loader.load(uid);
  }

  /**
   * A page of the components fitted directly to this component (not deleted), in the list's order. Without a cursor,
   * the first pages of all the parents a request asks for are read together: the uids of each parent's first
   * `limit + 1` children in one statement (a window per parent), then those rows with the request's selection.
   * With a cursor, that parent's page alone.
   */
  children(uid: string, page: ComponentChildrenArgs = {}, query?: RowQuery): Promise<ComponentList> {
    const select = withKeys(query, [...COMPONENT_ORDER, 'parentUid'])?.select;
    const where: Prisma.ComponentWhereInput = { parentKind: 'component', parentUid: uid, status: { not: 'deleted' } };
    if (page.cursor) {
      // a cursor of another parent's children is refused (pageArgs refused those of other lists already); the
      // order leads with the parent, which the `where` fixes, so the page continues the components' order
      const [parent] = cursorKeys(page.cursor, CHILDREN_ORDER.length, CHILDREN_LIST);
      // in the words of the arguments' own check ("invalid component query: /cursor: ...")
      if (parent !== uid) invalid('component query', badCursor('component').errors ?? []);
      return readPage(page, CHILDREN_ORDER, CHILDREN_LIST, where, (q) => this.db.component.findMany({ ...q, select }) as Promise<Component[]>);
    }
    const limit = page.limit ?? LIST_DEFAULT;
    const key = `${limit} ${JSON.stringify(select ?? null)}`;
    let loader = this.childLoaders.get(key);
    if (!loader) {
      loader = new DataLoader(async (parents) => {
        const firsts = await this.db.$queryRaw<{ uid: string }[]>`
          SELECT uid FROM (
            SELECT uid, row_number() OVER (PARTITION BY "parentUid" ORDER BY name, "serialNumber", uid) AS n
            FROM "Component"
            WHERE "companyId" = ${COMPANY} AND "parentKind" = 'component' AND "parentUid" = ANY(${[...parents]}::text[])
              AND status <> 'deleted'
          ) c WHERE n <= ${limit + 1}`;
        const rows = firsts.length
          ? ((await this.db.component.findMany({ select, where: { uid: { in: firsts.map((f) => f.uid) } }, orderBy: ORDER })) as Component[])
          : [];
        const byParent = new Map<string | null, Component[]>();
        for (const r of rows) {
          const siblings = byParent.get(r.parentUid);
          if (siblings) siblings.push(r);
          else byParent.set(r.parentUid, [r]);
        }
        return parents.map((p) => pageByKeys(byParent.get(p) ?? [], limit, CHILDREN_ORDER, CHILDREN_LIST));
      });
      this.childLoaders.set(key, loader);
    }
    return loader.load(uid);
  }

  /** The component's counters with their current values. */
  async counters(row: CounterRow): Promise<CounterView[]> {
    return counterViews(row, await this.readingLoader.load(row));
  }

  /** Current value per counter key. */
  async totals(row: CounterRow): Promise<Record<string, number>> {
    return Object.fromEntries((await this.counters(row)).map((c) => [c.key, c.value]));
  }

  /** A parent or root asset reference (see Evaluator.ref). */
  ref(type: string | null, uid: string | null): Promise<AssetRef | null> {
    return this.ev.ref(type, uid);
  }

  /** ComponentLiveSource: the component's counters as live items (fitted counters show their source's precision). */
  async live(uid: string): Promise<LiveAsset | null> {
    const row = await this.find(uid);
    if (!row) return null;
    return {
      type: 'component',
      uid,
      name: row.name,
      ...(row.status === 'deleted' ? { deleted: true } : {}),
      items: (await this.counters(row)).map(
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
    const type = PARENT_TYPES.find((t) => t === parentType);
    if (!type) errors.push({ path: '/query/parentType', message: `parentType must be one of ${PARENT_TYPES.join(', ')}` });
    if (typeof parentUid !== 'string' || !parentUid) errors.push({ path: '/query/parentUid', message: 'parentUid is required' });
    if (!type || errors.length) throw new ValidationError('invalid inheritable-sources query', errors);
    await this.get(uid);
    const sources = await this.ev.sources(type, parentUid);
    if (!sources) throw new NotFoundError(parentType, parentUid);
    return sources;
  }
}

const ORDER: Prisma.ComponentOrderByWithRelationInput[] = orderOf(COMPONENT_ORDER);
