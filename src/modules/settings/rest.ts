import { defineRoutes, named } from '../../rest/contract.js';
import { IntegrationSettingsInputSchema } from './service.js';

/** REST routes of the company's settings (docs/contract/gaps.md §13): each runs its GraphQL field. */
export const PutIntegrationSettingsBody = named('PutIntegrationSettingsBody', IntegrationSettingsInputSchema);

export const settingsRoutes = defineRoutes([
  {
    operationId: 'getIntegrationSettings',
    field: 'Query.integrationSettings',
    method: 'GET',
    path: '/settings/integrations',
    tag: 'Settings',
    summary: 'Integration settings',
    description: 'The SMS provider (`sms`, or null when none); the auth token is never shown (`hasAuthToken`).',
    status: 200,
    errors: [],
  },
  {
    operationId: 'putIntegrationSettings',
    field: 'Mutation.putIntegrationSettings',
    method: 'PUT',
    path: '/settings/integrations',
    tag: 'Settings',
    summary: 'Replace the integration settings',
    description: 'Admin keys only. `{"sms": null}` removes the SMS provider; an `authToken` left out keeps the stored one for the same `accountSid`.',
    body: PutIntegrationSettingsBody,
    bodyArg: 'input',
    status: 200,
    errors: [400],
  },
]);
