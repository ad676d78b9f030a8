import { isCalendarDate } from '../../lib/dates.js';
import { parseTimeZone } from '../aggregation/timezone.js';
/**
 * The maintenance schedule's pure rules (no database): exact decimal arithmetic for tracking values, calendar-day
 * arithmetic in a time zone, the threshold/recurrence consistency of an item, and the urgency order of the
 * maintenance status. ScheduleService applies them; test/schedule-rules.test.ts pins them down.
 */

// Exact decimals live in src/lib/decimal.ts (shared with totals elsewhere); re-exported for the schedule.
export {
  TRACKING_MAX_ABS,
  decimalPlaces,
  exactAddString,
  exactSubtract,
  formatDec,
  parseDec,
  roundToTrackingScale,
  sameDecimal,
  type Dec,
} from '../../lib/decimal.js';

// ---------------------------------------------------------------------------------------------------------------
// Calendar days in a time zone
//
// A calendar due date is a date (`YYYY-MM-DD`), not an instant. Date arithmetic is done on the proleptic Gregorian
// calendar through UTC day numbers, which have no DST; a time zone only decides which local date an instant falls
// on. So "N days after the completion" is always exactly N local dates later, whatever DST does in between.

const DAY_MS = 86_400_000;

/** Is `YYYY-MM-DD` a real calendar date? */
export { isCalendarDate };

function dayNumber(date: string): number {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date: ${date}`);
  return dayOf(date);
}

/** The UTC day number of a `Y-MM-DD` the runtime wrote itself (a wall date: past 9999 its year has five digits). */
function dayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return Math.round(t.getTime() / DAY_MS);
}

/** The last calendar date the service keeps (its midnight UTC is the last day of the instants src/lib/dates.ts takes). */
export const LAST_DUE_DATE = '9999-12-31';

function fromDayNumber(n: number): string {
  const iso = new Date(n * DAY_MS).toISOString();
  // past 9999 (or before year 0) toISOString writes a six-digit year (+010000-01-30), which no date field takes
  if (iso.length !== 24) throw new RangeError(`a calendar date past the years 0000 to 9999: day ${n}`);
  return iso.slice(0, 10);
}

/** `date` plus `days` calendar days (negative goes back): 2024-02-28 + 1 = 2024-02-29, 2024-01-31 + 30 = 2024-03-01. */
export function addCalendarDays(date: string, days: number): string {
  if (!Number.isInteger(days)) throw new RangeError(`days must be a whole number: ${days}`);
  return fromDayNumber(dayNumber(date) + days);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** One formatter per zone, however its name is cased (zone names are case-insensitive: the cache stays bounded). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  const key = timeZone.toLowerCase();
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(key, f);
  }
  return f;
}

/**
 * The one rule for a time zone a client sends, whichever field or parameter takes it (a user's `timezone`, the alert
 * settings' `timezone`, the maintenance status's `timezone` query, the aggregation's `timezone`): the aggregation's
 * (src/modules/aggregation/timezone.ts parseTimeZone), in any case, surrounding spaces ignored. An IANA name of the
 * Area/Location form the runtime knows (`Australia/Sydney`, links such as `US/Pacific`, `Etc/GMT-10`), `UTC`, one
 * of the listed abbreviations (a fixed offset: AEST is +10 all year) or an offset (`UTC+10`, `-03:30`, -12:00 to
 * +14:00). Names without an area outside that list (`IST`, which ICU reads as India and PostgreSQL as Israel;
 * `Japan`, `EST5EDT`, `MET`) are refused, so a zone the service accepted anywhere is accepted everywhere, and means
 * the same thing everywhere.
 */
export function isTimeZone(tz: string): boolean {
  return typeof tz === 'string' && parseTimeZone(tz) !== null;
}

/** The message of a time zone isTimeZone refuses, for a field or parameter named `timezone`. */
export const TIME_ZONE_MESSAGE =
  'timezone must be an IANA time zone of the Area/Location form such as Australia/Sydney, UTC, a listed abbreviation such as AEST, or an offset such as UTC+10 or -03:30';

/**
 * A stored time zone the service can still compute with: one isTimeZone takes, or a name the runtime knows that was
 * stored before that rule (`IST` in a user's or the alert settings' `timezone`, read as the runtime reads it), so a
 * value written before keeps working on reads; only new writes and query parameters follow isTimeZone.
 */
export function isReadableTimeZone(tz: string): boolean {
  if (!tz) return false;
  if (isTimeZone(tz)) return true;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/**
 * How a zone computes wall time: a fixed offset (an offset, a listed abbreviation, UTC) by arithmetic, an IANA name
 * by the runtime's time-zone data under the name the aggregation resolves it to (one zone, one meaning), and a
 * legacy name stored before isTimeZone's rule by the runtime under the name as stored.
 */
type Zone = { kind: 'offset'; ms: number } | { kind: 'intl'; format: Intl.DateTimeFormat };
const zones = new Map<string, Zone>();
function zoneOf(timeZone: string): Zone {
  const key = timeZone.trim().toLowerCase();
  let z = zones.get(key);
  if (!z) {
    const spec = parseTimeZone(timeZone);
    // formatter throws a RangeError for a name the runtime does not know (callers check first): not cached
    z =
      spec?.kind === 'offset'
        ? { kind: 'offset', ms: spec.minutes * 60_000 }
        : { kind: 'intl', format: formatter(spec?.kind === 'iana' ? spec.name : timeZone) };
    zones.set(key, z);
  }
  return z;
}

let zoneNames: Map<string, string> | undefined;
/**
 * A zone name as it is stored: an IANA name as the time zone database spells it (`australia/sydney` is stored and
 * shown as `Australia/Sydney`); a name the runtime knows only as an alias (`US/Pacific`) is kept as sent, not
 * replaced by the zone it links to; an abbreviation or an offset in capitals (`aest` as `AEST`, `utc+10` as
 * `UTC+10`). Surrounding spaces are dropped; otherwise only the case changes (zone names are case-insensitive).
 */
export function zoneSpelling(written: string): string {
  const tz = written.trim();
  if (!tz.includes('/') && parseTimeZone(tz)?.kind === 'offset') return tz.toUpperCase();
  zoneNames ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z]));
  const known = zoneNames.get(tz.toLowerCase());
  if (known) return known;
  try {
    const resolved = formatter(tz).resolvedOptions().timeZone;
    if (resolved.toLowerCase() === tz.toLowerCase()) return resolved;
  } catch {
    // not a zone: the caller's check refuses it
  }
  return tz;
}

interface WallTime {
  date: string;
  hour: number;
  minute: number;
  second: number;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function wallTime(instant: Date, timeZone: string): WallTime {
  const zone = zoneOf(timeZone);
  if (zone.kind === 'offset') {
    const t = new Date(instant.getTime() + zone.ms);
    return {
      date: `${String(t.getUTCFullYear()).padStart(4, '0')}-${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())}`,
      hour: t.getUTCHours(),
      minute: t.getUTCMinutes(),
      second: t.getUTCSeconds(),
    };
  }
  const parts: Record<string, string> = {};
  for (const p of zone.format.formatToParts(instant)) parts[p.type] = p.value;
  return {
    date: `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The local calendar date of an instant in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return wallTime(instant, timeZone).date;
}

/** The zone's UTC offset at an instant, in ms (Sydney in January: +11 h). */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const w = wallTime(new Date(whole), timeZone);
  // the wall date may be past 9999 (an instant of 9999-12-31 UTC east of Greenwich): read as is, not as an input
  return dayOf(w.date) * DAY_MS + ((w.hour * 60 + w.minute) * 60 + w.second) * 1000 - whole;
}

/**
 * The first instant of a local date in a time zone: local midnight, or, when a DST change skips midnight, the
 * first instant that falls on the date. The offset at local midnight is the one in force shortly before or shortly
 * after it; each gives a candidate, and the earliest candidate that lies on the date wins.
 */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const midnight = dayNumber(date) * DAY_MS; // local 00:00 read as if it were UTC
  const HOURS_14 = 14 * 3_600_000; // the widest UTC offset
  const offsets = new Set([offsetAt(midnight - HOURS_14, timeZone), offsetAt(midnight + HOURS_14, timeZone)]);
  const onDate = [...offsets]
    .map((o) => midnight - o)
    .filter((t) => localDate(new Date(t), timeZone) === date)
    .sort((a, b) => a - b);
  return new Date(onDate[0] ?? midnight - offsetAt(midnight, timeZone));
}

/**
 * The instant a date input names where the schedule keeps an instant (a completion's `completedAt`, an item's
 * `lastCarriedOutDate`, which a completion sets to its `completedAt`): a date-time as given; a date alone is that day
 * in `timeZone` (the acting user's, else the company's, else UTC), its first instant. The caller checks that instant is within the years
 * 0001 to 9999 in UTC (the start of 0001-01-01 east of Greenwich is not).
 */
export function instantOfDateInput(p: { date: string; instant: Date | null }, timeZone: string): Date {
  return p.instant ?? startOfLocalDay(p.date, timeZone);
}

/**
 * Roll-forward of a calendar threshold: the next due date is the completion's local date plus `days` calendar days.
 * `completion` is an instant (its local date in `timeZone` counts) or already a local date `YYYY-MM-DD`.
 */
export function nextCalendarDue(completion: Date | string, days: number, timeZone: string): string {
  const date = typeof completion === 'string' ? completion : localDate(completion, timeZone);
  return addCalendarDays(date, days);
}

/** Calendar days from today (the local date of `now` in `timeZone`) to a due date; negative means overdue. */
export function calendarDaysRemaining(dueDate: string, now: Date, timeZone: string): number {
  return daysBetween(localDate(now, timeZone), dueDate);
}

/** A due date as stored (the timestamptz column holds midnight UTC of the date) → `YYYY-MM-DD`. */
export const dueDateOf = (stored: Date): string => stored.toISOString().slice(0, 10);
/** `YYYY-MM-DD` → the instant stored for it: midnight UTC of that date. */
export const storedDueDate = (date: string): Date => new Date(dayNumber(date) * DAY_MS);

// ---------------------------------------------------------------------------------------------------------------
// Thresholds and recurrence

export interface ThresholdFields {
  recurring: boolean;
  trackingItem: string | null;
  dueAtInterval: unknown;
  recurringInterval: unknown;
  calendarDateDue: unknown;
  calendarRecurring: unknown;
}

export interface RuleError {
  path: string;
  message: string;
}

const present = (v: unknown) => v !== null && v !== undefined;

/**
 * Consistency of an item's thresholds (checked on the whole item after a create or an update):
 * - at least one threshold: usage (trackingItem and dueAtInterval, both) or calendar (calendarDateDue);
 * - recurringInterval belongs to a usage threshold, calendarRecurring to a calendar threshold;
 * - a recurring item must say how each of its thresholds rolls forward: recurringInterval for usage,
 *   calendarRecurring for calendar. (A non-recurring item may keep intervals; they are unused until it recurs.)
 */
export function thresholdErrors(item: ThresholdFields): RuleError[] {
  const errors: RuleError[] = [];
  const hasTracking = present(item.trackingItem);
  const hasDueAt = present(item.dueAtInterval);
  const usage = hasTracking && hasDueAt;
  const calendar = present(item.calendarDateDue);
  if (hasTracking && !hasDueAt) {
    errors.push({ path: '/dueAtInterval', message: 'a usage threshold needs dueAtInterval as well as trackingItem' });
  } else if (hasDueAt && !hasTracking) {
    errors.push({ path: '/trackingItem', message: 'a usage threshold needs trackingItem as well as dueAtInterval' });
  } else if (!usage && !calendar) {
    errors.push({
      path: '',
      message:
        'a schedule item needs a threshold: usage (trackingItem and dueAtInterval) or calendar (calendarDateDue), or both',
    });
  }
  if (present(item.recurringInterval) && !hasTracking && !hasDueAt) {
    errors.push({
      path: '/recurringInterval',
      message: 'recurringInterval applies to a usage threshold (trackingItem and dueAtInterval); send it with one, or clear it',
    });
  }
  if (present(item.calendarRecurring) && !calendar) {
    errors.push({
      path: '/calendarRecurring',
      message: 'calendarRecurring applies to a calendar threshold (calendarDateDue); send it with one, or clear it',
    });
  }
  if (item.recurring) {
    if (usage && !present(item.recurringInterval)) {
      errors.push({
        path: '/recurringInterval',
        message: 'a recurring item with a usage threshold needs recurringInterval (tracking units between recurrences)',
      });
    }
    if (calendar && !present(item.calendarRecurring)) {
      errors.push({
        path: '/calendarRecurring',
        message: 'a recurring item with a calendar threshold needs calendarRecurring (days between recurrences)',
      });
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------------------------
// Urgency

export interface UrgencyFields {
  uid: string;
  name: string;
  /** dueAtInterval - currentTotal; absent without a usage threshold or when the total is unknown */
  remaining?: number | null;
  calendarDaysRemaining?: number | null;
  /** the item has a usage threshold (whether or not its current total is known) */
  usageBased?: boolean;
}

export type UrgencyGroup = 'overdue' | 'due' | 'upcoming' | 'unknown';
const GROUP_ORDER: Record<UrgencyGroup, number> = { overdue: 0, due: 1, upcoming: 2, unknown: 3 };

const known = (v: number | null | undefined): v is number => typeof v === 'number';

/**
 * - overdue: a threshold is past (remaining < 0 or calendarDaysRemaining < 0)
 * - due: a threshold is reached exactly (remaining = 0, or due today)
 * - upcoming: every known threshold is ahead
 * - unknown: nothing to compare (a usage-only item whose asset total is not available)
 */
export function urgencyGroup(s: UrgencyFields): UrgencyGroup {
  const r = s.remaining;
  const d = s.calendarDaysRemaining;
  if ((known(r) && r < 0) || (known(d) && d < 0)) return 'overdue';
  if ((known(r) && r === 0) || (known(d) && d === 0)) return 'due';
  if (known(r) || known(d)) return 'upcoming';
  return 'unknown';
}

/**
 * Most urgent first: by group (overdue, due, upcoming, unknown); within a group by calendarDaysRemaining ascending
 * (items with a calendar threshold first: days are comparable across items), then by remaining ascending (usage
 * units are only comparable to themselves, so this mostly orders usage-only items), then by name and uid.
 */
export function compareUrgency(a: UrgencyFields, b: UrgencyFields): number {
  const g = GROUP_ORDER[urgencyGroup(a)] - GROUP_ORDER[urgencyGroup(b)];
  if (g) return g;
  const byNumber = (x: number | null | undefined, y: number | null | undefined) =>
    known(x) && known(y) ? x - y : known(x) ? -1 : known(y) ? 1 : 0;
  return (
    byNumber(a.calendarDaysRemaining, b.calendarDaysRemaining) ||
    byNumber(a.remaining, b.remaining) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0)
  );
}

/** overdueOnly: a threshold is past. */
export const isOverdue = (s: UrgencyFields) => urgencyGroup(s) === 'overdue';

/**
 * dueWithinDays = N: the calendar threshold falls within N days from today (or is past), or a usage threshold is
 * already reached (usage cannot be projected into days).
 */
export function dueWithin(s: UrgencyFields, days: number): boolean {
  const g = urgencyGroup(s);
  if (g === 'overdue' || g === 'due') return true;
  return known(s.calendarDaysRemaining) && s.calendarDaysRemaining <= days;
}

/** When an item is "due soon" (docs/contract/gaps.md §14): within this many usage units or calendar days. */
export interface DueSoonThresholds {
  /** usage units (hours, landings, km ...) of the item's tracking item */
  hours: number;
  days: number;
}

/**
 * The alert an item's position calls for (docs/notifications.md "Maintenance alerts"):
 * - `overdue`: a threshold is reached or past (remaining ≤ 0, or due today or earlier): the asset must not be used
 *   further before the work is done;
 * - `due_soon`: a threshold is within `soon.hours` usage units (remaining ≤ hours) or `soon.days` calendar days;
 * - null: every known threshold is further away, or nothing is known.
 */
export function alertLevel(s: Pick<UrgencyFields, 'remaining' | 'calendarDaysRemaining'>, soon: DueSoonThresholds): 'overdue' | 'due_soon' | null {
  const r = s.remaining;
  const d = s.calendarDaysRemaining;
  if ((known(r) && r <= 0) || (known(d) && d <= 0)) return 'overdue';
  if ((known(r) && r <= soon.hours) || (known(d) && d <= soon.days)) return 'due_soon';
  return null;
}
