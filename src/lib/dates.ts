/**
 * ISO 8601 dates and date-times as the API takes them: `YYYY-MM-DD`, or a date-time with an optional offset
 * (UTC when there is none). Impossible calendar dates (2026-02-30) and times (25:00) are refused rather than
 * rolled over as `Date` would. The text is the date alone: surrounding whitespace is refused, whichever field it is
 * sent to. An offset is `Z`, `±hh:mm`, `±hhmm` or `±hh` (ISO 8601's three forms), within the offsets time zones use,
 * -12:00 to +14:00 (the aggregation's time-zone offsets keep the same bounds: src/modules/aggregation/timezone.ts).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_8601 =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?)?$/i;

/** The offsets a date-time may carry, in minutes east of UTC: those time zones use, UTC-12:00 to UTC+14:00. */
export const MIN_OFFSET_MINUTES = -12 * 60;
export const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * True for a real calendar date written `YYYY-MM-DD` (leap years included) in the years 0001 to 9999. (Built with
 * setUTCFullYear: `Date.UTC` reads the years 0 to 99 as 1900 to 1999.)
 */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) return false;
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * The instants the service takes and keeps: years 0001 to 9999 in UTC, the range a timestamp column, its readers and
 * a cursor's time key (src/db/keyset.ts `isoKey`) all hold. A date-time whose offset carries it past the range
 * (`9999-12-31T23:00:00-05:00` is 10000-01-01T04:00Z) would be written as year 10000 and read back as
 * `Invalid Date`, failing every later read of the record.
 */
export const FIRST_INSTANT_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** Is the instant within years 0001 to 9999 in UTC (FIRST_INSTANT_MS ... LAST_INSTANT_MS)? */
export const inInstantRange = (d: Date): boolean => d.getTime() >= FIRST_INSTANT_MS && d.getTime() <= LAST_INSTANT_MS;

/** A date-time's instant outside the years 0001 to 9999 in UTC, said for the field `what` (its 400's message). */
export const instantRangeMessage = (what: string, written: string, instant: Date): string =>
  `${what} must fall within the years 0001 to 9999 in UTC: ${written} is ${instant.toISOString()}`;

/** An offset outside -12:00 to +14:00, said for the field `what` (its 400's message). */
export const offsetRangeMessage = (what: string, offset: string): string =>
  `${what} has the offset ${offset}: an offset must be within -12:00 to +14:00 (Z, ±hh:mm, ±hhmm or ±hh)`;

export type IsoProblem = { problem: 'format' } | { problem: 'range'; instant: Date } | { problem: 'offset'; offset: string };

function read(v: string): { date: string; instant: Date | null } | IsoProblem {
  const m = ISO_8601.exec(v);
  if (!m || !isCalendarDate(m[1])) return { problem: 'format' };
  const [, date, hh, mm, ss, fraction, zone, sign, oh, om] = m;
  if (hh === undefined) return { date, instant: null };
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59) return { problem: 'format' };
  let offset = 0;
  if (sign !== undefined) {
    if (Number(om ?? 0) > 59) return { problem: 'format' };
    offset = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om ?? 0));
    if (offset < MIN_OFFSET_MINUTES || offset > MAX_OFFSET_MINUTES) return { problem: 'offset', offset: zone! };
  }
  // the wall time read as UTC (Date.parse reads a 4-digit year as written, 0001 to 0099 included), less the offset
  const wall = Date.parse(`${date}T${hh}:${mm}:${ss ?? '00'}${fraction ?? ''}Z`);
  if (Number.isNaN(wall)) return { problem: 'format' };
  const d = new Date(wall - offset * 60_000);
  return inInstantRange(d) ? { date, instant: d } : { problem: 'range', instant: d };
}

/**
 * The date as written and, for a date-time, its instant (null for a date alone); null when not ISO 8601, or when
 * the instant falls outside the years 0001 to 9999 in UTC (isoProblem says which). Every date and date-time input
 * is read here (schedule dates and completions, flight-log `timeDate`, list and aggregation ranges), so one rule
 * holds for them all.
 */
export function parseIso(v: string): { date: string; instant: Date | null } | null {
  const r = read(v);
  return 'problem' in r ? null : r;
}

/**
 * Why parseIso refuses `v`, for a message that says so: `format` (not an ISO 8601 date or date-time), `range`
 * with the instant (a date-time past the years 0001 to 9999 in UTC), or `offset` with the offset as written (beyond
 * -12:00 to +14:00); null when parseIso takes it.
 */
export function isoProblem(v: string): IsoProblem | null {
  const r = read(v);
  return 'problem' in r ? r : null;
}

/**
 * The message of a 400 for `written`, refused by parseIso for the field `what`: the instant or the offset when one of
 * them is what is wrong, else `format` (the field's own "must be an ISO 8601 ..." words).
 */
export function isoProblemMessage(what: string, written: string, why: IsoProblem | null, format: string): string {
  if (why?.problem === 'range') return instantRangeMessage(what, written, why.instant);
  if (why?.problem === 'offset') return offsetRangeMessage(what, why.offset);
  return format;
}

/** An instant: a date-time, or a date alone as its midnight UTC; null when parseIso refuses it. */
export function parseIsoInstant(v: string): Date | null {
  const p = parseIso(v);
  return p ? (p.instant ?? new Date(`${p.date}T00:00:00Z`)) : null;
}
