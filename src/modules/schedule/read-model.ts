import type { z } from 'zod';
import { Prisma, type CompletedScheduleItem, type ScheduleItem } from '../../generated/prisma/client.js';
import { LIST_DEFAULT, afterCursor, badCursor, cursorKeys, encodeKeys, readPage, toPage, type Page } from '../../db/keyset.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { NotFoundError } from '../../errors.js';
import { now } from '../../lib/clock.js';
import { PAGE_DEFAULT, parseFilter } from '../../lib/params.js';
import type { AssetReader, AssetType, LiveAsset } from '../assets/live.js';
import type { UserService } from '../users/service.js';
import { alertSettingsOf } from '../alerts/stored.js';
import { type UrgencyFields, calendarDaysRemaining, compareUrgency, dueDateOf, dueWithin, exactSubtract, formatDec, isOverdue, isReadableTimeZone, parseDec } from './rules.js';
import {
  ASSET_TYPES,
  CompletionFilterSchema,
  MaintenanceStatusFilterSchema,
  SCHEDULE_ITEM_ORDER,
  STATUS_ORDER,
  ScheduleItemFilterSchema,
  statusCursorNumber,
  type CompletionFilter,
  type MaintenanceStatusFilter,
  type ScheduleItemFilter,
} from './schema.js';

/**
 * The maintenance schedule as it is read (docs/api-notes.md "Maintenance schedule"): items, the completion list
 * (keyset pages) and the maintenance status. Status is computed on every read from the assets' live totals rather
 * than stored, because those totals move with every flight log and counter change.
 */
export type ScheduleItemList = Page<ScheduleItem>;
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
export type MaintenanceStatusList = Page<MaintenanceStatusItem>;

/** A numeric(20,6) column value as a JSON number. */
export function decimalNumber(d: Prisma.Decimal | null | undefined): number | null {
  return d === null || d === undefined ? null : Number(formatDec(parseDec(d.toString())));
}

/** The sort key a maintenance-status cursor carries (schema.STATUS_ORDER; numbers as their shortest text, '' for none). */
function statusCursor(cursor: string): UrgencyFields {
  const [days, remaining, name, uid] = cursorKeys(cursor, STATUS_ORDER.length, 'maintenance-status') as [string, string, string, string];
  const num = (s: string) => {
    const n = statusCursorNumber(s);
    if (n === undefined) throw badCursor('maintenance-status');
    return n;
  };
  return { calendarDaysRemaining: num(days), remaining: num(remaining), name, uid };
}

/**
 * A user's own time zone when it has one that can be read (a zone stored before today's rule included:
 * rules.isReadableTimeZone), else null (no user, as for the `public` actor of a public form: null).
 */
export function userTimeZone(user: { timezone: string | null } | null | undefined): string | null {
  return user?.timezone && isReadableTimeZone(user.timezone) ? user.timezone : null;
}

/**
 * The time zone "today" and a date alone are read in for a user: the user's when it is a valid one, else the
 * company's (its alert settings' `timezone`, gaps.md §14), else UTC. One rule for maintenance status, a completion's
 * roll-forward and `completedAt`, `lastCarriedOutDate` given as a date, and the due date of a defect a form raises
 * (the public submitter included, who is no user). The company's settings are read only when the user has no zone.
 */
export async function timeZoneOf(db: ScopedPrisma, user: { timezone: string | null } | null | undefined): Promise<string> {
  return userTimeZone(user) ?? (await alertSettingsOf(db))?.timezone ?? 'UTC';
}

const assetKey = (type: string, uid: string) => `${type}\u0000${uid}`;

/** The reads of ScheduleService (./service.ts adds the writes, which also need the actor's time zone and live totals). */
export class ScheduleReader {
  constructor(
    protected readonly db: ScopedPrisma,
    protected readonly assets: AssetReader,
    protected readonly users: UserService,
    /** The acting user: recorded on completions, and whose time zone counts calendar days. */
    protected readonly actorUserId: string,
  ) {}

  /** Items by name and uid, a page at a time (gaps.md §17). */
  async list(filter: ScheduleItemFilter = {}): Promise<ScheduleItemList> {
    const { limit, cursor, ...f } = parseFilter(ScheduleItemFilterSchema, filter, 'invalid schedule-item query');
    const where: Prisma.ScheduleItemWhereInput = {
      ...(f.relatedTo ? { relatedTo: f.relatedTo } : {}),
      ...(f.relatedToType ? { relatedToType: f.relatedToType } : {}),
      ...(f.type ? { type: f.type } : {}),
      ...(f.includeInactive ? {} : { status: 'active' }),
    };
    return readPage({ limit, cursor }, SCHEDULE_ITEM_ORDER, 'schedule-item', where, (q) => this.db.scheduleItem.findMany(q));
  }

  /** An item by uid, active or inactive; 404 when the company has none. */
  async get(uid: string): Promise<ScheduleItem> {
    const row = await this.db.scheduleItem.findFirst({ where: { uid } });
    if (!row) throw new NotFoundError('schedule item', uid);
    return row;
  }

  async completions(filter: CompletionFilter = {}): Promise<CompletionPage> {
    const f = parseFilter(CompletionFilterSchema, filter, 'invalid schedule-completion query');
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
    return toPage(rows, limit, (r) => r.completedAt, 'schedule-completion');
  }

  /** The acting user's time zone (calendar days are counted in it), else the company's, else UTC (timeZoneOf). */
  protected async actorTimeZone(): Promise<string> {
    return timeZoneOf(this.db, await this.users.find(this.actorUserId));
  }

  /**
   * Active items with their live position: currentTotal (the asset's live total for trackingItem), remaining
   * (dueAtInterval - currentTotal, exact) and calendarDaysRemaining (from today in `timezone`, default the acting
   * user's time zone, as completion uses to roll dates forward, else the company's, else UTC), most
   * urgent first (rules.compareUrgency), a page at a time (gaps.md §17): the order is computed, so each page
   * computes it and starts after the cursor's sort key. Each asset is read once, and the reads are batched per
   * asset kind.
   */
  async status(filter: MaintenanceStatusFilter = {}, at: Date = now()): Promise<MaintenanceStatusList> {
    const f = parseFilter(MaintenanceStatusFilterSchema, filter, 'invalid maintenance-status query');
    const after = f.cursor ? statusCursor(f.cursor) : null;
    const sorted = await this.computeStatus(f, at, after);
    const limit = f.limit ?? LIST_DEFAULT;
    const data = sorted.slice(0, limit);
    // the cursor of the next page is the last item's sort key (the order is total: uid last)
    const last = data[data.length - 1];
    const key = (n: number | null) => (n === null ? '' : String(n));
    const nextCursor =
      sorted.length > limit && last ? encodeKeys('maintenance-status', [key(last.calendarDaysRemaining), key(last.remaining), last.name, last.scheduleItemUid]) : null;
    return { data, count: data.length, nextCursor };
  }

  /**
   * Every active item's position, most urgent first, unbounded: the alert monitor's reading (no paging, no cursor),
   * in the alert settings' stored `timezone`, which may be a zone stored before the rule new writes follow
   * (rules.isReadableTimeZone: a stored value keeps working), so it is not read as a query parameter.
   */
  async allStatus(filter: { timezone?: string }, at: Date = now()): Promise<MaintenanceStatusItem[]> {
    const timezone = filter.timezone !== undefined && isReadableTimeZone(filter.timezone) ? filter.timezone : undefined;
    return this.computeStatus({ timezone }, at, null);
  }

  private async computeStatus(f: z.output<typeof MaintenanceStatusFilterSchema>, at: Date, after: UrgencyFields | null): Promise<MaintenanceStatusItem[]> {
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
        calendarDaysRemaining: dueDate ? calendarDaysRemaining(dueDate, at, timeZone) : null,
        lastCarriedOutDate: i.lastCarriedOutDate,
        lastCarriedOutValue: (i.lastCarriedOutValue ?? null) as number | string | null,
        status: i.status,
      };
    });
    const urgency = (s: MaintenanceStatusItem) => ({ ...s, uid: s.scheduleItemUid });
    return out
      .filter((s) => (f.overdueOnly ? isOverdue(urgency(s)) : true))
      .filter((s) => (f.dueWithinDays === undefined ? true : dueWithin(urgency(s), f.dueWithinDays)))
      .filter((s) => (after ? compareUrgency(urgency(s), after) > 0 : true))
      .sort((a, b) => compareUrgency(urgency(a), urgency(b)));
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
