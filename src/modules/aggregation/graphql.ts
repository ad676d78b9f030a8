import { builder } from '../../graphql/builder.js';
import type { AggregateMetricsResult, AggregateResult, AggregateRow } from './service.js';

/** GraphQL adapter for aggregation: `aggregate(input)` over AggregationService, either request form. */
export const AggregateRowType = builder.objectRef<AggregateRow>('AggregateRow').implement({
  description: 'One group and period',
  fields: (t) => ({
    group: t.exposeString('group', { description: 'The groupBy value, `all` without groupBy, `(none)` for records without it' }),
    period: t.exposeString('period', { nullable: true, description: 'YYYY-MM-DD, YYYY-Www, YYYY-MM, YYYY-Qn or YYYY; null without dateGroup' }),
    value: t.exposeFloat('value', { nullable: true, description: 'The operation over the metric; null when no record has it' }),
    count: t.exposeInt('count', { description: 'Records in the group and period' }),
  }),
});

type MetricSet = AggregateMetricsResult['metrics'][number];
export const AggregateMetricType = builder.objectRef<MetricSet>('AggregateMetricResult').implement({
  fields: (t) => ({
    field: t.exposeString('field'),
    operation: t.exposeString('operation'),
    results: t.field({ type: [AggregateRowType], resolve: (r) => r.results }),
    totals: t.field({ type: 'JSON', description: 'map<group, number>', resolve: (r) => r.totals }),
    totalCount: t.exposeInt('totalCount'),
  }),
});

type Result = AggregateResult | AggregateMetricsResult;
export const AggregateResultType = builder.objectRef<Result>('AggregateResult').implement({
  description: 'AggregateBody answers results/totals; the metrics[] form answers metrics (one set per metric).',
  fields: (t) => ({
    results: t.field({ type: [AggregateRowType], nullable: true, resolve: (r) => ('results' in r ? r.results : null) }),
    totals: t.field({ type: 'JSON', nullable: true, description: 'map<group, number>: each group across periods', resolve: (r) => ('totals' in r ? r.totals : null) }),
    metrics: t.field({ type: [AggregateMetricType], nullable: true, resolve: (r) => ('metrics' in r ? r.metrics : null) }),
    totalCount: t.exposeInt('totalCount', { description: 'Records matched' }),
    params: t.field({ type: 'JSON', description: 'The request as understood', resolve: (r) => r.params }),
  }),
});

builder.queryFields((t) => ({
  aggregate: t.field({
    type: AggregateResultType,
    description:
      'Sum, count, avg, min or max of a numeric field (or __count__) over flightLogs, completedForms, aircraft, schedule or vehicles, grouped by a field and by day/week/month/quarter/year in a time zone. Input: AggregateBody or the metrics[]/dateRange form.',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => ctx.services.aggregation.aggregate(args.input),
  }),
}));
