// POST /aggregate and GraphQL `aggregate` (api-v1 §2.11, §4.4; gaps §5): exact tables for every operation and
// period, time zones (IANA with daylight saving, abbreviations as fixed offsets, UTC±hh:mm), ISO weeks across a
// year end, date bounds, records without the metric, every collection, the metrics[] form, each 400, and tenant
// scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, flightLogBody2, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';
import { importData } from '../src/modules/companies/import.js';

let env: TestEnv;
type Body = Record<string, any>;
const agg = (body: unknown, key?: string) => env.json('POST', '/api/v1/aggregate', { body, key });

async function ok(body: Body, key?: string) {
  const r = await agg(body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const HOBBS_AC1 = { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', filters: { aircraftId: 'acme-ac-1' } };

beforeAll(async () => {
  env = await createTestEnv();
  const batch = async (items: Body[], key?: string) => {
    const r = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items }, key });
    expect(r.status).toBe(200);
    expect(r.body.errors, JSON.stringify(r.body.errors)).toEqual([]);
  };
  await batch([
    // Sydney: 2024-07-01 06:00 (July); UTC: June
    flightLogBody({ timeDate: '2024-06-30T20:00:00Z', hobbs: 1.5, landings: 2, pilot: 'acme-pilot', copilot: 'acme-owner' }),
    flightLogBody({ timeDate: '2024-07-15T03:00:00Z', hobbs: 2.25, landings: 1, pilot: 'acme-pilot' }),
    // 2024-12-30 is in ISO week 2025-W01
    flightLogBody({ timeDate: '2024-12-30T10:00:00Z', hobbs: 0.1, landings: 1, pilot: 'acme-owner' }),
    // no landings: skipped by sum/avg/min/max of landings, counted by __count__
    flightLogBody({ timeDate: '2025-01-02T10:00:00Z', hobbs: 0.2, pilot: 'acme-owner' }),
    // daylight-saving edges, on the other aircraft
    flightLogBody2({ timeDate: '2024-04-06T13:30:00Z', tacho: 1 }), // Sydney AEDT 2024-04-07 00:30; AEST 04-06 23:30
    flightLogBody2({ timeDate: '2024-10-05T13:30:00Z', tacho: 2 }), // Sydney AEST 2024-10-05 23:30; AEDT 10-06 00:30
    flightLogBody2({ timeDate: '2024-03-11T04:30:00Z', tacho: 4 }), // New York EDT 2024-03-11 00:30; EST 03-10 23:30
    flightLogBody2({ timeDate: '2024-11-04T04:30:00Z', tacho: 8 }), // New York EST 2024-11-03 23:30; EDT 11-04 00:30
  ]);
  // another company's logs, same hours: never counted
  await batch(
    [
      flightLogBody({ aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO', pilot: 'globex-pilot', timeDate: '2024-07-02T00:00:00Z', hobbs: 100 }),
      flightLogBody({ aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO', pilot: 'globex-pilot', timeDate: '2024-12-30T00:00:00Z', hobbs: 100 }),
    ],
    env.b.key,
  );
});
afterAll(async () => {
  await env?.close();
});

describe('periods and time zones', () => {
  it('month x aircraft sums of hobbs in Australia/Sydney are exact (a late-June UTC log lands in July)', async () => {
    const r = await ok({ ...HOBBS_AC1, groupBy: 'aircraftId', dateGroup: 'month', timezone: 'Australia/Sydney' });
    expect(r.results).toEqual([
      { group: 'acme-ac-1', period: '2024-07', value: 3.75, count: 2 },
      { group: 'acme-ac-1', period: '2024-12', value: 0.1, count: 1 },
      { group: 'acme-ac-1', period: '2025-01', value: 0.2, count: 1 },
    ]);
    expect(r.totals).toEqual({ 'acme-ac-1': 4.05 });
    expect(r.totalCount).toBe(4);
    expect(r.params).toEqual({
      collection: 'flightLogs',
      metric: 'hobbs',
      operation: 'sum',
      groupBy: 'aircraftId',
      dateField: 'timeDate',
      dateGroup: 'month',
      dateRange: { start: null, end: null },
      timezone: 'Australia/Sydney',
      filters: { aircraftId: 'acme-ac-1' },
    });
  });

  it('the same in UTC puts that log in June', async () => {
    const r = await ok({ ...HOBBS_AC1, dateGroup: 'month' });
    expect(r.results).toEqual([
      { group: 'all', period: '2024-06', value: 1.5, count: 1 },
      { group: 'all', period: '2024-07', value: 2.25, count: 1 },
      { group: 'all', period: '2024-12', value: 0.1, count: 1 },
      { group: 'all', period: '2025-01', value: 0.2, count: 1 },
    ]);
    expect(r.totals).toEqual({ all: 4.05 });
    expect(r.params.timezone).toBe('UTC');
  });

  it('days, ISO weeks across the year end, quarters and years', async () => {
    expect((await ok({ ...HOBBS_AC1, dateGroup: 'day', timezone: 'Australia/Sydney' })).results.map((x: Body) => [x.period, x.value])).toEqual([
      ['2024-07-01', 1.5],
      ['2024-07-15', 2.25],
      ['2024-12-30', 0.1],
      ['2025-01-02', 0.2],
    ]);
    expect((await ok({ ...HOBBS_AC1, dateGroup: 'week' })).results).toEqual([
      { group: 'all', period: '2024-W26', value: 1.5, count: 1 },
      { group: 'all', period: '2024-W29', value: 2.25, count: 1 },
      { group: 'all', period: '2025-W01', value: 0.3, count: 2 },
    ]);
    expect((await ok({ ...HOBBS_AC1, dateGroup: 'quarter' })).results.map((x: Body) => [x.period, x.value])).toEqual([
      ['2024-Q2', 1.5],
      ['2024-Q3', 2.25],
      ['2024-Q4', 0.1],
      ['2025-Q1', 0.2],
    ]);
    expect((await ok({ ...HOBBS_AC1, dateGroup: 'year', timezone: 'Australia/Sydney' })).results).toEqual([
      { group: 'all', period: '2024', value: 3.85, count: 3 },
      { group: 'all', period: '2025', value: 0.2, count: 1 },
    ]);
    expect((await ok({ ...HOBBS_AC1 })).results).toEqual([{ group: 'all', period: null, value: 4.05, count: 4 }]);
  });

  const tacho = { collection: 'flightLogs', metric: 'tacho', dateField: 'timeDate', dateGroup: 'day', filters: { aircraftId: 'acme-ac-2' } };
  const days = async (timezone: string) =>
    Object.fromEntries((await ok({ ...tacho, timezone })).results.map((x: Body) => [x.value, x.period]));

  it('Sydney daylight saving: April and October edges follow the zone; AEST and AEDT are fixed offsets', async () => {
    const sydney = await days('Australia/Sydney');
    expect(sydney[1]).toBe('2024-04-07'); // AEDT until 03:00 local on 7 April
    expect(sydney[2]).toBe('2024-10-05'); // AEST until 02:00 local on 6 October
    const aest = await days('AEST');
    expect(aest[1]).toBe('2024-04-06');
    expect(aest[2]).toBe('2024-10-05');
    const aedt = await days('AEDT');
    expect(aedt[1]).toBe('2024-04-07');
    expect(aedt[2]).toBe('2024-10-06');
    expect(await days('UTC+10')).toEqual(aest);
    expect(await days('UTC+11:00')).toEqual(aedt);
  });

  it('New York daylight saving: March and November edges', async () => {
    const ny = await days('America/New_York');
    expect(ny[4]).toBe('2024-03-11'); // EDT from 10 March
    expect(ny[8]).toBe('2024-11-03'); // EST from 3 November
    const est = await days('EST');
    expect(est[4]).toBe('2024-03-10');
    expect(est[8]).toBe('2024-11-03');
    const edt = await days('EDT');
    expect(edt[4]).toBe('2024-03-11');
    expect(edt[8]).toBe('2024-11-04');
    expect((await days('UTC-03:30'))[4]).toBe('2024-03-11');
    expect((await ok({ ...tacho, timezone: 'UTC-03:30' })).params.timezone).toBe('UTC-03:30');
  });

  it('date-only bounds are whole days in the requested time zone; date-times are instants', async () => {
    const sydney = await ok({ ...HOBBS_AC1, startDate: '2024-07-01', endDate: '2024-07-31', timezone: 'Australia/Sydney' });
    expect(sydney.results).toEqual([{ group: 'all', period: null, value: 3.75, count: 2 }]);
    expect(sydney.params.dateRange).toEqual({ start: '2024-07-01', end: '2024-07-31' });
    const utc = await ok({ ...HOBBS_AC1, startDate: '2024-07-01', endDate: '2024-07-31' });
    expect(utc.results).toEqual([{ group: 'all', period: null, value: 2.25, count: 1 }]);
    const instants = await ok({ ...HOBBS_AC1, startDate: '2024-06-30T20:00:00Z', endDate: '2024-07-15T03:00:00Z' });
    expect(instants.totalCount).toBe(2);
  });
});

describe('operations and fields', () => {
  const landings = { collection: 'flightLogs', metric: 'landings', filters: { aircraftId: 'acme-ac-1' } };
  it('sum, count, avg, min and max skip records without the metric; __count__ counts them', async () => {
    const value = async (operation: string) => (await ok({ ...landings, operation })).results[0];
    expect(await value('sum')).toEqual({ group: 'all', period: null, value: 4, count: 4 });
    expect(await value('count')).toEqual({ group: 'all', period: null, value: 3, count: 4 });
    expect((await value('avg')).value).toBeCloseTo(4 / 3, 12);
    expect((await value('min')).value).toBe(1);
    expect((await value('max')).value).toBe(2);
    expect((await ok({ ...landings, metric: '__count__' })).results[0]).toEqual({ group: 'all', period: null, value: 4, count: 4 });
  });

  it('groups by core and dynamic fields; a missing group value is (none)', async () => {
    const byCopilot = await ok({ ...HOBBS_AC1, groupBy: 'copilot' });
    expect(byCopilot.results).toEqual([
      { group: '(none)', period: null, value: 2.55, count: 3 },
      { group: 'acme-owner', period: null, value: 1.5, count: 1 },
    ]);
    expect(byCopilot.totals).toEqual({ '(none)': 2.55, 'acme-owner': 1.5 });
    const byLandings = await ok({ ...HOBBS_AC1, metric: '__count__', groupBy: 'landings' });
    expect(byLandings.results.map((x: Body) => [x.group, x.value])).toEqual([
      ['(none)', 1],
      ['1', 2],
      ['2', 1],
    ]);
    const filtered = await ok({ collection: 'flightLogs', metric: 'hobbs', filters: { aircraftId: 'acme-ac-1', pilot: 'acme-owner', landings: 1 } });
    expect(filtered.results).toEqual([{ group: 'all', period: null, value: 0.1, count: 1 }]);
  });

  it('an empty match answers no rows', async () => {
    const r = await ok({ collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', filters: { aircraftId: 'nope' } });
    expect(r).toMatchObject({ results: [], totals: {}, totalCount: 0 });
  });

  it('counts only the caller\u2019s company', async () => {
    expect((await ok({ collection: 'flightLogs', metric: '__count__' })).totalCount).toBe(8);
    const mine = await ok({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'month' });
    expect(mine.totals).toEqual({ all: 4.05 });
    const theirs = await ok({ collection: 'flightLogs', metric: 'hobbs' }, env.b.key);
    expect(theirs.results).toEqual([{ group: 'all', period: null, value: 200, count: 2 }]);
  });
});

describe('collections', () => {
  it('aircraft: totals by registration, exact', async () => {
    const r = await ok({ collection: 'aircraft', metric: 'hobbs', groupBy: 'registration' });
    expect(r.results).toEqual([{ group: 'VH-ACM', period: null, value: 1204.55, count: 1 }, { group: 'VH-ACZ', period: null, value: null, count: 1 }]);
    expect((await ok({ collection: 'aircraft', metric: 'tacho' })).results[0].value).toBe(15);
  });

  it('vehicles: deleted ones are left out unless a status filter asks for them', async () => {
    const v = await env.json('POST', '/api/v1/vehicles', { body: { make: 'Isuzu', model: 'NPR', registration: 'AGG-1', initialValues: { odometer: 1000 }, tracking: { kilometers: true, miles: false, hours: false } } });
    expect((await ok({ collection: 'vehicles', metric: 'odometer' })).results[0]).toEqual({ group: 'all', period: null, value: 1000, count: 2 });
    await env.json('DELETE', `/api/v1/vehicles/${v.body.uid}`);
    expect((await ok({ collection: 'vehicles', metric: '__count__' })).totalCount).toBe(1);
    expect((await ok({ collection: 'vehicles', metric: '__count__', filters: { status: 'deleted' } })).totalCount).toBe(1);
  });

  it('schedule: items by type, due dates bucketed', async () => {
    for (const [name, due] of [['Annual', '2025-03-01'], ['100 h', '2025-03-20']]) {
      const r = await env.json('POST', '/api/v1/schedule-items', {
        body: { name, type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: due },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const r = await ok({ collection: 'schedule', metric: '__count__', groupBy: 'type', dateField: 'calendarDateDue', dateGroup: 'month' });
    expect(r.results).toEqual([{ group: 'Inspection', period: '2025-03', value: 2, count: 2 }]);
  });

  it('completedForms: a number answer summed per form code and month', async () => {
    const form = await env.json('POST', '/api/v1/forms', {
      body: { name: 'Fuel', code: 'fuel-log', department: 'Ops', sections: [{ name: 'S', fields: [{ name: 'litres', label: 'Litres', type: 'number', precision: 1 }] }] },
    });
    for (const litres of [10.1, 20.2, 30.3]) {
      const c = await env.json('POST', '/api/v1/form-completions', { body: { formId: form.body.uid, answers: { litres } } });
      expect(c.status).toBe(201);
    }
    await env.json('POST', '/api/v1/form-completions', { body: { formId: form.body.uid, answers: {} } });
    const month = new Date().toISOString().slice(0, 7);
    const r = await ok({ collection: 'completedForms', metric: 'litres', groupBy: 'code', dateField: 'createdAt', dateGroup: 'month' });
    expect(r.results).toEqual([{ group: 'fuel-log', period: month, value: 60.6, count: 4 }]);
    expect((await ok({ collection: 'completedForms', metric: 'litres', operation: 'avg' })).results[0].value).toBe(20.2);
  });
});

describe('the metrics[] / dateRange form', () => {
  it('answers one result set per metric', async () => {
    const r = await ok({
      collection: 'flightLogs',
      groupBy: 'aircraftId',
      metrics: [{ field: 'hobbs', operation: 'sum' }, { field: 'landings', operation: 'max' }, { field: '__count__' }],
      dateRange: { field: 'timeDate', start: '2024-07-01', end: '2024-12-31' },
      timezone: 'UTC',
    });
    expect(r.metrics).toEqual([
      { field: 'hobbs', operation: 'sum', results: [{ group: 'acme-ac-1', period: null, value: 2.35, count: 2 }, { group: 'acme-ac-2', period: null, value: null, count: 2 }], totals: { 'acme-ac-1': 2.35, 'acme-ac-2': null }, totalCount: 4 },
      { field: 'landings', operation: 'max', results: [{ group: 'acme-ac-1', period: null, value: 1, count: 2 }, { group: 'acme-ac-2', period: null, value: null, count: 2 }], totals: { 'acme-ac-1': 1, 'acme-ac-2': null }, totalCount: 4 },
      { field: '__count__', operation: 'sum', results: [{ group: 'acme-ac-1', period: null, value: 2, count: 2 }, { group: 'acme-ac-2', period: null, value: 2, count: 2 }], totals: { 'acme-ac-1': 2, 'acme-ac-2': 2 }, totalCount: 4 },
    ]);
    expect(r.totalCount).toBe(4);
    expect(r.params.metrics).toEqual([{ field: 'hobbs', operation: 'sum' }, { field: 'landings', operation: 'max' }, { field: '__count__', operation: 'sum' }]);
  });
});

describe('bad requests are 400 with the path', () => {
  const cases: [string, Body, string][] = [
    ['an unknown collection', { collection: 'trips', metric: 'hobbs' }, '/collection'],
    ['an unknown operation', { collection: 'flightLogs', metric: 'hobbs', operation: 'median' }, '/operation'],
    ['an unknown date group', { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'fortnight' }, '/dateGroup'],
    ['an unknown time zone', { collection: 'flightLogs', metric: 'hobbs', timezone: 'Mars/Olympus' }, '/timezone'],
    ['an offset beyond 14 hours', { collection: 'flightLogs', metric: 'hobbs', timezone: 'UTC+15' }, '/timezone'],
    ['an unknown metric', { collection: 'flightLogs', metric: 'fuel' }, '/metric'],
    ['a non-numeric metric', { collection: 'flightLogs', metric: 'pilot' }, '/metric'],
    ['an unknown groupBy', { collection: 'flightLogs', metric: 'hobbs', groupBy: 'colour' }, '/groupBy'],
    ['a date group without a date field', { collection: 'flightLogs', metric: 'hobbs', dateGroup: 'month' }, '/dateField'],
    ['a non-date dateField', { collection: 'flightLogs', metric: 'hobbs', dateField: 'pilot', dateGroup: 'month' }, '/dateField'],
    ['a bad startDate', { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', startDate: 'last week' }, '/startDate'],
    ['endDate before startDate', { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', startDate: '2024-02-01', endDate: '2024-01-01' }, '/endDate'],
    ['an unknown filter field', { collection: 'flightLogs', metric: 'hobbs', filters: { colour: 'red' } }, '/filters/colour'],
    ['an unknown key', { collection: 'flightLogs', metric: 'hobbs', having: 'x' }, '/having'],
    ['a missing metric', { collection: 'flightLogs' }, '/metric'],
    ['an empty metrics[]', { collection: 'flightLogs', metrics: [] }, '/metrics'],
    ['an unknown field in metrics[]', { collection: 'flightLogs', metrics: [{ field: 'fuel' }] }, '/metrics/0/field'],
  ];
  for (const [what, body, path] of cases) {
    it(`${what} (${path})`, async () => {
      expectValidation(await agg(body), path);
    });
  }
  it('a tracking key only another company has is unknown here', async () => {
    await importData(env.database, {
      companies: [
        {
          id: env.b.id,
          name: 'GLOBEX Aviation',
          aircraft: [
            {
              uid: 'globex-ac-9', registration: 'VH-GCY', type: 'B06', category: 'rotary-wing', engineType: 'turbine', engineCount: 1, status: 'active',
              maintenanceTrackingItems: { cycles: { displayText: 'Cycles', type: 'number', precision: 0 } },
            },
          ],
        },
      ],
    });
    expect((await agg({ collection: 'aircraft', metric: 'cycles' }, env.b.key)).status).toBe(200);
    expectValidation(await agg({ collection: 'aircraft', metric: 'cycles' }), '/metric');
  });
});

describe('GraphQL', () => {
  it('aggregate answers the same', async () => {
    const q = await env.gql('query($i: JSON!) { aggregate(input: $i) { results { group period value count } totals totalCount params } }', {
      i: { ...HOBBS_AC1, groupBy: 'aircraftId', dateGroup: 'month', timezone: 'Australia/Sydney' },
    });
    expect(q.body.errors).toBeUndefined();
    const rest = await ok({ ...HOBBS_AC1, groupBy: 'aircraftId', dateGroup: 'month', timezone: 'Australia/Sydney' });
    expect(q.body.data.aggregate).toEqual(rest);
    const bad = await env.gql('query($i: JSON!) { aggregate(input: $i) { totalCount } }', { i: { collection: 'flightLogs', metric: 'hobbs', timezone: 'Nowhere' } });
    expect(bad.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors![0].extensions.errors[0].path).toBe('/timezone');
  });
});
