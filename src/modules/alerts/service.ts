import { repeatedKeys, targetKey } from '../../lib/text.js';
import { z } from 'zod';
import { Prisma, type WebhookDelivery } from '../../generated/prisma/client.js';
import type { ScopedCreate, ScopedPrisma } from '../../db/scoped.js';
import { secretMark, type AuditActor } from '../audit/service.js';
import { saveCompanySettings } from '../settings/save.js';
import { afterCursor, toPage, timeCursorArg } from '../../db/keyset.js';
import { invalid } from '../../errors.js';
import { decimalPlaces } from '../../lib/decimal.js';
import { TRACKING_VALUE_PLACES, placesMessage } from '../tracking/limits.js';
import { serviceCheck } from '../../graphql/validation.js';
import { newUid } from '../../lib/ids.js';
import { now } from '../../lib/clock.js';
import { LimitParam, PAGE_DEFAULT, parseFilter } from '../../lib/params.js';
import { HttpUrl, WebhookInputSchema } from '../forms/schema.js';
import { TIME_ZONE_MESSAGE, alertLevel, isTimeZone, zoneSpelling } from '../schedule/rules.js';
import type { MaintenanceStatusItem } from '../schedule/read-model.js';
import { PhoneSchema } from '../settings/service.js';
import type { AssetReader, AssetType } from '../assets/live.js';
import type { ScheduleReader } from '../schedule/read-model.js';
import { CHANNELS, DELIVERY_STATUSES } from '../webhooks/service.js';
import { cycleOf, endpointOf, ALERT_DEFAULTS, ALERT_EVENTS, ALERT_STATUSES, alertSettingsOf, type AlertEvent, type AlertPayload, type StoredAlertSettings, type StoredRecipient } from './stored.js';

export { ALERT_BACKOFF_MINUTES, ALERT_EVENTS, ALERT_MAX_ATTEMPTS, ALERT_STATUSES, AlertPayloadSchema, alertSettingsOf, type AlertEvent, type AlertPayload } from './stored.js';

/**
 * Maintenance alerts (docs/contract/gaps.md §14; docs/notifications.md "Maintenance alerts"): a company's alert
 * settings, the evaluation that raises an alert when a schedule item becomes due soon or overdue, and the alert
 * deliveries log. An alert is raised once per item, event and due cycle: the MaintenanceAlert row's unique key
 * (company, item, event, cycle) decides it in the database, so however many processes evaluate at once (after a
 * write, or in the date sweep of ./monitor.ts), one of them inserts it and the others find it there. Its deliveries
 * are outbox rows written in the same transaction and sent by the delivery dispatcher (src/modules/webhooks/dispatcher.ts),
 * which retries a failed alert delivery with backoff (ALERT_BACKOFF_MINUTES).
 */

const MAX_RECIPIENTS = 20;

export const AlertRecipientSchema = z
  .object({
    email: z.email({ error: 'email must be an email address' }).max(320).optional(),
    phone: PhoneSchema('phone').optional(),
    url: HttpUrl.optional(),
    secret: WebhookInputSchema.shape.secret.describe(
      'Write-only, with url: signs the alert webhooks (Standard Webhooks). Left out: the stored one for the same url is kept; null removes it',
    ),
  })
  .strict()
  .superRefine((r, ctx) => {
    const channels = [r.email, r.phone, r.url].filter((v) => v !== undefined).length;
    if (channels !== 1) ctx.addIssue({ code: 'custom', message: 'a recipient is exactly one of {email}, {phone} or {url, secret?}', path: [] });
    if (r.secret !== undefined && r.url === undefined) ctx.addIssue({ code: 'custom', message: 'secret goes with url (it signs webhooks)', path: ['secret'] });
  })
  .describe('One of {email}, {phone} (E.164) or {url, secret?} (a signed webhook)');

export const AlertSettingsInputSchema = z
  .object({
    dueSoonDays: z
      .number({ error: 'dueSoonDays must be a number' })
      .int('dueSoonDays must be a whole number')
      .min(0, 'dueSoonDays must be 0 or more')
      .max(366, 'dueSoonDays must be at most 366')
      .default(ALERT_DEFAULTS.dueSoonDays)
      .describe('Calendar days before the due date'),
    dueSoonHours: z
      .number({ error: 'dueSoonHours must be a number' })
      .min(0, 'dueSoonHours must be 0 or more')
      .max(100_000, 'dueSoonHours must be at most 100000')
      // the tracking figures' places rule (its thresholds are compared with them), in its words
      .refine((v) => decimalPlaces(v) <= TRACKING_VALUE_PLACES, placesMessage('dueSoonHours'))
      .default(ALERT_DEFAULTS.dueSoonHours)
      .describe('Usage units (hours, landings ...) before the threshold'),
    timezone: z
      .string({ error: 'timezone must be a string' })
      .refine((tz) => isTimeZone(tz), TIME_ZONE_MESSAGE)
      .overwrite(zoneSpelling)
      .default(ALERT_DEFAULTS.timezone)
      .describe('Time zone of calendar days, as POST /aggregate takes it (IANA Area/Location name, UTC, listed abbreviation or offset)'),
    recipients: z
      .array(AlertRecipientSchema, { error: 'recipients must be an array of {email}, {phone} or {url, secret?}' })
      .max(MAX_RECIPIENTS, `recipients holds at most ${MAX_RECIPIENTS} entries`)
      .default([])
      .describe('Each alert goes to every recipient'),
  })
  .strict()
  .describe('Maintenance alert settings');
export type AlertSettingsInput = z.output<typeof AlertSettingsInputSchema>;
export const AlertSettingsCheck = serviceCheck('alert settings', AlertSettingsInputSchema);

/** What reads show: never a secret. */
export interface AlertRecipientView {
  email: string | null;
  phone: string | null;
  url: string | null;
  hasSecret: boolean | null;
}
export interface AlertSettingsView {
  /** false until the settings are saved: alerts are evaluated only for a company that saved them */
  enabled: boolean;
  dueSoonDays: number;
  dueSoonHours: number;
  timezone: string;
  recipients: AlertRecipientView[];
}

function view(s: StoredAlertSettings | null): AlertSettingsView {
  const v = s ?? { ...ALERT_DEFAULTS, recipients: [] };
  return {
    // alerts are raised for a company that saved its settings with someone to tell (evaluate)
    enabled: s !== null && s.recipients.length > 0,
    dueSoonDays: v.dueSoonDays,
    dueSoonHours: v.dueSoonHours,
    timezone: v.timezone,
    recipients: v.recipients.map((r) => ({ email: r.email ?? null, phone: r.phone ?? null, url: r.url ?? null, hasSecret: r.url ? !!r.secret : null })),
  };
}

export const AlertDeliveryFilterSchema = z
  .object({
    channel: z.enum(CHANNELS, { error: `channel must be one of ${CHANNELS.join(', ')}` }).optional(),
    status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
    alertId: z.string().min(1).max(128).optional(),
    limit: LimitParam.optional().describe('Page size, 1 to 500 (default 100)'),
    cursor: timeCursorArg('alert delivery').optional(),
  })
  .strict();
export type AlertDeliveryFilter = z.input<typeof AlertDeliveryFilterSchema>;

export interface AlertDeliveryPage {
  data: WebhookDelivery[];
  count: number;
  nextCursor: string | null;
}


/** Settings as their audit entry records them: each webhook secret only as `[secret]` / `[new secret]`. */
function audited(s: StoredAlertSettings, old: StoredAlertSettings | null) {
  const recipients = s.recipients.map((r) =>
    r.email ? { email: r.email } : r.phone ? { phone: r.phone } : { url: r.url, secret: secretMark(r.secret, old?.recipients.find((o) => o.url !== undefined && endpointOf(o.url) === endpointOf(r.url!))?.secret) },
  );
  return { ...s, recipients };
}

export class AlertService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly schedule: ScheduleReader,
    private readonly assets: AssetReader,
    private readonly actor: () => AuditActor,
  ) {}

  async settings(): Promise<AlertSettingsView> {
    return view(await alertSettingsOf(this.db));
  }

  /** Replaces the settings (checked by AlertSettingsCheck); a secret left out keeps the one stored for the same url. */
  async putSettings(input: AlertSettingsInput): Promise<AlertSettingsView> {
    const checked = AlertSettingsCheck.parse(input);
    const stored = await saveCompanySettings(this.db, this.actor(), {
      entityId: 'alerts',
      read: alertSettingsOf,
      next: (old) => this.merged(checked, old),
      data: (value) => ({ alerts: value }),
      audited: (value, old) => value && audited(value, old),
      fields: ['dueSoonDays', 'dueSoonHours', 'timezone', 'recipients'],
      firstIsCreated: true,
    });
    return view(stored);
  }

  /** The settings to store: `checked` with each url's secret kept when left out; a recipient listed twice is a 400. */
  private merged(checked: AlertSettingsInput, old: StoredAlertSettings | null): StoredAlertSettings {
    const recipients: StoredRecipient[] = checked.recipients.map((r) => {
      if (r.email) return { email: r.email };
      if (r.phone) return { phone: r.phone };
      const kept = r.secret === undefined ? old?.recipients.find((o) => o.url !== undefined && endpointOf(o.url) === endpointOf(r.url!))?.secret : (r.secret ?? undefined);
      return kept ? { url: r.url, secret: kept } : { url: r.url };
    });
    // one mailbox or endpoint however it is written: email addresses and URLs' schemes and hosts in any case
    const [dup] = repeatedKeys(recipients.map((r) => [[null, r.email ? targetKey.email(r.email) : r.phone ? targetKey.phone(r.phone) : targetKey.url(r.url!)] as const]));
    if (dup) {
      const shown = (i: number) => recipients[i].email ?? recipients[i].phone ?? recipients[i].url;
      invalid('alert settings', [{ path: `/recipients/${dup.index}`, message: `${shown(dup.index)} is listed twice (as recipients/${dup.first} ${shown(dup.first)})` }]);
    }
    return { dueSoonDays: checked.dueSoonDays, dueSoonHours: checked.dueSoonHours, timezone: checked.timezone, recipients };
  }

  async deliveries(filter: AlertDeliveryFilter = {}): Promise<AlertDeliveryPage> {
    const f = parseFilter(AlertDeliveryFilterSchema, filter, 'invalid alert-delivery query');
    const limit = f.limit ?? PAGE_DEFAULT;
    const where: Prisma.WebhookDeliveryWhereInput = { alertId: f.alertId ?? { not: null } };
    if (f.channel) where.channel = f.channel;
    if (f.status) where.status = f.status === 'pending' ? { in: ['pending', 'sending'] } : f.status;
    if (f.cursor) Object.assign(where, afterCursor('createdAt', f.cursor, 'alert delivery'));
    const rows = await this.db.webhookDelivery.findMany({ where, orderBy: [{ createdAt: 'desc' }, { uid: 'desc' }], take: limit + 1 });
    return toPage(rows, limit, (r) => r.createdAt, 'alert delivery');
  }

  /**
   * Raises the alerts the schedule calls for now: for each active item that is due soon or overdue by its live
   * totals and today's date (in the settings' time zone), the alert of that level for its current cycle, unless it
   * was raised before. An item found overdue without a due-soon alert records that one unsent, so a later move
   * back (a log corrected) does not send it after the overdue one. Returns the alerts raised and the deliveries
   * written (the caller wakes the dispatcher). Does nothing for a company without saved settings or recipients.
   */
  async evaluate(at: Date = now()): Promise<{ raised: number; deliveries: number }> {
    const settings = await alertSettingsOf(this.db);
    // without recipients an alert would be raised and sent to nobody, and not raised again once recipients are
    // added: nothing is raised until there is someone to tell (saving recipients evaluates at once)
    if (!settings?.recipients.length) return { raised: 0, deliveries: 0 };
    const status = await this.schedule.allStatus({ timezone: settings.timezone }, at);
    const soon = { hours: settings.dueSoonHours, days: settings.dueSoonDays };
    const leveled = status
      .map((s) => ({ s, level: alertLevel(s, soon) }))
      .filter((x): x is { s: MaintenanceStatusItem; level: 'overdue' | 'due_soon' } => x.level !== null);
    // a deleted vehicle or component is out of service: its items raise nothing until it is restored (the alert
    // is raised then, as the restore is a write that evaluates the company)
    const retired = await this.deletedAssets(leveled.map((x) => x.s));
    const due = leveled.filter((x) => !retired.has(`${x.s.relatedToType}\u0000${x.s.relatedTo}`));
    if (!due.length) return { raised: 0, deliveries: 0 };

    const raised = await this.db.maintenanceAlert.findMany({
      where: { scheduleItemId: { in: due.map((d) => d.s.scheduleItemUid) } },
      select: { scheduleItemId: true, event: true, cycle: true },
    });
    const seen = new Set(raised.map((r) => `${r.scheduleItemId}\u0000${r.event}\u0000${r.cycle}`));
    const wanted: { s: MaintenanceStatusItem; event: AlertEvent; notified: boolean }[] = [];
    for (const { s, level } of due) {
      const cycle = cycleOf(s);
      const has = (e: AlertEvent) => seen.has(`${s.scheduleItemUid}\u0000${e}\u0000${cycle}`);
      if (level === 'overdue') {
        if (!has('maintenance.overdue')) wanted.push({ s, event: 'maintenance.overdue', notified: true });
        if (!has('maintenance.due_soon')) wanted.push({ s, event: 'maintenance.due_soon', notified: false });
      } else if (!has('maintenance.due_soon')) {
        wanted.push({ s, event: 'maintenance.due_soon', notified: true });
      }
    }
    if (!wanted.length) return { raised: 0, deliveries: 0 };

    const names = await this.assetNames(wanted.map((w) => w.s));
    const raisedAt = at.toISOString();
    const rows = wanted.map(({ s, event, notified }) => {
      const uid = newUid('al');
      const payload = alertPayload(uid, event, s, names.get(`${s.relatedToType}\u0000${s.relatedTo}`) ?? s.relatedTo, raisedAt);
      return { uid, scheduleItemId: s.scheduleItemUid, event, cycle: cycleOf(s), notified, payload };
    });
    return this.db.$transaction(async (tx) => {
      // another process may have raised some of them since the read above: the unique key keeps the first
      const inserted = await tx.maintenanceAlert.createManyAndReturn({ data: rows, skipDuplicates: true, select: { uid: true, notified: true } });
      const payloads = new Map(rows.map((r) => [r.uid, r.payload]));
      const outbox: ScopedCreate<'WebhookDelivery'>[] = [];
      for (const a of inserted.filter((a) => a.notified)) {
        for (const r of settings.recipients) {
          const channel = r.email ? 'email' : r.phone ? 'sms' : 'webhook';
          const target = r.email ?? r.phone ?? r.url!;
          const uid = newUid('dl');
          outbox.push({ uid, alertId: a.uid, channel, target, messageId: uid, payload: payloads.get(a.uid)! });
        }
      }
      if (outbox.length) await tx.webhookDelivery.createMany({ data: outbox });
      return { raised: inserted.filter((a) => a.notified).length, deliveries: outbox.length };
    });
  }

  /** The soft-deleted vehicles and components among the items' assets, as `type\u0000uid` keys. */
  private async deletedAssets(items: MaintenanceStatusItem[]): Promise<Set<string>> {
    const keys = new Map<string, { type: AssetType; uid: string }>();
    for (const i of items) {
      if (i.relatedToType === 'vehicle' || i.relatedToType === 'component') keys.set(`${i.relatedToType}\u0000${i.relatedTo}`, { type: i.relatedToType, uid: i.relatedTo });
    }
    const out = new Set<string>();
    await Promise.all([...keys].map(async ([k, a]) => ((await this.assets.live(a.type, a.uid))?.deleted ? out.add(k) : undefined)));
    return out;
  }

  private async assetNames(items: MaintenanceStatusItem[]): Promise<Map<string, string>> {
    const keys = new Map<string, { type: string; uid: string }>();
    for (const i of items) keys.set(`${i.relatedToType}\u0000${i.relatedTo}`, { type: i.relatedToType, uid: i.relatedTo });
    const out = new Map<string, string>();
    await Promise.all(
      [...keys].map(async ([k, a]) => {
        const live = ['aircraft', 'vehicle', 'component'].includes(a.type) ? await this.assets.live(a.type as AssetType, a.uid) : null;
        if (live) out.set(k, live.name);
      }),
    );
    return out;
  }
}

export function alertPayload(alertId: string, event: AlertEvent, s: MaintenanceStatusItem, assetName: string, raisedAt: string): AlertPayload {
  const remaining: AlertPayload['remaining'] = {};
  if (s.remaining !== null) remaining.hours = s.remaining;
  if (s.calendarDaysRemaining !== null) remaining.days = s.calendarDaysRemaining;
  const past = (s.remaining !== null && s.remaining < 0) || (s.calendarDaysRemaining !== null && s.calendarDaysRemaining < 0);
  return {
    event,
    alertId,
    itemUid: s.scheduleItemUid,
    title: s.name,
    asset: { type: s.relatedToType, uid: s.relatedTo, name: assetName },
    remaining,
    ...(s.calendarDateDue ? { dueAt: s.calendarDateDue.toISOString().slice(0, 10) } : {}),
    ...(s.dueAtInterval !== null ? { dueAtValue: s.dueAtInterval } : {}),
    ...(s.trackingItemDisplayText ? { trackingItem: s.trackingItemDisplayText } : s.trackingItem ? { trackingItem: s.trackingItem } : {}),
    status: event === 'maintenance.due_soon' ? 'due_soon' : past ? 'overdue' : 'due',
    raisedAt,
  };
}
