import type { StatusItemFragment } from '../generated/graphql';

/**
 * Where a maintenance item stands, as the console colours it. The API orders items most urgent first and gives
 * `remaining` (tracking units) and `calendarDaysRemaining`; "due soon" is the console's reading of them with the
 * company's maintenance alert thresholds (docs/contract/gaps.md §14, `alertSettings`, read with the viewer at
 * sign-in and again when an admin saves them), so the console's "due soon" is the alerts' (the defaults, 14 days
 * and 10 units, until they are read).
 */
export const dueSoon = { days: 14, units: 10 };
export function setDueSoon(thresholds: { dueSoonDays: number; dueSoonHours: number; timezone?: string | null }) {
  dueSoon.days = thresholds.dueSoonDays;
  dueSoon.units = thresholds.dueSoonHours;
  companyZone.value = thresholds.timezone ?? null;
}

/** The company's time zone (its alert settings' `timezone`), known once signed in: the console's default zone after the user's own. */
export const companyZone: { value: string | null } = { value: null };

export type Urgency = 'overdue' | 'due' | 'dueSoon' | 'ok' | 'unknown';

/**
 * `due`: a threshold reached exactly (0 left, or due today), the API's "due" group between overdue and upcoming; the
 * alerts send `maintenance.overdue` for it (an aircraft at its 100 hours may not fly on), so it is never "due soon".
 */
export function urgency(s: Pick<StatusItemFragment, 'remaining' | 'calendarDaysRemaining'>): Urgency {
  const { remaining, calendarDaysRemaining: days } = s;
  if ((remaining !== null && remaining !== undefined && remaining < 0) || (days !== null && days !== undefined && days < 0)) return 'overdue';
  if (remaining === 0 || days === 0) return 'due';
  if ((remaining !== null && remaining !== undefined && remaining <= dueSoon.units) || (days !== null && days !== undefined && days <= dueSoon.days)) return 'dueSoon';
  if ((remaining === null || remaining === undefined) && (days === null || days === undefined)) return 'unknown';
  return 'ok';
}

export const URGENCY_LABEL: Record<Urgency, string> = {
  overdue: 'Overdue',
  due: 'Due now',
  dueSoon: 'Due soon',
  ok: 'OK',
  unknown: 'No reading',
};

const RANK: Record<Urgency, number> = { overdue: 0, due: 1, dueSoon: 2, ok: 3, unknown: 4 };

/**
 * Items grouped as the console reads them: overdue, due now, due soon, OK, no reading, in the API's order within each group.
 * The API orders by its own groups (overdue, due now, upcoming), and within upcoming puts items with a date before
 * items counted by usage, so an item 6 hours from its limit would follow one due in 60 days.
 */
export function byUrgency<T extends Pick<StatusItemFragment, 'remaining' | 'calendarDaysRemaining'>>(items: T[]): T[] {
  return items
    .map((item, i) => ({ item, i, rank: RANK[urgency(item)] }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.item);
}

/** The most urgent of some items (the API's order breaks ties). */
export function mostUrgent<T extends Pick<StatusItemFragment, 'remaining' | 'calendarDaysRemaining'>>(items: T[]): T | undefined {
  return byUrgency(items)[0];
}
