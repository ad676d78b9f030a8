import type { TimeZoneSpec } from './timezone.js';

/**
 * Which UTC days the daily flight-log rollup can answer whole, computed from the request (no statement).
 *
 * A UTC day [s, e) is whole for a request when every instant of it falls in one period of the request's zone and
 * inside its date range: the zone's offset is the same at s and at e - 1 ms (no change of offset inside the day), the
 * local wall times of s and e - 1 ms fall in the same period, and the range covers the whole day. Every other day of
 * the span is "cut" and read from the logs themselves.
 *
 * Offsets of IANA zones come from the runtime's time-zone data (Intl), found once per zone and year and kept. The
 * database's own data decides the periods, and the statement checks each whole day against it (sql.ts): if the two
 * disagree on a day, the service answers from the logs instead, so a difference between the two copies of the
 * time-zone database can cost time, never exactness.
 */

export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (UTC) of an instant in ms. */
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
/**
 * An instant (ms) as ISO 8601 text PostgreSQL reads: `toISOString` writes years past 9999 with a sign and six digits
 * (`+010000-01-01T00:00:00.000Z`, which PostgreSQL refuses as an offset out of range); they are written `10000-01-01...`
 * here. (The end of a range that ends on 9999-12-31 is 10000-01-01T00:00Z.) Years before 1, which toISOString writes
 * with a sign too, do not arise: requests name no instant before year 0001 in UTC (src/lib/dates.ts).
 */
export function instantText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.startsWith('+') ? iso.slice(1).replace(/^0+(?=\d{5})/, '') : iso;
}
/** `YYYY-MM-DD` of a day number. */
export const dayText = (day: number) => instantText(day * DAY_MS).split('T')[0];

export type Period = 'none' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/** A number naming the period that a local wall time (as ms, read as if UTC) falls in. */
function periodOf(period: Period, local: number): number {
  switch (period) {
    case 'none':
      return 0;
    case 'day':
      return dayOf(local);
    case 'week': {
      // ISO weeks start on Monday; day 0 (1970-01-01) was a Thursday
      const d = dayOf(local);
      return d - (((d + 3) % 7) + 7) % 7;
    }
    default: {
      const t = new Date(local);
      const y = t.getUTCFullYear();
      const m = t.getUTCMonth();
      return period === 'month' ? y * 12 + m : period === 'quarter' ? y * 4 + Math.floor(m / 3) : y;
    }
  }
}

/** Keyed by the zone's name in lower case (names are case-insensitive): a request cannot grow these caches by casing. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone.toLowerCase());
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone.toLowerCase(), f);
  }
  return f;
}

/** Date.UTC for every year: Date.UTC reads the years 0 to 99 as 1900 to 1999, setUTCFullYear takes them as written. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(year, month, day);
  t.setUTCHours(hour, minute, second, 0);
  return t.getTime();
}

/** The zone's offset at an instant, in ms east of UTC, from the runtime's time-zone data. */
function intlOffset(zone: string, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = utc(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return local - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The offsets of a zone through one UTC year: the offset at its start and each change (instant, new offset). */
interface YearOffsets {
  start: number;
  changes: [number, number][];
}
const years = new Map<string, YearOffsets>();

function yearOffsets(zone: string, year: number): YearOffsets {
  const key = `${zone.toLowerCase()} ${year}`;
  let y = years.get(key);
  if (y) return y;
  const from = utc(year, 0, 1);
  const to = utc(year + 1, 0, 1);
  const start = intlOffset(zone, from);
  const changes: [number, number][] = [];
  // the offset at every UTC midnight (and the year's end); a change between two of them is found to the second
  let prevAt = from;
  let prev = start;
  for (let at = from + DAY_MS; at <= to; at += DAY_MS) {
    const off = intlOffset(zone, at);
    if (off !== prev) {
      let lo = prevAt;
      let hi = at; // offset(lo) = prev, offset(hi) = off
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (intlOffset(zone, mid) === prev) lo = mid;
        else hi = mid;
      }
      if (hi < to) changes.push([hi, off]);
      prev = off;
    }
    prevAt = at;
  }
  y = { start, changes };
  years.set(key, y);
  return y;
}

/** The zone's offset at `from` and its changes up to `to` (instants in ms), ascending. */
function offsetsBetween(zone: string, from: number, to: number): YearOffsets {
  const firstYear = new Date(from).getUTCFullYear();
  const lastYear = new Date(to).getUTCFullYear();
  let start = yearOffsets(zone, firstYear).start;
  const changes: [number, number][] = [];
  for (let y = firstYear; y <= lastYear; y++) {
    for (const [at, off] of yearOffsets(zone, y).changes) {
      if (at <= from) start = off;
      else if (at <= to) changes.push([at, off]);
    }
  }
  return { start, changes };
}

/**
 * The cut days among the UTC days `first..last` (day numbers): those a period of the zone, an offset change or the
 * range [start, end) (instants in ms, either may be null) cuts through. Ascending.
 */
export function cutDays(tz: TimeZoneSpec, period: Period, first: number, last: number, start: number | null, end: number | null): number[] {
  const cut: number[] = [];
  const fixed = tz.kind === 'offset' ? tz.minutes * 60_000 : 0;
  const zone = tz.kind === 'iana' && period !== 'none' ? offsetsBetween(tz.name, first * DAY_MS, (last + 1) * DAY_MS) : null;
  let next = 0; // the first change after the current day's start
  let off = zone ? zone.start : fixed;
  for (let d = first; d <= last; d++) {
    const s = d * DAY_MS;
    const e1 = s + DAY_MS - 1;
    let os = off;
    let oe = off;
    if (zone) {
      while (next < zone.changes.length && zone.changes[next][0] <= s) off = zone.changes[next++][1];
      os = off;
      oe = off;
      for (let j = next; j < zone.changes.length && zone.changes[j][0] <= e1; j++) oe = zone.changes[j][1];
    }
    if ((start !== null && start > s) || (end !== null && end <= e1)) cut.push(d);
    else if (period !== 'none' && (os !== oe || periodOf(period, s + os) !== periodOf(period, e1 + oe))) cut.push(d);
  }
  return cut;
}
