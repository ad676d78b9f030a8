import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../src/modules/companies/import.js';
import { companyFixture, createTestEnv, newKey, uniq, type TestEnv } from './helpers.js';

/** Regressions found in review: each test failed before its fix. */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
}, 180_000);
afterAll(() => env?.close());

const log = {
  timeDate: '2026-05-01T10:00:00Z', pilot: 'acme-pilot', aircraftId: 'acme-ac-1', aircraftRegistration: 'VH-ACM',
  startLocation: 'YSSY', endLocation: 'YSBK', pax: 0,
};

describe('review regressions', () => {
  it('a completion later in the same GraphQL operation sees totals changed by an earlier flight log', async () => {
    const created = await env.gql(
      `mutation($i: CreateScheduleItemInput!) { createScheduleItem(input: $i) { uid } }`,
      { i: { name: '100 h', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, trackingItem: 'hobbs', dueAtInterval: 1300.5, recurringInterval: 100 } },
    );
    const id = created.body.data.createScheduleItem.uid;
    const before = (await env.json('GET', '/api/v1/aircraft/acme-ac-1')).body.totals.hobbs;
    // creating another item for the aircraft first reads (and caches) the aircraft within the operation
    const r = await env.gql(
      `mutation($other: CreateScheduleItemInput!, $log: CreateFlightLogInput!, $id: ID!) {
         p: createScheduleItem(input: $other) { uid }
         a: createFlightLog(input: $log) { uid }
         b: completeScheduleItem(id: $id) { uid }
       }`,
      {
        other: { name: 'Landings check', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, trackingItem: 'landings', dueAtInterval: 4000 },
        log: { ...log, trackingItems: { hobbs: 10 } },
        id,
      },
    );
    expect(r.body.errors).toBeUndefined();
    const item = await env.json('GET', `/api/v1/schedule-items/${id}`);
    expect(item.body.dueAtInterval).toBe(before + 10 + 100);
  });

  it('a query string cannot stand in for the request body', async () => {
    const sneaky = encodeURIComponent(JSON.stringify(log));
    const r = await env.json('POST', `/api/v1/flight-logs?input=${sneaky}`, { body: { foo: 1 } });
    expect(r.status).toBe(400);
    const list = await env.json('GET', '/api/v1/users?status=Active&status=Bogus');
    expect(list.status).toBe(200);
    expect(list.body.data.every((u: any) => u.status === 'Active')).toBe(true);
  });

  it('totals hold number maintenance items only', async () => {
    const id = `strings-${uniq()}`;
    const fixture = companyFixture(id, newKey(), 'str');
    (fixture.aircraft[0].maintenanceTrackingItems as Record<string, unknown>).lastCheck = { displayText: 'Last check', type: 'string' };
    await importData(env.database, { companies: [fixture] });
    const a = await env.json('GET', '/api/v1/aircraft/str-ac-1', { key: fixture.apiKeys[0].key });
    expect(a.body.totals).toEqual({ hobbs: 1200.5, landings: 3000 });
  });
});

describe('paths', () => {
  it('a trailing slash reaches the same route', async () => {
    const list = await env.json('GET', '/api/v1/aircraft/');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    const one = await env.json('GET', '/api/v1/aircraft/acme-ac-1/');
    expect(one.status).toBe(200);
    expect(one.body.uid).toBe('acme-ac-1');
  });
});
