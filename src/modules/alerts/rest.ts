import { defineRoutes, named } from '../../rest/contract.js';
import { AlertDeliveryFilterSchema, AlertSettingsInputSchema } from './service.js';

/** REST routes of maintenance alerts (docs/contract/gaps.md §14): each runs its GraphQL field. */
export const PutAlertSettingsBody = named('PutAlertSettingsBody', AlertSettingsInputSchema);

export const alertRoutes = defineRoutes([
  {
    operationId: 'getAlertSettings',
    field: 'Query.alertSettings',
    method: 'GET',
    path: '/settings/alerts',
    tag: 'Settings',
    summary: 'Maintenance alert settings',
    description: 'Due-soon thresholds, the time zone of calendar days and the recipients (secrets never shown); `enabled` is false until saved with at least one recipient.',
    status: 200,
    errors: [],
  },
  {
    operationId: 'putAlertSettings',
    field: 'Mutation.putAlertSettings',
    method: 'PUT',
    path: '/settings/alerts',
    tag: 'Settings',
    summary: 'Replace the maintenance alert settings',
    description:
      'Admin keys only. Saving turns alerts on: `maintenance.due_soon` and `maintenance.overdue`, once per item and due cycle. A secret left out keeps the stored one for the same url.',
    body: PutAlertSettingsBody,
    bodyArg: 'input',
    status: 200,
    errors: [400],
  },
  {
    operationId: 'listAlertDeliveries',
    field: 'Query.alertDeliveries',
    method: 'GET',
    path: '/alerts/deliveries',
    tag: 'Settings',
    summary: 'The maintenance alert deliveries',
    description: 'Alert delivery attempts, newest first; a failed one is retried (attempts 2-6, after 1, 5, 15, 30, 60 min).',
    query: AlertDeliveryFilterSchema,
    status: 200,
    errors: [400],
  },
]);
