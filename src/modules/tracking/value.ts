import { z } from 'zod';
import { decimalPlaces } from '../../lib/decimal.js';
import { TRACKING_VALUE_LIMIT, TRACKING_VALUE_PLACES, placesMessage, rangeMessage } from './limits.js';

/**
 * The one rule for every tracking figure a client sends (docs/contract/gaps.md §11, "Tracking values, counters and
 * totals stay exact"): flight-log tracking values, aircraft and vehicle initial values and starting totals,
 * component counter initial values and resets, schedule thresholds, intervals and completion values, odometer
 * answers. A figure is a finite number whose magnitude is below 1e9, with at most 6 decimal places; anything else
 * is a 400 at its path (per item in a batch).
 *
 * Why these bounds: a double holds 15 significant decimal digits exactly, and 9 before the point plus 6 after
 * is 15, so every accepted figure is the exact decimal the client wrote, and sums of them are computed exactly in
 * `numeric` (src/lib/decimal.ts, the aircraft totals in SQL). 1e25 would be stored as 1e+25 and totals built on it
 * would stop being exact.
 */
export { TRACKING_VALUE_LIMIT, TRACKING_VALUE_PLACES };

/**
 * A tracking figure as a zod schema (`what` names it in messages; the path says where it is). The bounds are
 * `gt`/`lt` checks so that the OpenAPI document shows them (exclusiveMinimum/exclusiveMaximum).
 */
export function trackingValue(what = 'a tracking value') {
  const range = rangeMessage(what);
  return z
    .number({ error: `${what} must be a number` })
    .gt(-TRACKING_VALUE_LIMIT, range)
    .lt(TRACKING_VALUE_LIMIT, range)
    .refine((n) => !Number.isFinite(n) || decimalPlaces(n) <= TRACKING_VALUE_PLACES, placesMessage(what));
}

/**
 * The same rule as trackingValue, as a function: what is wrong with the figure `n` (named `what`), or null. For the
 * checks that name each figure by its own key (a flight log's tracking values): building a zod schema per key and
 * item was most of a 50-log batch's time.
 */
export function trackingFigureError(n: unknown, what: string): string | null {
  if (typeof n !== 'number' || Number.isNaN(n)) return `${what} must be a number`;
  if (!(n > -TRACKING_VALUE_LIMIT && n < TRACKING_VALUE_LIMIT)) return rangeMessage(what);
  if (decimalPlaces(n) > TRACKING_VALUE_PLACES) return placesMessage(what);
  return null;
}

// A figure written as text (a CSV cell): src/modules/flight-logs/csv-rules.ts `figureFromText`.
