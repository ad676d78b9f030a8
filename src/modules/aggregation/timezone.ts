/**
 * The `timezone` of an aggregation (docs/contract/api-v1.md §2.11, docs/contract/gaps.md §5): an IANA name of the
 * Area/Location form (`Australia/Sydney`), an abbreviation of the table below (`AEST`), or an offset (`UTC+10`,
 * `UTC-03:30`). Abbreviations are fixed offsets, never a zone with daylight saving: `AEST` is always UTC+10 and `CET`
 * always UTC+1, whatever the date (docs/contract/gaps.md §5). IANA names follow the zone's rules, daylight saving
 * included.
 *
 * A fixed offset is kept in minutes east of UTC and reaches SQL as an interval (`AT TIME ZONE interval`), which
 * uses the ISO sign; a POSIX zone string such as `'UTC+10'` would mean ten hours *west* in PostgreSQL.
 *
 * A zone reaches SQL as the name the runtime's time-zone data (Intl) resolved the request's name to, never as the text
 * sent: PostgreSQL reads `AT TIME ZONE 'text'` as one of its abbreviations first, and names without an area are
 * abbreviations there (`IST` is Israel, +02, where ICU's legacy id `IST` is India, +05:30; `MET` is a fixed +01 there
 * and a zone with summer time in the runtime). So names without an area (`Japan`, `EST5EDT`, `MET`, ICU's `IST`,
 * `ACT`, `ART` ...) are refused unless the table lists them, and an Area/Location name (which no abbreviation can be:
 * it has a `/`) is handed on as Intl's canonical name of the zone, the same name the service computes days with
 * (days.ts). Both stores know every canonical name of the runtime (PostgreSQL 15 with Debian's tzdata, PGlite).
 */
export type TimeZoneSpec = { kind: 'offset'; minutes: number } | { kind: 'iana'; name: string };

const H = 60;
/** Abbreviation -> minutes east of UTC. */
export const TIME_ZONE_ABBREVIATIONS: Readonly<Record<string, number>> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 1 * H,
  BST: 1 * H,
  CET: 1 * H,
  CEST: 2 * H,
  EET: 2 * H,
  EEST: 3 * H,
  MSK: 3 * H,
  AWST: 8 * H,
  SGT: 8 * H,
  HKT: 8 * H,
  JST: 9 * H,
  KST: 9 * H,
  ACST: 9 * H + 30,
  ACDT: 10 * H + 30,
  AEST: 10 * H,
  AEDT: 11 * H,
  NZST: 12 * H,
  NZDT: 13 * H,
  NST: -3 * H - 30,
  NDT: -2 * H - 30,
  AST: -4 * H,
  ADT: -3 * H,
  EST: -5 * H,
  EDT: -4 * H,
  CST: -6 * H,
  CDT: -5 * H,
  MST: -7 * H,
  MDT: -6 * H,
  PST: -8 * H,
  PDT: -7 * H,
  AKST: -9 * H,
  AKDT: -8 * H,
  HST: -10 * H,
};

/** `UTC+10`, `UTC-03:30`, `GMT+5:30`, `UTC+0530`, and a bare `+10:00` / `-0330`. */
const OFFSET = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i;
/** Offsets in use on Earth run from UTC-12 to UTC+14. */
const MAX_OFFSET_MINUTES = 14 * H;

/** The time zone a string names, or null when it names none. */
export function parseTimeZone(input: string): TimeZoneSpec | null {
  const tz = input.trim();
  if (!tz) return null;
  const abbreviation = TIME_ZONE_ABBREVIATIONS[tz.toUpperCase()];
  if (abbreviation !== undefined) return { kind: 'offset', minutes: abbreviation };
  const m = OFFSET.exec(tz);
  if (m) {
    const hours = Number(m[2]);
    const minutes = m[3] === undefined ? 0 : Number(m[3]);
    if (minutes > 59) return null;
    const total = hours * H + minutes;
    if (total > MAX_OFFSET_MINUTES || (m[1] === '-' && total > 12 * H)) return null;
    return { kind: 'offset', minutes: m[1] === '-' ? -total : total };
  }
  // IANA names of the Area/Location form (Australia/Sydney, America/Argentina/Buenos_Aires, US/Pacific, Etc/GMT-10)
  // that the runtime knows, as the zone it resolves them to; the name is passed to the database as a parameter, never
  // spliced
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)+$/.test(tz)) return null;
  const zone = canonicalZone(tz);
  if (zone === null) return null;
  if (zone.includes('/')) return { kind: 'iana', name: zone };
  // Etc/UTC, Etc/GMT, Etc/Zulu ... are UTC; no other Area/Location name resolves to a name without an area
  return zone === 'UTC' ? { kind: 'offset', minutes: 0 } : null;
}

/** Intl's canonical name of the zone a name denotes (`asia/kolkata` -> `Asia/Calcutta` or `Asia/Kolkata`), or null. */
const canonical = new Map<string, string>();
function canonicalZone(name: string): string | null {
  const key = name.toLowerCase(); // names are case-insensitive: the cache holds at most one entry per known zone name
  let zone = canonical.get(key);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      return null; // not cached: unknown names cannot grow the cache
    }
    canonical.set(key, zone);
  }
  return zone;
}

/** `+10:00`, `-03:30`: how an offset is written in messages and docs. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / H)).padStart(2, '0')}:${String(abs % H).padStart(2, '0')}`;
}
