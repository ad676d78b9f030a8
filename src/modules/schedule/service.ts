import { z } from 'zod';
import { Prisma, type CompletedScheduleItem, type ScheduleItem } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { ConflictError, NotFoundError, ValidationError, fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import type { AssetReader, AssetType, LiveAsset } from '../assets/live.js';
import type { UserService } from '../users/service.js';
import { newUid } from '../../lib/ids.js';
import { afterCursor, toPage } from '../../db/keyset.js';
import { parseIso } from '../../lib/dates.js';
import { BoolParam, LimitParam, PAGE_DEFAULT } from '../../lib/params.js';
import {
  TRACKING_MAX_ABS,
  TRACKING_SCALE,
  calendarDaysRemaining,
  compareUrgency,
  decimalPlaces,
  dueDateOf,
  dueWithin,
  exactAddString,
  exactSubtract,
  formatDec,
  isOverdue,
  isTimeZone,
  localDate,
  nextCalendarDue,
  parseDec,
  roundToTrackingScale,
  sameDecimal,
  startOfLocalDay,
  storedDueDate,
  thresholdErrors,
} from './rules.js';

/**
 * Maintenance schedule (api-v1 §2.13, §3; gaps §3 "Maintenance schedule"). This service owns every schedule rule:
 * input validation (types, server-controlled fields, the related asset and its tracking item, thresholds and
 * recurrence), soft delete and restore, completion with roll-forward in one transaction, the completion list
 * (keyset pages), and the maintenance status (live totals, exact remaining, calendar days, urgency order).
 * The pure parts are in ./rules.ts.
 */
export type { CompletedScheduleItem, ScheduleItem };

export const RELATED_TO_TYPES = ['aircraft', 'vehicle', 'component', 'company', 'user', 'equipment'] as const;
export type RelatedToType = (typeof RELATED_TO_TYPES)[number];
export const SCHEDULE_STATUSES = ['active', 'inactive'] as const;
export const SERVER_CONTROLLED = ['uid', 'companyId', 'createdAt', 'updatedAt'] as const;
const ASSET_TYPES = new Set<string>(['aircraft', 'vehicle', 'component']);

/** Longest calendar recurrence and look-ahead: 100 years. */
export const MAX_DAYS = 36_600;

export type ScheduleWriteStatus = 'created' | 'updated' | 'deleted' | 'restored' | 'no_changes';
export interface ScheduleWriteResult {
  uid: string;
  status: ScheduleWriteStatus;
}

export interface ScheduleItemList {
  data: ScheduleItem[];
  count: number;
}
export interface CompletionPage {
  data: CompletedScheduleItem[];
  count: number;
  nextCursor: string | null;
}

export interface MaintenanceStatusItem {
  scheduleItemUid: string;
  name: string;
  type: string;
  relatedTo: string;
  relatedToType: string;
  recurring: boolean;
  trackingItem: string | null;
  trackingItemDisplayText: string | null;
  dueAtInterval: number | null;
  currentTotal: number | null;
  remaining: number | null;
  calendarDateDue: Date | null;
  calendarDaysRemaining: number | null;
  lastCarriedOutDate: Date | null;
  lastCarriedOutValue: number | string | null;
  status: string;
}
export interface MaintenanceStatusList {
  data: MaintenanceStatusItem[];
  count: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Input schemas

const str = (what: string) =>
  z.string({ error: `${what} must be a string` }).trim().min(1, `${what} must not be empty`).max(1000, `${what} is too long (1000 characters at most)`);

const documentList = (what: string) =>
  z
    .array(str(`each ${what} entry`), { error: `${what} must be an array of strings` })
    .max(200, `${what} holds at most 200 entries`);

const trackingNumber = (what: string, opts: { positive?: boolean } = {}) =>
  z
    .number({ error: `${what} must be a number` })
    .refine((n) => Number.isFinite(n), `${what} must be a finite number`)
    .refine((n) => !opts.positive || n > 0, `${what} must be greater than 0`)
    .refine((n) => Math.abs(n) < TRACKING_MAX_ABS, `${what} must be less than 10^14 in magnitude`)
    .refine((n) => !Number.isFinite(n) || decimalPlaces(n) <= TRACKING_SCALE, `${what} has more than ${TRACKING_SCALE} decimal places`);

/** A calendar date; a date-time is accepted and its date as written is used (time and offset are dropped). */
const CalendarDate = z.string({ error: 'calendarDateDue must be an ISO 8601 date, e.g. 2026-06-30' }).transform((v, ctx) => {
  const p = parseIso(v.trim());
  if (!p) {
    ctx.addIssue({ code: 'custom', message: 'calendarDateDue must be an ISO 8601 date, e.g. 2026-06-30' });
    return z.NEVER;
  }
  return p.date;
});

const Instant = (what: string) =>
  z.string({ error: `${what} must be an ISO 8601 date or date-time` }).transform((v, ctx) => {
    const p = parseIso(v.trim());
    if (!p) {
      ctx.addIssue({ code: 'custom', message: `${what} must be an ISO 8601 date or date-time, e.g. 2026-03-01T09:30:00Z` });
      return z.NEVER;
    }
    return p;
  });

const CarriedOutValue = z.union([z.number().refine((n) => Number.isFinite(n)), z.string().max(1000)], {
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
  type: str('type'),
  documentation: documentList('documentation'),
  archivedDocumentation: documentList('archivedDocumentation'),
  relatedTo: str('relatedTo'),
  relatedToType: z.enum(RELATED_TO_TYPES, { error: `relatedToType must be one of ${RELATED_TO_TYPES.join(', ')}` }),
  recurring: z.boolean({ error: 'recurring must be true or false' }),
  recurringInterval: trackingNumber('recurringInterval', { positive: true }),
  trackingItem: str('trackingItem'),
  dueAtInterval: trackingNumber('dueAtInterval'),
  calendarDateDue: CalendarDate,
  calendarRecurring: Days('calendarRecurring'),
  lastCarriedOutDate: Instant('lastCarriedOutDate'),
  lastCarriedOutValue: CarriedOutValue,
  status: z.enum(SCHEDULE_STATUSES, { error: `status must be one of ${SCHEDULE_STATUSES.join(', ')}` }),
  notes: z.string({ error: 'notes must be a string' }).max(10_000, 'notes is too long (10000 characters at most)'),
});
type FieldName = keyof typeof ItemFields.shape;
const REQUIRED: FieldName[] = ['name', 'type', 'relatedTo', 'relatedToType', 'recurring'];
const CREATE_FIELDS = Object.keys(ItemFields.shape) as FieldName[];
const UPDATE_FIELDS = CREATE_FIELDS.filter((f) => f !== 'status');

const ItemPatch = z.object(
  Object.fromEntries(Object.entries(ItemFields.shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()])) as {
    [K in FieldName]: z.ZodOptional<z.ZodNullable<(typeof ItemFields.shape)[K]>>;
  },
);
type Patch = z.output<typeof ItemPatch>;

const CompleteInput = z
  .object({
    completedAt: Instant('completedAt').nullable().optional(),
    trackingValue: trackingNumber('trackingValue').nullable().optional(),
    notes: z.string({ error: 'notes must be a string' }).max(10_000, 'notes is too long (10000 characters at most)').nullable().optional(),
    documents: documentList('documents').nullable().optional(),
  });
const COMPLETE_FIELDS = Object.keys(CompleteInput.shape);
export type CompleteScheduleItemInput = z.input<typeof CompleteInput>;

const QueryText = (what: string) => z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);

export const ScheduleItemFilterSchema = z
  .object({
    relatedTo: QueryText('relatedTo').optional().describe('Only items related to this asset uid (or company id, or equipment name)'),
    relatedToType: z
      .enum(RELATED_TO_TYPES, { error: `relatedToType must be one of ${RELATED_TO_TYPES.join(', ')}` })
      .optional()
      .describe('Only items related to this kind of thing'),
    type: QueryText('type').optional().describe('Only items of this type, e.g. Inspection'),
    includeInactive: BoolParam('includeInactive').optional().describe('Also list inactive (soft-deleted) items; default false'),
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
    cursor: z.string().min(1, 'cursor must not be empty').optional().describe('The nextCursor of the previous page'),
  })
  .strict();
/** Unchecked input (query strings or GraphQL args); the service validates it. */
export type CompletionFilter = { [K in keyof z.input<typeof CompletionFilterSchema>]?: unknown };

export const MaintenanceStatusFilterSchema = z
  .object({
    relatedTo: QueryText('relatedTo').optional().describe('Only items related to this asset uid (or company id, or equipment name)'),
    relatedToType: z
      .enum(RELATED_TO_TYPES, { error: `relatedToType must be one of ${RELATED_TO_TYPES.join(', ')}` })
      .optional()
      .describe('Only items related to this kind of thing'),
    dueWithinDays: z.coerce
      .number({ error: `dueWithinDays must be a whole number from 0 to ${MAX_DAYS}` })
      .int(`dueWithinDays must be a whole number from 0 to ${MAX_DAYS}`)
      .min(0, `dueWithinDays must be a whole number from 0 to ${MAX_DAYS}`)
      .max(MAX_DAYS, `dueWithinDays must be a whole number from 0 to ${MAX_DAYS}`)
      .optional()
      .describe(
        'Only items whose calendar threshold falls within this many days from today (or is past), or whose usage threshold is already reached',
      ),
    overdueOnly: BoolParam('overdueOnly')
      .optional()
      .describe('Only overdue items (remaining < 0 or calendarDaysRemaining < 0); default false'),
    timezone: z
      .string()
      .refine((tz) => isTimeZone(tz), 'timezone must be an IANA time zone such as Australia/Sydney or UTC')
      .optional()
      .describe('IANA time zone that decides "today" for calendarDaysRemaining; default UTC'),
  })
  .strict();
/** Unchecked input (query strings or GraphQL args); the service validates it. */
export type MaintenanceStatusFilter = { [K in keyof z.input<typeof MaintenanceStatusFilterSchema>]?: unknown };

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/** A numeric(20,6) column value as a JSON number. */
export function decimalNumber(d: Prisma.Decimal | null | undefined): number | null {
  return d === null || d === undefined ? null : Number(formatDec(parseDec(d.toString())));
}

/** Keys of a raw object checked against the fields a body may carry. */
function checkKeys(raw: Record<string, unknown>, allowed: readonly string[], errors: FieldError[], extra?: Record<string, string>) {
  const allow = new Set(allowed);
  const server = new Set<string>(SERVER_CONTROLLED);
  for (const key of Object.keys(raw)) {
    if (allow.has(key)) continue;
    if (server.has(key)) errors.push({ path: `/${key}`, message: `${key} is set by the server and must not be sent` });
    else if (extra?.[key]) errors.push({ path: `/${key}`, message: extra[key] });
    else errors.push({ path: `/${key}`, message: `${key} is not a field of this body` });
  }
}

/** The item's fields as the rules see them (decimals as strings, the due date as YYYY-MM-DD). */
interface ItemState {
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

function stateOf(row: ScheduleItem): ItemState {
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

/** Applies a validated patch; null clears an optional field (an empty array for the documentation lists). */
function applyPatch(base: ItemState, p: Patch): ItemState {
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
  if (p.lastCarriedOutDate !== undefined) next.lastCarriedOutDate = p.lastCarriedOutDate === null ? null : (p.lastCarriedOutDate.instant ?? new Date(`${p.lastCarriedOutDate.date}T00:00:00Z`));
  if (p.lastCarriedOutValue !== undefined) next.lastCarriedOutValue = p.lastCarriedOutValue;
  if (p.notes !== undefined) next.notes = p.notes === null || p.notes.trim() === '' ? null : p.notes;
  return next;
}

function sameState(a: ItemState, b: ItemState): boolean {
  const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
  return (
    a.name === b.name &&
    a.type === b.type &&
    same(a.documentation, b.documentation) &&
    same(a.archivedDocumentation, b.archivedDocumentation) &&
    a.relatedTo === b.relatedTo &&
    a.relatedToType === b.relatedToType &&
    a.recurring === b.recurring &&
    sameDecimal(a.recurringInterval, b.recurringInterval) &&
    (a.trackingItem ?? null) === (b.trackingItem ?? null) &&
    sameDecimal(a.dueAtInterval, b.dueAtInterval) &&
    (a.calendarDateDue ?? null) === (b.calendarDateDue ?? null) &&
    (a.calendarRecurring ?? null) === (b.calendarRecurring ?? null) &&
    (a.lastCarriedOutDate?.getTime() ?? null) === (b.lastCarriedOutDate?.getTime() ?? null) &&
    same(a.lastCarriedOutValue, b.lastCarriedOutValue) &&
    a.status === b.status &&
    (a.notes ?? null) === (b.notes ?? null)
  );
}

function rowData(s: ItemState) {
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

const assetKey = (type: string, uid: string) => `${type}\u0000${uid}`;

// ---------------------------------------------------------------------------------------------------------------

export class ScheduleService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly assets: AssetReader,
    private readonly users: UserService,
    /** The acting user: recorded on completions, and whose time zone counts calendar days. */
    private readonly actorUserId: string,
  ) {}

  async list(filter: ScheduleItemFilter = {}): Promise<ScheduleItemList> {
    const parsed = ScheduleItemFilterSchema.safeParse(filter);
    if (!parsed.success) throw new ValidationError('invalid schedule-item query', fieldErrorsFromZod(parsed.error.issues));
    const f = parsed.data;
    const data = await this.db.scheduleItem.findMany({
      where: {
        ...(f.relatedTo ? { relatedTo: f.relatedTo } : {}),
        ...(f.relatedToType ? { relatedToType: f.relatedToType } : {}),
        ...(f.type ? { type: f.type } : {}),
        ...(f.includeInactive ? {} : { status: 'active' }),
      },
      orderBy: [{ name: 'asc' }, { uid: 'asc' }],
    });
    return { data, count: data.length };
  }

  /** An item by uid, active or inactive; 404 when the company has none. */
  async get(uid: string): Promise<ScheduleItem> {
    const row = await this.db.scheduleItem.findFirst({ where: { uid } });
    if (!row) throw new NotFoundError('schedule item', uid);
    return row;
  }

  async create(raw: unknown): Promise<ScheduleWriteResult> {
    if (!isPlainObject(raw)) throw new ValidationError('a schedule item must be a JSON object');
    const errors: FieldError[] = [];
    checkKeys(raw, CREATE_FIELDS, errors);
    const parsed = ItemPatch.safeParse(pick(raw, CREATE_FIELDS));
    if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
    for (const key of REQUIRED) {
      if (raw[key] === undefined || raw[key] === null) {
        const message = `${key} is required`;
        const at = errors.findIndex((e) => e.path === `/${key}`);
        if (at >= 0) errors[at] = { path: `/${key}`, message };
        else errors.push({ path: `/${key}`, message });
      }
    }
    if (!parsed.success || errors.length) invalid('schedule item', errors);
    const p = parsed.data;
    const state = applyPatch(
      {
        name: p.name!,
        type: p.type!,
        documentation: [],
        archivedDocumentation: [],
        relatedTo: p.relatedTo!,
        relatedToType: p.relatedToType!,
        recurring: p.recurring!,
        recurringInterval: null,
        trackingItem: null,
        dueAtInterval: null,
        calendarDateDue: null,
        calendarRecurring: null,
        lastCarriedOutDate: null,
        lastCarriedOutValue: null,
        status: 'active',
        notes: null,
      },
      p,
    );
    await this.check(state, true);
    const uid = newUid('si');
    await this.db.scheduleItem.create({ data: { uid, ...rowData(state) } as never });
    return { uid, status: 'created' };
  }

  /**
   * A defect reported on a form (gaps §9): a non-recurring `Defect` item on the asset, due today in the acting
   * user's time zone (so it shows in maintenance status at once), the description and severity in its notes and,
   * when given, a link to the submission in its documentation. The same checks as any created item.
   */
  async createDefect(d: {
    assetType: 'aircraft' | 'vehicle';
    assetUid: string;
    description: string;
    severity?: string;
    source: string;
    link?: string;
  }): Promise<ScheduleWriteResult> {
    const today = localDate(new Date(), await this.actorTimeZone());
    const name = d.description.length > 200 ? `${d.description.slice(0, 197)}...` : d.description;
    const notes = [d.description, d.severity ? `Severity: ${d.severity}` : null, d.source].filter(Boolean).join('\n');
    return this.create({
      name: `Defect: ${name}`,
      type: 'Defect',
      relatedTo: d.assetUid,
      relatedToType: d.assetType,
      recurring: false,
      calendarDateDue: today,
      notes,
      ...(d.link ? { documentation: [d.link] } : {}),
    });
  }

  async update(uid: string, raw: unknown): Promise<ScheduleWriteResult> {
    if (!isPlainObject(raw)) throw new ValidationError('a schedule item update must be a JSON object');
    const errors: FieldError[] = [];
    checkKeys(raw, UPDATE_FIELDS, errors, {
      status: 'status is not changed by an update: DELETE the item to make it inactive, POST /schedule-items/{id}/restore to make it active',
    });
    const parsed = ItemPatch.safeParse(pick(raw, UPDATE_FIELDS));
    if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
    for (const key of REQUIRED) {
      if (raw[key] === null) {
        const message = `${key} cannot be cleared`;
        const at = errors.findIndex((e) => e.path === `/${key}`);
        if (at >= 0) errors[at] = { path: `/${key}`, message };
        else errors.push({ path: `/${key}`, message });
      }
    }
    if (!parsed.success || errors.length) invalid('schedule item', errors);
    const current = await this.get(uid);
    const next = applyPatch(stateOf(current), parsed.data);
    if (sameState(stateOf(current), next)) return { uid, status: 'no_changes' };
    const before = stateOf(current);
    const assetChanged =
      next.relatedTo !== before.relatedTo || next.relatedToType !== before.relatedToType || next.trackingItem !== before.trackingItem;
    await this.check(next, assetChanged);
    return this.db.$transaction(async (tx) => {
      const locked = await lockItem(tx, uid);
      if (!sameState(stateOf(locked), before)) {
        throw new ConflictError(`schedule item ${JSON.stringify(uid)} changed while it was being updated; send the update again`);
      }
      await tx.scheduleItem.updateMany({ where: { uid }, data: rowData(next) as never });
      return { uid, status: 'updated' as const };
    });
  }

  /** Soft delete: the item becomes inactive (409 when it already is). */
  async delete(uid: string): Promise<ScheduleWriteResult> {
    return this.db.$transaction(async (tx) => {
      const item = await lockItem(tx, uid);
      if (item.status !== 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is already inactive`);
      await tx.scheduleItem.updateMany({ where: { uid }, data: { status: 'inactive' } });
      return { uid, status: 'deleted' as const };
    });
  }

  /** Makes an inactive item active again (409 when it is active). */
  async restore(uid: string): Promise<ScheduleWriteResult> {
    return this.db.$transaction(async (tx) => {
      const item = await lockItem(tx, uid);
      if (item.status === 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is active; only an inactive item can be restored`);
      await tx.scheduleItem.updateMany({ where: { uid }, data: { status: 'active' } });
      return { uid, status: 'restored' as const };
    });
  }

  /**
   * Records a completion and rolls the item forward, in one transaction. Recurring: dueAtInterval = trackingValue +
   * recurringInterval; calendarDateDue = the completion's local date (acting user's time zone, else UTC) +
   * calendarRecurring days. Not recurring: the item becomes inactive. 409 for an inactive item.
   */
  async complete(uid: string, raw: unknown = {}): Promise<ScheduleWriteResult> {
    const body = raw === null || raw === undefined ? {} : raw;
    if (!isPlainObject(body)) throw new ValidationError('a completion must be a JSON object');
    const errors: FieldError[] = [];
    checkKeys(body, COMPLETE_FIELDS, errors);
    const parsed = CompleteInput.safeParse(pick(body, COMPLETE_FIELDS));
    if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues));
    if (!parsed.success || errors.length) invalid('completion', errors);
    const input = parsed.data;

    const item = await this.get(uid);
    if (item.status !== 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is inactive; restore it before completing it`);
    const user = await this.users.find(this.actorUserId);
    const timeZone = await this.actorTimeZone();
    const userDisplayName = user?.displayName ?? this.actorUserId;

    // completedAt: a date alone is that day in the acting user's time zone (its start); default now
    let completedAt: Date;
    let completionDate: string;
    if (input.completedAt) {
      completedAt = input.completedAt.instant ?? startOfLocalDay(input.completedAt.date, timeZone);
      completionDate = input.completedAt.instant ? localDate(completedAt, timeZone) : input.completedAt.date;
    } else {
      completedAt = new Date();
      completionDate = localDate(completedAt, timeZone);
    }

    const usage = item.trackingItem !== null && item.dueAtInterval !== null;
    let trackingValue: string | null = input.trackingValue === undefined || input.trackingValue === null ? null : formatDec(parseDec(input.trackingValue));
    if (trackingValue === null && usage) {
      const total = await this.liveTotal(item.relatedToType, item.relatedTo, item.trackingItem!);
      if (total !== null && Math.abs(total) < TRACKING_MAX_ABS) trackingValue = roundToTrackingScale(total);
    }
    if (trackingValue === null && usage && item.recurring) {
      invalid('completion', [
        {
          path: '/trackingValue',
          message: `trackingValue is required: the current ${item.trackingItem} of ${item.relatedToType} ${item.relatedTo} is not available to roll the item forward`,
        },
      ]);
    }

    const completionUid = newUid('sc');
    await this.db.$transaction(async (tx) => {
      const locked = await lockItem(tx, uid);
      if (locked.status !== 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is inactive; restore it before completing it`);
      if (
        locked.trackingItem !== item.trackingItem ||
        locked.relatedTo !== item.relatedTo ||
        locked.relatedToType !== item.relatedToType ||
        locked.recurring !== item.recurring
      ) {
        throw new ConflictError(`schedule item ${JSON.stringify(uid)} changed while it was being completed; send the completion again`);
      }
      await tx.completedScheduleItem.create({
        data: {
          uid: completionUid,
          scheduleItemId: uid,
          userId: this.actorUserId,
          userDisplayName,
          completedAt,
          documents: input.documents ?? [],
          notes: input.notes === undefined || input.notes === null || input.notes.trim() === '' ? null : input.notes,
          trackingValue,
        } as never,
      });
      const data: Record<string, unknown> = {
        lastCarriedOutDate: completedAt,
        lastCarriedOutValue: trackingValue === null ? Prisma.DbNull : Number(trackingValue),
      };
      if (locked.recurring) {
        if (usage && locked.recurringInterval !== null && locked.dueAtInterval !== null) {
          data.dueAtInterval = exactAddString(trackingValue!, locked.recurringInterval.toString());
          if (Math.abs(Number(data.dueAtInterval)) >= TRACKING_MAX_ABS) {
            invalid('completion', [{ path: '/trackingValue', message: 'trackingValue plus recurringInterval must be less than 10^14' }]);
          }
        }
        if (locked.calendarDateDue !== null && locked.calendarRecurring !== null) {
          data.calendarDateDue = storedDueDate(nextCalendarDue(completionDate, locked.calendarRecurring, timeZone));
        }
      } else {
        data.status = 'inactive';
      }
      await tx.scheduleItem.updateMany({ where: { uid }, data: data as never });
    });
    return { uid: completionUid, status: 'created' };
  }

  async completions(filter: CompletionFilter = {}): Promise<CompletionPage> {
    const parsed = CompletionFilterSchema.safeParse(filter);
    if (!parsed.success) throw new ValidationError('invalid schedule-completion query', fieldErrorsFromZod(parsed.error.issues));
    const f = parsed.data;
    const limit = f.limit ?? PAGE_DEFAULT;
    const where: Prisma.CompletedScheduleItemWhereInput = {};
    if (f.scheduleItemId) where.scheduleItemId = f.scheduleItemId;
    if (f.relatedTo) where.scheduleItem = { is: { relatedTo: f.relatedTo } };
    if (f.cursor) Object.assign(where, afterCursor('completedAt', f.cursor, 'schedule-completion'));
    const rows = await this.db.completedScheduleItem.findMany({
      where,
      orderBy: [{ completedAt: 'desc' }, { uid: 'desc' }],
      take: limit + 1,
    });
    return toPage(rows, limit, (r) => r.completedAt);
  }

  /**
   * Active items with their live position: currentTotal (the asset's live total for trackingItem), remaining
   * (dueAtInterval - currentTotal, exact) and calendarDaysRemaining (from today in `timezone`, default the acting
   * user's time zone, as completion uses to roll dates forward, else UTC), most
   * urgent first (rules.compareUrgency). Each asset is read once, and the reads are batched per asset kind.
   */
  /** The acting user's time zone (calendar days are counted in it), else UTC. */
  private async actorTimeZone(): Promise<string> {
    const user = await this.users.find(this.actorUserId);
    return user?.timezone && isTimeZone(user.timezone) ? user.timezone : 'UTC';
  }

  async status(filter: MaintenanceStatusFilter = {}, now: Date = new Date()): Promise<MaintenanceStatusList> {
    const parsed = MaintenanceStatusFilterSchema.safeParse(filter);
    if (!parsed.success) throw new ValidationError('invalid maintenance-status query', fieldErrorsFromZod(parsed.error.issues));
    const f = parsed.data;
    const timeZone = f.timezone ?? (await this.actorTimeZone());
    const items = await this.db.scheduleItem.findMany({
      where: {
        status: 'active',
        ...(f.relatedTo ? { relatedTo: f.relatedTo } : {}),
        ...(f.relatedToType ? { relatedToType: f.relatedToType } : {}),
      },
      orderBy: [{ name: 'asc' }, { uid: 'asc' }],
    });
    const live = await this.liveAssets(items.filter((i) => i.trackingItem !== null && ASSET_TYPES.has(i.relatedToType)));

    const out: MaintenanceStatusItem[] = items.map((i) => {
      const asset = i.trackingItem && ASSET_TYPES.has(i.relatedToType) ? live.get(assetKey(i.relatedToType, i.relatedTo)) : undefined;
      const tracked = asset?.items.find((x) => x.key === i.trackingItem);
      const dueAt = decimalNumber(i.dueAtInterval);
      const currentTotal = tracked ? tracked.value : null;
      const dueDate = i.calendarDateDue ? dueDateOf(i.calendarDateDue) : null;
      return {
        scheduleItemUid: i.uid,
        name: i.name,
        type: i.type,
        relatedTo: i.relatedTo,
        relatedToType: i.relatedToType,
        recurring: i.recurring,
        trackingItem: i.trackingItem,
        trackingItemDisplayText: tracked?.displayText ?? null,
        dueAtInterval: dueAt,
        currentTotal,
        remaining: i.dueAtInterval !== null && currentTotal !== null ? exactSubtract(i.dueAtInterval.toString(), currentTotal) : null,
        calendarDateDue: i.calendarDateDue,
        calendarDaysRemaining: dueDate ? calendarDaysRemaining(dueDate, now, timeZone) : null,
        lastCarriedOutDate: i.lastCarriedOutDate,
        lastCarriedOutValue: (i.lastCarriedOutValue ?? null) as number | string | null,
        status: i.status,
      };
    });
    const urgency = (s: MaintenanceStatusItem) => ({ ...s, uid: s.scheduleItemUid });
    const data = out
      .filter((s) => (f.overdueOnly ? isOverdue(urgency(s)) : true))
      .filter((s) => (f.dueWithinDays === undefined ? true : dueWithin(urgency(s), f.dueWithinDays)))
      .sort((a, b) => compareUrgency(urgency(a), urgency(b)));
    return { data, count: data.length };
  }

  // -------------------------------------------------------------------------------------------------------------

  /**
   * The related thing must exist in the company (aircraft, vehicle, component, user; `company` is the company's own
   * id; `equipment` is a free name), a usage threshold needs an asset with that number tracking item, and the
   * thresholds must be consistent (rules.thresholdErrors). `checkAsset` is false for updates that leave the
   * related thing and the tracking item alone (an item stays editable if its asset has since gone).
   */
  private async check(s: ItemState, checkAsset: boolean): Promise<void> {
    const errors: FieldError[] = thresholdErrors(s);
    if (checkAsset) {
      const type = s.relatedToType;
      if (ASSET_TYPES.has(type)) {
        const asset = await this.assets.live(type as AssetType, s.relatedTo);
        if (!asset) {
          errors.push({ path: '/relatedTo', message: `${s.relatedTo} is not a ${type} of your company` });
        } else if (s.trackingItem !== null && !asset.items.some((x) => x.key === s.trackingItem)) {
          const keys = asset.items.map((x) => x.key);
          errors.push({
            path: '/trackingItem',
            message:
              `${s.trackingItem} is not a maintenance tracking item of ${type} ${asset.name}` +
              (keys.length ? ` (its items: ${keys.join(', ')})` : ' (it has none)'),
          });
        }
      } else {
        if (type === 'user' && !(await this.users.find(s.relatedTo))) {
          errors.push({ path: '/relatedTo', message: `${s.relatedTo} is not a user of your company` });
        }
        if (type === 'company' && s.relatedTo !== this.db.companyId) {
          errors.push({ path: '/relatedTo', message: `relatedTo of a company item must be your company id (${this.db.companyId})` });
        }
        if (s.trackingItem !== null) {
          errors.push({
            path: '/trackingItem',
            message: `a usage threshold needs an aircraft, vehicle or component; a ${type} item can only have a calendar threshold`,
          });
        }
      }
    }
    if (errors.length) invalid('schedule item', errors);
  }

  private async liveTotal(type: string, uid: string, key: string): Promise<number | null> {
    if (!ASSET_TYPES.has(type)) return null;
    const asset = await this.assets.live(type as AssetType, uid);
    return asset?.items.find((x) => x.key === key)?.value ?? null;
  }

  /** Each distinct asset once, all requested together so the readers' dataloaders batch them per kind. */
  private async liveAssets(items: ScheduleItem[]): Promise<Map<string, LiveAsset | null>> {
    const keys = new Map<string, { type: AssetType; uid: string }>();
    for (const i of items) keys.set(assetKey(i.relatedToType, i.relatedTo), { type: i.relatedToType as AssetType, uid: i.relatedTo });
    const entries = await Promise.all(
      [...keys].map(async ([k, a]) => [k, await this.assets.live(a.type, a.uid)] as const),
    );
    return new Map(entries);
  }
}

function pick(raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in raw) out[k] = raw[k];
  return out;
}

/** Locks the item row for the rest of the transaction; 404 when the company has no such item. */
async function lockItem(tx: ScopedPrisma, uid: string): Promise<ScheduleItem> {
  const rows = await tx.$queryRaw<{ uid: string }[]>`
    SELECT uid FROM "ScheduleItem" WHERE "companyId" = ${tx.companyId} AND uid = ${uid} FOR UPDATE`;
  if (!rows.length) throw new NotFoundError('schedule item', uid);
  return (await tx.scheduleItem.findFirst({ where: { uid } }))!;
}
