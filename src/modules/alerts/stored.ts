import type { ScopedPrisma } from '../../db/scoped.js';
import { isTimeZone } from '../schedule/rules.js';

/**
 * Maintenance alert settings as the database holds them, and the retry schedule of alert deliveries: what the
 * delivery dispatcher needs of alerts (./service.ts has the rest; kept apart so the dispatcher does not import it).
 */
/** Minutes before each retry of a failed alert delivery: attempt 2 after 1 minute ... attempt 6 after 60 (gaps §14). */
export const ALERT_BACKOFF_MINUTES = [1, 5, 15, 30, 60] as const;
export const ALERT_MAX_ATTEMPTS = ALERT_BACKOFF_MINUTES.length + 1;

export const ALERT_DEFAULTS = { dueSoonDays: 14, dueSoonHours: 10, timezone: 'UTC' } as const;

/** A recipient as stored: the secret included (it leaves the database only as a signature). */
export interface StoredRecipient {
  email?: string;
  phone?: string;
  url?: string;
  secret?: string;
}
export interface StoredAlertSettings {
  dueSoonDays: number;
  dueSoonHours: number;
  timezone: string;
  recipients: StoredRecipient[];
}
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The stored settings, or null when the company never saved any. */
export function storedAlertSettings(value: unknown): StoredAlertSettings | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const recipients = Array.isArray(v.recipients) ? (v.recipients as Record<string, unknown>[]) : [];
  return {
    dueSoonDays: typeof v.dueSoonDays === 'number' ? v.dueSoonDays : ALERT_DEFAULTS.dueSoonDays,
    dueSoonHours: typeof v.dueSoonHours === 'number' ? v.dueSoonHours : ALERT_DEFAULTS.dueSoonHours,
    timezone: typeof v.timezone === 'string' && isTimeZone(v.timezone) ? v.timezone : ALERT_DEFAULTS.timezone,
    recipients: recipients.map((r) => ({ email: str(r?.email), phone: str(r?.phone), url: str(r?.url), secret: str(r?.secret) })),
  };
}

export async function alertSettingsOf(db: ScopedPrisma): Promise<StoredAlertSettings | null> {
  const row = await db.companySettings.findFirst({ select: { alerts: true } });
  return storedAlertSettings(row?.alerts);
}

