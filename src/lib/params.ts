import { z } from 'zod';
import { isoProblem, isoProblemMessage, parseIsoInstant } from './dates.js';
import { typedAs } from './graphql-hint.js';
import { ValidationError, fieldErrorsFromZod } from '../errors.js';

/**
 * Query-parameter schemas shared by every list: they take the string form (REST query strings) and the typed
 * form (GraphQL arguments) alike, so one service schema validates both channels the same way.
 */
export const PAGE_MAX = 500;
export const PAGE_DEFAULT = 100;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PAGE_MAX}`;

/** `limit`: digits only (no 1e2, 0x10 or spaces), 1..500. */
export const LimitParam = typedAs(
  z
    .union([z.number(), z.string().regex(/^\d{1,6}$/, LIMIT_MESSAGE).transform(Number)], { error: LIMIT_MESSAGE })
    .pipe(z.number().int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(PAGE_MAX, LIMIT_MESSAGE)),
  'Int',
);

/** A whole number from min to max: a number, or the digits of one (no sign, exponent, hex or spaces). */
export const WholeParam = (what: string, min: number, max: number) => {
  const message = `${what} must be a whole number from ${min} to ${max}`;
  return typedAs(
    z
      .union([z.number(), z.string().regex(/^\d{1,9}$/, message).transform(Number)], { error: message })
      .pipe(z.number().int(message).min(min, message).max(max, message)),
    'Int',
  );
};

/** A boolean flag: true/false, or the strings "true"/"false". */
export const BoolParam = (what: string) =>
  typedAs(
    z
      .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
        error: `${what} must be true or false`,
      })
      .pipe(z.boolean()), // documented as what it means: a boolean
    'Boolean',
  );

/**
 * `startDate`/`endDate` of a list: an ISO 8601 date or date-time (a date alone is its UTC day), refused with the
 * offset or the year when that is what is wrong.
 */
const dateBound = (name: 'startDate' | 'endDate') =>
  z.string().superRefine((v, ctx) => {
    if (parseIsoInstant(v) === null) ctx.addIssue({ code: 'custom', message: isoProblemMessage(name, v, isoProblem(v), `${name} must be an ISO 8601 date or date-time`) });
  });
export const StartDateParam = (what: string) =>
  dateBound('startDate').optional().describe(`ISO 8601; ${what} at or after this instant (a date means its start, UTC)`);
export const EndDateParam = (what: string) =>
  dateBound('endDate').optional().describe(`ISO 8601; ${what} at or before this instant (a date alone includes that whole day, UTC)`);

/** The message of a date range whose end comes before its start: every list, and POST /aggregate, say it so. */
export const RANGE_REVERSED = 'the end of the date range is before its start';

/**
 * A list filter's check that its `endDate` is not before its `startDate` (a 400 at `endDate`, as POST /aggregate
 * answers; the list answered 200 with nothing). For `.superRefine` of a filter schema.
 */
export function dateRangeInOrder(f: { startDate?: string; endDate?: string }, ctx: z.RefinementCtx): void {
  if (!f.startDate || !f.endDate) return;
  const range = instantRange(f.startDate, f.endDate);
  const start = range?.gte?.getTime();
  const end = range?.lt !== undefined ? range.lt.getTime() - 1 : range?.lte?.getTime();
  if (start !== undefined && end !== undefined && !Number.isNaN(start) && !Number.isNaN(end) && end < start) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: RANGE_REVERSED });
  }
}

/** The Prisma time condition of checked startDate/endDate, or undefined when neither is given. */
export function instantRange(startDate?: string, endDate?: string): { gte?: Date; lt?: Date; lte?: Date } | undefined {
  const time: { gte?: Date; lt?: Date; lte?: Date } = {};
  if (startDate) time.gte = parseIsoInstant(startDate)!;
  if (endDate) {
    const end = parseIsoInstant(endDate)!;
    if (/^\d{4}-\d{2}-\d{2}$/.test(endDate)) time.lt = new Date(end.getTime() + 86_400_000);
    else time.lte = end;
  }
  return Object.keys(time).length ? time : undefined;
}

/** A list's filter checked against its schema, or the 400 `message` with each bad parameter at its path. */
export function parseFilter<S extends z.ZodType>(schema: S, filter: unknown, message: string, pathPrefix = ''): z.output<S> {
  const parsed = schema.safeParse(filter);
  if (!parsed.success) throw new ValidationError(message, fieldErrorsFromZod(parsed.error.issues, pathPrefix));
  return parsed.data;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `fields=a,b` (docs/contract/api-v1.md §4.2): comma-separated field names (core or tracking). */
export const FieldsParam = z
  .string()
  .refine(
    (v) => {
      const names = v.split(',').map((s) => s.trim()).filter(Boolean);
      return names.length > 0 && names.every((n) => n.length <= 64 && FIELD_NAME.test(n));
    },
    'fields is a comma-separated list of field names, e.g. timeDate,pilot,hobbs',
  )
  .describe('Comma-separated field names to return (uid is always returned)');

/**
 * A uid the client chooses (an import file's records, a user's identity-provider id): 1 to 128 characters, and not
 * `.` or `..`, which no URL path can name (`/users/%2E%2E` is `/users/..`, resolved before any route sees it), so
 * such a record could never be read or changed over REST.
 */
export const notDotSegment = (s: z.ZodString) => s.refine((u) => u !== '.' && u !== '..', 'uid must not be . or .. (no URL path can name it)');
export const GivenUid = notDotSegment(z.string().min(1).max(128));
