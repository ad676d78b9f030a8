import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { WriteResultType, pageFields, stripNulls } from '../../graphql/common.js';
import { argsFromSchema, inputFromSchema } from '../../graphql/inputs.js';
import { REST_NULLABLE, REST_PAGE, jsonOf, restNamed } from '../../rest/representation.js';
import { decimalNumber, type CompletionPage, type MaintenanceStatusItem, type MaintenanceStatusList, type ScheduleItemList } from './read-model.js';
import {
  CompleteScheduleItemCheck,
  CompletionFilterSchema,
  CreateScheduleItemCheck,
  MaintenanceStatusFilterSchema,
  RELATED_TO_TYPES,
  SCHEDULE_STATUSES,
  ScheduleItemFilterSchema,
  UpdateScheduleItemCheck,
} from './schema.js';

/**
 * The maintenance schedule on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the
 * objects below are the one output definition of a schedule item, a completion and an item's maintenance status
 * (docs/contract/api-v1.md §2.13).
 */
const CarriedOutValue = z.union([z.number(), z.string()]).describe('number or string');

export const ScheduleItemType = builder.prismaObject('ScheduleItem', {
  description:
    'A maintenance schedule item: due at a usage threshold (trackingItem reaching dueAtInterval), a calendar date ' +
    '(calendarDateDue), or both; recurring items roll forward when completed.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    companyId: t.exposeString('companyId'),
    name: t.exposeString('name'),
    type: t.exposeString('type', { description: 'e.g. Inspection, Service, Overhaul, Warranty Expiry, Life Limit, Renewal, ...' }),
    documentation: t.exposeStringList('documentation', { description: 'Storage URLs' }),
    archivedDocumentation: t.exposeStringList('archivedDocumentation'),
    relatedTo: t.exposeString('relatedTo', { description: 'Asset uid (aircraft, vehicle, component, user), the company id, or an equipment name' }),
    relatedToType: t.exposeString('relatedToType', { description: RELATED_TO_TYPES.join(', ') }),
    recurring: t.exposeBoolean('recurring', { description: 'Rolls forward when completed' }),
    recurringInterval: t.float({
      nullable: true,
      description: 'Tracking units between recurrences (usage threshold)',
      resolve: (s) => decimalNumber(s.recurringInterval),
    }),
    trackingItem: t.exposeString('trackingItem', { nullable: true, description: 'Maintenance tracking item key of the asset' }),
    dueAtInterval: t.float({
      nullable: true,
      description: 'Tracking value at which the item is next due',
      resolve: (s) => decimalNumber(s.dueAtInterval),
    }),
    calendarDateDue: t.expose('calendarDateDue', {
      type: 'DateTime',
      nullable: true,
      description: 'Calendar due date, carried as midnight UTC of that date (2026-06-30T00:00:00.000Z)',
    }),
    calendarRecurring: t.exposeInt('calendarRecurring', { nullable: true, description: 'Days between calendar recurrences' }),
    lastCarriedOutDate: t.expose('lastCarriedOutDate', { type: 'DateTime', nullable: true }),
    lastCarriedOutValue: t.field({
      type: 'JSON',
      nullable: true,
      description: 'number or string',
      extensions: jsonOf(CarriedOutValue),
      resolve: (s) => s.lastCarriedOutValue ?? null,
    }),
    status: t.exposeString('status', { description: `${SCHEDULE_STATUSES.join(', ')} (inactive = soft-deleted)` }),
    notes: t.exposeString('notes', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const CompletedScheduleItemType = builder.prismaObject('CompletedScheduleItem', {
  description: 'A completion of a schedule item (who, when, at what tracking value).',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    scheduleItemId: t.exposeString('scheduleItemId'),
    companyId: t.exposeString('companyId'),
    userId: t.exposeString('userId', { description: 'The acting user' }),
    userDisplayName: t.exposeString('userDisplayName'),
    completedAt: t.expose('completedAt', { type: 'DateTime' }),
    documents: t.exposeStringList('documents'),
    notes: t.exposeString('notes', { nullable: true }),
    trackingValue: t.float({ nullable: true, resolve: (c) => decimalNumber(c.trackingValue) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const MaintenanceStatusItemType = builder.objectRef<MaintenanceStatusItem>('MaintenanceStatusItem').implement({
  description: 'Where an active schedule item stands against its thresholds.',
  fields: (t) => ({
    scheduleItemUid: t.exposeString('scheduleItemUid'),
    name: t.exposeString('name'),
    type: t.exposeString('type'),
    relatedTo: t.exposeString('relatedTo'),
    relatedToType: t.exposeString('relatedToType'),
    recurring: t.exposeBoolean('recurring'),
    trackingItem: t.exposeString('trackingItem', { nullable: true }),
    trackingItemDisplayText: t.exposeString('trackingItemDisplayText', { nullable: true }),
    dueAtInterval: t.exposeFloat('dueAtInterval', { nullable: true }),
    currentTotal: t.exposeFloat('currentTotal', { nullable: true, description: 'The asset\u2019s live total for trackingItem' }),
    remaining: t.exposeFloat('remaining', { nullable: true, description: 'dueAtInterval minus currentTotal (exact); negative = overdue' }),
    calendarDateDue: t.expose('calendarDateDue', { type: 'DateTime', nullable: true }),
    calendarDaysRemaining: t.exposeInt('calendarDaysRemaining', {
      nullable: true,
      description: 'Calendar days from today (in the requested time zone) to calendarDateDue; negative = overdue',
    }),
    lastCarriedOutDate: t.expose('lastCarriedOutDate', { type: 'DateTime', nullable: true }),
    lastCarriedOutValue: t.field({ type: 'JSON', nullable: true, description: 'number or string', extensions: jsonOf(CarriedOutValue), resolve: (s) => s.lastCarriedOutValue }),
    status: t.exposeString('status'),
  }),
});

export const ScheduleItemListType = builder.objectRef<ScheduleItemList>('ScheduleItemList').implement({
  extensions: REST_PAGE,
  fields: (t) => ({
    data: t.field({ type: [ScheduleItemType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

export const CompletedScheduleItemListType = builder.objectRef<CompletionPage>('CompletedScheduleItemList').implement({
  extensions: REST_PAGE,
  fields: (t) => ({
    data: t.field({ type: [CompletedScheduleItemType], resolve: (p) => p.data }),
    count: t.exposeInt('count', { description: 'Completions in this page' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end', extensions: REST_NULLABLE }),
  }),
});

export const MaintenanceStatusListType = builder.objectRef<MaintenanceStatusList>('MaintenanceStatusList').implement({
  extensions: { ...restNamed('MaintenanceStatusResponse'), ...REST_PAGE },
  fields: (t) => ({
    data: t.field({ type: [MaintenanceStatusItemType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

// Inputs are the service's checks (src/graphql/inputs.ts): defined once, checked once, by Pothos' validation plugin.
export const CreateScheduleItemInput = inputFromSchema('CreateScheduleItemInput', CreateScheduleItemCheck);
export const UpdateScheduleItemInput = inputFromSchema('UpdateScheduleItemInput', UpdateScheduleItemCheck);
export const CompleteScheduleItemInput = inputFromSchema('CompleteScheduleItemInput', CompleteScheduleItemCheck);

builder.queryFields((t) => ({
  scheduleItems: t.field({
    type: ScheduleItemListType,
    description: 'Schedule items by name; inactive (soft-deleted) ones only with includeInactive.',
    args: argsFromSchema(t, 'ScheduleItemFilter', ScheduleItemFilterSchema, 'schedule-item'),
    resolve: (_r, args, ctx) => ctx.services.schedule.list(stripNulls(args)),
  }),
  scheduleItem: t.prismaField({
    type: 'ScheduleItem',
    description: 'One schedule item (active or inactive); NOT_FOUND when the company has none.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_q, _r, args, ctx) => ctx.services.schedule.get(String(args.id)),
  }),
  scheduleCompletions: t.field({
    type: CompletedScheduleItemListType,
    description: 'Completions, newest first (completedAt desc, uid desc), a page at a time.',
    args: argsFromSchema(t, 'ScheduleCompletionFilter', CompletionFilterSchema, 'schedule-completion'),
    resolve: (_r, args, ctx) => ctx.services.schedule.completions(stripNulls(args)),
  }),
  maintenanceStatus: t.field({
    type: MaintenanceStatusListType,
    description:
      'Active items against their thresholds, most urgent first: overdue, due, upcoming, then items whose total is ' +
      'unknown; within each by calendarDaysRemaining, then remaining, then name.',
    args: argsFromSchema(t, 'MaintenanceStatusFilter', MaintenanceStatusFilterSchema, 'maintenance-status'),
    resolve: (_r, args, ctx) => ctx.services.schedule.status(stripNulls(args)),
  }),
}));

builder.mutationFields((t) => ({
  createScheduleItem: t.field({
    type: WriteResultType,
    args: { input: t.arg({ type: CreateScheduleItemInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.schedule.create(args.input),
  }),
  updateScheduleItem: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateScheduleItemInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.schedule.update(String(args.id), args.input),
  }),
  deleteScheduleItem: t.field({
    type: WriteResultType,
    description: 'Soft delete: the item becomes inactive.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.schedule.delete(String(args.id)),
  }),
  restoreScheduleItem: t.field({
    type: WriteResultType,
    description: 'Makes an inactive item active again (CONFLICT when it is active).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.schedule.restore(String(args.id)),
  }),
  completeScheduleItem: t.field({
    type: WriteResultType,
    description:
      'Records a completion (uid of the completion in the result). Recurring items roll forward: dueAtInterval = ' +
      'trackingValue + recurringInterval, calendarDateDue = completion date + calendarRecurring days; others become inactive.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CompleteScheduleItemInput }) },
    resolve: (_r, args, ctx) => ctx.services.schedule.complete(String(args.id), args.input ?? undefined),
  }),
}));
