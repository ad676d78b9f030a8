import { z } from 'zod';
import { checkedBy, defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { checkComplete, checkCreate, checkUpdate } from './service.js';
import {
  CompleteInput,
  CompletionFilterSchema,
  CreateItemSchema,
  UpdateItemSchema,
  MaintenanceStatusFilterSchema,
  RELATED_TO_TYPES,
  SCHEDULE_STATUSES,
  ScheduleItemFilterSchema,
} from './schema.js';

/** REST adapter for the maintenance schedule (docs/contract/api-v1.md §2.13, docs/contract/gaps.md §3): declarations and representation only. */
const TAG = 'Maintenance schedule';
const CarriedOutValue = z.union([z.number(), z.string()]).describe('number or string');

export const ScheduleItemDoc = named(
  'ScheduleItem',
  z.object({
    uid: z.string(),
    companyId: z.string(),
    name: z.string(),
    type: z.string().describe('e.g. Inspection, Service, Overhaul, Warranty Expiry, Life Limit, Renewal, Defect, Calibration, ...'),
    documentation: z.array(z.string()).optional().describe('Storage URLs'),
    archivedDocumentation: z.array(z.string()).optional(),
    relatedTo: z.string().describe('Asset uid (aircraft, vehicle, component, user), the company id (company) or a name (equipment)'),
    relatedToType: z.enum(RELATED_TO_TYPES),
    recurring: z.boolean().describe('Rolls forward after completion'),
    recurringInterval: z.number().optional().describe('Tracking units between recurrences'),
    trackingItem: z.string().optional().describe('Key from the asset\u2019s maintenanceTrackingItems'),
    dueAtInterval: z.number().optional().describe('Tracking value at which next due'),
    calendarDateDue: z.string().optional().describe('ISO 8601; a calendar date, carried as midnight UTC of that date'),
    calendarRecurring: z.number().int().optional().describe('Days between calendar recurrences'),
    lastCarriedOutDate: z.string().optional().describe('ISO 8601'),
    lastCarriedOutValue: CarriedOutValue.optional(),
    status: z.enum(SCHEDULE_STATUSES).optional().describe('inactive means soft-deleted'),
    notes: z.string().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
);

export const ScheduleItemListDoc = named(
  'ScheduleItemList',
  z.object({ data: z.array(ScheduleItemDoc), count: z.number().int() }),
);

// Request bodies: the service's own schemas (src/modules/schedule/schema.ts), by name in the document
export const CreateScheduleItemBody = named('CreateScheduleItemBody', CreateItemSchema);
export const UpdateScheduleItemBody = named('UpdateScheduleItemBody', UpdateItemSchema);
export const CompleteScheduleItemBody = named('CompleteScheduleItemBody', CompleteInput);

export const ScheduleWriteResultDoc = named(
  'ScheduleWriteResult',
  z.object({ uid: z.string(), status: z.enum(['created', 'updated', 'deleted', 'restored', 'no_changes']) }),
);

export const CompletedScheduleItemDoc = named(
  'CompletedScheduleItem',
  z.object({
    uid: z.string(),
    scheduleItemId: z.string(),
    companyId: z.string(),
    userId: z.string().describe('The acting user'),
    userDisplayName: z.string(),
    completedAt: z.string().describe('ISO 8601'),
    documents: z.array(z.string()),
    notes: z.string().optional(),
    trackingValue: z.number().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
);

export const CompletedScheduleItemListDoc = named(
  'CompletedScheduleItemList',
  z.object({ data: z.array(CompletedScheduleItemDoc), count: z.number().int(), nextCursor: z.string().nullable() }),
);

export const MaintenanceStatusItemDoc = named(
  'MaintenanceStatusItem',
  z.object({
    scheduleItemUid: z.string(),
    name: z.string(),
    type: z.string(),
    relatedTo: z.string(),
    relatedToType: z.enum(RELATED_TO_TYPES),
    recurring: z.boolean(),
    trackingItem: z.string().optional(),
    trackingItemDisplayText: z.string().optional(),
    dueAtInterval: z.number().optional(),
    currentTotal: z.number().optional().describe('The asset\u2019s live total for trackingItem'),
    remaining: z.number().optional().describe('dueAtInterval minus currentTotal (exact decimal); negative means overdue'),
    calendarDateDue: z.string().optional().describe('ISO 8601'),
    calendarDaysRemaining: z.number().int().optional().describe('Calendar days from today (in `timezone`); negative means overdue'),
    lastCarriedOutDate: z.string().optional(),
    lastCarriedOutValue: CarriedOutValue.optional(),
    status: z.enum(SCHEDULE_STATUSES).optional(),
  }),
);

export const MaintenanceStatusResponseDoc = named(
  'MaintenanceStatusResponse',
  z.object({ data: z.array(MaintenanceStatusItemDoc), count: z.number().int() }),
);

/** REST bodies omit optional fields without a value (GraphQL has them as null). */
const present = (d: Record<string, unknown>) => omitNulls(d);
const presentList = (d: { data: Record<string, unknown>[]; count: number }) => ({ data: d.data.map(present), count: d.count });

const idParam = z.object({ id: z.string().min(1).describe('Schedule item uid') });

export const scheduleRoutes = defineRoutes([
  {
    operationId: 'listScheduleItems',
    field: 'Query.scheduleItems',
    method: 'GET',
    path: '/schedule-items',
    tag: TAG,
    summary: 'List schedule items',
    description: 'Ordered by name, then uid. Inactive (soft-deleted) items only with includeInactive=true.',
    query: ScheduleItemFilterSchema,
    status: 200,
    response: ScheduleItemListDoc,
    errors: [400],
    present: presentList,
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
    response: ScheduleItemDoc,
    errors: [404],
    present,
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
    accept: checkedBy(checkCreate),
    status: 201,
    response: ScheduleWriteResultDoc,
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
    accept: checkedBy(checkUpdate),
    status: 200,
    response: ScheduleWriteResultDoc,
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
    response: ScheduleWriteResultDoc,
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
    response: ScheduleWriteResultDoc,
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
      'user\u2019s time zone, else UTC, plus calendarRecurring days); a non-recurring item becomes inactive. 409 for an ' +
      'inactive item. The body may be left out.',
    params: idParam,
    body: CompleteScheduleItemBody,
    bodyArg: 'input',
    accept: checkedBy(checkComplete),
    optionalBody: true,
    status: 201,
    response: ScheduleWriteResultDoc,
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
    response: CompletedScheduleItemListDoc,
    errors: [400],
    present: (d) => ({ data: d.data.map(present), count: d.count, nextCursor: d.nextCursor }),
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
      'current total is unknown; within each group by calendarDaysRemaining (items with a date first), then remaining, ' +
      'then name. calendarDaysRemaining counts from today in `timezone` (default UTC).',
    query: MaintenanceStatusFilterSchema,
    status: 200,
    response: MaintenanceStatusResponseDoc,
    errors: [400],
    present: presentList,
  },
]);
