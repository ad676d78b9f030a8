import { z } from 'zod';
import { defineRoutes, named } from '../../rest/contract.js';
import { CompleteInput, CompletionFilterSchema, CreateItemSchema, MaintenanceStatusFilterSchema, ScheduleItemFilterSchema, UpdateItemSchema } from './schema.js';

/**
 * REST routes of the maintenance schedule (docs/contract/api-v1.md §2.13, docs/contract/gaps.md §3): declarations
 * only; each runs its GraphQL field, and the body is the REST representation of its GraphQL type (src/rest/facade.ts).
 */
const TAG = 'Maintenance schedule';

// Request bodies: the service's own schemas (src/modules/schedule/schema.ts), by name in the document
export const CreateScheduleItemBody = named('CreateScheduleItemBody', CreateItemSchema);
export const UpdateScheduleItemBody = named('UpdateScheduleItemBody', UpdateItemSchema);
export const CompleteScheduleItemBody = named('CompleteScheduleItemBody', CompleteInput);

const idParam = z.object({ id: z.string().min(1).describe('Schedule item uid') });

export const scheduleRoutes = defineRoutes([
  {
    operationId: 'listScheduleItems',
    field: 'Query.scheduleItems',
    method: 'GET',
    path: '/schedule-items',
    tag: TAG,
    summary: 'List schedule items',
    description:
      'Ordered by name, then uid. Inactive (soft-deleted) items only with includeInactive=true. Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: ScheduleItemFilterSchema,
    status: 200,
    errors: [400],
  },
  {
    operationId: 'getScheduleItem',
    field: 'Query.scheduleItem',
    method: 'GET',
    path: '/schedule-items/{id}',
    tag: TAG,
    summary: 'Get a schedule item',
    description: 'Active or inactive.',
    params: idParam,
    status: 200,
    errors: [404],
  },
  {
    operationId: 'createScheduleItem',
    field: 'Mutation.createScheduleItem',
    method: 'POST',
    path: '/schedule-items',
    tag: TAG,
    summary: 'Create a schedule item',
    description:
      '400 without a usage (trackingItem + dueAtInterval) or calendar (calendarDateDue) threshold, when the related ' +
      'aircraft, vehicle, component or user is not the company\u2019s, or when trackingItem is not one of its tracking items.',
    body: CreateScheduleItemBody,
    bodyArg: 'input',
    status: 201,
    errors: [400],
  },
  {
    operationId: 'updateScheduleItem',
    field: 'Mutation.updateScheduleItem',
    method: 'PATCH',
    path: '/schedule-items/{id}',
    tag: TAG,
    summary: 'Update a schedule item',
    description: 'updated, or no_changes when nothing differs.',
    params: idParam,
    body: UpdateScheduleItemBody,
    bodyArg: 'input',
    status: 200,
    errors: [400, 404, 409],
  },
  {
    operationId: 'deleteScheduleItem',
    field: 'Mutation.deleteScheduleItem',
    method: 'DELETE',
    path: '/schedule-items/{id}',
    tag: TAG,
    summary: 'Delete (deactivate) a schedule item',
    description: 'Soft delete: status becomes inactive. 409 when it already is.',
    params: idParam,
    status: 200,
    errors: [404, 409],
  },
  {
    operationId: 'restoreScheduleItem',
    field: 'Mutation.restoreScheduleItem',
    method: 'POST',
    path: '/schedule-items/{id}/restore',
    tag: TAG,
    summary: 'Restore a schedule item',
    description: 'Makes an inactive item active again; 409 when it is active.',
    params: idParam,
    status: 200,
    errors: [404, 409],
  },
  {
    operationId: 'completeScheduleItem',
    field: 'Mutation.completeScheduleItem',
    method: 'POST',
    path: '/schedule-items/{id}/complete',
    tag: TAG,
    summary: 'Complete a schedule item',
    description:
      'Records a completion by the acting user; the result uid is the completion\u2019s. A recurring item rolls forward ' +
      '(dueAtInterval = trackingValue + recurringInterval; calendarDateDue = the completion\u2019s date in the acting ' +
      'user\u2019s time zone, else the company\u2019s, else UTC, plus calendarRecurring days); a non-recurring item becomes inactive. 409 for an ' +
      'inactive item.',
    params: idParam,
    body: CompleteScheduleItemBody,
    bodyArg: 'input',
    optionalBody: true,
    status: 201,
    errors: [400, 404, 409],
  },
  {
    operationId: 'listScheduleCompletions',
    field: 'Query.scheduleCompletions',
    method: 'GET',
    path: '/schedule-completions',
    tag: TAG,
    summary: 'List schedule-item completions',
    description: 'Newest first (completedAt desc, uid desc). Page with `limit` and the `nextCursor` of the previous page.',
    query: CompletionFilterSchema,
    status: 200,
    errors: [400],
  },
  {
    operationId: 'getMaintenanceStatus',
    field: 'Query.maintenanceStatus',
    method: 'GET',
    path: '/maintenance-status',
    tag: TAG,
    summary: 'Maintenance status of active schedule items',
    description:
      'Most urgent first: overdue (a threshold past), due (a threshold reached exactly), upcoming, then items whose ' +
      'total is unknown; within a group by calendarDaysRemaining (dated items first), remaining, name. ' +
      'calendarDaysRemaining counts from today in `timezone` (default: the key user\u2019s time zone, else the company\u2019s, else UTC). Without `limit` at most 1,000; ' +
      'page with `limit` and the `nextCursor` of the previous page (the last item\u2019s place in this order).',
    query: MaintenanceStatusFilterSchema,
    status: 200,
    errors: [400],
  },
]);
