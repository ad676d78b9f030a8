import { z } from 'zod';
import { checkedBy, defineRoutes, named } from '../../rest/contract.js';
import { AggregateDateRangeSchema, AggregateInputSchema, AggregateMetricSchema, COLLECTIONS, checkAggregateShape, DATE_GROUPS, OPERATIONS } from './service.js';

/** REST adapter for aggregation (docs/contract/api-v1.md §2.11, §4.4; docs/contract/gaps.md §5): declarations only; the route runs `Query.aggregate` (src/rest/facade.ts). */
export const AggregateBody = named(
  'AggregateBody',
  z
    .object({
      ...AggregateInputSchema.shape,
      metrics: AggregateInputSchema.shape.metrics.describe(
        'Alternative form (instead of metric/operation): several metrics over the same groups; the response adds `metrics`, one results set each',
      ),
      dateRange: named('AggregateDateRange', z.object({ ...AggregateDateRangeSchema.shape }).strict()).nullish()
        .describe('Alternative form of dateField/startDate/endDate'),
    })
    .strict(),
  'AggregateBody, or its alternative form with metrics[] and dateRange',
);
named('AggregateMetric', z.object({ ...AggregateMetricSchema.shape }).strict());

const AggregateRowDoc = named(
  'AggregateRow',
  z.object({
    group: z.string().describe('"all" without groupBy; "(none)" for records without the field'),
    period: z.string().nullable().describe('Label in the time zone: YYYY-MM-DD, YYYY-Www (ISO week), YYYY-MM, YYYY-Q1, YYYY; null without dateGroup'),
    value: z.number().nullable().describe('null for avg/min/max when no record of the row has a numeric value'),
    count: z.number().int().describe('Records in the group and period'),
  }),
);
const Totals = z.record(z.string(), z.number().nullable()).describe('Each group\u2019s value across periods');
const MetricEcho = z.object({ field: z.string(), operation: z.enum(OPERATIONS) });

export const AggregateResponseDoc = named(
  'AggregateResponse',
  z.object({
    results: z.array(AggregateRowDoc).describe('One row per group and period, by group then period'),
    totals: Totals,
    totalCount: z.number().int().describe('Records matched'),
    params: z.object({
      collection: z.enum(COLLECTIONS),
      metric: z.string(),
      operation: z.enum(OPERATIONS),
      groupBy: z.string().nullable(),
      dateGroup: z.enum(DATE_GROUPS),
      dateRange: z.object({ start: z.string().nullable(), end: z.string().nullable() }),
      timezone: z.string(),
      metrics: z.array(MetricEcho).optional().describe('Alternative form only'),
    }),
    metrics: z
      .array(MetricEcho.extend({ results: z.array(AggregateRowDoc), totals: Totals }))
      .optional()
      .describe('Alternative form only: one results set per metric; the first is also results/totals'),
  }),
);

export const aggregationRoutes = defineRoutes([
  {
    operationId: 'aggregate',
    field: 'Query.aggregate',
    method: 'POST',
    path: '/aggregate',
    tag: 'Aggregation',
    summary: 'Aggregate a collection',
    description:
      'sum, count, avg, min or max of a field (or __count__) over flightLogs, completedForms, aircraft, schedule or vehicles of the ' +
      'company, grouped by a field and/or a date period in a time zone, computed by the database in exact decimal arithmetic.',
    body: AggregateBody,
    bodyArg: 'input',
    accept: checkedBy(checkAggregateShape),
    status: 200,
    response: AggregateResponseDoc,
    errors: [400],
    present: (d) => {
      const { metrics, params, ...rest } = d;
      const { metrics: echoed, ...p } = params;
      return {
        ...rest,
        params: { ...p, ...(echoed ? { metrics: echoed } : {}) },
        ...(metrics ? { metrics } : {}),
      };
    },
  },
]);
