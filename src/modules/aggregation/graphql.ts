import { builder } from '../../graphql/builder.js';
import { stripNulls } from '../../graphql/common.js';
import type { z } from 'zod';
import { inputFromZod } from '../../graphql/zod-input.js';
import {
  AggregateDateRangeSchema,
  AggregateInputSchema,
  AggregateMetricSchema,
  type AggregateMetricResult,
  type AggregateParams,
  type AggregateResult,
  type AggregateRow,
} from './service.js';

/**
 * GraphQL adapter for aggregation: `aggregate(input)` over AggregationService. Names stay strings (the service
 * answers an unknown collection, operation or date group with a clear 400 naming the allowed values); `filters`
 * and `totals` are JSON because their keys are the caller's field values.
 */
// The input is derived from the service's zod schema (src/graphql/zod-input.ts): defined once, checked there.
export const AggregateInput = inputFromZod('AggregateInput', AggregateInputSchema, {
  description: 'AggregateBody (metric, operation, dateField, startDate, endDate) or the alternative form (metrics, dateRange).',
  names: new Map<z.ZodType, string>([
    [AggregateMetricSchema, 'AggregateMetricInput'],
    [AggregateDateRangeSchema, 'AggregateDateRangeInput'],
  ]),
});

const AggregateRowType = builder.objectRef<AggregateRow>('AggregateRow').implement({
  fields: (t) => ({
    group: t.exposeString('group', { description: '"all" without groupBy; "(none)" for records without the field' }),
    period: t.exposeString('period', { nullable: true, description: 'Period label in the time zone; null without dateGroup' }),
    value: t.exposeFloat('value', { nullable: true, description: 'null for avg/min/max when no record has a numeric value' }),
    count: t.exposeInt('count', { description: 'Records in the group and period' }),
  }),
});

const AggregateMetricType = builder.objectRef<{ field: string; operation: string }>('AggregateMetric').implement({
  fields: (t) => ({ field: t.exposeString('field'), operation: t.exposeString('operation') }),
});

const AggregateDateRangeType = builder.objectRef<AggregateParams['dateRange']>('AggregateDateRange').implement({
  fields: (t) => ({
    start: t.exposeString('start', { nullable: true }),
    end: t.exposeString('end', { nullable: true }),
  }),
});

const AggregateParamsType = builder.objectRef<AggregateParams>('AggregateParams').implement({
  description: 'Echo of the request',
  fields: (t) => ({
    collection: t.exposeString('collection'),
    metric: t.exposeString('metric'),
    operation: t.exposeString('operation'),
    groupBy: t.exposeString('groupBy', { nullable: true }),
    dateGroup: t.exposeString('dateGroup'),
    dateRange: t.field({ type: AggregateDateRangeType, resolve: (p) => p.dateRange }),
    timezone: t.exposeString('timezone'),
    metrics: t.field({ type: [AggregateMetricType], nullable: true, description: 'Alternative form only', resolve: (p) => p.metrics ?? null }),
  }),
});

const AggregateMetricResultType = builder.objectRef<AggregateMetricResult>('AggregateMetricResult').implement({
  fields: (t) => ({
    field: t.exposeString('field'),
    operation: t.exposeString('operation'),
    results: t.field({ type: [AggregateRowType], resolve: (m) => m.results }),
    totals: t.field({ type: 'JSON', description: 'map<group, number>', resolve: (m) => m.totals }),
  }),
});

const AggregateResultType = builder.objectRef<AggregateResult>('AggregateResult').implement({
  fields: (t) => ({
    results: t.field({ type: [AggregateRowType], description: 'One row per group and period', resolve: (r) => r.results }),
    totals: t.field({ type: 'JSON', description: 'map<group, number>: each group across periods', resolve: (r) => r.totals }),
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
    resolve: (_r, args, ctx) => {
      const input = stripNulls(args.input as Record<string, unknown>);
      if (input.dateRange) input.dateRange = stripNulls(input.dateRange as Record<string, unknown>);
      if (Array.isArray(input.metrics)) input.metrics = input.metrics.map((m) => stripNulls(m as Record<string, unknown>));
      return ctx.services.aggregation.aggregate(input);
    },
  }),
}));
