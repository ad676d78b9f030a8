// A JSON list sent where an object belongs. graphql-jit, which runs the REST façade's and MCP's operations and a
// client's repeated GraphQL queries, took `[]` as `{}`: `PUT /settings/alerts` with the body `[]` answered 200 and
// saved empty settings (its recipients gone), a schedule item was completed, a vehicle "updated"; GraphQL over HTTP
// (graphql-js) refused the same input. Now every channel refuses it, at the top and nested, and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTestEnv, mcpTool, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';
import { COMPILE_AFTER } from '../src/graphql/compiled-queries.js';

let env: TestEnv;
let admin: string;
beforeAll(async () => {
  env = await createTestEnv({ rateLimitPerMinute: 10_000 });
  admin = await adminKey(env);
});
afterAll(async () => {
  await env?.close();
});

const settings = { dueSoonDays: 3, recipients: [{ email: 'mx@example.com' }] };

describe('a list where an object belongs', () => {
  it('PUT /settings/alerts: [] and a list for a recipient are 400s on REST and MCP, as on GraphQL; the settings stay', async () => {
    expect((await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: settings })).status).toBe(200);
    const before = (await env.json('GET', '/api/v1/settings/alerts', { key: admin })).body;
    expect(before.recipients).toHaveLength(1);

    expectValidation(await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: [] }));
    // GraphQL refuses the value; the answer is the service's check of it, as on every channel (src/graphql/policy.ts)
    expectValidation(await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: { ...settings, recipients: [[]] } }), '/recipients/0');

    for (const body of [[], { ...settings, recipients: [[]] }]) {
      const tool = await mcpTool(env, 'putAlertSettings', { body }, admin);
      expect(tool.isError, JSON.stringify(tool)).toBe(true);
    }
    for (const i of [[], { ...settings, recipients: [[]] }]) {
      const gql = await env.gql('mutation($i: AlertSettingsInput!) { putAlertSettings(input: $i) { enabled } }', { i }, admin);
      expect(gql.status).toBe(400);
      expect(gql.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    }

    expect((await env.json('GET', '/api/v1/settings/alerts', { key: admin })).body).toEqual(before);
  });

  it('POST /schedule-items/{id}/complete and PATCH /vehicles/{id} with []: 400, nothing recorded', async () => {
    const item = await env.json('POST', '/api/v1/schedule-items', {
      body: { name: 'Hourly', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, trackingItem: 'hobbs', dueAtInterval: 1300.5, recurringInterval: 100 },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expectValidation(await env.json('POST', `/api/v1/schedule-items/${item.body.uid}/complete`, { body: [] }));
    expect((await env.json('GET', `/api/v1/schedule-completions?scheduleItemId=${item.body.uid}`)).body.data).toEqual([]);
    // an optional body sent as null is no body (MCP assistants send null for what they leave out)
    expect((await env.json('POST', `/api/v1/schedule-items/${item.body.uid}/complete`, { body: 'null' })).status).toBe(201);
    const viaMcp = await mcpTool(env, 'completeScheduleItem', { id: item.body.uid, body: null });
    expect(viaMcp.isError, JSON.stringify(viaMcp)).toBeFalsy();
    expect((await env.json('GET', `/api/v1/schedule-completions?scheduleItemId=${item.body.uid}`)).body.data).toHaveLength(2);

    const vehicle = await env.json('POST', '/api/v1/vehicles', { body: { make: 'Toyota', model: 'Hilux', registration: 'LST-1' } });
    const before = (await env.json('GET', `/api/v1/vehicles/${vehicle.body.uid}`)).body;
    expectValidation(await env.json('PATCH', `/api/v1/vehicles/${vehicle.body.uid}`, { body: [] }));
    expect((await env.json('GET', `/api/v1/vehicles/${vehicle.body.uid}`)).body).toEqual(before);
  });

  it('a client query compiled after repeated runs refuses a list for its input object as the interpreter does', async () => {
    const query = 'query($i: AggregateInput!) { aggregate(input: $i) { totalCount } }';
    const bad = [[], { collection: 'flightLogs', metrics: [[]] }, { collection: 'flightLogs', metric: 'hobbs', dateRange: [] }];
    const interpreted = [];
    for (const i of bad) interpreted.push(await env.gql(query, { i }));
    expect(interpreted[0].status).toBe(400);
    expect(interpreted[0].body.errors![0].message).toMatch(/an aggregation request must be a JSON object/);
    for (const r of interpreted) expect(r.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    for (let n = 0; n < COMPILE_AFTER + 2; n++) expect((await env.gql(query, { i: { collection: 'flightLogs', metric: '__count__' } })).status).toBe(200);
    // compiled now: graphql-jit would take [] as {} (for the whole input: "metric is required")
    for (const [n, i] of bad.entries()) expect(await env.gql(query, { i })).toEqual(interpreted[n]);
  });
});
