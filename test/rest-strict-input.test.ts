// The REST façade reads everything a request sends (docs/contract/gaps.md §2: a bad query parameter or malformed
// JSON is a 400, and a rejected request changes nothing): a query parameter the route does not take is a 400 naming
// it (a misspelt filter answered the whole, unfiltered list), and a route without a body (restore, delete) refuses
// malformed JSON or a field instead of ignoring it and doing the work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidation } from './assertions.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env?.close());

const API = '/api/v1';

describe('query parameters', () => {
  it('a parameter the route does not take is a 400 naming it; the ones it takes still work', async () => {
    const misspelt = await env.json('GET', `${API}/flight-logs?pilot=acme-owner&limit=5`);
    expectValidation(misspelt, '/query/pilot');
    expect(misspelt.body.detail).toBe('unknown query parameter: pilot');
    expect(misspelt.body.errors).toEqual([{ path: '/query/pilot', message: expect.stringMatching(/^unknown query parameter: pilot \(this route takes .*pilotId.*\)$/) }]);

    expectValidation(await env.json('GET', `${API}/vehicles?includeDeletd=true`), '/query/includeDeletd');
    expectValidation(await env.json('GET', `${API}/schedule-completions?scheduleItem=x`), '/query/scheduleItem');
    const none = await env.json('GET', `${API}/aircraft/acme-ac-1?bogus=1`);
    expectValidation(none, '/query/bogus');
    expect(none.body.errors[0].message).toBe('unknown query parameter: bogus (this route takes none)');
    // the CSV export is the same route
    const csv = await env.request('GET', `${API}/flight-logs?aircraft=acme-ac-1`, { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(400);
    expect(csv.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    expect((await env.json('GET', `${API}/flight-logs?pilotId=acme-pilot&limit=5`)).status).toBe(200);
    expect((await env.json('GET', `${API}/vehicles?includeDeleted=true`)).status).toBe(200);
    expect((await env.json('GET', `${API}/aircraft/acme-ac-1`)).status).toBe(200);
  });
});

describe('a query parameter given twice', () => {
  it('is a 400 naming it on every route and in the CSV export (the second value was dropped without a word)', async () => {
    const twice = await env.json('GET', `${API}/flight-logs?limit=1&limit=2`);
    expectValidation(twice, '/query/limit');
    expect(twice.body.errors).toEqual([{ path: '/query/limit', message: 'limit is given more than once; give it once' }]);
    expectValidation(await env.json('GET', `${API}/flight-logs?aircraftId=acme-ac-1&aircraftId=acme-ac-2`), '/query/aircraftId');
    expectValidation(await env.json('GET', `${API}/vehicles?includeDeleted=true&includeDeleted=false`), '/query/includeDeleted');
    const csv = await env.request('GET', `${API}/flight-logs?limit=1&limit=2`, { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(400);
    expect((await env.json('GET', `${API}/flight-logs?limit=1`)).status).toBe(200);
  });
});

describe('a date range whose end is before its start', () => {
  it('is a 400 at endDate on every list and channel, in the words POST /aggregate uses (the lists answered 200 with nothing)', async () => {
    const words = 'the end of the date range is before its start';
    for (const path of ['/flight-logs', '/form-completions']) {
      const r = await env.json('GET', `${API}${path}?startDate=2026-02-01&endDate=2026-01-01`);
      expectValidation(r, '/query/endDate');
      expect(r.body.errors).toEqual([{ path: '/query/endDate', message: words }]);
      const csv = await env.request('GET', `${API}${path}?startDate=2026-02-01&endDate=2026-01-01`, { headers: { accept: 'text/csv' } });
      expect(csv.status).toBe(400);
      // one day, as a date and as instants within it: fine
      expect((await env.json('GET', `${API}${path}?startDate=2026-01-01T12:00:00Z&endDate=2026-01-01`)).status).toBe(200);
    }
    const g = await env.gql('{ flightLogs(startDate: "2026-02-01", endDate: "2026-01-01T23:00:00Z") { count } }');
    expect(g.body.errors?.[0]?.extensions?.errors).toEqual([{ path: '/endDate', message: words }]);
    const a = await env.json('POST', `${API}/aggregate`, { body: { collection: 'flightLogs', metric: '__count__', startDate: '2026-02-01', endDate: '2026-01-01' } });
    expect(a.body.errors).toEqual([{ path: '/endDate', message: words }]);
  });
});

describe('routes without a body', () => {
  it('restore: malformed JSON or a field is refused and nothing is restored; nothing or {} restores', async () => {
    const created = await env.json('POST', `${API}/vehicles`, { body: { make: 'Toyota', model: 'Hilux', registration: 'NOBODY1' } });
    const uid = created.body.uid as string;
    const status = async () => (await env.json('GET', `${API}/vehicles/${uid}`)).body.status;
    expect((await env.json('DELETE', `${API}/vehicles/${uid}`)).status).toBe(200);

    const malformed = await env.json('POST', `${API}/vehicles/${uid}/restore`, { body: '{not json' });
    expect(malformed.status).toBe(400);
    expect(malformed.res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(malformed.body.detail).toMatch(/^malformed JSON/);
    const field = await env.json('POST', `${API}/vehicles/${uid}/restore`, { body: { status: 'active' } });
    expectValidation(field, '/status');
    expect(field.body.detail).toBe(`POST ${API}/vehicles/${uid}/restore takes no request body (send none, or {})`);
    expectValidation(await env.json('POST', `${API}/vehicles/${uid}/restore`, { body: [] }), '');
    expect(await status()).toBe('deleted');

    expect((await env.json('POST', `${API}/vehicles/${uid}/restore`, { body: {} })).body).toEqual({ uid, status: 'restored' });
    expect((await env.json('DELETE', `${API}/vehicles/${uid}`)).status).toBe(200);
    expect((await env.json('POST', `${API}/vehicles/${uid}/restore`)).body).toEqual({ uid, status: 'restored' });
  });

  it('delete: a body with a field is refused and the flight log and the totals stay', async () => {
    const log = await env.json('POST', `${API}/flight-logs`, { body: flightLogBody({ hobbs: 1.5 }) });
    expect(log.status, JSON.stringify(log.body)).toBe(201);
    const totals = (await env.json('GET', `${API}/aircraft/acme-ac-1`)).body.totals;
    expectValidation(await env.json('DELETE', `${API}/flight-logs/${log.body.uid}`, { body: { force: true } }), '/force');
    expect((await env.json('GET', `${API}/flight-logs/${log.body.uid}`)).status).toBe(200);
    expect((await env.json('GET', `${API}/aircraft/acme-ac-1`)).body.totals).toEqual(totals);
    expect((await env.json('DELETE', `${API}/flight-logs/${log.body.uid}`)).status).toBe(200);
  });
});
