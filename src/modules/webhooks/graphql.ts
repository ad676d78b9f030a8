import { argsFromZod } from '../../graphql/zod-input.js';
import { builder } from '../../graphql/builder.js';
import { stripNulls } from '../../graphql/common.js';
import { DeliveryFilterSchema, publicStatus, type DeliveryFilter, type DeliveryPage } from './service.js';

/** GraphQL adapter for the delivery log and re-send over DeliveryService. */
export const DeliveryType = builder.prismaObject('WebhookDelivery', {
  name: 'Delivery',
  description: 'One attempt to deliver a form submission to a webhook URL or a notification email address.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    formId: t.exposeString('formId'),
    completionId: t.exposeString('completionId'),
    channel: t.exposeString('channel', { description: 'webhook or email' }),
    target: t.exposeString('target', { description: 'The URL or email address' }),
    messageId: t.exposeString('messageId', { description: 'The webhook-id header: the same for a re-send' }),
    status: t.string({ description: 'pending, delivered, failed or skipped', resolve: (d) => publicStatus(d) }),
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
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

export const ResendResultType = builder.objectRef<{ uid: string; status: 'pending' }>('ResendResult').implement({
  fields: (t) => ({
    uid: t.exposeID('uid', { description: 'The new delivery' }),
    status: t.exposeString('status', { description: 'pending' }),
  }),
});

builder.queryFields((t) => ({
  formDeliveries: t.field({
    type: DeliveryPageType,
    description: 'The delivery log of a form, newest first: webhook and email attempts with their outcome.',
    args: { id: t.arg.id({ required: true }), ...argsFromZod(t, 'DeliveryFilter', DeliveryFilterSchema) },
    resolve: (_r, { id, ...args }, ctx) => ctx.services.deliveries.list(String(id), stripNulls(args) as DeliveryFilter),
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
