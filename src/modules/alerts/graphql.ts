import { z } from 'zod';
import { adminOnly } from '../../auth/scopes.js';
import { builder } from '../../graphql/builder.js';
import { argsFromSchema, inputFromSchema } from '../../graphql/inputs.js';
import { stripNulls } from '../../graphql/common.js';
import { REST_NULLABLE, jsonOf } from '../../rest/representation.js';
import { CHANNELS, DELIVERY_STATUSES, publicStatus } from '../webhooks/service.js';
import { AlertDeliveryFilterSchema, AlertSettingsCheck, type AlertDeliveryPage, type AlertRecipientView, type AlertSettingsView } from './service.js';

/** Maintenance alert settings and the alert deliveries log on GraphQL, and through it on REST and MCP (gaps §14). */
export const AlertRecipientType = builder.objectRef<AlertRecipientView>('AlertRecipient').implement({
  description: 'One recipient of maintenance alerts: an email address, a phone (SMS) or a webhook URL.',
  fields: (t) => ({
    email: t.exposeString('email', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true, description: 'E.164; sent through the SMS provider of the integration settings' }),
    url: t.exposeString('url', { nullable: true, description: 'A webhook receiving the alert payload (Standard Webhooks headers)' }),
    hasSecret: t.exposeBoolean('hasSecret', { nullable: true, description: 'With url: whether its deliveries are signed (the secret is write-only)' }),
  }),
});

export const AlertSettingsType = builder.objectRef<AlertSettingsView>('AlertSettings').implement({
  description: 'When schedule items count as due soon, and who is told when one becomes due soon or overdue.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'false until the settings are saved with at least one recipient: alerts are evaluated only for a company that did' }),
    dueSoonDays: t.exposeInt('dueSoonDays', { description: 'Due soon this many calendar days before the due date' }),
    dueSoonHours: t.exposeFloat('dueSoonHours', { description: 'Due soon this many usage units (hours, landings ...) before the threshold' }),
    timezone: t.exposeString('timezone', { description: 'The time zone whose calendar days count; also the company\u2019s: a defect from a submitter without a time zone (a public form\u2019s) is due today in it' }),
    recipients: t.field({ type: [AlertRecipientType], resolve: (s) => s.recipients }),
  }),
});

export const AlertSettingsInput = inputFromSchema('AlertSettingsInput', AlertSettingsCheck);

export const AlertDeliveryType = builder.prismaObject('WebhookDelivery', {
  variant: 'AlertDelivery',
  description: 'One attempt to deliver a maintenance alert by email, SMS or webhook; a failed attempt is retried as a new delivery after its backoff.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    alertId: t.string({ description: 'The alert sent (its payload\u2019s alertId)', resolve: (d) => d.alertId ?? '' }),
    channel: t.exposeString('channel', { description: 'webhook, email or sms', extensions: jsonOf(z.enum(CHANNELS)) }),
    target: t.exposeString('target', { description: 'The URL, email address or phone number' }),
    messageId: t.exposeString('messageId', { description: 'The webhook-id header: the same for every attempt of an alert to a recipient' }),
    attempt: t.exposeInt('attempt', { description: '1 for the first attempt; retries after 1, 5, 15, 30 and 60 minutes' }),
    status: t.string({ description: 'pending, delivered, failed or skipped', extensions: jsonOf(z.enum(DELIVERY_STATUSES)), resolve: (d) => publicStatus(d) }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    resendOf: t.exposeString('resendOf', { nullable: true, description: 'The attempt this one follows (a retry or a re-send)' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'A retry is not sent before this instant' }),
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.field({ type: 'JSON', description: 'The alert as sent: {event, alertId, itemUid, title, asset, remaining, dueAt?, status, raisedAt}', resolve: (d) => d.payload }),
  }),
});

export const AlertDeliveryPageType = builder.objectRef<AlertDeliveryPage>('AlertDeliveryPage').implement({
  fields: (t) => ({
    data: t.field({ type: [AlertDeliveryType], resolve: (p) => p.data }),
    count: t.exposeInt('count'),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end', extensions: REST_NULLABLE }),
  }),
});

builder.queryFields((t) => ({
  alertSettings: t.field({
    type: AlertSettingsType,
    description: 'The company\u2019s maintenance alert settings (defaults until saved); webhook secrets are never shown.',
    resolve: (_r, _a, ctx) => ctx.services.alerts.settings(),
  }),
  alertDeliveries: t.field({
    type: AlertDeliveryPageType,
    description: 'The maintenance alert deliveries, newest first: every email, SMS and webhook attempt with its outcome.',
    args: argsFromSchema(t, 'AlertDeliveryFilter', AlertDeliveryFilterSchema, 'alert delivery'),
    resolve: (_r, args, ctx) => ctx.services.alerts.deliveries(stripNulls(args)),
  }),
}));

builder.mutationFields((t) => ({
  putAlertSettings: t.field({
    ...adminOnly(),
    type: AlertSettingsType,
    description:
      'Replaces the maintenance alert settings (admin keys). Saving them turns alerts on: items already due soon or overdue are alerted at once. A webhook secret left out keeps the stored one for the same url.',
    args: { input: t.arg({ type: AlertSettingsInput, required: true }) },
    resolve: async (_r, args, ctx) => ctx.services.alerts.putSettings(args.input),
  }),
}));
