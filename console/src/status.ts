import type { StatusItemFragment } from '../generated/graphql';

/**
 * Where a maintenance item stands, as the console colours it. The API orders items most urgent first and gives
 * `remaining` (tracking units) and `calendarDaysRemaining`; "due soon" is the console's reading of them, with the
 * defaults of the maintenance alerts (docs/contract/gaps.md §14: 14 days, 10 units) until the API states it
 * (console/NEEDS.md).
 */
export const DUE_SOON_DAYS = 14;
export const DUE_SOON_UNITS = 10;

export type Urgency = 'overdue' | 'dueSoon' | 'ok' | 'unknown';

export function urgency(s: Pick<StatusItemFragment, 'remaining' | 'calendarDaysRemaining'>): Urgency {
  const { remaining, calendarDaysRemaining: days } = s;
  if ((remaining !== null && remaining !== undefined && remaining < 0) || (days !== null && days !== undefined && days < 0)) return 'overdue';
  if ((remaining !== null && remaining !== undefined && remaining <= DUE_SOON_UNITS) || (days !== null && days !== undefined && days <= DUE_SOON_DAYS)) return 'dueSoon';
  if ((remaining === null || remaining === undefined) && (days === null || days === undefined)) return 'unknown';
  return 'ok';
}

export const URGENCY_LABEL: Record<Urgency, string> = {
  overdue: 'Overdue',
  dueSoon: 'Due soon',
  ok: 'OK',
  unknown: 'No reading',
};

const RANK: Record<Urgency, number> = { overdue: 0, dueSoon: 1, ok: 2, unknown: 3 };

/**
 * Items grouped as the console reads them: overdue, due soon, OK, no reading, in the API's order within each group.
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
