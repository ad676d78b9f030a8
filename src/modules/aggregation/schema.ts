import { z } from 'zod';
import { ValidationError, fieldErrorsFromZod, invalid, isPlainObject } from '../../errors.js';
import { isoProblem, isoProblemMessage } from '../../lib/dates.js';
import { graphqlType } from '../../lib/graphql-hint.js';
import { serviceCheck } from '../../graphql/validation.js';
import { COLLECTIONS, type CollectionDef, type CollectionName, type ResolvedField } from './fields.js';
import type { TimeZoneSpec } from './timezone.js';

/**
 * What an aggregation request is (docs/contract/api-v1.md §2.11, §4.4): the request's schema, defined once, from
 * which the GraphQL input, the REST body's check and document and the MCP tool's schema are read; the answer's
 * types; and the plan the service makes of a request.
 */
export { COLLECTIONS, type CollectionName } from './fields.js';
export const OPERATIONS = ['sum', 'count', 'avg', 'min', 'max'] as const;
export type Operation = (typeof OPERATIONS)[number];
export const DATE_GROUPS = ['none', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type DateGroup = (typeof DATE_GROUPS)[number];
export const COUNT_METRIC = '__count__';
export const MAX_METRICS = 20;

const oneOf = (what: string, values: readonly string[]) => (iss: { input?: unknown }) =>
  iss.input === undefined ? `${what} is required` : `${what} must be one of ${values.join(', ')}`;
/** A date or date-time as parseIso reads it (src/lib/dates.ts), refused in words that say what is wrong. */
const isoDate = (what: string) =>
  z.string().superRefine((v, ctx) => {
    const why = isoProblem(v);
    if (why) ctx.addIssue({ code: 'custom', message: isoProblemMessage(what, v, why, `${what} must be an ISO 8601 date or date-time`) });
  });
const opt = <T extends z.ZodType>(s: T) => s.nullish();

export const AggregateMetricSchema = graphqlType(
  z
  .object({
    field: z.string().min(1, 'field must not be empty').describe(`A numeric field, or ${COUNT_METRIC} to count records`),
    operation: opt(z.enum(OPERATIONS, { error: oneOf('operation', OPERATIONS) })).describe('Default sum'),
  })
  .strict(),
  'AggregateMetricInput',
);

export const AggregateDateRangeSchema = graphqlType(
  z
  .object({
    field: opt(z.string().min(1)).describe('Date field; default timeDate for flight logs, createdAt otherwise'),
    start: opt(isoDate('start')).describe('ISO 8601, inclusive'),
    end: opt(isoDate('end')).describe('ISO 8601, inclusive; a date alone includes that whole day (UTC)'),
  })
  .strict(),
  'AggregateDateRangeInput',
);

/** AggregateBody (docs/contract/api-v1.md §2.11) and the alternative form (`metrics[]`, `dateRange`, §4.4). */
export const AggregateInputSchema = z
  .object({
    collection: z.enum(COLLECTIONS, { error: oneOf('collection', COLLECTIONS) }),
    metric: opt(z.string().min(1, 'metric must not be empty')).describe(
      `A numeric field (tracking fields, totals and form data fields too); ${COUNT_METRIC} counts records`,
    ),
    operation: opt(z.enum(OPERATIONS, { error: oneOf('operation', OPERATIONS) })).describe('Default sum'),
    groupBy: opt(z.string().min(1, 'groupBy must not be empty')).describe('Field to group by; all records form one group ("all") when omitted'),
    dateField: opt(z.string().min(1, 'dateField must not be empty')).describe('Date field for filtering and date grouping'),
    startDate: opt(isoDate('startDate')).describe('ISO 8601 (UTC when no offset), inclusive'),
    endDate: opt(isoDate('endDate')).describe('ISO 8601 (UTC when no offset), inclusive; a date alone includes that whole day'),
    timezone: opt(z.string()).describe('IANA Area/Location name, listed abbreviation (AEST, AEDT, ...) or offset (UTC+10, UTC-03:30); default UTC'),
    dateGroup: opt(z.enum(DATE_GROUPS, { error: oneOf('dateGroup', DATE_GROUPS) })).describe(
      'Default none; needs dateField. day YYYY-MM-DD, week YYYY-Www (ISO), month YYYY-MM, quarter YYYY-Q1, year YYYY',
    ),
    filters: opt(
      z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()], { error: 'a filter value must be a string' })),
    ).describe('Equality filters: field name to required value'),
    metrics: opt(z.array(AggregateMetricSchema).min(1, 'metrics must not be empty').max(MAX_METRICS, `at most ${MAX_METRICS} metrics`)).describe(
      'Alternative form: several metrics over the same groups, one results set each',
    ),
    dateRange: opt(AggregateDateRangeSchema).describe('Alternative form of dateField/startDate/endDate'),
  })
  .strict();
export type AggregateInput = z.input<typeof AggregateInputSchema>;

export interface AggregateRow {
  group: string;
  period: string | null;
  value: number | null;
  count: number;
}
export interface AggregateMetricResult {
  field: string;
  operation: Operation;
  results: AggregateRow[];
  totals: Record<string, number | null>;
}
export interface AggregateParams {
  collection: CollectionName;
  metric: string;
  operation: Operation;
  groupBy: string | null;
  dateGroup: DateGroup;
  dateRange: { start: string | null; end: string | null };
  timezone: string;
  /** Alternative form only: every metric asked for. */
  metrics?: { field: string; operation: Operation }[];
}
export interface AggregateResult {
  results: AggregateRow[];
  totals: Record<string, number | null>;
  totalCount: number;
  params: AggregateParams;
  /** Alternative form only: one results set per metric (the first is also `results`/`totals`). */
  metrics?: AggregateMetricResult[];
}

/** A validated request, every field name resolved. */
export interface Plan {
  collection: CollectionName;
  def: CollectionDef;
  metrics: { field: string; operation: Operation; resolved: ResolvedField | null }[];
  groupBy: ResolvedField | null;
  dateField: ResolvedField | null;
  /** the range as instants (ms since 1970 UTC), compared as numbers; `end` is exclusive */
  start: number | null;
  end: number | null;
  timezone: TimeZoneSpec;
  dateGroup: DateGroup;
  /** value: as compared in SQL (date fields: the ISO instant) */
  filters: { field: ResolvedField; value: string }[];
  params: AggregateParams;
  alternative: boolean;
}

/**
 * The request's shape (no database): the service runs it first, and the REST façade before GraphQL sees a body, so
 * both channels answer the same 400. The rules that need the company's fields follow in the service.
 */
export function checkAggregateShape(raw: unknown) {
  if (!isPlainObject(raw)) throw new ValidationError('an aggregation request must be a JSON object');
  const parsed = AggregateInputSchema.safeParse(raw);
  if (!parsed.success) invalid('aggregation', fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

export type AggregateBody = ReturnType<typeof checkAggregateShape>;

/** The request's check as every channel runs it (GraphQL through Pothos' validation plugin, REST before GraphQL). */
export const AggregateCheck = serviceCheck('aggregation', AggregateInputSchema, checkAggregateShape);
