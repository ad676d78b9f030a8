import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { inputFromSchema } from '../../graphql/inputs.js';
import { REST_NULLABLE, jsonOf } from '../../rest/representation.js';
import {
  AggregateCheck,
  COLLECTIONS,
  DATE_GROUPS,
  OPERATIONS,
  type AggregateMetricResult,
  type AggregateParams,
  type AggregateResult,
  type AggregateRow,
} from './service.js';

/**
 * Aggregation on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the input is the
 * service's schema (AggregateCheck), the objects below the one definition of the answer. Names stay strings on
 * GraphQL (the service answers an unknown collection, operation or date group with a 400 naming the allowed values;
 * the documents list them); `filters` and `totals` are JSON because their keys are the caller's field values.
 */
export const AggregateInput = inputFromSchema(
  'AggregateInput',
  AggregateCheck,
  'AggregateBody (metric, operation, dateField, startDate, endDate) or the alternative form (metrics, dateRange).',
);

const Totals = z.record(z.string(), z.number().nullable());
const oneOf = (values: readonly string[]) => ({ extensions: jsonOf(z.enum(values as [string, ...string[]])) });

const AggregateRowType = builder.objectRef<AggregateRow>('AggregateRow').implement({
  fields: (t) => ({
    group: t.exposeString('group', { description: '"all" without groupBy; "(none)" for records without the field' }),
    period: t.exposeString('period', {
      nullable: true,
      description: 'Label in the time zone: YYYY-MM-DD, YYYY-Www (ISO week), YYYY-MM, YYYY-Q1, YYYY; null without dateGroup',
      extensions: REST_NULLABLE,
    }),
    value: t.exposeFloat('value', {
      nullable: true,
      description: 'null for avg/min/max when no record of the row has a numeric value',
      extensions: REST_NULLABLE,
    }),
    count: t.exposeInt('count', { description: 'Records in the group and period' }),
  }),
});

const AggregateMetricType = builder.objectRef<{ field: string; operation: string }>('AggregateMetric').implement({
  fields: (t) => ({ field: t.exposeString('field'), operation: t.exposeString('operation', oneOf(OPERATIONS)) }),
});

const AggregateDateRangeType = builder.objectRef<AggregateParams['dateRange']>('AggregateDateRange').implement({
  fields: (t) => ({
    start: t.exposeString('start', { nullable: true, extensions: REST_NULLABLE }),
    end: t.exposeString('end', { nullable: true, extensions: REST_NULLABLE }),
  }),
});

const AggregateParamsType = builder.objectRef<AggregateParams>('AggregateParams').implement({
  description: 'Echo of the request',
  fields: (t) => ({
    collection: t.exposeString('collection', oneOf(COLLECTIONS)),
    metric: t.exposeString('metric'),
    operation: t.exposeString('operation', oneOf(OPERATIONS)),
    groupBy: t.exposeString('groupBy', { nullable: true, extensions: REST_NULLABLE }),
    dateGroup: t.exposeString('dateGroup', oneOf(DATE_GROUPS)),
    dateRange: t.field({ type: AggregateDateRangeType, resolve: (p) => p.dateRange }),
    timezone: t.exposeString('timezone'),
    metrics: t.field({ type: [AggregateMetricType], nullable: true, description: 'Alternative form only', resolve: (p) => p.metrics ?? null }),
  }),
});

const AggregateMetricResultType = builder.objectRef<AggregateMetricResult>('AggregateMetricResult').implement({
  fields: (t) => ({
    field: t.exposeString('field'),
    operation: t.exposeString('operation', oneOf(OPERATIONS)),
    results: t.field({ type: [AggregateRowType], resolve: (m) => m.results }),
    totals: t.field({ type: 'JSON', description: 'map<group, number>', extensions: jsonOf(Totals), resolve: (m) => m.totals }),
  }),
});

const AggregateResultType = builder.objectRef<AggregateResult>('AggregateResult').implement({
  fields: (t) => ({
    results: t.field({ type: [AggregateRowType], description: 'One row per group and period', resolve: (r) => r.results }),
    totals: t.field({ type: 'JSON', description: 'map<group, number>: each group across periods', extensions: jsonOf(Totals), resolve: (r) => r.totals }),
    totalCount: t.exposeInt('totalCount', { description: 'Records matched' }),
    params: t.field({ type: AggregateParamsType, resolve: (r) => r.params }),
    metrics: t.field({
      type: [AggregateMetricResultType],
      nullable: true,
      description: 'Alternative form only: one results set per metric (the first is also results/totals)',
      resolve: (r) => r.metrics ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  aggregate: t.field({
    type: AggregateResultType,
    description: 'sum/count/avg/min/max over a collection of the company, grouped by a field and/or a period in a time zone.',
    args: { input: t.arg({ type: AggregateInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.aggregation.aggregate(args.input),
  }),
}));
