import { TRACKING_SCALE } from '../../lib/decimal.js';

/**
 * The bounds of a tracking figure and their messages (the rule itself: ./value.ts). Browser-safe, with no import but
 * src/lib/decimal.ts: the console's CSV import (src/modules/flight-logs/csv-rules.ts) says them in the same words.
 */
export const TRACKING_VALUE_LIMIT = 1e9;
export const TRACKING_VALUE_PLACES = TRACKING_SCALE;

export const rangeMessage = (what: string) => `${what} must be less than 1000000000 (1e9) in magnitude`;
export const placesMessage = (what: string) => `${what} must have at most ${TRACKING_VALUE_PLACES} decimal places`;
