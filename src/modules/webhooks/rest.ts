import { z } from 'zod';
import { defineRoutes } from '../../rest/contract.js';
import { DeliveryFilterSchema } from './service.js';

/**
 * REST routes of the delivery log and re-send (docs/contract/gaps.md §10): declarations only; the bodies are the REST
 * representation of the GraphQL types (src/rest/representation.ts).
 */
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
    errors: [400, 404],
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
    errors: [404],
  },
]);
