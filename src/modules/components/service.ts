import type { Component, Prisma } from '../../generated/prisma/client.js';
import { lockedBy, lockedWrite, lockRows, type LockTarget } from '../../db/row-locks.js';
import { lockPlace } from './place.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { updatedAtNow } from '../../db/timestamps.js';
import { ConflictError, NotFoundError, invalid, type FieldError } from '../../errors.js';
import { now } from '../../lib/clock.js';
import { newUid } from '../../lib/ids.js';
import { jsonEqual } from '../../lib/json.js';
import type { WriteResult } from '../../lib/write-result.js';
import { COUNTERS_MAX, asCounters, bindCounter, exact, freezeCounter, resetCounter, type StoredCounter } from './counters.js';
import { ComponentReader, Evaluator, transactionAssets } from './read-model.js';
import { ASSET_TABLE } from '../assets/live.js';
import { newCounter, type ComponentPatch, type CounterReset, type InstallRequest, type NewComponent, type RemoveRequest } from './schema.js';

/**
 * Component writes (docs/api-notes.md "Components"): create, update, soft delete/restore, the state moves
 * (install/remove) and counter reset. A move rewrites the whole subtree (ancestorUids, rootAsset) and the old and
 * new parents' childCount, so every write other than create runs in one retried transaction after locking the
 * component rows it touches, and reads everything it decides on through that transaction.
 */
export type { Component };
export { COMPONENT_STATES, ComponentFilterSchema, REMOVED_STATES, SERVER_CONTROLLED, type ComponentFilter, type ComponentState } from './schema.js';
export type { AssetRef, ComponentList, CounterView, InheritableSource, InheritableSources } from './read-model.js';
export type { WriteResult, WriteStatus } from '../../lib/write-result.js';

const COMPONENT: LockTarget<Component> = {
  table: 'Component',
  what: 'component',
  read: (tx, uid) => tx.component.findFirst({ where: { uid } }),
};

/**
 * Counters as the Json column takes them. StoredCounter and CounterBinding are interfaces, which TypeScript does not
 * let stand for Prisma's JSON object type (an index signature); a copy of each is an object type, which it does.
 */
const countersJson = (counters: StoredCounter[]): Prisma.InputJsonValue =>
  counters.map((c) => ({ ...c, binding: c.binding && { ...c.binding } }));

/** Runs `write` on the component locked where it stands (lockPlace), in a transaction of its own (lockedBy). */
const lockedPlace = <T>(db: ScopedPrisma, uid: string, write: (tx: ScopedPrisma, self: Component) => Promise<T>): Promise<T> =>
  lockedBy(
    db,
    async (tx) => {
      const self = await lockPlace(tx, uid);
      if (!self) throw new NotFoundError('component', uid);
      return self;
    },
    write,
  );

/** Rewrites every descendant of `uid`: its ancestors become `prefix` + the path from `uid` down; rootAsset follows. */
async function moveDescendants(tx: ScopedPrisma, uid: string, prefix: string[], root: { type: string; uid: string } | null) {
  await tx.$executeRaw`
    UPDATE "Component"
    SET "ancestorUids" = ${prefix}::text[] || "ancestorUids"[array_position("ancestorUids", ${uid}::text):],
        "rootAssetType" = ${root?.type ?? null}::text, "rootAssetUid" = ${root?.uid ?? null}::text, "updatedAt" = ${updatedAtNow()}
    WHERE "companyId" = ${COMPANY} AND ${uid}::text = ANY("ancestorUids")`;
}

export class ComponentService extends ComponentReader {
  /** Each write takes its input as its check gave it (./schema.ts: GraphQL's validation, or the caller's parse). */
  async create(body: NewComponent): Promise<WriteResult> {
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
        counters: countersJson(counters),
      },
    });
    this.resetCaches();
    return { uid, status: 'created' };
  }

  async update(uid: string, body: ComponentPatch): Promise<WriteResult> {
    const result = await lockedWrite(this.db, COMPONENT, uid, async (tx, current) => {
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
            unit: c.unit ?? existing.unit,
            precision: c.precision ?? existing.precision,
          };
        });
        if (counters.length > COUNTERS_MAX) errors.push({ path: '/counters', message: `a component has at most ${COUNTERS_MAX} counters (it has ${asCounters(current.counters).length})` });
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
        k === 'counters' ? !jsonEqual(asCounters(current.counters), next.counters) : !jsonEqual(current[k], next[k]),
      );
      if (!changed) return { uid, status: 'no_changes' as const };
      await tx.component.updateMany({ where: { uid }, data: { ...next, counters: countersJson(next.counters) } });
      return { uid, status: 'updated' as const };
    });
    this.resetCaches();
    return result;
  }

  /** Soft delete: status `deleted`, hidden from lists. 409 while installed, while it has children, or when already deleted. */
  async delete(uid: string): Promise<WriteResult> {
    const result = await lockedWrite(this.db, COMPONENT, uid, async (tx, current) => {
      // as for vehicles: a deleted component is gone for DELETE
      if (current.status === 'deleted') throw new NotFoundError('component', uid);
      if (current.state === 'installed') throw new ConflictError(`component ${uid} is installed; remove it before deleting it`);
      if (current.childCount > 0) {
        throw new ConflictError(`component ${uid} has ${current.childCount} component(s) fitted; remove them before deleting it`);
      }
      await tx.component.updateMany({ where: { uid }, data: { status: 'deleted', statusBeforeDelete: current.status } });
      return { uid, status: 'deleted' as const };
    });
    this.resetCaches();
    return result;
  }

  async restore(uid: string): Promise<WriteResult> {
    const result = await lockedWrite(this.db, COMPONENT, uid, async (tx, current) => {
      if (current.status !== 'deleted') throw new ConflictError(`component ${uid} is not deleted`);
      await tx.component.updateMany({
        where: { uid },
        data: { status: current.statusBeforeDelete && current.statusBeforeDelete !== 'deleted' ? current.statusBeforeDelete : 'active', statusBeforeDelete: null },
      });
      return { uid, status: 'restored' as const };
    });
    this.resetCaches();
    return result;
  }

  /**
   * Fits the component to a parent. Bindings are rebuilt from `mappings` (unmapped counters stay frozen); the whole
   * subtree under the component moves with it; the new parent's childCount goes up by one.
   */
  async install(uid: string, body: InstallRequest): Promise<WriteResult> {
    const { parentType } = body;
    const result = await lockedWrite(
      this.db,
      COMPONENT,
      uid,
      async (tx, self) => {
        if (self.status === 'deleted') throw new ConflictError(`component ${uid} is deleted; restore it before installing it`);
        if (self.state === 'installed') {
          throw new ConflictError(`component ${uid} is already installed (on ${self.parentKind} ${self.parentUid}); remove it first`);
        }
        const ev = new Evaluator(tx, transactionAssets(tx));
        let ancestors: string[];
        let root: { type: string; uid: string } | null;
        if (parentType === 'component') {
          if (body.parentUid === uid) throw new ConflictError(`component ${uid} cannot be installed under itself`);
          // the parent is read locked where it stands, with every component above it (lockPlace): a remove or
          // install of one of them moves its subtree with one UPDATE over the rows that held it when that statement
          // began, so a child written here meanwhile with the chain read before the move kept the old ancestors and
          // root (an install under P racing a remove of P's parent on PostgreSQL left the child on the aircraft its
          // parent had left); and its checks below are made on it as it is now
          const parent = await lockPlace(tx, body.parentUid);
          if (!parent || parent.status === 'deleted') {
            invalid('install request', [{ path: '/parentUid', message: `component ${body.parentUid} is not a component of your company` }]);
          }
          if (parent.ancestorUids.includes(uid)) {
            throw new ConflictError(`component ${body.parentUid} is fitted under ${uid}; a component cannot be installed under its own descendant`);
          }
          if (!parent.canHaveChildren) throw new ConflictError(`component ${body.parentUid} cannot have components fitted (canHaveChildren is false)`);
          ancestors = [...parent.ancestorUids, body.parentUid];
          root = parent.rootAssetType && parent.rootAssetUid ? { type: parent.rootAssetType, uid: parent.rootAssetUid } : null;
        } else {
          // the aircraft's or vehicle's row is locked before it is read: its delete (refused while a component is
          // fitted) and a change of its tracking items (refused while a counter is bound to one) lock it too, so each
          // waits for this install and then sees it, or this install sees what they committed (on PostgreSQL both
          // answered 200 when they raced, leaving a component fitted to a deleted aircraft or bound to a removed item)
          await lockRows(tx, ASSET_TABLE[parentType], [body.parentUid]);
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

        const installedAt = now();
        const next = counters.map((c) => {
          const value = current[c.key]?.value ?? exact(c.value);
          const sourceKey = mapped.get(c.key);
          const source = sourceKey ? sources.sources.find((s) => s.key === sourceKey) : undefined;
          if (!source) return freezeCounter(c, value);
          return bindCounter(
            c,
            value,
            { parentType, parentUid: body.parentUid, key: source.key, value: source.currentValue, displayText: source.displayText, precision: source.precision },
            installedAt,
          );
        });

        await tx.component.updateMany({
          where: { uid },
          data: {
            state: 'installed',
            location: null,
            parentKind: parentType,
            parentUid: body.parentUid,
            installedAt,
            rootAssetType: root?.type ?? null,
            rootAssetUid: root?.uid ?? null,
            ancestorUids: ancestors,
            counters: countersJson(next),
          },
        });
        await moveDescendants(tx, uid, ancestors, root);
        if (parentType === 'component') await tx.component.updateMany({ where: { uid: body.parentUid }, data: { childCount: { increment: 1 } } });
        return { uid, status: 'installed' as const };
      },
    );
    this.resetCaches();
    return result;
  }

  /**
   * Takes the component off its parent: each bound counter freezes at its current value; the subtree under it
   * comes along (off any aircraft/vehicle); the old parent's childCount goes down by one.
   */
  async remove(uid: string, body: RemoveRequest): Promise<WriteResult> {
    // locked where it stands, with every component above it (lockPlace; the parent before its childCount goes down):
    // a remove of one of them freezes its counters at the aircraft's total as it reads it, then moves this subtree;
    // read through it half-way, this component counted a flight its top component, frozen before it, never did
    // (PostgreSQL: 7 of 40 races)
    const result = await lockedPlace(this.db, uid, async (tx, self) => {
      if (self.state !== 'installed') throw new ConflictError(`component ${uid} is not installed (state ${self.state})`);
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
          counters: countersJson(counters),
        },
      });
      await moveDescendants(tx, uid, [], null);
      if (self.parentKind === 'component' && self.parentUid) {
        await tx.component.updateMany({ where: { uid: self.parentUid, childCount: { gt: 0 } }, data: { childCount: { decrement: 1 } } });
      }
      return { uid, status: 'removed' as const };
    });
    this.resetCaches();
    return result;
  }

  /** Resets a `sinceEvent` counter (e.g. after an overhaul); a bound counter re-binds from now. */
  async resetCounter(uid: string, body: CounterReset): Promise<WriteResult> {
    // locked where it stands, with every component above it (lockPlace), as a remove locks them: a remove of one
    // of them freezes the parent at a value this reset must not read past (read before the freeze, the counter was
    // bound above its frozen source, showed sourceDecreased and stopped counting: 10 of 40 races on PostgreSQL)
    const result = await lockedPlace(this.db, uid, async (tx, self) => {
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
      counters[idx] = resetCounter(c, body.newValue, parentCurrent, now());
      await tx.component.updateMany({ where: { uid }, data: { counters: countersJson(counters) } });
      return { uid, status: 'updated' as const };
    });
    this.resetCaches();
    return result;
  }
}
