import { Figures, pointer } from './figures.js';
import { fromZonedLocal, wallTimeExists } from './format.js';
import { trackingMap } from './tracking.js';
// (relative imports name their .js file here: tests under test/ import this module, type-checked as Node modules)

/** What the flight-log form (pages/flight-log-form.tsx) holds and sends, without the page: tested in test/console-flight-log-form.test.ts and test/console-figures.test.ts. */

export const TEXT_FIELDS = ['flightNumber', 'startLocation', 'endLocation', 'notes', 'copilot', 'copilotType', 'pilot'] as const;

export type Values = Record<string, string>;

export interface FlightLogFormState {
  /** The log being edited (absent when logging a flight). */
  id?: string;
  /** The form's fields (aircraftId, timeDate as a datetime-local value, pax, the TEXT_FIELDS). */
  values: Values;
  /** The tracking fields, by key. */
  tracking: Values;
  /** The aircraft chosen. */
  aircraft?: { registration: string; maintenanceTrackingItems?: unknown; logTrackingItems?: unknown } | null;
  /** The log being edited, as loaded. */
  log?: { aircraftId?: string | null; trackingItems?: unknown } | null;
  /**
   * The date and time the edit form was shown with (the datetime-local value of the log's timeDate). The input holds
   * minutes only, and a wall-clock time of the hour repeated when clocks go back names two instants: sent back
   * unchanged, it would drop the log's seconds or move it by an hour. So it is sent only when the operator changed it.
   */
  shownTimeDate?: string;
  timeZone: string;
}

/**
 * The input the form sends: CreateFlightLogInput when logging a flight, UpdateFlightLogInput when editing one. Pax
 * and the figures of the aircraft's number items are read as figures (./figures.ts): `0x10` is sent as typed, for the
 * API to refuse; more than 6 decimal places throws an ApiError at the field, and nothing is sent.
 */
export function flightLogInput(s: FlightLogFormState): Record<string, unknown> {
  const { id, values, tracking, aircraft, log, timeZone } = s;
  const out: Record<string, unknown> = {};
  const figures = new Figures();
  const blank = (k: string) => (values[k] ?? '').trim() === '';
  out.aircraftId = values.aircraftId || (id ? undefined : null);
  if (aircraft) out.aircraftRegistration = aircraft.registration;
  if (id && (values.timeDate ?? '') === (s.shownTimeDate ?? '')) {
    // unchanged: the log keeps its instant as stored
  } else if (!blank('timeDate')) {
    out.timeDate = fromZonedLocal(values.timeDate, timeZone);
    // a time in the hour the clocks skip names no instant: said at the field, not moved by the jump unseen
    if (!wallTimeExists(values.timeDate, timeZone)) {
      figures.faults.push({ path: '/timeDate', message: `${values.timeDate.replace('T', ' ')} does not exist in ${timeZone}: the clocks go forward over it` });
    }
  }
  else if (id) out.timeDate = null;
  for (const k of TEXT_FIELDS) {
    if (!blank(k)) out[k] = values[k].trim();
    else if (id) out[k] = null;
  }
  if (!blank('pax')) out.pax = figures.number(values.pax, '/pax');
  else out.pax = null;
  const items: Record<string, unknown> = {};
  const declared = { ...trackingMap(aircraft?.logTrackingItems), ...trackingMap(aircraft?.maintenanceTrackingItems) };
  const stored = (log?.trackingItems ?? {}) as Record<string, unknown>;
  const moved = Boolean(id && log && values.aircraftId && log.aircraftId && values.aircraftId !== log.aircraftId);
  for (const [k, v] of Object.entries(tracking)) {
    if (!(k in declared)) {
      // a value of a field the chosen aircraft does not declare is not on the form: an edit that keeps the aircraft
      // leaves it as stored (the update merges key by key); one that moves the log to another aircraft removes it, as
      // the new aircraft has no such field (sent back, the API refused the move and the form showed no field to clear)
      if (moved && k in stored) items[k] = null;
      continue;
    }
    if (v.trim() === '') {
      if (id && log && k in stored) items[k] = null;
      continue;
    }
    items[k] = declared[k]?.type === 'number' ? figures.figure(v, pointer('trackingItems', k), k) : v;
  }
  if (Object.keys(items).length) out.trackingItems = items;
  figures.check();
  return out;
}
