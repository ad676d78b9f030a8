import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { secretMark, type AuditActor } from '../audit/service.js';
import { saveCompanySettings } from './save.js';
import { invalid } from '../../errors.js';
import { serviceCheck } from '../../graphql/validation.js';

/**
 * A company's integration settings (docs/contract/gaps.md §13; docs/notifications.md): the SMS provider that sends
 * form notification texts. Read by any key (the auth token never leaves the database: reads say `hasAuthToken`),
 * written by admin keys. The dispatcher reads the stored credentials when it sends (smsProviderOf).
 */

/** An E.164 phone number: `+`, a country code that does not start with 0, 7 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;
export const E164_MESSAGE = 'must be an E.164 phone number: + and 7 to 15 digits, no spaces (e.g. +61412345678)';
export const PhoneSchema = (what: string) => z.string({ error: `${what} must be a string` }).regex(E164_PATTERN, `${what} ${E164_MESSAGE}`);

export const SMS_PROVIDERS = ['twilio'] as const;

export const SmsSettingsInputSchema = z
  .object({
    provider: z.enum(SMS_PROVIDERS, { error: `provider must be one of ${SMS_PROVIDERS.join(', ')}` }),
    accountSid: z
      .string({ error: 'accountSid must be a string' })
      .regex(/^AC[0-9a-fA-F]{32}$/, 'accountSid must be a Twilio account SID: AC and 32 hexadecimal digits'),
    authToken: z
      .string({ error: 'authToken must be a string' })
      .min(16, 'authToken must be at least 16 characters')
      .max(200, 'authToken is too long (200 characters at most)')
      .optional()
      .describe('Write-only. Left out: the stored token is kept (only for the same accountSid)'),
    from: PhoneSchema('from').describe('The sending number (E.164), one of the account\u2019s numbers'),
  })
  .strict()
  .describe('The SMS provider (Twilio)');

export const IntegrationSettingsInputSchema = z
  .object({ sms: SmsSettingsInputSchema.nullable().describe('null removes the SMS provider') })
  .strict()
  .describe('The company\u2019s integration settings');
export type IntegrationSettingsInput = z.output<typeof IntegrationSettingsInputSchema>;
export const IntegrationSettingsCheck = serviceCheck('integration settings', IntegrationSettingsInputSchema);

/** What is stored: the token included (it leaves the database only to the provider). A type, not an interface: a JSON column's value. */
export type StoredSms = {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  from: string;
};

/** What reads show: never the token. */
export interface SmsSettingsView {
  provider: 'twilio';
  accountSid: string;
  from: string;
  hasAuthToken: boolean;
}
export interface IntegrationSettings {
  sms: SmsSettingsView | null;
}

function storedSms(value: unknown): StoredSms | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (v.provider !== 'twilio' || typeof v.accountSid !== 'string' || typeof v.authToken !== 'string' || typeof v.from !== 'string') return null;
  return { provider: 'twilio', accountSid: v.accountSid, authToken: v.authToken, from: v.from };
}

const view = (s: StoredSms | null): IntegrationSettings => ({
  sms: s ? { provider: s.provider, accountSid: s.accountSid, from: s.from, hasAuthToken: true } : null,
});

/** The company's SMS provider with its credentials (the dispatcher's, when it sends), or null. */
export async function smsProviderOf(db: ScopedPrisma): Promise<StoredSms | null> {
  const row = await db.companySettings.findFirst({ select: { sms: true } });
  return storedSms(row?.sms);
}

/** The SMS provider as its audit entry records it: the token only as `[secret]` / `[new secret]`. */
const audited = (s: StoredSms | null, old: StoredSms | null) =>
  s ? { provider: s.provider, accountSid: s.accountSid, from: s.from, authToken: secretMark(s.authToken, old?.authToken) } : null;

export class SettingsService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly actor: () => AuditActor,
  ) {}

  async integrations(): Promise<IntegrationSettings> {
    return view(await smsProviderOf(this.db));
  }

  /** Replaces the settings (`input` checked by IntegrationSettingsCheck); a token left out keeps the stored one. */
  async putIntegrations(input: IntegrationSettingsInput): Promise<IntegrationSettings> {
    const checked = IntegrationSettingsCheck.parse(input);
    const sms = await saveCompanySettings(this.db, this.actor(), {
      entityId: 'integrations',
      read: smsProviderOf,
      next: (old): StoredSms | null => {
        if (!checked.sms) return null;
        const { authToken, ...rest } = checked.sms;
        const token = authToken ?? (old && old.accountSid === rest.accountSid ? old.authToken : undefined);
        if (!token) invalid('integration settings', [{ path: '/sms/authToken', message: 'authToken is required (none is stored for this accountSid)' }]);
        return { ...rest, authToken: token };
      },
      data: (value) => ({ sms: value ?? Prisma.DbNull }),
      audited: (value, old) => ({ sms: audited(value, old) }),
      fields: ['sms'],
    });
    return view(sms);
  }
}
