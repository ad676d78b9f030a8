import { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { argsFromSchema } from '../../graphql/inputs.js';
import { stripNulls } from '../../graphql/common.js';
import { typedAs } from '../../lib/graphql-hint.js';
import { REST_NULLABLE, jsonOf } from '../../rest/representation.js';
import { CHANNELS, DELIVERY_STATUSES, DeliveryFilterSchema, publicStatus, type DeliveryPage } from './service.js';

/**
 * The delivery log and re-send on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md):
 * the objects below are the one definition of a delivery and its page.
 */
export const DeliveryType = builder.prismaObject('WebhookDelivery', {
  name: 'Delivery',
  description: 'One attempt to deliver a form submission to a webhook URL, a notification email address or a phone.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    // a form's log holds only its submissions' deliveries (an alert's have no form: src/modules/alerts/graphql.ts)
    formId: t.string({ resolve: (d) => d.formId ?? '' }),
    completionId: t.string({ resolve: (d) => d.completionId ?? '' }),
    channel: t.exposeString('channel', { description: 'webhook, email or sms', extensions: jsonOf(z.enum(CHANNELS)) }),
    target: t.exposeString('target', { description: 'The URL, email address or phone number' }),
    messageId: t.exposeString('messageId', { description: 'The webhook-id header: the same for a re-send' }),
    status: t.string({ description: 'pending, delivered, failed or skipped', extensions: jsonOf(z.enum(DELIVERY_STATUSES)), resolve: (d) => publicStatus(d) }),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    resendOf: t.exposeString('resendOf', { nullable: true }),
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const DeliveryPageType = builder.objectRef<DeliveryPage>('DeliveryPage').implement({
  fields: (t) => ({
    data: t.field({ type: [DeliveryType], resolve: (p) => p.data }),
    count: t.exposeInt('count'),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end', extensions: REST_NULLABLE }),
  }),
});

export const ResendResultType = builder.objectRef<{ uid: string; status: 'pending' }>('ResendResult').implement({
  fields: (t) => ({
    uid: t.exposeID('uid', { description: 'The new delivery' }),
    status: t.exposeString('status', { description: 'pending', extensions: jsonOf(z.enum(['pending'])) }),
  }),
});

/** The delivery log's arguments: the form (required) and the REST query's filter. */
const DeliveryListArgs = DeliveryFilterSchema.extend({ id: typedAs(z.string().min(1).max(128), 'ID') });

builder.queryFields((t) => ({
  formDeliveries: t.field({
    type: DeliveryPageType,
    description: 'The delivery log of a form, newest first: webhook, email and SMS attempts with their outcome.',
    args: argsFromSchema(t, 'DeliveryFilter', DeliveryListArgs, 'delivery', ['id']),
    resolve: (_r, { id, ...filter }, ctx) => ctx.services.deliveries.list(id, stripNulls(filter)),
  }),
}));

builder.mutationFields((t) => ({
  resendDelivery: t.field({
    type: ResendResultType,
    description: 'Sends the same payload again (a webhook keeps its webhook-id); the attempt is a new delivery.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.deliveries.resend(String(args.id)),
  }),
}));
