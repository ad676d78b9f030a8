/**
 * The `timezone` of an aggregation (api-v1 §2.11, gaps §5): an IANA name (daylight saving followed), an
 * abbreviation (a fixed offset: AEST is UTC+10 all year, AEDT UTC+11), or an offset `UTC+10`, `UTC-03:30`,
 * `+05:45`. Offsets use the ISO sign: `UTC+10` is ten hours east of Greenwich.
 */
export type TimeZoneSpec =
  | { kind: 'iana'; name: string }
  | { kind: 'offset'; minutes: number; name: string };

/** Common abbreviations and their fixed offsets in minutes east of UTC. Ambiguous ones (IST, CST in Asia) follow North American/Australian usage. */
export const ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  GST: 240,
  PKT: 300,
  ICT: 420,
  WIB: 420,
  SGT: 480,
  HKT: 480,
  AWST: 480,
  JST: 540,
  KST: 540,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  LHST: 630,
  NZST: 720,
  NZDT: 780,
  HST: -600,
  AKST: -540,
  AKDT: -480,
  PST: -480,
  PDT: -420,
  MST: -420,
  MDT: -360,
  CST: -360,
  CDT: -300,
  EST: -300,
  EDT: -240,
  AST: -240,
  ADT: -180,
  NST: -210,
  NDT: -150,
};

const OFFSET = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i;

function isIana(name: string): boolean {
  if (!name.includes('/') && name !== 'UTC') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The time zone, or null when it is none of the accepted forms. */
export function parseTimeZone(input: string): TimeZoneSpec | null {
  const s = input.trim();
  if (!s || s.length > 64) return null;
  const upper = s.toUpperCase();
  if (upper in ABBREVIATIONS) return { kind: 'offset', minutes: ABBREVIATIONS[upper], name: s };
  const m = OFFSET.exec(s);
  if (m) {
    const hours = Number(m[2]);
    const mins = Number(m[3] ?? 0);
    if (hours > 14 || mins > 59 || (hours === 14 && mins > 0)) return null;
    return { kind: 'offset', minutes: (m[1] === '-' ? -1 : 1) * (hours * 60 + mins), name: s };
  }
  return isIana(s) ? { kind: 'iana', name: s } : null;
}

/** `UTC+10:00` style label of an offset in minutes. */
export function offsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const a = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}
