import { z } from 'zod';

/**
 * Query-parameter schemas shared by every list: they take the string form (REST query strings) and the typed
 * form (GraphQL arguments) alike, so one service schema validates both channels the same way.
 */
export const PAGE_MAX = 500;
export const PAGE_DEFAULT = 100;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PAGE_MAX}`;

/** `limit`: digits only (no 1e2, 0x10 or spaces), 1..500. */
export const LimitParam = z
  .union([z.number(), z.string().regex(/^\d{1,6}$/, LIMIT_MESSAGE).transform(Number)], { error: LIMIT_MESSAGE })
  .pipe(z.number().int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(PAGE_MAX, LIMIT_MESSAGE));

/** A boolean flag: true/false, or the strings "true"/"false". */
export const BoolParam = (what: string) =>
  z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
    error: `${what} must be true or false`,
  });
