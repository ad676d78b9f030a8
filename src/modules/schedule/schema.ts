import { z } from 'zod';
import { Prisma, type ScheduleItem } from '../../generated/prisma/client.js';
import { inInstantRange, instantRangeMessage, isoProblem, isoProblemMessage, parseIso } from '../../lib/dates.js';
import { jsonEqual } from '../../lib/json.js';
import { BoolParam, LimitParam, WholeParam } from '../../lib/params.js';
import { ValidationError, fieldErrorsFromZod, invalid, isPlainObject, putFieldError, type FieldError } from '../../errors.js';
import { checkKeys, pickKeys } from '../../lib/keys.js';
import { serviceCheck } from '../../graphql/validation.js';
import { pageArgs, timeCursorArg } from '../../db/keyset.js';
import { TIME_ZONE_MESSAGE, dueDateOf, instantOfDateInput, isTimeZone, sameDecimal, storedDueDate } from './rules.js';
import { trackingValue } from '../tracking/value.js';

/**
 * What a schedule body or query may carry and how it is read (docs/api-notes.md "Maintenance schedule"), and the
 * item's fields as the rules compare them. Kept apart from the reads and writes so the REST and GraphQL
 * declarations can name the same lists without loading the service.
 */
export const RELATED_TO_TYPES = ['aircraft', 'vehicle', 'component', 'company', 'user', 'equipment'] as const;
export type RelatedToType = (typeof RELATED_TO_TYPES)[number];
export const SCHEDULE_STATUSES = ['active', 'inactive'] as const;
export const SERVER_CONTROLLED = ['uid', 'companyId', 'createdAt', 'updatedAt'] as const;
export const ASSET_TYPES = new Set<string>(['aircraft', 'vehicle', 'component']);

/** Longest calendar recurrence and look-ahead: 100 years. */
export const MAX_DAYS = 36_600;

const str = (what: string, max = 1000) =>
  z.string({ error: `${what} must be a string` }).trim().min(1, `${what} must not be empty`).max(max, `${what} is too long (${max} characters at most)`);

/**
 * A documentation entry is a URL: long enough for any link the service writes there itself (a defect's link to its
 * submission: an `appBaseUrl` of up to 2,048 characters and the completion's path).
 */
export const DOCUMENTATION_ENTRY_MAX = 4096;
const documentList = (what: string) =>
  z
    .array(str(`each ${what} entry`, DOCUMENTATION_ENTRY_MAX), { error: `${what} must be an array of strings` })
    .max(200, `${what} holds at most 200 entries`);

/** A tracking figure (the one rule, ../tracking/value.ts: below 1e9, at most 6 decimal places). */
const trackingNumber = (what: string, opts: { positive?: boolean } = {}) =>
  opts.positive ? trackingValue(what).gt(0, `${what} must be greater than 0`) : trackingValue(what);

/**
 * A date or date-time as parseIso reads it (src/lib/dates.ts, the one rule of every date input: the text as sent,
 * surrounding whitespace refused as everywhere), given to `take`: `format` is the message for what is not ISO 8601;
 * a date-time whose instant falls outside the years 0001 to 9999 in UTC, or whose offset is beyond -12:00 to
 * +14:00, is refused as such, at the field's path.
 */
const isoInput = <T>(what: string, notText: string, format: string, take: (p: { date: string; instant: Date | null }) => T) =>
  z.string({ error: notText }).transform((written, ctx) => {
    const p = parseIso(written);
    if (!p) {
      ctx.addIssue({ code: 'custom', message: isoProblemMessage(what, written, isoProblem(written), format) });
      return z.NEVER;
    }
    return take(p);
  });

/** A calendar date; a date-time is accepted and its date as written is used (time and offset are dropped). */
const CALENDAR_DATE = 'calendarDateDue must be an ISO 8601 date, e.g. 2026-06-30';
const CalendarDate = isoInput('calendarDateDue', CALENDAR_DATE, CALENDAR_DATE, (p) => p.date);

const Instant = (what: string) =>
  isoInput(what, `${what} must be an ISO 8601 date or date-time`, `${what} must be an ISO 8601 date or date-time, e.g. 2026-03-01T09:30:00Z`, (p) => p);

const CarriedOutValue = z.union([trackingNumber('lastCarriedOutValue'), z.string().max(1000)], {
  error: 'lastCarriedOutValue must be a number or a string',
});

const Days = (what: string) =>
  z
    .number({ error: `${what} must be a whole number of days` })
    .int(`${what} must be a whole number of days`)
    .min(1, `${what} must be at least 1 day`)
    .max(MAX_DAYS, `${what} must be at most ${MAX_DAYS} days`);

/** Every writable field; each may be null (a clear on update; refused on create for required fields). */
const ItemFields = z.object({
  name: str('name'),
  type: str('type').describe('e.g. Inspection, Service, Overhaul, Warranty Expiry, ...'),
  documentation: documentList('documentation').describe('Storage URLs'),
  archivedDocumentation: documentList('archivedDocumentation'),
  relatedTo: str('relatedTo').describe('Asset uid, the company id (company), or a name (equipment)'),
  relatedToType: z.enum(RELATED_TO_TYPES, { error: `relatedToType must be one of ${RELATED_TO_TYPES.join(', ')}` }),
  recurring: z.boolean({ error: 'recurring must be true or false' }).describe('Rolls forward when completed'),
  recurringInterval: trackingNumber('recurringInterval', { positive: true }).describe(
    'Tracking units between recurrences; required for a recurring usage threshold',
  ),
  trackingItem: str('trackingItem').describe('A number maintenance tracking item key of the aircraft, vehicle or component'),
  dueAtInterval: trackingNumber('dueAtInterval').describe('Tracking value at which the item is due (with trackingItem: the usage threshold)'),
  calendarDateDue: CalendarDate.describe('ISO 8601 date (YYYY-MM-DD); of a date-time only the date as written counts'),
  calendarRecurring: Days('calendarRecurring').describe('Days between recurrences; required for a recurring calendar threshold'),
  lastCarriedOutDate: Instant('lastCarriedOutDate').describe('ISO 8601 date or date-time'),
  lastCarriedOutValue: CarriedOutValue.describe('A number or a string'),
  status: z.enum(SCHEDULE_STATUSES, { error: `status must be one of ${SCHEDULE_STATUSES.join(', ')}` }).describe('Default active'),
  notes: z.string({ error: 'notes must be a string' }).max(10_000, 'notes is too long (10000 characters at most)'),
});
export type FieldName = keyof typeof ItemFields.shape;
export const REQUIRED: FieldName[] = ['name', 'type', 'relatedTo', 'relatedToType', 'recurring'];
export const CREATE_FIELDS = Object.keys(ItemFields.shape) as FieldName[];
export const UPDATE_FIELDS = CREATE_FIELDS.filter((f) => f !== 'status');

export const ItemPatch = z.object(
  Object.fromEntries(Object.entries(ItemFields.shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])) as {
    [K in FieldName]: z.ZodOptional<z.ZodNullable<(typeof ItemFields.shape)[K]>>;
  },
);
export type Patch = z.output<typeof ItemPatch>;
/**
 * The operation inputs as GraphQL (src/graphql/inputs.ts) and the OpenAPI document show them, read off the same
 * fields: on create the REQUIRED ones must be given (not null); the others may be null, as on update. The checks
 * below apply ItemPatch to the known keys and the REQUIRED rule with its own message, which accepts the same bodies.
 */
export const CreateItemSchema = z
  .object(
    Object.fromEntries(CREATE_FIELDS.map((k) => [k, REQUIRED.includes(k) ? ItemFields.shape[k] : ItemPatch.shape[k]])) as {
      [K in FieldName]: (typeof ItemPatch.shape)[K];
    },
  )
  .strict()
  .describe(
    'At least one threshold: usage (trackingItem and dueAtInterval) or calendar (calendarDateDue). uid, companyId, ' +
      'createdAt and updatedAt are set by the server.',
  );
export const UpdateItemSchema = z
  .object(
    Object.fromEntries(UPDATE_FIELDS.map((k) => [k, REQUIRED.includes(k) ? ItemFields.shape[k].optional() : ItemPatch.shape[k]])) as {
      [K in Exclude<FieldName, 'status'>]: (typeof ItemPatch.shape)[K];
    },
  )
  .strict()
  .describe(
    'Only the fields to change; null clears an optional field. status is not updatable here (DELETE / restore). ' +
      'The item as a whole must still have a threshold.',
  );

export const CompleteInput = z
  .object({
    completedAt: Instant('completedAt')
      .nullable()
      .optional()
      .describe('ISO 8601; default now; not in the future (a date-time up to 5 minutes ahead is taken). A date alone is that day in the acting user\u2019s time zone'),
    trackingValue: trackingNumber('trackingValue').nullable().optional().describe('Default: the asset\u2019s current total for the item\u2019s trackingItem'),
    notes: z.string({ error: 'notes must be a string' }).max(10_000, 'notes is too long (10000 characters at most)').nullable().optional(),
    documents: documentList('documents').nullable().optional().describe('Storage URLs'),
  })
  .strict()
  .describe('All optional; the body itself may be left out.');
export const COMPLETE_FIELDS = Object.keys(CompleteInput.shape);
export type CompleteScheduleItemInput = z.output<typeof CompleteInput>;
/** A checked create body: the REQUIRED fields are there. */
export type CreateScheduleItemInput = Patch & Pick<ItemState, 'name' | 'type' | 'relatedTo' | 'relatedToType' | 'recurring'>;

/** Only DELETE and restore move an item between active and inactive, so an update that sends status is told so. */
const UPDATE_KEYS = {
  serverControlled: SERVER_CONTROLLED,
  refused: {
    status: 'status is not changed by an update: DELETE the item to make it inactive, POST /schedule-items/{id}/restore to make it active',
  },
};

/**
 * The checks of create, update and complete (no database): every channel runs them (Pothos' validation plugin on
 * GraphQL and REST, `XCheck.parse` elsewhere), so each answers the same 400. Unknown and server-controlled fields
 * are refused by name, a required field that is missing or null with its own message.
 */
export function checkCreate(raw: unknown): CreateScheduleItemInput {
  if (!isPlainObject(raw)) throw new ValidationError('a schedule item must be a JSON object');
  const errors: FieldError[] = checkKeys(raw, CREATE_FIELDS, { serverControlled: SERVER_CONTROLLED });
  const parsed = ItemPatch.safeParse(pickKeys(raw, CREATE_FIELDS));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  for (const key of REQUIRED) {
    if (raw[key] === undefined || raw[key] === null) putFieldError(errors, { path: `/${key}`, message: `${key} is required` });
  }
  if (!parsed.success || errors.length) return invalid('schedule item', errors);
  const { name, type, relatedTo, relatedToType, recurring } = parsed.data;
  if (name == null || type == null || relatedTo == null || relatedToType == null || recurring == null) return invalid('schedule item', errors);
  return { ...parsed.data, name, type, relatedTo, relatedToType, recurring };
}

export function checkUpdate(raw: unknown): Patch {
  if (!isPlainObject(raw)) throw new ValidationError('a schedule item update must be a JSON object');
  const errors: FieldError[] = checkKeys(raw, UPDATE_FIELDS, UPDATE_KEYS);
  const parsed = ItemPatch.safeParse(pickKeys(raw, UPDATE_FIELDS));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  for (const key of REQUIRED) {
    if (raw[key] === null) putFieldError(errors, { path: `/${key}`, message: `${key} cannot be cleared` });
  }
  if (!parsed.success || errors.length) return invalid('schedule item', errors);
  return parsed.data;
}

export function checkComplete(raw: unknown): CompleteScheduleItemInput {
  const body = raw === null || raw === undefined ? {} : raw;
  if (!isPlainObject(body)) throw new ValidationError('a completion must be a JSON object');
  const errors: FieldError[] = checkKeys(body, COMPLETE_FIELDS, { serverControlled: SERVER_CONTROLLED });
  const parsed = CompleteInput.safeParse(pickKeys(body, COMPLETE_FIELDS));
  if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
  if (!parsed.success || errors.length) return invalid('completion', errors);
  return parsed.data;
}

export const CreateScheduleItemCheck = serviceCheck('schedule item', CreateItemSchema, checkCreate);
export const UpdateScheduleItemCheck = serviceCheck('schedule item', UpdateItemSchema, checkUpdate);
export const CompleteScheduleItemCheck = serviceCheck('completion', CompleteInput, checkComplete);

const QueryText = (what: string) => z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);

/** The item list and the maintenance status narrow to one related thing alike. */
const relatedFilter = {
  relatedTo: QueryText('relatedTo').optional().describe('Only items related to this asset uid (or company id, or equipment name)'),
  relatedToType: z
    .enum(RELATED_TO_TYPES, { error: `relatedToType must be one of ${RELATED_TO_TYPES.join(', ')}` })
    .optional()
    .describe('Only items related to this kind of thing'),
};

/** The order of the item list (name, then uid); its cursor continues it (src/db/keyset.ts). */
export const SCHEDULE_ITEM_ORDER = ['name', 'uid'] as const;
/**
 * The maintenance status is ordered in memory, most urgent first (rules.compareUrgency): its cursor is the last
 * item's sort key, so the next page starts after it whatever the page size, each item once.
 */
export const STATUS_ORDER = ['calendarDaysRemaining', 'remaining', 'name', 'uid'] as const;
/** A number of a status cursor: '' for none, else a number's shortest text (String(n)). */
export const statusCursorNumber = (s: string): number | null | undefined => {
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) && String(n) === s ? n : undefined;
};
const statusCursorValid = (v: string[]) => statusCursorNumber(v[0]!) !== undefined && statusCursorNumber(v[1]!) !== undefined;

export const ScheduleItemFilterSchema = z
  .object({
    ...relatedFilter,
    type: QueryText('type').optional().describe('Only items of this type, e.g. Inspection'),
    includeInactive: BoolParam('includeInactive').optional().describe('Also list inactive (soft-deleted) items; default false'),
    ...pageArgs('schedule-item', SCHEDULE_ITEM_ORDER),
  })
  .strict();
/** Unchecked input (query strings or GraphQL args); the service validates it. */
export type ScheduleItemFilter = { [K in keyof z.input<typeof ScheduleItemFilterSchema>]?: unknown };

export const CompletionFilterSchema = z
  .object({
    scheduleItemId: QueryText('scheduleItemId').optional().describe('Only completions of this schedule item'),
    relatedTo: QueryText('relatedTo').optional().describe('Only completions of schedule items related to this asset uid'),
    limit: LimitParam.optional()
      .describe('Page size, 1 to 500 (default 100)'),
    cursor: timeCursorArg('schedule-completion').optional(),
  })
  .strict();
/** Unchecked input (query strings or GraphQL args); the service validates it. */
export type CompletionFilter = { [K in keyof z.input<typeof CompletionFilterSchema>]?: unknown };

export const MaintenanceStatusFilterSchema = z
  .object({
    ...relatedFilter,
    dueWithinDays: WholeParam('dueWithinDays', 0, MAX_DAYS)
      .optional()
      .describe(
        'Only items due within this many days (or past), or whose usage threshold is reached',
      ),
    overdueOnly: BoolParam('overdueOnly')
      .optional()
      .describe('Only overdue items (remaining < 0 or calendarDaysRemaining < 0); default false'),
    timezone: z
      .string()
      .refine((tz) => isTimeZone(tz), TIME_ZONE_MESSAGE)
      .optional()
      .describe(
        'Time zone that decides "today" for calendarDaysRemaining, as POST /aggregate takes it (IANA Area/Location name, UTC, listed abbreviation or offset); default the key user\u2019s, else the company\u2019s (alert settings), else UTC',
      ),
    ...pageArgs('maintenance-status', STATUS_ORDER, statusCursorValid),
  })
  .strict();
/** Unchecked input (query strings or GraphQL args); the service validates it. */
export type MaintenanceStatusFilter = { [K in keyof z.input<typeof MaintenanceStatusFilterSchema>]?: unknown };

/** The item's fields as the rules see them (decimals as strings, the due date as YYYY-MM-DD). */
export interface ItemState {
  name: string;
  type: string;
  documentation: string[];
  archivedDocumentation: string[];
  relatedTo: string;
  relatedToType: RelatedToType;
  recurring: boolean;
  recurringInterval: string | null;
  trackingItem: string | null;
  dueAtInterval: string | null;
  calendarDateDue: string | null;
  calendarRecurring: number | null;
  lastCarriedOutDate: Date | null;
  lastCarriedOutValue: number | string | null;
  status: string;
  notes: string | null;
}

export function stateOf(row: ScheduleItem): ItemState {
  return {
    name: row.name,
    type: row.type,
    documentation: row.documentation,
    archivedDocumentation: row.archivedDocumentation,
    relatedTo: row.relatedTo,
    relatedToType: row.relatedToType as RelatedToType,
    recurring: row.recurring,
    recurringInterval: row.recurringInterval === null ? null : row.recurringInterval.toString(),
    trackingItem: row.trackingItem,
    dueAtInterval: row.dueAtInterval === null ? null : row.dueAtInterval.toString(),
    calendarDateDue: row.calendarDateDue ? dueDateOf(row.calendarDateDue) : null,
    calendarRecurring: row.calendarRecurring,
    lastCarriedOutDate: row.lastCarriedOutDate,
    lastCarriedOutValue: (row.lastCarriedOutValue ?? null) as number | string | null,
    status: row.status,
    notes: row.notes,
  };
}

/**
 * Applies a validated patch; null clears an optional field (an empty array for the documentation lists). A date
 * alone as `lastCarriedOutDate` is the start of that day in `timeZone` (the acting user's, else the company's, else UTC), as a date
 * alone as a completion's `completedAt` is (rules.instantOfDateInput): a completion sets the field to it.
 */
export function applyPatch(base: ItemState, p: Patch, timeZone: string): ItemState {
  const next = { ...base };
  const set = <K extends keyof ItemState>(k: K, v: ItemState[K] | undefined) => {
    if (v !== undefined) next[k] = v;
  };
  set('name', p.name ?? undefined);
  set('type', p.type ?? undefined);
  set('relatedTo', p.relatedTo ?? undefined);
  set('relatedToType', p.relatedToType ?? undefined);
  set('recurring', p.recurring ?? undefined);
  if (p.status !== undefined && p.status !== null) next.status = p.status;
  if (p.documentation !== undefined) next.documentation = p.documentation ?? [];
  if (p.archivedDocumentation !== undefined) next.archivedDocumentation = p.archivedDocumentation ?? [];
  if (p.recurringInterval !== undefined) next.recurringInterval = p.recurringInterval === null ? null : String(p.recurringInterval);
  if (p.trackingItem !== undefined) next.trackingItem = p.trackingItem;
  if (p.dueAtInterval !== undefined) next.dueAtInterval = p.dueAtInterval === null ? null : String(p.dueAtInterval);
  if (p.calendarDateDue !== undefined) next.calendarDateDue = p.calendarDateDue;
  if (p.calendarRecurring !== undefined) next.calendarRecurring = p.calendarRecurring;
  if (p.lastCarriedOutDate !== undefined) {
    const at = p.lastCarriedOutDate === null ? null : instantOfDateInput(p.lastCarriedOutDate, timeZone);
    if (at && !inInstantRange(at)) {
      invalid('schedule item', [{ path: '/lastCarriedOutDate', message: instantRangeMessage('lastCarriedOutDate', p.lastCarriedOutDate!.date, at) }]);
    }
    next.lastCarriedOutDate = at;
  }
  if (p.lastCarriedOutValue !== undefined) next.lastCarriedOutValue = p.lastCarriedOutValue;
  if (p.notes !== undefined) next.notes = p.notes === null || p.notes.trim() === '' ? null : p.notes;
  return next;
}

/** Whether an update changes anything (`no_changes` otherwise), and whether the item changed under a writer. */
export function sameState(a: ItemState, b: ItemState): boolean {
  return (
    a.name === b.name &&
    a.type === b.type &&
    jsonEqual(a.documentation, b.documentation) &&
    jsonEqual(a.archivedDocumentation, b.archivedDocumentation) &&
    a.relatedTo === b.relatedTo &&
    a.relatedToType === b.relatedToType &&
    a.recurring === b.recurring &&
    sameDecimal(a.recurringInterval, b.recurringInterval) &&
    (a.trackingItem ?? null) === (b.trackingItem ?? null) &&
    sameDecimal(a.dueAtInterval, b.dueAtInterval) &&
    (a.calendarDateDue ?? null) === (b.calendarDateDue ?? null) &&
    (a.calendarRecurring ?? null) === (b.calendarRecurring ?? null) &&
    (a.lastCarriedOutDate?.getTime() ?? null) === (b.lastCarriedOutDate?.getTime() ?? null) &&
    jsonEqual(a.lastCarriedOutValue, b.lastCarriedOutValue) &&
    a.status === b.status &&
    (a.notes ?? null) === (b.notes ?? null)
  );
}

/** The state as the row stores it (a cleared JSON value is SQL NULL, not JSON null). */
export function rowData(s: ItemState) {
  return {
    name: s.name,
    type: s.type,
    documentation: s.documentation,
    archivedDocumentation: s.archivedDocumentation,
    relatedTo: s.relatedTo,
    relatedToType: s.relatedToType,
    recurring: s.recurring,
    recurringInterval: s.recurringInterval,
    trackingItem: s.trackingItem,
    dueAtInterval: s.dueAtInterval,
    calendarDateDue: s.calendarDateDue === null ? null : storedDueDate(s.calendarDateDue),
    calendarRecurring: s.calendarRecurring,
    lastCarriedOutDate: s.lastCarriedOutDate,
    lastCarriedOutValue: s.lastCarriedOutValue === null ? Prisma.DbNull : s.lastCarriedOutValue,
    status: s.status,
    notes: s.notes,
  };
}
