/**
 * ISO 8601 dates and date-times as the API takes them: `YYYY-MM-DD`, or a date-time with an optional offset
 * (UTC when there is none). Impossible calendar dates (2026-02-30) and times (25:00) are refused rather than
 * rolled over as `Date` would.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_8601 =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** True for a real calendar date written `YYYY-MM-DD` (leap years included). */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
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

export type IsoProblem = { problem: 'format' } | { problem: 'range'; instant: Date };

function read(v: string): { date: string; instant: Date | null } | IsoProblem {
  const m = ISO_8601.exec(v);
  if (!m || !isCalendarDate(m[1])) return { problem: 'format' };
  if (m[2] === undefined) return { date: m[1], instant: null };
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return { problem: 'format' };
  const d = new Date(v.replace(' ', 'T') + (m[5] ? '' : 'Z'));
  if (Number.isNaN(d.getTime())) return { problem: 'format' };
  return inInstantRange(d) ? { date: m[1], instant: d } : { problem: 'range', instant: d };
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
 * Why parseIso refuses `v`, for a message that says so: `format` (not an ISO 8601 date or date-time), or `range`
 * with the instant (a date-time past the years 0001 to 9999 in UTC); null when parseIso takes it.
 */
export function isoProblem(v: string): IsoProblem | null {
  const r = read(v);
  return 'problem' in r ? r : null;
}

/** An instant: a date-time, or a date alone as its midnight UTC; null when parseIso refuses it. */
export function parseIsoInstant(v: string): Date | null {
  const p = parseIso(v);
  return p ? (p.instant ?? new Date(`${p.date}T00:00:00Z`)) : null;
}
