import { checkedBy, defineRoutes, named } from '../../rest/contract.js';
import { AggregateInputSchema, checkAggregateShape } from './service.js';

/**
 * REST route of aggregation (docs/contract/api-v1.md §2.11, §4.4; docs/contract/gaps.md §5): a declaration; it runs
 * `Query.aggregate`, the body is the service's schema and the answer the REST representation of `AggregateResult`.
 * The service's check runs on the body as sent (`accept`), so a mistake GraphQL's coercion would word differently
 * gets the service's 400.
 */
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
      'company, grouped by a field and/or a date period in a time zone, in exact decimal arithmetic.',
    body: named('AggregateBody', AggregateInputSchema, 'AggregateBody, or its alternative form with metrics[] and dateRange'),
    bodyArg: 'input',
    accept: checkedBy(checkAggregateShape),
    status: 200,
    errors: [400],
  },
]);
