import { z } from 'zod';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { isReadableTimeZone } from '../schedule/rules.js';
export { endpointOf } from '../../lib/text.js';

/**
 * Maintenance alert settings as the database holds them, the retry schedule of alert deliveries and what those
 * deliveries carry: what the delivery dispatcher needs of alerts (./service.ts has the rest; kept apart so the
 * dispatcher does not import it).
 */
/** Minutes before each retry of a failed alert delivery: attempt 2 after 1 minute ... attempt 6 after 60 (gaps §14). */
export const ALERT_BACKOFF_MINUTES = [1, 5, 15, 30, 60] as const;
export const ALERT_MAX_ATTEMPTS = ALERT_BACKOFF_MINUTES.length + 1;

/**
 * An item's due cycle: the thresholds it is judged against (its due reading as a number, its due date). An edit that
 * moves them starts a new cycle (new alerts); an alert is of the cycle it was raised in. A completion ends the
 * item's cycles (endAlertCycles), also when it rolls the item forward onto the thresholds it had.
 */
export const cycleOf = (s: { dueAtInterval: number | null; calendarDateDue: Date | null }) =>
  `${s.dueAtInterval ?? '-'}|${s.calendarDateDue ? s.calendarDateDue.toISOString().slice(0, 10) : '-'}`;

/**
 * Ends the due cycles of a schedule item being completed, in the completion's transaction (the item's row is
 * locked): each alert raised for it since its last completion gets the completion's uid in its cycle
 * (`<cycle>|done:<completion uid>`), a key cycleOf never gives. So the next approach alerts again though the
 * roll-forward lands on the same thresholds (a weekly item completed a week early is due on the same date), or on
 * thresholds an earlier edit had alerted on; and an ended alert's pending attempts are not sent (the dispatcher finds
 * its cycle gone). Keys of alerts of items never completed stay as they are: nothing already raised is raised again.
 */
export async function endAlertCycles(tx: ScopedPrisma, itemUid: string, completionUid: string): Promise<void> {
  await tx.$executeRaw`UPDATE "MaintenanceAlert" SET cycle = cycle || ${`|done:${completionUid}`}
    WHERE "companyId" = ${COMPANY} AND "scheduleItemId" = ${itemUid} AND cycle NOT LIKE '%|done:%'`;
}

/**
 * Whether a schedule item's asset is a soft-deleted vehicle or component: out of service, so its items raise no alert
 * and an alert's pending attempts are not sent (docs/notifications.md). Other kinds are never soft-deleted.
 */
export async function assetDeleted(db: ScopedPrisma, type: string, uid: string): Promise<boolean> {
  if (type === 'vehicle') return (await db.vehicle.findFirst({ where: { uid }, select: { status: true } }))?.status === 'deleted';
  if (type === 'component') return (await db.component.findFirst({ where: { uid }, select: { status: true } }))?.status === 'deleted';
  return false;
}

export const ALERT_EVENTS = ['maintenance.due_soon', 'maintenance.overdue'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];
/** What an item's payload says it is: due soon, due (a threshold reached exactly, or due today) or overdue. */
export const ALERT_STATUSES = ['due_soon', 'due', 'overdue'] as const;

/**
 * The payload of an alert (gaps §14), as webhooks receive it (the body's `data`) and emails and SMS say it: defined
 * once, as the schema the dispatcher reads it back with (./messages.ts), so the stored JSON and the messages cannot
 * drift apart.
 */
export const AlertPayloadSchema = z.object({
  event: z.enum(ALERT_EVENTS),
  alertId: z.string(),
  itemUid: z.string(),
  title: z.string(),
  asset: z.object({ type: z.string(), uid: z.string(), name: z.string() }),
  remaining: z.object({ hours: z.number().optional(), days: z.number().optional() }),
  /** the calendar due date (YYYY-MM-DD), when the item has one */
  dueAt: z.string().optional(),
  /** the usage threshold and what it counts, when the item has one */
  dueAtValue: z.number().optional(),
  trackingItem: z.string().optional(),
  status: z.enum(ALERT_STATUSES),
  raisedAt: z.string(),
});
export type AlertPayload = z.infer<typeof AlertPayloadSchema>;

export const ALERT_DEFAULTS = { dueSoonDays: 14, dueSoonHours: 10, timezone: 'UTC' } as const;

/**
 * A recipient as stored: the secret included (it leaves the database only as a signature). Types, not interfaces,
 * so that they are taken as Prisma's JSON without a cast (an interface does not match an index signature).
 */
export type StoredRecipient = {
  email?: string;
  phone?: string;
  url?: string;
  secret?: string;
};
export type StoredAlertSettings = {
  dueSoonDays: number;
  dueSoonHours: number;
  timezone: string;
  recipients: StoredRecipient[];
};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The stored settings, or null when the company never saved any. */
export function storedAlertSettings(value: unknown): StoredAlertSettings | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const recipients = Array.isArray(v.recipients) ? (v.recipients as Record<string, unknown>[]) : [];
  return {
    dueSoonDays: typeof v.dueSoonDays === 'number' ? v.dueSoonDays : ALERT_DEFAULTS.dueSoonDays,
    dueSoonHours: typeof v.dueSoonHours === 'number' ? v.dueSoonHours : ALERT_DEFAULTS.dueSoonHours,
    // a zone stored before today's rule (isTimeZone) keeps being read: only new writes follow it
    timezone: typeof v.timezone === 'string' && isReadableTimeZone(v.timezone) ? v.timezone : ALERT_DEFAULTS.timezone,
    recipients: recipients.map((r) => ({ email: str(r?.email), phone: str(r?.phone), url: str(r?.url), secret: str(r?.secret) })),
  };
}

export async function alertSettingsOf(db: ScopedPrisma): Promise<StoredAlertSettings | null> {
  const row = await db.companySettings.findFirst({ select: { alerts: true } });
  return storedAlertSettings(row?.alerts);
}

