import { z } from 'zod';
import { timeCursorArg } from '../../db/keyset.js';
import { ValidationError, isPlainObject, type FieldError } from '../../errors.js';
import { isoProblem, isoProblemMessage, parseIsoInstant } from '../../lib/dates.js';
import { typedAs } from '../../lib/graphql-hint.js';
import { EndDateParam, LimitParam, StartDateParam, dateRangeInOrder } from '../../lib/params.js';
import { serviceCheck } from '../../graphql/validation.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, tooLong } from '../../lib/text.js';
import { trackingFigureError, trackingValue } from '../tracking/value.js';
import { notInherited } from '../../lib/keys.js';
import { CORE_FIELDS, OUTPUT_FIELDS, SERVER_CONTROLLED } from './fields.js';

/**
 * The inputs of flight logs (docs/contract/api-v1.md §2.3-2.5, §4.2; docs/contract/gaps.md §4), each defined once:
 * the GraphQL input types, the REST body documents and MCP schemas are read off these schemas, and the checks
 * below are what every channel runs (Pothos' validation plugin, src/graphql/validation.ts).
 */
export const COPILOT_TYPES = ['Co-Pilot', 'ICUS', 'Dual'] as const;
export { CORE_FIELDS, OUTPUT_FIELDS, SERVER_CONTROLLED };

const TIME_DATE = 'timeDate must be an ISO 8601 date-time, e.g. 2026-03-01T09:30:00Z';
const IsoDate = z
  .string({ error: (iss) => (iss.input === undefined ? 'timeDate is required' : TIME_DATE) })
  .transform((v, ctx) => {
    const d = parseIsoInstant(v);
    if (!d) {
      // the offset or the year, when that is what is wrong (the rule every date input follows: src/lib/dates.ts)
      ctx.addIssue({ code: 'custom', message: isoProblemMessage('timeDate', v, isoProblem(v), TIME_DATE) });
      return z.NEVER;
    }
    return d;
  })
  .describe('ISO 8601 date-time (UTC when no offset is given)');

const text = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${what} is required` : `${what} must be a string`) })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(SHORT_TEXT_MAX, tooLong(what, SHORT_TEXT_MAX));
const optionalText = (what: string, max = SHORT_TEXT_MAX) =>
  z
    .string({ error: `${what} must be a string or null` })
    .max(max, tooLong(what, max))
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v));

const Pax = z
  .number({ error: (iss) => (iss.input === undefined ? 'pax is required (a number, or null)' : 'pax must be a number or null') })
  .int('pax must be a whole number')
  .min(0, 'pax must not be negative')
  .max(10_000, 'pax must be at most 10000')
  .nullable();

/**
 * A tracking value as sent: a tracking figure for a number item (src/modules/tracking/value.ts: below 1e9, at most
 * 6 decimal places), text for a string item, or null (which removes it on update); which one is the aircraft's to
 * decide. Figures are named by their key in messages ("hobbs must be less than ...").
 */
export const TrackingValueSchema = z.union([trackingValue(), z.string().max(LONG_TEXT_MAX), z.null()], {
  error: (iss) => `${String(iss.path?.at(-1) ?? 'value')} must be a number, a string or null`,
});
export type TrackingValue = number | string | null;

/** What is wrong with a tracking value sent as a top-level key `key` of a flat body, or null. */
function flatTrackingValueError(key: string, v: unknown): string | null {
  if (v === null) return null;
  if (typeof v === 'number') return trackingFigureError(v, key);
  if (typeof v === 'string') return v.length > LONG_TEXT_MAX ? tooLong(key, LONG_TEXT_MAX) : null;
  return `${key} must be a number, a string or null`;
}

/** The figures of a tracking map, each checked as a figure named by its key. */
const figuresNamed = (map: Record<string, TrackingValue> | null | undefined, ctx: z.core.$RefinementCtx) => {
  for (const [key, v] of Object.entries(map ?? {})) {
    if (typeof v !== 'number') continue;
    const message = trackingFigureError(v, key);
    if (message) ctx.addIssue({ code: 'custom', path: [key], message });
  }
};

/** The tracking values of a stored log, as read. */
export const TrackingItemsOutSchema = z.record(z.string(), z.union([z.number(), z.string()]));

const TrackingItems = z
  .record(notInherited(z.string(), 'a tracking key'), z.union([z.number(), z.string().max(LONG_TEXT_MAX), z.null()], { error: (iss) => `${String(iss.path?.at(-1) ?? 'value')} must be a number, a string or null` }), {
    error: 'trackingItems must be an object of tracking values',
  })
  .superRefine(figuresNamed)
  .nullish()
  .describe('Tracking values keyed by the aircraft\u2019s maintenance or log tracking item keys (null removes one on update)');

const core = {
  timeDate: IsoDate,
  pilot: text('pilot').describe('Pilot user id'),
  copilot: optionalText('copilot'),
  copilotType: z
    .enum(COPILOT_TYPES, { error: `copilotType must be one of ${COPILOT_TYPES.join(', ')}` })
    .nullable()
    .optional(),
  aircraftId: typedAs(text('aircraftId'), 'ID'), // GraphQL calls aircraft uids ID (Aircraft.uid, aircraft(id:))
  aircraftRegistration: text('aircraftRegistration').describe('Must match the aircraft'),
  flightNumber: optionalText('flightNumber'),
  startLocation: text('startLocation'),
  endLocation: text('endLocation'),
  pax: Pax.describe('Passenger count or null; required on create (null allowed)'),
  notes: optionalText('notes', LONG_TEXT_MAX),
};

/** The operation inputs: the core fields and `trackingItems`. */
export const CreateFlightLogSchema = z.strictObject({ ...core, trackingItems: TrackingItems });
export const UpdateFlightLogSchema = z
  .strictObject({ ...z.object(core).partial().shape, trackingItems: TrackingItems })
  .describe('Only the fields to change; null clears an optional field or removes a tracking value.');
export type CreateFlightLogInput = z.output<typeof CreateFlightLogSchema>;
export type UpdateFlightLogInput = z.output<typeof UpdateFlightLogSchema>;

export const CreateFlightLogCheck = serviceCheck('flight log', CreateFlightLogSchema);
export const UpdateFlightLogCheck = serviceCheck('flight log', UpdateFlightLogSchema);

const FLAT_FIELDS = new Set<string>([...CORE_FIELDS, ...SERVER_CONTROLLED, 'trackingItems']);

/**
 * A log body in the flat form (docs/contract/gaps.md §4: tracking values may also be top-level properties, as REST
 * and batch items send them) as the input it stands for: every key that is not a log field goes into
 * `trackingItems`. Server-controlled fields stay where they are, for the check to refuse by name; a key given both
 * ways is a 400.
 */
export function fromFlatBody(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw; // the check says what is wrong with it
  const fields = FLAT_FIELDS;
  const extra = Object.keys(raw).filter((k) => !fields.has(k));
  if (!extra.length) return raw;
  const nested = raw.trackingItems;
  const errors: FieldError[] = [];
  const tracking: Record<string, unknown> = isPlainObject(nested) ? { ...nested } : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (fields.has(k)) out[k] = v;
  for (const k of extra) {
    if (Object.hasOwn(tracking, k)) errors.push({ path: `/trackingItems/${k}`, message: `${k} is given twice (top level and in trackingItems)` });
    else {
      // a value is refused where it was sent (the check would name it in trackingItems)
      const message = flatTrackingValueError(k, raw[k]);
      if (message === null) tracking[k] = raw[k];
      else errors.push({ path: `/${k}`, message });
    }
  }
  if (errors.length) throw new ValidationError(`invalid flight log: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
  // trackingItems that is not an object stays as sent: the check refuses it
  out.trackingItems = nested !== undefined && nested !== null && !isPlainObject(nested) ? nested : tracking;
  return out;
}

export const FlightLogFilterSchema = z
  .object({
    aircraftId: z.string().min(1).optional().describe('Only logs of this aircraft uid'),
    aircraftRegistration: z.string().min(1).optional().describe('Only logs with this registration'),
    pilotId: z.string().min(1).optional().describe('Only logs flown by this pilot user id'),
    startDate: StartDateParam('logs'),
    endDate: EndDateParam('logs'),
    limit: LimitParam.optional().describe('Page size, 1 to 500 (default 100)'),
    cursor: timeCursorArg('flight-log').optional(),
  })
  .strict()
  .superRefine(dateRangeInOrder);
export type FlightLogFilter = z.input<typeof FlightLogFilterSchema>;
