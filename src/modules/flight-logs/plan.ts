import type { Aircraft } from '../../generated/prisma/client.js';
import { invalid, type FieldError } from '../../errors.js';
import { newUid } from '../../lib/ids.js';
import { asTrackingMap, declaredItem } from '../tracking/schema.js';
import type { CreateFlightLogInput, TrackingValue } from './schema.js';
import type { AircraftChecked, NewLogRow } from './set-write.js';

/**
 * The checks and the plan of a flight-log write (FlightLogService): tracking values against the aircraft's declared
 * items, the aircraft and registration rule, and the rows a create inserts.
 */
/** Checks tracking values against the aircraft's declared keys and types. */
export function checkTracking(aircraft: AircraftChecked, tracking: Record<string, TrackingValue>, errors: FieldError[]) {
  const maint = asTrackingMap(aircraft.maintenanceTrackingItems);
  const log = asTrackingMap(aircraft.logTrackingItems);
  for (const [key, value] of Object.entries(tracking)) {
    const item = declaredItem(maint, key) ?? declaredItem(log, key);
    const path = `/trackingItems/${key}`;
    if (!item) {
      const known = [...Object.keys(maint), ...Object.keys(log)];
      errors.push({
        path,
        message: `unknown tracking field ${key} for aircraft ${aircraft.registration}` +
          (known.length ? ` (its fields: ${known.join(', ')})` : ' (it declares no tracking fields)'),
      });
    } else if (value !== null && typeof value !== item.type) {
      errors.push({ path, message: `${key} must be a ${item.type} or null, not a ${typeof value}` });
    }
  }
}

/** Whether `key` is one of the aircraft's tracking fields (maintenance or log). */
export function hasTrackingField(aircraft: AircraftChecked, key: string): boolean {
  return !!(declaredItem(asTrackingMap(aircraft.maintenanceTrackingItems), key) ?? declaredItem(asTrackingMap(aircraft.logTrackingItems), key));
}

export function withoutNulls(tracking: Record<string, TrackingValue>): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [k, v] of Object.entries(tracking)) if (v !== null) out[k] = v;
  return out;
}

export type CreateCore = Omit<CreateFlightLogInput, 'trackingItems'>;

/** A checked create input as its core fields and tracking values. */
export function split(input: CreateFlightLogInput): { core: CreateCore; tracking: Record<string, TrackingValue> } {
  const { trackingItems, ...core } = input;
  return { core, tracking: trackingItems ?? {} };
}

/** The stored row of a new log (the registration always the aircraft's). */
export function logRow(uid: string, core: CreateCore, aircraft: Pick<Aircraft, 'uid' | 'registration'>, tracking: Record<string, TrackingValue>): NewLogRow {
  return {
    uid,
    timeDate: core.timeDate,
    pilot: core.pilot,
    copilot: core.copilot ?? null,
    copilotType: core.copilotType ?? null,
    aircraftId: aircraft.uid,
    aircraftRegistration: aircraft.registration,
    flightNumber: core.flightNumber ?? null,
    startLocation: core.startLocation,
    endLocation: core.endLocation,
    pax: core.pax,
    notes: core.notes ?? null,
    tracking: withoutNulls(tracking),
  };
}

export const CHECKED_FIELDS = { uid: true, registration: true, maintenanceTrackingItems: true, logTrackingItems: true } as const;

/**
 * The fields logs are checked against, per aircraft, as this process last read them. Only a first guess: the
 * write statement compares them with the row it locks and writes nothing if they differ, so a stale entry costs a
 * second attempt, never a wrong log. Bounded; the oldest entries go first.
 */
export const lastSeen = (() => {
  const MAX = 5000;
  const entries = new Map<string, AircraftChecked>();
  const key = (companyId: string, uid: string) => `${companyId}\u0000${uid}`;
  return {
    get(companyId: string, uids: string[]): AircraftChecked[] | null {
      const out: AircraftChecked[] = [];
      for (const uid of uids) {
        const a = entries.get(key(companyId, uid));
        if (!a) return null;
        out.push(a);
      }
      return out;
    },
    /** What a read of `uids` found (the ones it did not find are forgotten). */
    remember(companyId: string, uids: string[], found: AircraftChecked[]) {
      for (const uid of uids) entries.delete(key(companyId, uid));
      for (const a of found) {
        const k = key(companyId, a.uid);
        entries.delete(k);
        entries.set(k, a);
        if (entries.size > MAX) entries.delete(entries.keys().next().value!);
      }
    },
  };
})();

export interface NewLog {
  index: number;
  core: CreateCore;
  tracking: Record<string, TrackingValue>;
}

export interface InsertPlan {
  rows: NewLogRow[];
  /** The aircraft the rows were checked against (only those that get a log). */
  aircraft: AircraftChecked[];
  done: { index: number; uid: string }[];
  refused: { index: number; errors: FieldError[] }[];
}

/**
 * A log's aircraft must be one of the company's, and a registration that is sent must be that aircraft's (the
 * stored registration always follows the aircraft).
 */
export function aircraftErrors(aircraftId: string, registration: string | undefined, aircraft: Pick<AircraftChecked, 'registration'> | null | undefined): FieldError[] {
  if (!aircraft) return [{ path: '/aircraftId', message: `aircraft ${aircraftId} is not an aircraft of your company` }];
  if (registration !== undefined && registration !== aircraft.registration) {
    return [{ path: '/aircraftRegistration', message: `aircraftRegistration ${registration} does not match aircraft ${aircraftId} (registration ${aircraft.registration})` }];
  }
  return [];
}

/** Checks each new log against its aircraft (which must be the company's, with that registration and fields). */
export function planInsert(valid: NewLog[], found: AircraftChecked[]): InsertPlan {
  const aircraft = new Map(found.map((a) => [a.uid, a]));
  const plan: InsertPlan = { rows: [], aircraft: [], done: [], refused: [] };
  const used = new Set<string>();
  for (const v of valid) {
    const a = aircraft.get(v.core.aircraftId);
    const errs = aircraftErrors(v.core.aircraftId, v.core.aircraftRegistration, a);
    if (a && !errs.length) checkTracking(a, v.tracking, errs);
    if (errs.length) {
      plan.refused.push({ index: v.index, errors: errs });
      continue;
    }
    const uid = newUid('fl');
    plan.rows.push(logRow(uid, v.core, a!, v.tracking));
    if (!used.has(a!.uid)) plan.aircraft.push(a!);
    used.add(a!.uid);
    plan.done.push({ index: v.index, uid });
  }
  return plan;
}

export function fail(errors: FieldError[]): never {
  return invalid('flight log', errors);
}
