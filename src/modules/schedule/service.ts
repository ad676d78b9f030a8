import { Prisma, type CompletedScheduleItem, type ScheduleItem } from '../../generated/prisma/client.js';
import { lockedWrite, lockRows, type LockTarget } from '../../db/row-locks.js';
import { retrying } from '../../db/retry.js';
import { transactionAssetsWithComponents } from '../components/read-model.js';
import { lockPlace } from '../components/place.js';
import { endAlertCycles } from '../alerts/stored.js';
import type { ScopedPrisma, ScopedUpdate } from '../../db/scoped.js';
import { ConflictError, ValidationError, invalid, type FieldError } from '../../errors.js';
import { now } from '../../lib/clock.js';
import { inInstantRange, instantRangeMessage } from '../../lib/dates.js';
import { newUid } from '../../lib/ids.js';
import { clipText } from '../../lib/text.js';
import type { WriteResult, WriteStatus } from '../../lib/write-result.js';
import { ASSET_TABLE, type AssetReader, type AssetType } from '../assets/live.js';
import { ScheduleReader } from './read-model.js';
import {
  LAST_DUE_DATE,
  TRACKING_MAX_ABS,
  daysBetween,
  exactAddString,
  isCalendarDate,
  formatDec,
  instantOfDateInput,
  localDate,
  nextCalendarDue,
  parseDec,
  roundToTrackingScale,
  storedDueDate,
  thresholdErrors,
} from './rules.js';
import {
  ASSET_TYPES,
  CreateScheduleItemCheck,
  applyPatch,
  rowData,
  sameState,
  stateOf,
  type CompleteScheduleItemInput,
  type CreateScheduleItemInput,
  type ItemState,
  type Patch,
} from './schema.js';

/**
 * Maintenance schedule writes (docs/api-notes.md "Maintenance schedule"): create, update, soft delete and restore,
 * and completion with roll-forward. Every change to an existing item locks its row in a retried transaction.
 * Update and completion first check the item against its asset and users through the request's readers, so under
 * the lock they only confirm the item is still what they checked, and answer 409 (send it again) when it is not,
 * as the notes promise. The pure parts are in ./rules.ts.
 */
export type { CompletedScheduleItem, ScheduleItem };
export {
  CompletionFilterSchema,
  MAX_DAYS,
  MaintenanceStatusFilterSchema,
  RELATED_TO_TYPES,
  SCHEDULE_STATUSES,
  SERVER_CONTROLLED,
  ScheduleItemFilterSchema,
  checkComplete,
  checkCreate,
  checkUpdate,
  type CompleteScheduleItemInput,
  type CreateScheduleItemInput,
  type CompletionFilter,
  type MaintenanceStatusFilter,
  type RelatedToType,
  type ScheduleItemFilter,
} from './schema.js';
export {
  decimalNumber,
  timeZoneOf,
  type CompletionPage,
  type MaintenanceStatusItem,
  type MaintenanceStatusList,
  type ScheduleItemList,
} from './read-model.js';

export type ScheduleWriteStatus = Exclude<WriteStatus, 'installed' | 'removed'>;
export type ScheduleWriteResult = WriteResult<ScheduleWriteStatus>;

/** A defect reported on a form: the asset it is on, what is wrong, and where it was reported. */
export interface DefectInput {
  assetType: 'aircraft' | 'vehicle';
  assetUid: string;
  description: string;
  severity?: string;
  source: string;
  link?: string;
}

/** The body of a defect's schedule item, due `today` (YYYY-MM-DD). */
function defectItem(d: DefectInput, today: string) {
  const name = clipText(d.description, 200, '...');
  const notes = [d.description, d.severity ? `Severity: ${d.severity}` : null, d.source].filter(Boolean).join('\n');
  return {
    name: `Defect: ${name}`,
    type: 'Defect',
    relatedTo: d.assetUid,
    relatedToType: d.assetType,
    recurring: false,
    calendarDateDue: today,
    notes,
    ...(d.link ? { documentation: [d.link] } : {}),
  };
}

/**
 * The rows of defects reported on a form (docs/forms.md), in order, for the caller to insert with the completion
 * (src/modules/completions/write.ts): each a non-recurring `Defect` item on its asset, due today in `timeZone` (the
 * submitter's, by timeZoneOf: the acting user's, or for a submitter without one, the public included, the company's,
 * else UTC) so it shows in maintenance status at once, the description and severity in its notes and, when
 * given, a link to the submission in its documentation. The same checks as any created item, except the asset's:
 * the caller checked it (a completion checks every record its answers name, in the reads it needs anyway).
 */
export function defectRows(defects: readonly DefectInput[], timeZone: string) {
  const today = localDate(now(), timeZone);
  return defects.map((d) => {
    const state = newState(CreateScheduleItemCheck.parse(defectItem(d, today)), timeZone);
    const errors = thresholdErrors(state);
    if (errors.length) invalid('schedule item', errors);
    return { uid: newUid('si'), ...rowData(state) };
  });
}

/** A new item's state: the checked body over an item with nothing set (`timeZone`: the acting user's, see applyPatch). */
function newState(p: CreateScheduleItemInput, timeZone: string): ItemState {
  return applyPatch(
    {
      name: p.name,
      type: p.type,
      documentation: [],
      archivedDocumentation: [],
      relatedTo: p.relatedTo,
      relatedToType: p.relatedToType,
      recurring: p.recurring,
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
    timeZone,
  );
}

const SCHEDULE_ITEM: LockTarget<ScheduleItem> = {
  table: 'ScheduleItem',
  what: 'schedule item',
  read: (tx, uid) => tx.scheduleItem.findFirst({ where: { uid } }),
};

export class ScheduleService extends ScheduleReader {
  /** `p` is checked (CreateScheduleItemCheck: GraphQL's validation runs it; other callers parse with it). */
  async create(p: CreateScheduleItemInput): Promise<ScheduleWriteResult> {
    const state = newState(p, await this.zoneForDates(p));
    // checked first without a transaction (a bad item is refused without one), then its asset again under its lock
    await this.check(state, true);
    const uid = newUid('si');
    await retrying(() =>
      this.db.$transaction(async (tx) => {
        await this.checkUnderAssetLock(tx, state);
        await tx.scheduleItem.create({ data: { uid, ...rowData(state) } });
      }),
    );
    return { uid, status: 'created' };
  }

  /**
   * The item's asset, checked again inside the write's transaction once its row is locked: an aircraft's, vehicle's
   * or component's change that takes a tracking item away (refused while an active item tracks it) and its delete
   * lock that row too, so the two serialize and each sees the other (on PostgreSQL both answered 200 when they raced).
   * `refuse` turns the check's refusal into the write's own (a restore's 409).
   */
  private async checkUnderAssetLock(tx: ScopedPrisma, s: ItemState, refuse?: (errors: FieldError[]) => never): Promise<void> {
    if (!ASSET_TYPES.has(s.relatedToType)) return;
    await lockRows(tx, ASSET_TABLE[s.relatedToType as AssetType], [s.relatedTo]);
    try {
      await this.check(s, true, transactionAssetsWithComponents(tx));
    } catch (e) {
      if (refuse && e instanceof ValidationError) refuse(e.errors ?? []);
      throw e;
    }
  }

  /** `patch` is checked (UpdateScheduleItemCheck). */
  async update(uid: string, patch: Patch): Promise<ScheduleWriteResult> {
    const current = await this.get(uid);
    const next = applyPatch(stateOf(current), patch, await this.zoneForDates(patch));
    if (sameState(stateOf(current), next)) return { uid, status: 'no_changes' };
    const before = stateOf(current);
    const assetChanged =
      next.relatedTo !== before.relatedTo || next.relatedToType !== before.relatedToType || next.trackingItem !== before.trackingItem;
    await this.check(next, assetChanged);
    return lockedWrite(this.db, SCHEDULE_ITEM, uid, async (tx, locked) => {
      if (!sameState(stateOf(locked), before)) {
        throw new ConflictError(`schedule item ${JSON.stringify(uid)} changed while it was being updated; send the update again`);
      }
      if (assetChanged && next.status === 'active') await this.checkUnderAssetLock(tx, next);
      await tx.scheduleItem.updateMany({ where: { uid }, data: rowData(next) });
      return { uid, status: 'updated' as const };
    });
  }

  /**
   * The zone a date alone as `lastCarriedOutDate` starts in: the acting user's (read only when such a date is sent),
   * as for a completion's `completedAt`.
   */
  private async zoneForDates(p: Patch): Promise<string> {
    return p.lastCarriedOutDate && !p.lastCarriedOutDate.instant ? this.actorTimeZone() : 'UTC';
  }

  /** Soft delete: the item becomes inactive (409 when it already is). */
  async delete(uid: string): Promise<ScheduleWriteResult> {
    return lockedWrite(this.db, SCHEDULE_ITEM, uid, async (tx, item) => {
      if (item.status !== 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is already inactive`);
      await tx.scheduleItem.updateMany({ where: { uid }, data: { status: 'inactive' } });
      return { uid, status: 'deleted' as const };
    });
  }

  /** Makes an inactive item active again (409 when it is active). */
  async restore(uid: string): Promise<ScheduleWriteResult> {
    return lockedWrite(this.db, SCHEDULE_ITEM, uid, async (tx, item) => {
      if (item.status === 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is active; only an inactive item can be restored`);
      // what an active item must be, as on create: its asset there, its tracking item one of the asset's (both may
      // have gone while it was inactive: an inactive item does not hold them)
      await this.checkUnderAssetLock(tx, stateOf(item), (errors) => {
        throw new ConflictError(`schedule item ${JSON.stringify(uid)} cannot be restored: ${errors.map((e) => e.message).join('; ')}`);
      });
      await tx.scheduleItem.updateMany({ where: { uid }, data: { status: 'active' } });
      return { uid, status: 'restored' as const };
    });
  }

  /**
   * Records a completion and rolls the item forward, in one transaction. Recurring: dueAtInterval = trackingValue +
   * recurringInterval; calendarDateDue = the completion's local date (acting user's time zone, else the company's, else UTC: timeZoneOf) +
   * calendarRecurring days. Not recurring: the item becomes inactive. 409 for an inactive item.
   */
  async complete(uid: string, input: CompleteScheduleItemInput = {}): Promise<ScheduleWriteResult> {

    const item = await this.get(uid);
    if (item.status !== 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is inactive; restore it before completing it`);
    const user = await this.users.find(this.actorUserId);
    const timeZone = await this.actorTimeZone();
    const userDisplayName = user?.displayName ?? this.actorUserId;

    // completedAt: a date alone is that day in the acting user's time zone (its start); default now
    let completedAt: Date;
    let completionDate: string;
    if (input.completedAt) {
      completedAt = instantOfDateInput(input.completedAt, timeZone);
      completionDate = input.completedAt.instant ? localDate(completedAt, timeZone) : input.completedAt.date;
      // a date alone starts in the user's zone, which may put its first instant before year 0001 in UTC
      if (!inInstantRange(completedAt)) {
        invalid('completion', [{ path: '/completedAt', message: instantRangeMessage('completedAt', input.completedAt.date, completedAt) }]);
      }
      const future = futureCompletion(input.completedAt.instant !== null, completedAt, completionDate, timeZone);
      if (future) invalid('completion', [{ path: '/completedAt', message: future }]);
    } else {
      completedAt = now();
      completionDate = localDate(completedAt, timeZone);
    }

    const usage = item.trackingItem !== null && item.dueAtInterval !== null;
    const given: string | null = input.trackingValue === undefined || input.trackingValue === null ? null : formatDec(parseDec(input.trackingValue));

    const completionUid = newUid('sc');
    let trackingValue = given;
    await lockedWrite(this.db, SCHEDULE_ITEM, uid, async (tx, locked) => {
      if (locked.status !== 'active') throw new ConflictError(`schedule item ${JSON.stringify(uid)} is inactive; restore it before completing it`);
      if (
        locked.trackingItem !== item.trackingItem ||
        locked.relatedTo !== item.relatedTo ||
        locked.relatedToType !== item.relatedToType ||
        locked.recurring !== item.recurring
      ) {
        throw new ConflictError(`schedule item ${JSON.stringify(uid)} changed while it was being completed; send the completion again`);
      }
      // the default is the asset's current figure, read here, under the item's lock (a second completion of the item
      // waits, then reads after this one: it never rolls the item from an older figure) and, for a component, with
      // its place locked as its removes, installs and resets lock it (components/place.ts): read before the
      // transaction, through the component's row, its parents and the aircraft's totals one statement at a time, a
      // remove or reset committing between them gave a figure the counter never had (PostgreSQL races)
      trackingValue = given;
      if (trackingValue === null && usage) {
        if (item.relatedToType === 'component') await lockPlace(tx, item.relatedTo);
        const asset = ASSET_TYPES.has(item.relatedToType) ? await transactionAssetsWithComponents(tx).live(item.relatedToType as AssetType, item.relatedTo) : null;
        const total = asset?.items.find((x) => x.key === item.trackingItem)?.value ?? null;
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
        },
      });
      const data: ScopedUpdate<'ScheduleItem'> = {
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
          // the next due date must be a date the schedule keeps (9999-12-31 at the latest): else a 400, nothing written
          if (!isCalendarDate(completionDate) || daysBetween(completionDate, LAST_DUE_DATE) < locked.calendarRecurring) {
            invalid('completion', [
              {
                path: '/completedAt',
                message:
                  `the item cannot roll forward: completed on ${completionDate} (${timeZone}), plus calendarRecurring ` +
                  `(${locked.calendarRecurring} days), is past ${LAST_DUE_DATE}, the last due date the schedule keeps`,
              },
            ]);
          }
          data.calendarDateDue = storedDueDate(nextCalendarDue(completionDate, locked.calendarRecurring, timeZone));
        }
      } else {
        data.status = 'inactive';
      }
      await tx.scheduleItem.updateMany({ where: { uid }, data });
      // the work is done: the item's due cycles end with it, so the next approach alerts again (gaps §14)
      await endAlertCycles(tx, uid, completionUid);
    });
    return { uid: completionUid, status: 'created' };
  }

  /**
   * The related thing must exist in the company (aircraft, vehicle, component, user; `company` is the company's own
   * id; `equipment` is a free name), a usage threshold needs an asset with that number tracking item, and the
   * thresholds must be consistent (rules.thresholdErrors). `checkAsset` is false for updates that leave the
   * related thing and the tracking item alone (an item stays editable if its asset has since gone).
   */
  private async check(s: ItemState, checkAsset: boolean, assets: AssetReader = this.assets): Promise<void> {
    const errors: FieldError[] = thresholdErrors(s);
    if (checkAsset) {
      const type = s.relatedToType;
      if (ASSET_TYPES.has(type)) {
        const asset = await assets.live(type as AssetType, s.relatedTo);
        // a deleted vehicle or component is no asset to plan maintenance on, as it is none to install on
        if (!asset || asset.deleted) {
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
}


/** How far ahead of the service's clock a completion's date-time may be: a client's clock running a little fast. */
export const COMPLETION_CLOCK_SLACK_MS = 5 * 60_000;

/**
 * Why a completion's `completedAt` is in the future, or null. Work not yet done cannot be recorded: a mistyped year
 * would roll a calendar item forward from a date to come and push its next due date out by as much (an
 * airworthiness problem); a backdated completion stays allowed (docs/api-notes.md). A date alone (`completedAt` is
 * then its first instant in the time zone it is read in) is in the future while that day has not begun there; a
 * date-time is when it is after the service's clock, a few minutes' slack allowed for a client's clock.
 */
export function futureCompletion(hasTime: boolean, completedAt: Date, completionDate: string, timeZone: string): string | null {
  const at = now();
  if (completedAt.getTime() <= at.getTime() + (hasTime ? COMPLETION_CLOCK_SLACK_MS : 0)) return null;
  return hasTime
    ? `completedAt must not be in the future: ${completedAt.toISOString()} is after the present time, ${at.toISOString()}`
    : `completedAt must not be in the future: ${completionDate} is after today, ${localDate(at, timeZone)} (${timeZone})`;
}
