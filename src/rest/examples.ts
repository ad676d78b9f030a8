/**
 * The examples the OpenAPI document shows for each operation (docs/api-notes.md "Examples"), keyed by operationId:
 * the request (path and query parameters, body) and the response it got. They are data, one JSON file per module
 * (`src/modules/<module>/examples.json`, beside the routes they illustrate), bundled with the code. Every request
 * names a record of the demo company (`fleetops demo`, src/modules/companies/demo.ts) and succeeds when tried from
 * /docs against it as loaded; every response is what the service answered to it (captured from the demo, ids and
 * times included). Tests send each request to a server holding the demo and expect a 2xx, and validate each
 * response against the operation’s schema (test/openapi-examples.test.ts).
 */
import aircraft from '../modules/aircraft/examples.json' with { type: 'json' };
import flightLogs from '../modules/flight-logs/examples.json' with { type: 'json' };
import users from '../modules/users/examples.json' with { type: 'json' };
import components from '../modules/components/examples.json' with { type: 'json' };
import vehicles from '../modules/vehicles/examples.json' with { type: 'json' };
import schedule from '../modules/schedule/examples.json' with { type: 'json' };
import forms from '../modules/forms/examples.json' with { type: 'json' };
import completions from '../modules/completions/examples.json' with { type: 'json' };
import aggregation from '../modules/aggregation/examples.json' with { type: 'json' };
import webhooks from '../modules/webhooks/examples.json' with { type: 'json' };
import apiKeys from '../modules/api-keys/examples.json' with { type: 'json' };
import audit from '../modules/audit/examples.json' with { type: 'json' };
import settings from '../modules/settings/examples.json' with { type: 'json' };
import alerts from '../modules/alerts/examples.json' with { type: 'json' };

export interface OperationExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  response: unknown;
}

export const examples: Record<string, OperationExample> = { ...aircraft, ...flightLogs, ...users, ...components, ...vehicles, ...schedule, ...forms, ...completions, ...aggregation, ...webhooks, ...apiKeys, ...audit, ...settings, ...alerts };
