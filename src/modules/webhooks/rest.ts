import { z } from 'zod';
import { defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { CHANNELS, DELIVERY_STATUSES, DeliveryFilterSchema } from './service.js';

/** REST adapter for the delivery log and re-send (docs/contract/gaps.md §10). */
export const DeliveryDoc = named(
  'Delivery',
  z.object({
    uid: z.string(),
    formId: z.string(),
    completionId: z.string(),
    channel: z.enum(CHANNELS),
    target: z.string().describe('The URL or email address'),
    messageId: z.string().describe('The webhook-id header; a re-send keeps it'),
    status: z.enum(DELIVERY_STATUSES),
    statusCode: z.number().int().optional(),
    durationMs: z.number().int().optional(),
    error: z.string().optional(),
    resendOf: z.string().optional(),
    attemptedAt: z.string().optional(),
    createdAt: z.string(),
  }),
);
export const DeliveryPageDoc = named('DeliveryPage', z.object({ data: z.array(DeliveryDoc), count: z.number().int(), nextCursor: z.string().nullable() }));
export const ResendResultDoc = named('ResendResult', z.object({ uid: z.string(), status: z.enum(['pending']) }));

export const deliveryRoutes = defineRoutes([
  {
    operationId: 'listFormDeliveries',
    field: 'Query.formDeliveries',
    method: 'GET',
    path: '/forms/{id}/deliveries',
    tag: 'Forms',
    summary: 'The delivery log of a form',
    description: 'Every webhook and email attempt for the form\u2019s submissions, newest first, with status code, duration and error.',
    params: z.object({ id: z.string().min(1).max(128).describe('Form uid') }),
    query: DeliveryFilterSchema,
    status: 200,
    response: DeliveryPageDoc,
    errors: [400, 404],
    present: (d) => ({ data: d.data.map((x: Record<string, unknown>) => omitNulls(x)), count: d.count, nextCursor: d.nextCursor }),
  },
  {
    operationId: 'resendDelivery',
    field: 'Mutation.resendDelivery',
    method: 'POST',
    path: '/deliveries/{id}/resend',
    tag: 'Forms',
    summary: 'Re-send a delivery',
    description: 'The same payload to the same target as a new delivery (202: it is sent shortly); a webhook keeps its webhook-id.',
    params: z.object({ id: z.string().min(1).max(128).describe('Delivery uid') }),
    status: 202,
    response: ResendResultDoc,
    errors: [404],
  },
]);
