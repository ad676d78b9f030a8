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

/** The date as written and, for a date-time, its instant (null for a date alone); null when not ISO 8601. */
export function parseIso(v: string): { date: string; instant: Date | null } | null {
  const m = ISO_8601.exec(v);
  if (!m || !isCalendarDate(m[1])) return null;
  if (m[2] === undefined) return { date: m[1], instant: null };
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return null;
  const d = new Date(v.replace(' ', 'T') + (m[5] ? '' : 'Z'));
  return Number.isNaN(d.getTime()) ? null : { date: m[1], instant: d };
}

/** An instant: a date-time, or a date alone as its midnight UTC; null when not ISO 8601. */
export function parseIsoInstant(v: string): Date | null {
  const p = parseIso(v);
  return p ? (p.instant ?? new Date(`${p.date}T00:00:00Z`)) : null;
}
