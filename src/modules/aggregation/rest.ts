import { z } from 'zod';
import { defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { AggregateMetricsSchema, AggregateSchema, COLLECTIONS, DATE_GROUPS, OPERATIONS } from './service.js';

/** REST adapter for aggregation (api-v1 §2.11, §4.4; gaps §5): POST /aggregate runs the GraphQL `aggregate` query. */
const RowDoc = z.object({ group: z.string(), period: z.string().nullable(), value: z.number().nullable(), count: z.number().int() });
const ParamsDoc = z.object({
  collection: z.enum(COLLECTIONS),
  metric: z.string().optional(),
  operation: z.enum(OPERATIONS).optional(),
  metrics: z.array(z.object({ field: z.string(), operation: z.enum(OPERATIONS) })).optional(),
  groupBy: z.string().nullable(),
  dateField: z.string().nullable(),
  dateGroup: z.enum(DATE_GROUPS),
  dateRange: z.object({ start: z.string().nullable(), end: z.string().nullable() }),
  timezone: z.string(),
  filters: z.record(z.string(), z.string()),
});
const SetDoc = { results: z.array(RowDoc), totals: z.record(z.string(), z.number().nullable()), totalCount: z.number().int() };

export const AggregateBody = named('AggregateBody', z.union([AggregateSchema, AggregateMetricsSchema]));
export const AggregateResponseDoc = named(
  'AggregateResponse',
  z.union([
    z.object({ ...SetDoc, params: ParamsDoc }),
    z.object({
      metrics: z.array(z.object({ field: z.string(), operation: z.enum(OPERATIONS), ...SetDoc })),
      totalCount: z.number().int(),
      params: ParamsDoc,
    }),
  ]),
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
      'Sum, count, avg, min or max of a numeric field (or __count__) over flightLogs, completedForms, aircraft, schedule or vehicles; groupBy any field; dateGroup day, week (ISO), month, quarter or year in timezone. Computed in the database, exact. The metrics[]/dateRange form answers one result set per metric.',
    body: AggregateBody,
    bodyArg: 'input',
    status: 200,
    response: AggregateResponseDoc,
    errors: [400],
    // the GraphQL type carries both answer forms; REST answers the one that was asked
    present: (d) => omitNulls(d),
  },
]);
