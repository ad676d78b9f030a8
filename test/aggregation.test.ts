// Aggregation over HTTP (docs/contract/api-v1.md §2.11, §4.4; docs/contract/gaps.md §5): every operation and period with exact expected tables,
// time zones (IANA with daylight saving, fixed abbreviations, UTC±hh:mm), ISO weeks across a year end, records
// without the metric, empty results, the five collections, the alternative request form, GraphQL, tenant scoping
// and a 400 for each invalid input.
// One environment for the file. Each scenario writes its flight logs with a flight number of its own and filters on
// it, so scenarios do not see each other's logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';

const API = '/api/v1';
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;
type Row = { group: string; period: string | null; value: number | null; count: number };

const aggregate = (body: unknown, key?: string) => env.json('POST', `${API}/aggregate`, { body, key });

/** POST /aggregate answering 200; returns the body. */
async function agg(body: Body, key?: string) {
  const r = await aggregate(body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { results: Row[]; totals: Record<string, number | null>; totalCount: number; params: any; metrics?: any[] };
}

/** Flight logs of company a (acme-ac-1 unless the entry names acme-ac-2), each with `flightNumber`. */
async function logs(flightNumber: string, entries: Body[], key?: string, prefix = 'acme') {
  const items = entries.map((e) => {
    const { ac2, ...rest } = e;
    const body = flightLogBody({ flightNumber, ...rest });
    if (prefix !== 'acme') Object.assign(body, { pilot: `${prefix}-pilot`, aircraftId: `${prefix}-ac-1`, aircraftRegistration: 'VH-GLO' });
    if (ac2) Object.assign(body, { aircraftId: `${prefix}-ac-2`, aircraftRegistration: prefix === 'acme' ? 'VH-ACZ' : 'VH-GLZ' });
    return body;
  });
  const r = await env.json('POST', `${API}/flight-logs/batch`, { body: { items }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.errors, JSON.stringify(r.body.errors)).toEqual([]);
}

const row = (group: string, period: string | null, value: number | null, count: number): Row => ({ group, period, value, count });

describe('flight logs: operations and periods (UTC)', () => {
  const FN = `T1-${uniq()}`;
  const base = () => ({ collection: 'flightLogs', filters: { flightNumber: FN } });

  beforeAll(async () => {
    await logs(FN, [
      { timeDate: '2024-01-15T10:00:00Z', hobbs: 1.1, landings: 2, fuelUplift: 100 },
      { timeDate: '2024-01-20T10:00:00Z', hobbs: 2.2, landings: 1 },
      { timeDate: '2024-02-03T10:00:00Z', hobbs: 0.7, landings: 3, fuelUplift: 50.5 },
      { timeDate: '2024-01-10T10:00:00Z', ac2: true, tacho: 1.25 },
      { timeDate: '2024-04-01T10:00:00Z', ac2: true, tacho: 2.5 },
    ]);
  });

  it('sums exactly per group and month, with totals, the record count and the echo of the request', async () => {
    const r = await agg({ ...base(), metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month' });
    expect(r).toEqual({
      results: [
        row('acme-ac-1', '2024-01', 3.3, 2),
        row('acme-ac-1', '2024-02', 0.7, 1),
        row('acme-ac-2', '2024-01', 0, 1),
        row('acme-ac-2', '2024-04', 0, 1),
      ],
      totals: { 'acme-ac-1': 4, 'acme-ac-2': 0 },
      totalCount: 5,
      params: {
        collection: 'flightLogs',
        metric: 'hobbs',
        operation: 'sum',
        groupBy: 'aircraftId',
        dateGroup: 'month',
        dateRange: { start: null, end: null },
        timezone: 'UTC',
      },
    });
  });

  it('defaults: operation sum, one group "all", period null, timezone UTC', async () => {
    const r = await agg({ ...base(), metric: 'hobbs' });
    expect(r.results).toEqual([row('all', null, 4, 5)]);
    expect(r.totals).toEqual({ all: 4 });
    expect(r.totalCount).toBe(5);
    expect(r.params).toEqual({
      collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: null, dateGroup: 'none',
      dateRange: { start: null, end: null }, timezone: 'UTC',
    });
  });

  it('count, avg, min and max per group', async () => {
    const q = (operation: string) => agg({ ...base(), metric: 'hobbs', operation, groupBy: 'aircraftRegistration' });
    expect((await q('count')).results).toEqual([row('VH-ACM', null, 3, 3), row('VH-ACZ', null, 0, 2)]);
    const avg = await q('avg');
    expect(avg.results).toEqual([row('VH-ACM', null, 4 / 3, 3), row('VH-ACZ', null, null, 2)]);
    expect(avg.totals).toEqual({ 'VH-ACM': 4 / 3, 'VH-ACZ': null });
    expect((await q('min')).results).toEqual([row('VH-ACM', null, 0.7, 3), row('VH-ACZ', null, null, 2)]);
    expect((await q('max')).results).toEqual([row('VH-ACM', null, 2.2, 3), row('VH-ACZ', null, null, 2)]);
    const tacho = await agg({ ...base(), metric: 'tacho', operation: 'avg', groupBy: 'aircraftRegistration' });
    expect(tacho.results).toEqual([row('VH-ACM', null, null, 3), row('VH-ACZ', null, 1.875, 2)]);
  });

  it('the totals of avg, min and max are over the records, not over the periods', async () => {
    const avg = await agg({ ...base(), metric: 'hobbs', operation: 'avg', dateField: 'timeDate', dateGroup: 'month', groupBy: 'aircraftId', filters: { flightNumber: FN, aircraftId: 'acme-ac-1' } });
    expect(avg.results).toEqual([row('acme-ac-1', '2024-01', 1.65, 2), row('acme-ac-1', '2024-02', 0.7, 1)]);
    expect(avg.totals).toEqual({ 'acme-ac-1': 4 / 3 });
    const min = await agg({ ...base(), metric: 'landings', operation: 'min', dateField: 'timeDate', dateGroup: 'month' });
    expect(min.results).toEqual([row('all', '2024-01', 1, 3), row('all', '2024-02', 3, 1), row('all', '2024-04', null, 1)]);
    expect(min.totals).toEqual({ all: 1 });
    const max = await agg({ ...base(), metric: 'landings', operation: 'max', dateField: 'timeDate', dateGroup: 'month' });
    expect(max.totals).toEqual({ all: 3 });
  });

  it('__count__ counts records whatever the operation', async () => {
    for (const operation of [undefined, 'sum', 'count', 'avg', 'min', 'max']) {
      const r = await agg({ ...base(), metric: '__count__', ...(operation ? { operation } : {}), groupBy: 'aircraftId' });
      expect(r.results).toEqual([row('acme-ac-1', null, 3, 3), row('acme-ac-2', null, 2, 2)]);
      expect(r.totals).toEqual({ 'acme-ac-1': 3, 'acme-ac-2': 2 });
    }
  });

  it('records without the metric are skipped by sum/avg/min/max and counted by __count__', async () => {
    const q = (operation: string) => agg({ ...base(), metric: 'fuelUplift', operation, filters: { flightNumber: FN, aircraftId: 'acme-ac-1' } });
    expect((await q('sum')).results).toEqual([row('all', null, 150.5, 3)]);
    expect((await q('count')).results).toEqual([row('all', null, 2, 3)]);
    expect((await q('avg')).results).toEqual([row('all', null, 75.25, 3)]);
    expect((await q('min')).results).toEqual([row('all', null, 50.5, 3)]);
    const all = await agg({ ...base(), metric: '__count__', filters: { flightNumber: FN, aircraftId: 'acme-ac-1' } });
    expect(all.results).toEqual([row('all', null, 3, 3)]);
  });

  it('every period label: day, week, month, quarter, year', async () => {
    const by = async (dateGroup: string) =>
      (await agg({ ...base(), metric: 'hobbs', dateField: 'timeDate', dateGroup })).results;
    expect(await by('day')).toEqual([
      row('all', '2024-01-10', 0, 1),
      row('all', '2024-01-15', 1.1, 1),
      row('all', '2024-01-20', 2.2, 1),
      row('all', '2024-02-03', 0.7, 1),
      row('all', '2024-04-01', 0, 1),
    ]);
    // ISO weeks: Wed 10 Jan is W02; Mon 15 and Sat 20 Jan W03; Sat 3 Feb W05; Mon 1 Apr W14
    expect(await by('week')).toEqual([
      row('all', '2024-W02', 0, 1),
      row('all', '2024-W03', 3.3, 2),
      row('all', '2024-W05', 0.7, 1),
      row('all', '2024-W14', 0, 1),
    ]);
    expect(await by('month')).toEqual([
      row('all', '2024-01', 3.3, 3),
      row('all', '2024-02', 0.7, 1),
      row('all', '2024-04', 0, 1),
    ]);
    expect(await by('quarter')).toEqual([row('all', '2024-Q1', 4, 4), row('all', '2024-Q2', 0, 1)]);
    expect(await by('year')).toEqual([row('all', '2024', 4, 5)]);
    expect(await by('none')).toEqual([row('all', null, 4, 5)]);
  });

  it('startDate and endDate: inclusive, a date alone as endDate includes that whole day', async () => {
    const q = (startDate?: string, endDate?: string) =>
      agg({ ...base(), metric: 'hobbs', dateField: 'timeDate', ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) });
    expect((await q('2024-01-15T10:00:00Z', '2024-01-20T10:00:00Z')).results).toEqual([row('all', null, 3.3, 2)]);
    expect((await q('2024-01-15T10:00:00.001Z')).results).toEqual([row('all', null, 2.9, 3)]);
    expect((await q(undefined, '2024-01-20')).results).toEqual([row('all', null, 3.3, 3)]);
    expect((await q(undefined, '2024-01-19')).results).toEqual([row('all', null, 1.1, 2)]);
    expect((await q('2024-01-16', '2024-02-03')).totalCount).toBe(2);
    // without dateField the range is on the collection's date field (timeDate)
    const r = await agg({ ...base(), metric: 'hobbs', startDate: '2024-02-01', endDate: '2024-12-31' });
    expect(r.results).toEqual([row('all', null, 0.7, 2)]);
    expect(r.params.dateRange).toEqual({ start: '2024-02-01', end: '2024-12-31' });
  });

  it('equality filters on core and dynamic fields (numbers compared as numbers)', async () => {
    expect((await agg({ ...base(), metric: 'hobbs', filters: { flightNumber: FN, landings: '3' } })).results).toEqual([row('all', null, 0.7, 1)]);
    expect((await agg({ ...base(), metric: '__count__', filters: { flightNumber: FN, pax: '2' } })).totalCount).toBe(5);
    expect((await agg({ ...base(), metric: '__count__', filters: { flightNumber: FN, pax: 2.0 } })).totalCount).toBe(5);
    expect((await agg({ ...base(), metric: '__count__', filters: { flightNumber: FN, pax: '3' } })).totalCount).toBe(0);
    expect((await agg({ ...base(), metric: '__count__', filters: { flightNumber: FN, timeDate: '2024-01-15T10:00:00Z' } })).totalCount).toBe(1);
  });

  it('group keys of missing values are "(none)"; dynamic fields group too', async () => {
    const r = await agg({ ...base(), metric: '__count__', groupBy: 'fuelUplift' });
    expect(r.results).toEqual([row('(none)', null, 3, 3), row('100', null, 1, 1), row('50.5', null, 1, 1)]);
    const pax = await agg({ ...base(), metric: 'hobbs', groupBy: 'pax' });
    expect(pax.results).toEqual([row('2', null, 4, 5)]);
  });

  it('empty results', async () => {
    for (const dateGroup of ['none', 'month']) {
      const r = await agg({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup, groupBy: 'aircraftId', filters: { flightNumber: 'no-such-flight' } });
      expect(r.results).toEqual([]);
      expect(r.totals).toEqual({});
      expect(r.totalCount).toBe(0);
    }
    // without groupBy too: no `all` row, whatever the operation (an average of no record has no value; docs/aggregation.md)
    for (const operation of ['sum', 'count', 'avg', 'min', 'max']) {
      const r = await agg({ collection: 'flightLogs', metric: 'hobbs', operation, filters: { flightNumber: 'no-such-flight' } });
      expect(r.results, operation).toEqual([]);
      expect(r.totals, operation).toEqual({});
      expect(r.totalCount, operation).toBe(0);
    }
  });
});

describe('time zones', () => {
  const FN = `TZ-${uniq()}`;
  const q = (timezone: string | undefined, dateGroup: string, extra: Body = {}) =>
    agg({
      collection: 'flightLogs',
      metric: 'hobbs',
      dateField: 'timeDate',
      dateGroup,
      ...(timezone ? { timezone } : {}),
      filters: { flightNumber: FN },
      ...extra,
    });
  const periods = async (timezone: string | undefined, dateGroup: string, extra: Body = {}) =>
    (await q(timezone, dateGroup, extra)).results.map((r) => [r.period, r.value]);

  beforeAll(async () => {
    await logs(FN, [
      // a log at 2024-06-30T20:00:00Z is 1 July 06:00 in Sydney
      { timeDate: '2024-06-30T20:00:00Z', hobbs: 1 },
      // Sydney, daylight saving ends Sun 7 April 2024 03:00 AEDT (16:00Z on the 6th): 00:30 AEDT and 23:30 AEDT
      { timeDate: '2024-04-06T13:30:00Z', hobbs: 2 },
      { timeDate: '2024-04-06T12:30:00Z', hobbs: 4 },
      // ... after the change 2024-04-07T14:30Z is 00:30 AEST on the 8th
      { timeDate: '2024-04-07T14:30:00Z', hobbs: 8 },
      // Sydney, daylight saving starts Sun 6 October 2024 02:00 AEST (16:00Z on the 5th)
      { timeDate: '2024-10-05T13:30:00Z', hobbs: 16 }, // 23:30 AEST on the 5th
      { timeDate: '2024-10-05T14:30:00Z', hobbs: 32 }, // 00:30 AEST on the 6th
      { timeDate: '2024-10-06T13:30:00Z', hobbs: 64 }, // 00:30 AEDT on the 7th (23:30 on the 6th at a fixed +10)
      // New York, daylight saving starts Sun 10 March 2024 02:00 EST (07:00Z)
      { timeDate: '2024-03-10T04:30:00Z', hobbs: 128 }, // 23:30 EST on the 9th
      { timeDate: '2024-03-11T04:30:00Z', hobbs: 256 }, // 00:30 EDT on the 11th (23:30 on the 10th at a fixed -5)
      // New York, daylight saving ends Sun 3 November 2024 02:00 EDT (06:00Z)
      { timeDate: '2024-11-03T04:30:00Z', hobbs: 512 }, // 00:30 EDT on the 3rd
      { timeDate: '2024-11-04T04:30:00Z', hobbs: 1024 }, // 23:30 EST on the 3rd (00:30 on the 4th at a fixed -4)
    ]);
  });

  it('the log at 2024-06-30T20:00:00Z lands in July in Sydney and in June in UTC', async () => {
    const only = { startDate: '2024-06-30T20:00:00Z', endDate: '2024-06-30T20:00:00Z' };
    expect(await periods('Australia/Sydney', 'month', only)).toEqual([['2024-07', 1]]);
    expect(await periods(undefined, 'month', only)).toEqual([['2024-06', 1]]);
    expect(await periods('AEST', 'month', only)).toEqual([['2024-07', 1]]);
    expect(await periods('UTC+10', 'day', only)).toEqual([['2024-07-01', 1]]);
    expect(await periods('UTC-03:30', 'day', only)).toEqual([['2024-06-30', 1]]);
    expect(await periods('Australia/Sydney', 'quarter', only)).toEqual([['2024-Q3', 1]]);
    expect(await periods('UTC', 'quarter', only)).toEqual([['2024-Q2', 1]]);
    const r = await q('Australia/Sydney', 'month', only);
    expect(r.params.timezone).toBe('Australia/Sydney');
    expect(r.params.dateRange).toEqual({ start: '2024-06-30T20:00:00Z', end: '2024-06-30T20:00:00Z' });
  });

  it('Australia/Sydney in April: daylight saving ends', async () => {
    const april = { startDate: '2024-04-01', endDate: '2024-04-30' };
    expect(await periods('Australia/Sydney', 'day', april)).toEqual([['2024-04-06', 4], ['2024-04-07', 2], ['2024-04-08', 8]]);
    // AEDT all the way: 2024-04-07T14:30Z is 01:30 on the 8th
    expect(await periods('AEDT', 'day', april)).toEqual([['2024-04-06', 4], ['2024-04-07', 2], ['2024-04-08', 8]]);
    // AEST all the way: 13:30Z on the 6th is 23:30 on the 6th
    expect(await periods('AEST', 'day', april)).toEqual([['2024-04-06', 6], ['2024-04-08', 8]]);
    expect(await periods('UTC', 'day', april)).toEqual([['2024-04-06', 6], ['2024-04-07', 8]]);
  });

  it('Australia/Sydney in October: daylight saving starts', async () => {
    const october = { startDate: '2024-10-01', endDate: '2024-10-31' };
    expect(await periods('Australia/Sydney', 'day', october)).toEqual([['2024-10-05', 16], ['2024-10-06', 32], ['2024-10-07', 64]]);
    expect(await periods('AEST', 'day', october)).toEqual([['2024-10-05', 16], ['2024-10-06', 96]]);
    expect(await periods('UTC+11', 'day', october)).toEqual([['2024-10-06', 48], ['2024-10-07', 64]]);
  });

  it('America/New_York in March and November', async () => {
    const march = { startDate: '2024-03-01', endDate: '2024-03-31' };
    expect(await periods('America/New_York', 'day', march)).toEqual([['2024-03-09', 128], ['2024-03-11', 256]]);
    expect(await periods('EST', 'day', march)).toEqual([['2024-03-09', 128], ['2024-03-10', 256]]);
    const november = { startDate: '2024-11-01', endDate: '2024-11-30' };
    expect(await periods('America/New_York', 'day', november)).toEqual([['2024-11-03', 1536]]);
    expect(await periods('EDT', 'day', november)).toEqual([['2024-11-03', 512], ['2024-11-04', 1024]]);
    expect(await periods('UTC-04:00', 'day', november)).toEqual([['2024-11-03', 512], ['2024-11-04', 1024]]);
  });

  it('the time zone moves logs between weeks, months, quarters and years too', async () => {
    // 2024-03-31T14:00Z is 01:00 on 1 April in Sydney (AEDT)
    const FN2 = `TZ2-${uniq()}`;
    await logs(FN2, [{ timeDate: '2024-03-31T14:00:00Z', hobbs: 1 }, { timeDate: '2024-12-31T13:30:00Z', hobbs: 2 }]);
    const p = async (timezone: string, dateGroup: string) =>
      (await agg({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup, timezone, filters: { flightNumber: FN2 } })).results.map((r) => r.period);
    expect(await p('UTC', 'quarter')).toEqual(['2024-Q1', '2024-Q4']);
    expect(await p('Australia/Sydney', 'quarter')).toEqual(['2024-Q2', '2025-Q1']);
    expect(await p('UTC', 'year')).toEqual(['2024']);
    expect(await p('Australia/Sydney', 'year')).toEqual(['2024', '2025']);
    expect(await p('UTC', 'week')).toEqual(['2024-W13', '2025-W01']);
    expect(await p('Australia/Sydney', 'week')).toEqual(['2024-W14', '2025-W01']);
    expect(await p('Australia/Sydney', 'month')).toEqual(['2024-04', '2025-01']);
  });
});

describe('ISO weeks across a year end', () => {
  const FN = `WK-${uniq()}`;
  beforeAll(async () => {
    await logs(FN, [
      { timeDate: '2024-12-29T12:00:00Z', hobbs: 1 }, // Sunday: 2024-W52
      { timeDate: '2024-12-30T12:00:00Z', hobbs: 2 }, // Monday: 2025-W01
      { timeDate: '2025-01-05T12:00:00Z', hobbs: 4 }, // Sunday: 2025-W01
      { timeDate: '2025-01-06T12:00:00Z', hobbs: 8 }, // Monday: 2025-W02
      { timeDate: '2020-12-31T12:00:00Z', hobbs: 16 }, // Thursday: 2020-W53
      { timeDate: '2021-01-03T12:00:00Z', hobbs: 32 }, // Sunday: 2020-W53
      { timeDate: '2021-01-04T12:00:00Z', hobbs: 64 }, // Monday: 2021-W01
    ]);
  });

  it('labels the week by its ISO year', async () => {
    const r = await agg({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'week', filters: { flightNumber: FN } });
    expect(r.results).toEqual([
      row('all', '2020-W53', 48, 2),
      row('all', '2021-W01', 64, 1),
      row('all', '2024-W52', 1, 1),
      row('all', '2025-W01', 6, 2),
      row('all', '2025-W02', 8, 1),
    ]);
    expect(r.totals).toEqual({ all: 127 });
  });

  it('years stay calendar years', async () => {
    const r = await agg({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'year', filters: { flightNumber: FN } });
    expect(r.results).toEqual([row('all', '2020', 16, 1), row('all', '2021', 96, 2), row('all', '2024', 3, 2), row('all', '2025', 12, 2)]);
  });
});

describe('tenant scoping', () => {
  const FN = `TEN-${uniq()}`;
  beforeAll(async () => {
    await logs(FN, [{ timeDate: '2024-05-01T00:00:00Z', hobbs: 1.5 }]);
    await logs(FN, [{ timeDate: '2024-05-01T00:00:00Z', hobbs: 100 }, { timeDate: '2024-05-02T00:00:00Z', hobbs: 200 }], env.b.key, 'globex');
  });

  it('another company\u2019s data is never counted', async () => {
    const a = await agg({ collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', filters: { flightNumber: FN } });
    expect(a.results).toEqual([row('acme-ac-1', null, 1.5, 1)]);
    expect(a.totalCount).toBe(1);
    const b = await agg({ collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', filters: { flightNumber: FN } }, env.b.key);
    expect(b.results).toEqual([row('globex-ac-1', null, 300, 2)]);
    // filtering on the other company's aircraft finds nothing
    const cross = await agg({ collection: 'flightLogs', metric: '__count__', filters: { aircraftId: 'globex-ac-1' } });
    expect(cross.totalCount).toBe(0);
    const aircraft = await agg({ collection: 'aircraft', metric: '__count__', groupBy: 'uid' });
    expect(aircraft.results.map((r) => r.group)).toEqual(['acme-ac-1', 'acme-ac-2']);
  });
});

describe('other collections', () => {
  it('aircraft: totals and initial values by bare key or prefix, core numbers, groups', async () => {
    const ac1 = (await env.json('GET', `${API}/aircraft/acme-ac-1`)).body;
    const hobbs = await agg({ collection: 'aircraft', metric: 'hobbs', groupBy: 'registration' });
    expect(hobbs.results).toEqual([row('VH-ACM', null, ac1.totals.hobbs, 1), row('VH-ACZ', null, 0, 1)]);
    expect((await agg({ collection: 'aircraft', metric: 'totals.hobbs' })).results).toEqual([row('all', null, ac1.totals.hobbs, 2)]);
    expect((await agg({ collection: 'aircraft', metric: 'initialValues.hobbs', groupBy: 'uid' })).results).toEqual([
      row('acme-ac-1', null, 1200.5, 1),
      row('acme-ac-2', null, 0, 1),
    ]);
    expect((await agg({ collection: 'aircraft', metric: 'engineCount', groupBy: 'category' })).results).toEqual([
      row('fixed-wing', null, 1, 1),
      row('rotary-wing', null, 1, 1),
    ]);
    expect((await agg({ collection: 'aircraft', metric: '__count__', groupBy: 'manufacturer' })).results).toEqual([
      row('(none)', null, 1, 1),
      row('Bell', null, 1, 1),
    ]);
  });

  it('vehicles: totals per group; a deleted vehicle only when filtering on status', async () => {
    const make = `Agg${uniq()}`;
    const ids: string[] = [];
    for (const [fuelType, odometer] of [['diesel', 1000.1], ['diesel', 2000.2], ['petrol', 10]] as const) {
      const r = await env.json('POST', `${API}/vehicles`, {
        body: { make, model: 'X', registration: `R-${uniq()}`, fuelType, year: 2020, tracking: { kilometers: true, miles: false, hours: false }, initialValues: { odometer } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.uid);
    }
    expect((await env.json('DELETE', `${API}/vehicles/${ids[2]}`)).status).toBe(200);
    const r = await agg({ collection: 'vehicles', metric: 'odometer', groupBy: 'fuelType', filters: { make } });
    expect(r.results).toEqual([row('diesel', null, 3000.3, 2)]);
    expect(r.totalCount).toBe(2);
    const deleted = await agg({ collection: 'vehicles', metric: 'totals.odometer', groupBy: 'fuelType', filters: { make, status: 'deleted' } });
    expect(deleted.results).toEqual([row('petrol', null, 10, 1)]);
    expect((await agg({ collection: 'vehicles', metric: 'year', operation: 'avg', filters: { make } })).results).toEqual([row('all', null, 2020, 2)]);
    const created = await agg({ collection: 'vehicles', metric: '__count__', dateField: 'createdAt', dateGroup: 'year', filters: { make }, timezone: 'UTC' });
    // the years the two vehicles were written in (their createdAt: two years when they straddle New Year)
    const years = await Promise.all(ids.slice(0, 2).map(async (id) => (await env.json('GET', `${API}/vehicles/${id}`)).body.createdAt.slice(0, 4) as string));
    const count = (y: string) => years.filter((x) => x === y).length;
    expect(created.results).toEqual([...new Set(years)].sort().map((y) => row('all', y, count(y), count(y))));
  });

  it('schedule: numeric columns, date fields, inactive items left out', async () => {
    const name = `Agg ${uniq()}`;
    const items = [
      { type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, recurringInterval: 100, trackingItem: 'hobbs', dueAtInterval: 1300.5 },
      { type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, trackingItem: 'landings', dueAtInterval: 3100.25 },
      { type: 'Renewal', relatedTo: 'acme-v-1', relatedToType: 'vehicle', recurring: false, calendarDateDue: '2025-03-31T14:30:00Z' },
      { type: 'Renewal', relatedTo: 'acme-v-1', relatedToType: 'vehicle', recurring: false, calendarDateDue: '2025-06-30T00:00:00Z' },
    ];
    const ids: string[] = [];
    for (const item of items) {
      const r = await env.json('POST', `${API}/schedule-items`, { body: { name, ...item } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.uid);
    }
    expect((await env.json('DELETE', `${API}/schedule-items/${ids[3]}`)).status).toBe(200);
    const due = await agg({ collection: 'schedule', metric: 'dueAtInterval', groupBy: 'type', filters: { name } });
    expect(due.results).toEqual([row('Inspection', null, 4400.75, 2), row('Renewal', null, 0, 1)]);
    // numbers group as written, not at the numeric(20, 6) column's scale (1300.500000)
    const byDueAt = await agg({ collection: 'schedule', metric: '__count__', groupBy: 'dueAtInterval', filters: { name } });
    expect(byDueAt.results).toEqual([row('(none)', null, 1, 1), row('1300.5', null, 1, 1), row('3100.25', null, 1, 1)]);
    const byInterval = await agg({ collection: 'schedule', metric: '__count__', groupBy: 'recurringInterval', filters: { name } });
    expect(byInterval.results.map((r: { group: string }) => r.group)).toEqual(['(none)', '100']);
    expect((await agg({ collection: 'schedule', metric: '__count__', filters: { name, dueAtInterval: '1300.5' } })).totalCount).toBe(1);
    const byRecurring = await agg({ collection: 'schedule', metric: '__count__', groupBy: 'recurring', filters: { name } });
    expect(byRecurring.results).toEqual([row('false', null, 2, 2), row('true', null, 1, 1)]);
    expect((await agg({ collection: 'schedule', metric: '__count__', filters: { name, recurring: 'true' } })).totalCount).toBe(1);
    // calendarDateDue is a calendar date (the service keeps the date as written): no time zone moves it
    for (const timezone of ['UTC', 'Australia/Sydney', 'America/New_York', 'UTC-12']) {
      const calendar = await agg({ collection: 'schedule', metric: '__count__', dateField: 'calendarDateDue', dateGroup: 'day', timezone, filters: { name } });
      expect(calendar.results, timezone).toEqual([row('all', '2025-03-31', 1, 1)]);
    }
    const withInactive = await agg({ collection: 'schedule', metric: '__count__', dateField: 'calendarDateDue', dateGroup: 'quarter', filters: { name, status: 'inactive' } });
    expect(withInactive.results).toEqual([row('all', '2025-Q2', 1, 1)]);
    expect((await agg({ collection: 'schedule', metric: '__count__', filters: { name, calendarDateDue: '2025-03-31' } })).totalCount).toBe(1);
    const byDue = await agg({ collection: 'schedule', metric: '__count__', groupBy: 'calendarDateDue', filters: { name } });
    expect(byDue.results).toEqual([row('(none)', null, 2, 2), row('2025-03-31', null, 1, 1)]);
    // an instant: lastCarriedOutDate follows the time zone
    const done = await env.json('POST', `${API}/schedule-items`, {
      body: { name, type: 'Service', relatedTo: 'acme-ac-2', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2026-01-01', lastCarriedOutDate: '2024-06-30T20:00:00Z' },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const last = (timezone: string) => agg({ collection: 'schedule', metric: '__count__', dateField: 'lastCarriedOutDate', dateGroup: 'month', timezone, filters: { name } });
    expect((await last('Australia/Sydney')).results).toEqual([row('all', '2024-07', 1, 1)]);
    expect((await last('UTC')).results).toEqual([row('all', '2024-06', 1, 1)]);
  });

  it('completedForms: form data fields summed and grouped, by quarter of createdAt', async () => {
    const prisma = env.database.prisma;
    const formId = `agg-form-${uniq()}`;
    const code = `AGG-${uniq()}`;
    const sections = [{ name: 'Main', fields: [
      { name: 'defects', label: 'Defects', type: 'number' },
      { name: 'station', label: 'Station', type: 'text' },
      { name: 'fuel', label: 'Fuel', type: 'number' },
    ] }];
    await prisma.form.create({ data: { companyId: env.a.id, uid: formId, name: 'Daily inspection', code, department: 'ops', sections } });
    const completions = [
      { createdAt: '2024-03-31T12:30:00Z', data: { defects: 2, station: 'SYD', fuel: 10.1 } }, // 23:30 AEDT
      { createdAt: '2024-03-31T14:30:00Z', data: { defects: 1, station: 'SYD', fuel: 20.2 } }, // Q2 in Sydney
      { createdAt: '2024-05-01T00:00:00Z', data: { defects: 4, station: 'MEL' } },
      { createdAt: '2024-07-01T00:00:00Z', data: { defects: 'many', station: 'MEL', fuel: 0.3 } }, // not a number: skipped
    ];
    for (const c of completions) {
      await prisma.formCompletion.create({
        data: { companyId: env.a.id, uid: `fc-${uniq()}`, formId, code, name: 'Daily inspection', userId: 'acme-pilot', data: c.data, createdAt: new Date(c.createdAt) },
      });
    }
    // the same form code in the other company must not count
    await prisma.form.create({ data: { companyId: env.b.id, uid: formId, name: 'Daily inspection', code, department: 'ops', sections } });
    await prisma.formCompletion.create({ data: { companyId: env.b.id, uid: `fc-${uniq()}`, formId, code, name: 'x', userId: 'globex-pilot', data: { defects: 100 }, createdAt: new Date('2024-03-01T00:00:00Z') } });

    const q = (over: Body) => agg({ collection: 'completedForms', metric: 'defects', filters: { code }, dateField: 'createdAt', ...over });
    expect((await q({ dateGroup: 'quarter' })).results).toEqual([row('all', '2024-Q1', 3, 2), row('all', '2024-Q2', 4, 1), row('all', '2024-Q3', 0, 1)]);
    expect((await q({ dateGroup: 'quarter', timezone: 'Australia/Sydney' })).results).toEqual([
      row('all', '2024-Q1', 2, 1),
      row('all', '2024-Q2', 5, 2),
      row('all', '2024-Q3', 0, 1),
    ]);
    const stations = await q({ groupBy: 'station', metric: 'data.fuel' });
    expect(stations.results).toEqual([row('MEL', null, 0.3, 2), row('SYD', null, 30.3, 2)]);
    expect(stations.totals).toEqual({ MEL: 0.3, SYD: 30.3 });
    expect((await q({ operation: 'count' })).results).toEqual([row('all', null, 4, 4)]); // 'many' is present
    expect((await q({ operation: 'max', filters: { code, station: 'MEL' } })).results).toEqual([row('all', null, 4, 2)]);
    expect((await q({ metric: '__count__', groupBy: 'userId' })).results).toEqual([row('acme-pilot', null, 4, 4)]);
    expect((await q({}, )).totalCount).toBe(4);
    expect((await agg({ collection: 'completedForms', metric: 'defects', filters: { code } }, env.b.key)).results).toEqual([row('all', null, 100, 1)]);
  });
});

describe('the alternative form (metrics[], dateRange) and GraphQL', () => {
  const FN = `ALT-${uniq()}`;
  beforeAll(async () => {
    await logs(FN, [
      { timeDate: '2024-02-10T00:00:00Z', hobbs: 1.2, landings: 1 },
      { timeDate: '2024-02-11T00:00:00Z', hobbs: 0.9, landings: 2 },
      { timeDate: '2024-03-01T00:00:00Z', hobbs: 3, landings: 5 },
      { timeDate: '2024-03-02T00:00:00Z', ac2: true, tacho: 7 },
    ]);
  });

  it('answers one results set per metric', async () => {
    const r = await agg({
      collection: 'flightLogs',
      groupBy: 'aircraftId',
      metrics: [{ field: 'hobbs', operation: 'sum' }, { field: 'landings', operation: 'max' }, { field: '__count__' }],
      dateRange: { field: 'timeDate', start: '2024-02-01', end: '2024-02-29' },
      dateGroup: 'month',
      timezone: 'UTC',
      filters: { flightNumber: FN },
    });
    expect(r.metrics).toEqual([
      { field: 'hobbs', operation: 'sum', results: [row('acme-ac-1', '2024-02', 2.1, 2)], totals: { 'acme-ac-1': 2.1 } },
      { field: 'landings', operation: 'max', results: [row('acme-ac-1', '2024-02', 2, 2)], totals: { 'acme-ac-1': 2 } },
      { field: '__count__', operation: 'sum', results: [row('acme-ac-1', '2024-02', 2, 2)], totals: { 'acme-ac-1': 2 } },
    ]);
    expect(r.results).toEqual(r.metrics![0].results);
    expect(r.totals).toEqual(r.metrics![0].totals);
    expect(r.totalCount).toBe(2);
    expect(r.params).toEqual({
      collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateGroup: 'month',
      dateRange: { start: '2024-02-01', end: '2024-02-29' }, timezone: 'UTC',
      metrics: [{ field: 'hobbs', operation: 'sum' }, { field: 'landings', operation: 'max' }, { field: '__count__', operation: 'sum' }],
    });
    // the AggregateBody form has no `metrics`
    const plain = await agg({ collection: 'flightLogs', metric: 'hobbs', filters: { flightNumber: FN } });
    expect(plain).not.toHaveProperty('metrics');
    expect(plain.params).not.toHaveProperty('metrics');
  });

  it('dateRange without a field groups by the default date field (timeDate for flight logs), as its description says', async () => {
    const body = { collection: 'flightLogs', groupBy: 'aircraftId', metrics: [{ field: 'hobbs' }], dateGroup: 'month', timezone: 'UTC', filters: { flightNumber: FN } };
    const implicit = await agg({ ...body, dateRange: {} });
    const explicit = await agg({ ...body, dateRange: { field: 'timeDate' } });
    expect(implicit.metrics).toEqual(explicit.metrics);
    expect(implicit.results).toEqual([row('acme-ac-1', '2024-02', 2.1, 2), row('acme-ac-1', '2024-03', 3, 1), row('acme-ac-2', '2024-03', 0, 1)]);
    // the contract's own form still needs dateField for a dateGroup (gaps §5)
    const refused = await env.json('POST', '/api/v1/aggregate', { body: { collection: 'flightLogs', metric: 'hobbs', dateGroup: 'month' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: '/dateField', message: expect.stringMatching(/needs a dateField/) }]);
  });

  it('GraphQL aggregate answers what REST answers', async () => {
    const input = { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney', filters: { flightNumber: FN } };
    const rest = await agg(input);
    const g = await env.gql(
      `query($input: AggregateInput!) { aggregate(input: $input) { results { group period value count } totals totalCount
        params { collection metric operation groupBy dateGroup dateRange { start end } timezone } } }`,
      { input },
    );
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.aggregate).toEqual(rest);
    expect(rest.results).toEqual([row('acme-ac-1', '2024-02', 2.1, 2), row('acme-ac-1', '2024-03', 3, 1), row('acme-ac-2', '2024-03', 0, 1)]);
    const bad = await env.gql(`query { aggregate(input: {collection: "flightLogs", metric: "nope"}) { totalCount } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors?.[0]?.extensions?.errors).toEqual([{ path: '/metric', message: expect.stringContaining('unknown field "nope"') }]);
  });
});

describe('400 for each invalid input', () => {
  const ok = { collection: 'flightLogs', metric: 'hobbs' };
  const cases: [string, unknown, string][] = [
    ['unknown collection', { ...ok, collection: 'pilots' }, '/collection'],
    ['missing collection', { metric: 'hobbs' }, '/collection'],
    ['unknown operation', { ...ok, operation: 'median' }, '/operation'],
    ['unknown date group', { ...ok, dateField: 'timeDate', dateGroup: 'fortnight' }, '/dateGroup'],
    ['unknown time zone', { ...ok, timezone: 'Mars/Olympus' }, '/timezone'],
    ['offset out of range', { ...ok, timezone: 'UTC+15' }, '/timezone'],
    ['unknown metric field', { ...ok, metric: 'nope' }, '/metric'],
    ['a tracking key of no aircraft of the company', { ...ok, metric: 'odometer' }, '/metric'],
    ['unknown groupBy field', { ...ok, groupBy: 'nope' }, '/groupBy'],
    ['unknown filter field', { ...ok, filters: { nope: 'x' } }, '/filters/nope'],
    ['unknown dateField', { ...ok, dateField: 'nope' }, '/dateField'],
    ['dateGroup without dateField', { ...ok, dateGroup: 'month' }, '/dateField'],
    ['non-date dateField', { ...ok, dateField: 'pilot', dateGroup: 'month' }, '/dateField'],
    ['dynamic non-date dateField', { ...ok, dateField: 'hobbs' }, '/dateField'],
    ['missing metric', { collection: 'flightLogs' }, '/metric'],
    ['sum of a text field', { ...ok, metric: 'pilot' }, '/metric'],
    ['bad startDate', { ...ok, startDate: '2024-13-01' }, '/startDate'],
    ['bad endDate', { ...ok, endDate: 'yesterday' }, '/endDate'],
    ['end before start', { ...ok, startDate: '2024-02-01', endDate: '2024-01-01' }, '/endDate'],
    ['number filter not a number', { ...ok, filters: { pax: 'two' } }, '/filters/pax'],
    ['filter value an object', { ...ok, filters: { pilot: { x: 1 } } }, '/filters/pilot'],
    ['unknown body field', { ...ok, colour: 'red' }, '/colour'],
    ['metric and metrics together', { ...ok, metrics: [{ field: 'hobbs' }] }, '/metric'],
    ['empty metrics', { collection: 'flightLogs', metrics: [] }, '/metrics'],
    ['unknown field in metrics', { collection: 'flightLogs', metrics: [{ field: 'hobbs' }, { field: 'nope' }] }, '/metrics/1/field'],
    ['unknown operation in metrics', { collection: 'flightLogs', metrics: [{ field: 'hobbs', operation: 'mode' }] }, '/metrics/0/operation'],
    ['dateRange and dateField together', { ...ok, dateField: 'timeDate', dateRange: { start: '2024-01-01' } }, '/dateField'],
    ['non-date dateRange field', { collection: 'flightLogs', metrics: [{ field: 'hobbs' }], dateRange: { field: 'pax' }, dateGroup: 'day' }, '/dateRange/field'],
    ['collection of the wrong type', { ...ok, collection: 5 }, '/collection'],
    ['groupBy of the wrong type', { ...ok, groupBy: ['pilot'] }, '/groupBy'],
    ['schedule has no dynamic fields', { collection: 'schedule', metric: 'hobbs' }, '/metric'],
    ['a prefix of another collection', { collection: 'aircraft', metric: 'data.hobbs' }, '/metric'],
  ];
  it.each(cases)('%s', async (_name, body, path) => {
    expectValidation(await aggregate(body), path);
  });

  it('a body that is not a JSON object, and no body', async () => {
    expectProblem(await aggregate([ok]), 400);
    expectProblem(await aggregate('"flightLogs"'), 400);
    expectProblem(await env.json('POST', `${API}/aggregate`), 415); // no body, no JSON content type
    expectProblem(await env.json('POST', `${API}/aggregate`, { body: '{"collection":', headers: { 'content-type': 'application/json' } }), 400);
  });

  it('names the allowed values', async () => {
    const r = await aggregate({ ...ok, collection: 'pilots' });
    expect(r.body.errors[0].message).toContain('flightLogs, completedForms, aircraft, schedule, vehicles');
    const g = await aggregate({ ...ok, dateField: 'timeDate', dateGroup: 'fortnight' });
    expect(g.body.errors[0].message).toContain('none, day, week, month, quarter, year');
  });

  it('needs the API key', async () => {
    expect((await aggregate(ok, null as never)).status).toBe(401);
  });
});
