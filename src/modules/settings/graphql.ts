import { adminOnly } from '../../auth/scopes.js';
import { builder } from '../../graphql/builder.js';
import { inputFromSchema } from '../../graphql/inputs.js';
import { REST_NULLABLE } from '../../rest/representation.js';
import { IntegrationSettingsCheck, type IntegrationSettings, type SmsSettingsView } from './service.js';

/** Integration settings on GraphQL, and through it on REST and MCP (docs/contract/gaps.md §13). */
export const SmsSettingsType = builder.objectRef<SmsSettingsView>('SmsSettings').implement({
  description: 'The SMS provider of the company; the auth token is write-only.',
  fields: (t) => ({
    provider: t.exposeString('provider', { description: 'twilio' }),
    accountSid: t.exposeString('accountSid'),
    from: t.exposeString('from', { description: 'The sending number (E.164)' }),
    hasAuthToken: t.exposeBoolean('hasAuthToken'),
  }),
});

export const IntegrationSettingsType = builder.objectRef<IntegrationSettings>('IntegrationSettings').implement({
  fields: (t) => ({
    sms: t.field({ type: SmsSettingsType, nullable: true, description: 'null: no SMS provider (SMS notifications are recorded as skipped)', extensions: REST_NULLABLE, resolve: (s) => s.sms }),
  }),
});

export const IntegrationSettingsInput = inputFromSchema('IntegrationSettingsInput', IntegrationSettingsCheck);

builder.queryFields((t) => ({
  integrationSettings: t.field({
    type: IntegrationSettingsType,
    description: 'The company\u2019s integration settings (the SMS provider); secrets are never shown.',
    resolve: (_r, _a, ctx) => ctx.services.settings.integrations(),
  }),
}));

builder.mutationFields((t) => ({
  putIntegrationSettings: t.field({
    ...adminOnly(),
    type: IntegrationSettingsType,
    description: 'Replaces the integration settings (admin keys). `sms: null` removes the SMS provider; an authToken left out keeps the stored one.',
    args: { input: t.arg({ type: IntegrationSettingsInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.settings.putIntegrations(args.input),
  }),
}));
