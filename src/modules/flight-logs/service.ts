import { z } from 'zod';
import type { Aircraft, FlightLog } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import {
  NotFoundError,
  ValidationError,
  oneLineMessage,
  type FieldError,
} from '../../errors.js';
import { BATCH_MAX, batchList, checkItems, runBatch, type BatchOutcome } from '../../lib/batch.js';
import type { WriteResult as SharedWriteResult, WriteStatus as SharedWriteStatus } from '../../lib/write-result.js';
import { PAGE_DEFAULT, PAGE_MAX, instantRange, parseFilter } from '../../lib/params.js';
import { applyTotalsDelta, lockAircraft } from '../aircraft/totals.js';
import { asTrackingMap } from '../tracking/schema.js';
import { afterCursor, toPage } from '../../db/keyset.js';
import { withKeys, type RowQuery } from '../../db/selection.js';
import { retrying } from '../../db/retry.js';
import { lockAndRead, type LockTarget } from '../../db/row-locks.js';
import { jsonEqual } from '../../lib/json.js';
import { CHECKED_FIELDS, aircraftErrors, checkTracking, fail, hasTrackingField, lastSeen, planInsert, split, withoutNulls, type InsertPlan, type NewLog } from './plan.js';
import { deleteLogsWithTotals, insertLogsIfAircraftUnchanged } from './set-write.js';

/**
 * Flight logs (docs/contract/api-v1.md §2.3-2.7, §4.2; docs/contract/gaps.md §4). This service owns every flight-log rule: input validation
 * (required fields, types, server-controlled fields, tracking keys and types against the aircraft), the aircraft
 * must be the company's and match the registration, keyset pagination, and the exact running totals, kept in the
 * same transaction as each write (see ../aircraft/totals.ts).
 */
export type { FlightLog };
export * from './schema.js';
import {
  CORE_FIELDS,
  CreateFlightLogCheck,
  FlightLogFilterSchema,
  OUTPUT_FIELDS,
  fromFlatBody,
  type CreateFlightLogInput,
  type FlightLogFilter,
  type TrackingValue,
  type UpdateFlightLogInput,
} from './schema.js';

export { BATCH_MAX };
export { PAGE_DEFAULT, PAGE_MAX };

export type WriteStatus = Extract<SharedWriteStatus, 'created' | 'updated' | 'deleted' | 'no_changes'>;
export type WriteResult = SharedWriteResult<WriteStatus>;
export type BatchResult = BatchOutcome<WriteResult>;


export interface FlightLogPage {
  data: FlightLog[];
  count: number;
  nextCursor: string | null;
}

function filterWhere(f: z.output<typeof FlightLogFilterSchema>) {
  const where: Record<string, unknown> = {};
  if (f.aircraftId) where.aircraftId = f.aircraftId;
  if (f.aircraftRegistration) where.aircraftRegistration = f.aircraftRegistration;
  if (f.pilotId) where.pilot = f.pilotId;
  const time = instantRange(f.startDate, f.endDate);
  if (time) where.timeDate = time;
  return where;
}

/** A log's row for read-modify-write (src/db/row-locks.ts). */
const LOG_ROW: LockTarget<FlightLog> = { table: 'FlightLog', what: 'flight log', read: (tx, uid) => tx.flightLog.findFirst({ where: { uid } }) };

export class FlightLogService {
  constructor(
    private readonly db: ScopedPrisma,
    /** Told of the aircraft a write changed, so later reads in the same request see the new totals. */
    private readonly aircraftCache?: { forget(uid: string): unknown },
  ) {}

  /**
   * A page of logs. `query` is the columns a GraphQL request's selection needs (graphql.ts `pageQuery`, decision
   * 0007); without one, every column. `filter` is checked again when not from GraphQL (cheap).
   */
  async list(filter: FlightLogFilter = {}, query?: RowQuery): Promise<FlightLogPage> {
    const f = parseFilter(FlightLogFilterSchema, filter, 'invalid flight-log query');
    const limit = f.limit ?? PAGE_DEFAULT;
    const where = filterWhere(f);
    if (f.cursor) Object.assign(where, afterCursor('timeDate', f.cursor, 'flight-log'));
    const rows = await this.db.flightLog.findMany({
      ...withKeys(query, ['uid', 'timeDate']),
      where,
      orderBy: [{ timeDate: 'desc' }, { uid: 'desc' }],
      take: limit + 1,
    });
    return toPage(rows, limit, (r) => r.timeDate, 'flight-log');
  }

  /**
   * The columns of a CSV export: the output fields, then every tracking key of the aircraft the filter can match
   * (that aircraft, the aircraft with that registration, or all of the company's), maintenance keys first.
   */
  async exportColumns(filter: Omit<FlightLogFilter, 'limit' | 'cursor'>): Promise<string[]> {
    const { aircraftId, aircraftRegistration } = parseFilter(FlightLogFilterSchema, filter, 'invalid flight-log query');
    const aircraft = await this.db.aircraft.findMany({
      where: { ...(aircraftId ? { uid: aircraftId } : {}), ...(aircraftRegistration ? { registration: aircraftRegistration } : {}) },
      orderBy: [{ registration: 'asc' }, { uid: 'asc' }],
      select: { maintenanceTrackingItems: true, logTrackingItems: true },
    });
    const keys = new Set<string>();
    for (const a of aircraft) for (const k of Object.keys(asTrackingMap(a.maintenanceTrackingItems))) keys.add(k);
    for (const a of aircraft) for (const k of Object.keys(asTrackingMap(a.logTrackingItems))) keys.add(k);
    return [...OUTPUT_FIELDS, ...keys];
  }

  async get(uid: string, query?: RowQuery): Promise<FlightLog> {
    const row = await this.db.flightLog.findFirst({ ...query, where: { uid } });
    if (!row) throw new NotFoundError('flight log', uid);
    return row;
  }

  /** `input` is checked (CreateFlightLogCheck: GraphQL's validation runs it; other callers parse with it). */
  async create(input: CreateFlightLogInput): Promise<WriteResult> {
    const { done, refused } = await this.writeNew([{ index: 0, ...split(input) }]);
    if (refused.length) fail(refused[0].errors);
    return { uid: done[0].uid, status: 'created' };
  }

  /**
   * Writes checked create bodies. Each log is checked against its aircraft as last seen by this process (read when
   * not known); then one statement writes the logs and their totals if no aircraft changed since (set-write.ts
   * says why that is exact). If one did, the logs are checked again under the aircraft's lock. A refusal is only
   * ever answered from a fresh read, never from what this process remembered.
   */
  private async writeNew(valid: NewLog[]): Promise<InsertPlan> {
    const ids = [...new Set(valid.map((v) => v.core.aircraftId))];
    const read = async (db: ScopedPrisma) => {
      const found = await db.aircraft.findMany({ where: { uid: { in: ids } }, select: CHECKED_FIELDS });
      lastSeen.remember(db.companyId, ids, found);
      return found;
    };
    const remembered = lastSeen.get(this.db.companyId, ids);
    let optimistic = planInsert(valid, remembered ?? (await read(this.db)));
    if (remembered && optimistic.refused.length) optimistic = planInsert(valid, await read(this.db));
    let plan: InsertPlan;
    // with an Idempotency-Key the locked path at once: the claim commits with the statement (db.commitsWithHook)
    if (!this.db.commitsWithHook && (await retrying(() => insertLogsIfAircraftUnchanged(this.db, optimistic.rows, optimistic.aircraft)))) plan = optimistic;
    else {
      plan = await retrying(() =>
        this.db.$transaction(async (tx) => {
          await lockAircraft(tx, ids);
          const locked = planInsert(valid, await read(tx));
          if (!(await insertLogsIfAircraftUnchanged(tx, locked.rows, locked.aircraft, false))) throw new Error('flight-log insert: a locked aircraft is gone');
          return locked;
        }),
      );
    }
    for (const id of ids) this.aircraftCache?.forget(id);
    return plan;
  }

  /** `input` is checked (UpdateFlightLogCheck). */
  async update(uid: string, input: UpdateFlightLogInput): Promise<WriteResult> {
    const { trackingItems, ...patch } = input;
    const changes = trackingItems ?? {};
    const result = await retrying(() =>
      this.db.$transaction(async (tx) => {
        const current = await this.lockLog(tx, uid);
        const targetId = patch.aircraftId ?? current.aircraftId;
        await lockAircraft(tx, [current.aircraftId, targetId]);
        // a registration that is sent must match the (new or current) aircraft; the stored registration always
        // follows the aircraft
        const aircraft = await this.aircraftFor(tx, targetId, patch.aircraftRegistration);

        const tracking: Record<string, TrackingValue> = { ...(current.tracking as Record<string, TrackingValue>) };
        for (const [k, v] of Object.entries(changes)) {
          if (v === null) delete tracking[k];
          else tracking[k] = v;
        }
        const errs: FieldError[] = [];
        // a change of aircraft re-checks every kept value against the new aircraft's fields; a value sent as null
        // there leaves one of the old aircraft's fields behind, and a key neither aircraft has is refused, as on an
        // update that keeps the aircraft (a misspelt key is never taken silently)
        checkTracking(aircraft, targetId === current.aircraftId ? changes : tracking, errs);
        if (targetId !== current.aircraftId) {
          const left = Object.fromEntries(Object.entries(changes).filter(([k, v]) => v === null && !hasTrackingField(aircraft, k)));
          if (Object.keys(left).length) checkTracking((await tx.aircraft.findFirst({ where: { uid: current.aircraftId } }))!, left, errs);
        }
        if (errs.length) fail(errs);

        const next = {
          timeDate: patch.timeDate ?? current.timeDate,
          pilot: patch.pilot ?? current.pilot,
          copilot: patch.copilot === undefined ? current.copilot : patch.copilot,
          copilotType: patch.copilotType === undefined ? current.copilotType : patch.copilotType,
          aircraftId: aircraft.uid,
          aircraftRegistration: aircraft.registration,
          flightNumber: patch.flightNumber === undefined ? current.flightNumber : patch.flightNumber,
          startLocation: patch.startLocation ?? current.startLocation,
          endLocation: patch.endLocation ?? current.endLocation,
          pax: patch.pax === undefined ? current.pax : patch.pax,
          notes: patch.notes === undefined ? current.notes : patch.notes,
          tracking: withoutNulls(tracking),
        };
        if (sameLog(current, next)) return { uid, status: 'no_changes' as const, aircraft: [] as string[] };
        await tx.flightLog.updateMany({ where: { uid }, data: next });
        const before = current.tracking as Record<string, unknown>;
        if (aircraft.uid === current.aircraftId) await applyTotalsDelta(tx, aircraft.uid, next.tracking, before);
        else {
          await applyTotalsDelta(tx, current.aircraftId, null, before);
          await applyTotalsDelta(tx, aircraft.uid, next.tracking, null);
        }
        return { uid, status: 'updated' as const, aircraft: [current.aircraftId, aircraft.uid] };
      }),
    );
    for (const a of result.aircraft) this.aircraftCache?.forget(a);
    return { uid: result.uid, status: result.status };
  }

  async delete(uid: string): Promise<WriteResult> {
    const aircraftId = await retrying(() =>
      this.db.$transaction(async (tx) => {
        const current = await this.lockLog(tx, uid);
        await lockAircraft(tx, [current.aircraftId]);
        await tx.flightLog.deleteMany({ where: { uid } });
        await applyTotalsDelta(tx, current.aircraftId, null, current.tracking as Record<string, unknown>);
        return current.aircraftId;
      }),
    );
    this.aircraftCache?.forget(aircraftId);
    return { uid, status: 'deleted' };
  }

  /** Each item is created independently (its own transaction); failures are reported with their index. */
  /**
   * 1 to 50 logs, set-based: every item is checked first (the aircraft loaded once per batch), then all valid items
   * are written in ONE transaction: one lock per affected aircraft, one multi-row insert, one exact totals update
   * per aircraft. An item that fails a check is reported in `errors` with its index and the others are written.
   * Should the set write fail anyway, the batch falls back to writing item by item, so each failure stays its own.
   */
  async batchCreate(items: unknown): Promise<BatchResult> {
    const list = batchList(items, 'items');
    // each item is checked as a single create is, in either form (tracking values top-level or in trackingItems);
    // a NUL anywhere in an item is that item's error (src/lib/batch.ts)
    const { checked, errors } = checkItems(list, (item) => split(CreateFlightLogCheck.parse(fromFlatBody(item))));
    const out: BatchResult = { results: [], errors };
    const valid: NewLog[] = checked.map(({ index, item }) => ({ index, ...item }));
    if (valid.length) {
      let written: { index: number; uid: string }[];
      try {
        const { done, refused } = await this.writeNew(valid);
        for (const r of refused) {
          try {
            fail(r.errors);
          } catch (e) {
            out.errors.push({ index: r.index, error: oneLineMessage(e as ValidationError) });
          }
        }
        written = done;
      } catch (e) {
        if (e instanceof ValidationError) throw e;
        // the set write failed as a whole (a constraint, a lost race): item by item, each failure its own
        const fallback = await runBatch(valid, (v) => this.create({ ...v.core, trackingItems: v.tracking }));
        written = [];
        let r = 0;
        for (const [i, v] of valid.entries()) {
          const err = fallback.errors.find((x) => x.index === i);
          if (err) out.errors.push({ index: v.index, error: err.error });
          else written.push({ index: v.index, uid: fallback.results[r++].uid });
        }
      }
      out.results = written.sort((a, b) => a.index - b.index).map((w) => ({ uid: w.uid, status: 'created' as const }));
    }
    out.errors.sort((a, b) => a.index - b.index);
    return out;
  }

  /**
   * 1 to 50 deletes, set-based: one statement deletes the logs and takes their values off each aircraft's totals,
   * exactly (set-write.ts). An id that is not a log of the company (or
   * comes twice) is reported in `errors` with its index; the others are deleted.
   */
  async batchDelete(ids: unknown): Promise<BatchResult> {
    const list = batchList(ids, 'ids');
    const { checked, errors } = checkItems(list, (id) => {
      if (typeof id !== 'string' || !id) throw new ValidationError('each id must be a non-empty string');
      return id;
    });
    const out: BatchResult = { results: [], errors };
    const wanted = checked.map(({ index, item }) => ({ index, uid: item }));
    if (wanted.length) {
      const uids = [...new Set(wanted.map((w) => w.uid))].sort();
      const found = await retrying(() => deleteLogsWithTotals(this.db, uids));
      const deleted = new Map(found.map((l) => [l.uid, l]));
      for (const w of wanted) {
        if (deleted.has(w.uid)) {
          out.results.push({ uid: w.uid, status: 'deleted' });
          deleted.delete(w.uid); // the same id again is not found: it is gone
        } else out.errors.push({ index: w.index, error: new NotFoundError('flight log', w.uid).message });
      }
      for (const l of found) this.aircraftCache?.forget(l.aircraftId);
    }
    out.errors.sort((a, b) => a.index - b.index);
    return out;
  }

  private lockLog(tx: ScopedPrisma, uid: string): Promise<FlightLog> {
    return lockAndRead(tx, LOG_ROW, uid);
  }

  /** The company's aircraft for a log; 400 when it is not one, or when the registration does not match. */
  private async aircraftFor(tx: ScopedPrisma, aircraftId: string, registration: string | undefined): Promise<Aircraft> {
    const aircraft = await tx.aircraft.findFirst({ where: { uid: aircraftId } });
    const errors = aircraftErrors(aircraftId, registration, aircraft);
    if (errors.length || !aircraft) fail(errors);
    return aircraft;
  }
}

function sameLog(a: FlightLog, b: Record<string, unknown>): boolean {
  for (const key of CORE_FIELDS) {
    const x = (a as Record<string, unknown>)[key];
    const y = b[key];
    if (x instanceof Date && y instanceof Date ? x.getTime() !== y.getTime() : (x ?? null) !== (y ?? null)) return false;
  }
  return jsonEqual(a.tracking ?? {}, b.tracking ?? {});
}
