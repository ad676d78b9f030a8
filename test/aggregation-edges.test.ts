// Aggregation requests at the edges of what docs/api-notes.md (Aggregation) promises, through the public routes
// (REST `POST /api/v1/aggregate`, GraphQL `aggregate`, the MCP tool) and on both plans (logs and rollup):
// - a time zone is grouped at exactly the offsets the service validated it as: an Area/Location name reaches
//   PostgreSQL as the zone Intl resolved it to; names without an area that the table does not list (IST, ACT, ART,
//   MET, Japan ...) are refused, since PostgreSQL reads such text as its own abbreviations (IST +02, Israel);
// - a range may end in 9999 (instants compared as numbers, the end of 9999-12-31 handed to SQL as 10000-01-01);
// - the two request forms (metric/dateField/startDate/endDate and metrics[]/dateRange) are not mixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, mcpTool, type TestEnv } from './helpers.js';
import { scopedPrisma } from '../src/db/scoped.js';
import { AggregateCheck, AggregationService } from '../src/modules/aggregation/service.js';

const API = '/api/v1';
let env: TestEnv;
let rollup: AggregationService;
type Body = Record<string, unknown>;

// company a's only logs (a fresh company): hobbs 1, 2, 4 in 2024 and 8 in 2023
const LOGS = [
  { timeDate: '2023-03-01T12:00:00Z', hobbs: 8 },
  { timeDate: '2024-05-31T20:00:00Z', hobbs: 1 },
  { timeDate: '2024-06-01T20:00:00Z', hobbs: 2 },
  { timeDate: '2024-12-31T23:30:00Z', hobbs: 4 },
];

beforeAll(async () => {
  env = await createTestEnv();
  const r = await env.json('POST', `${API}/flight-logs/batch`, { body: { items: LOGS.map((l) => flightLogBody(l)) } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.errors).toEqual([]);
  rollup = new AggregationService(scopedPrisma(env.database.prisma, env.a.id), { plan: 'rollup' });
}, 60_000);
afterAll(async () => {
  await env?.close();
});

const rest = (body: Body) => env.json('POST', `${API}/aggregate`, { body });
const gql = (input: Body) =>
  env.gql(`query($input: AggregateInput!) { aggregate(input: $input) { results { group period value count } totals totalCount } }`, { input });

/** The REST answer (200), checked to be the rollup plan's answer and GraphQL's. */
async function answer(body: Body) {
  const r = await rest(body);
  expect(r.status, `${JSON.stringify(body)} ${JSON.stringify(r.body)}`).toBe(200);
  expect(JSON.parse(JSON.stringify(await rollup.aggregate(AggregateCheck.parse(body)))), `rollup plan: ${JSON.stringify(body)}`).toEqual(r.body);
  const g = await gql(body);
  expect(g.body.errors, JSON.stringify(body)).toBeUndefined();
  expect(g.body.data.aggregate).toEqual({ results: r.body.results, totals: r.body.totals, totalCount: r.body.totalCount });
  return r.body as { results: { group: string; period: string | null; value: number; count: number }[]; totalCount: number };
}

/** The same 400 on REST, GraphQL and MCP, with exactly these errors. */
async function refused(body: Body, errors: { path: string; message: unknown }[]) {
  const r = await rest(body);
  expect(r.status, JSON.stringify(body)).toBe(400);
  expect(r.body.errors, JSON.stringify(body)).toEqual(errors);
  const g = await gql(body);
  expect(g.body.errors?.[0]?.extensions?.code, JSON.stringify(body)).toBe('VALIDATION_ERROR');
  expect(g.body.errors?.[0]?.extensions?.errors).toEqual(r.body.errors);
  const m = await mcpTool(env, 'aggregate', { body });
  expect(m.isError, JSON.stringify(body)).toBe(true);
  expect(JSON.parse(m.content[1].text).errors).toEqual(r.body.errors);
}

/** The local day (YYYY-MM-DD) of an instant in a zone, as the runtime's time-zone data has it. */
const localDay = (zone: string, iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

describe('time zones: grouped as validated, on both plans', () => {
  it('names without an area are refused (IST, ACT, ART, MET, legacy names), on every channel', async () => {
    // PostgreSQL reads these as its abbreviations (IST +02, ACT -05, ART -03, MET +01) where Intl took them as zones
    // (Asia/Calcutta, Australia/Darwin, Africa/Cairo, Europe/Brussels with summer time)
    for (const timezone of ['IST', 'ACT', 'ART', 'MET', 'Japan', 'Israel', 'EST5EDT', 'NZ', 'PRC', 'Zulu', 'UCT', 'Universal', 'GMT0', 'ist']) {
      await refused(
        { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone },
        [{ path: '/timezone', message: expect.stringContaining(`unknown time zone ${JSON.stringify(timezone)}`) }],
      );
    }
  });

  it('an Area/Location name, in any case or as a link, groups at the offsets of the zone Intl resolves it to', async () => {
    const zones = ['Asia/Kolkata', 'asia/calcutta', 'Australia/Darwin', 'Africa/Cairo', 'Europe/Brussels', 'US/Pacific',
      'America/Argentina/Buenos_Aires', 'Etc/GMT-10', 'etc/gmt+3', 'Etc/UTC', 'Asia/Jerusalem'];
    for (const timezone of zones) {
      for (const dateGroup of ['day', 'month', 'year']) {
        const r = await answer({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup, timezone, startDate: '2024-01-01' });
        const len = { day: 10, month: 7, year: 4 }[dateGroup]!;
        const expected = new Map<string, number>();
        for (const l of LOGS.slice(1)) {
          const p = localDay(timezone, l.timeDate).slice(0, len);
          expected.set(p, (expected.get(p) ?? 0) + l.hobbs);
        }
        expect(r.results.map((x) => [x.period, x.value]), `${timezone} ${dateGroup}`).toEqual([...expected].sort());
      }
    }
  });

  it('the documented abbreviations and offsets still answer, as fixed offsets', async () => {
    const day = async (timezone: string) =>
      (await answer({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone, startDate: '2024-05-31', endDate: '2024-05-31' })).results.map((x) => x.period);
    // 2024-05-31T20:00Z
    for (const [timezone, period] of [['UTC', '2024-05-31'], ['z', '2024-05-31'], ['AEST', '2024-06-01'], ['cet', '2024-05-31'], ['CEST', '2024-05-31'],
      ['EEST', '2024-05-31'], ['MSK', '2024-05-31'], ['utc+05:45', '2024-06-01'], ['+04:00', '2024-06-01'], ['GMT-3', '2024-05-31']]) {
      expect(await day(timezone), timezone).toEqual([period]);
    }
  });
});

describe('a range may end in 9999', () => {
  const body = { collection: 'flightLogs', metric: 'hobbs' };

  it('endDate 9999-12-31 after startDate is the rest of time, not "before its start"', async () => {
    expect((await answer({ ...body, startDate: '2024-01-01', endDate: '9999-12-31' })).results).toEqual([{ group: 'all', period: null, value: 7, count: 3 }]);
    expect((await answer({ ...body, startDate: '2024-06-01', endDate: '9999-12-31T23:59:59.999Z', dateField: 'timeDate', dateGroup: 'year', groupBy: 'aircraftId' })).results)
      .toEqual([{ group: 'acme-ac-1', period: '2024', value: 6, count: 2 }]);
    // the alternative form
    const alt = await answer({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }], dateRange: { start: '2024-06-01', end: '9999-12-31' }, dateGroup: 'month' });
    expect(alt.results).toEqual([{ group: 'all', period: '2024-06', value: 2, count: 1 }, { group: 'all', period: '2024-12', value: 4, count: 1 }]);
  });

  it('an end in 9999 without a start, and a start in 9999: no generic 400', async () => {
    expect((await answer({ ...body, endDate: '9999-12-31T23:59:59.999Z' })).results).toEqual([{ group: 'all', period: null, value: 15, count: 4 }]);
    expect((await answer({ ...body, dateField: 'timeDate', dateGroup: 'week', timezone: 'Pacific/Kiritimati', endDate: '9999-12-31' })).totalCount).toBe(4);
    expect((await answer({ ...body, startDate: '9999-12-31', endDate: '9999-12-31' })).totalCount).toBe(0);
    expect((await answer({ ...body, startDate: '9999-12-31T23:59:59.999Z', timezone: 'UTC+14', dateField: 'timeDate', dateGroup: 'day' })).totalCount).toBe(0);
    expect((await answer({ ...body, filters: { timeDate: '9999-12-31T23:59:59.999Z' } })).totalCount).toBe(0);
  });

  it('a bound an offset carries past 9999 in UTC is answered, or refused at its path: never a 400 without one', async () => {
    // (src/lib/dates.ts decides whether such instants are taken at all)
    for (const [b, path, count] of [
      [{ ...body, startDate: '2024-12-31', endDate: '9999-12-31T23:00:00-05:00' }, '/endDate', 1],
      [{ ...body, startDate: '9999-12-31T23:30:00-10:00', dateField: 'timeDate', dateGroup: 'day', timezone: 'UTC+14' }, '/startDate', 0],
      [{ ...body, filters: { timeDate: '9999-12-31T23:00:00-05:00' } }, '/filters/timeDate', 0],
    ] as const) {
      const r = await rest(b);
      if (r.status === 200) expect(r.body.totalCount, JSON.stringify(b)).toBe(count);
      else expect([r.status, r.body.errors?.map((e: { path: string }) => e.path)], JSON.stringify(b)).toEqual([400, [path]]);
    }
  });

  it('an end before the start is still a 400 at the end', async () => {
    await refused({ ...body, startDate: '9999-12-31', endDate: '2024-01-01' }, [{ path: '/endDate', message: 'the end of the date range is before its start' }]);
    await refused({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }], dateRange: { start: '9999-12-31T00:00:00.001Z', end: '9999-12-31T00:00:00Z' } },
      [{ path: '/dateRange/end', message: 'the end of the date range is before its start' }]);
  });
});

describe('the two request forms are not mixed', () => {
  it('metric with dateRange, metrics[] with dateField/startDate/endDate: a 400 at the mixed field', async () => {
    const dateRange = { path: '/dateRange', message: expect.stringContaining('dateRange cannot be combined with metric') };
    const withMetrics = (k: string) => ({ path: `/${k}`, message: `${k} cannot be combined with metrics[]: the alternative form takes dateRange {field, start, end}` });
    await refused({ collection: 'flightLogs', metric: 'hobbs', dateRange: { start: '2024-01-01' } }, [dateRange]);
    await refused({ collection: 'flightLogs', metric: 'hobbs', operation: 'avg', dateRange: { field: 'timeDate' }, dateGroup: 'month' }, [dateRange]);
    await refused({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }], dateField: 'timeDate', startDate: '2024-01-01' }, [withMetrics('dateField'), withMetrics('startDate')]);
    await refused({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }], endDate: '2024-12-31' }, [withMetrics('endDate')]);
    await refused({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }], dateField: 'timeDate', dateGroup: 'month' }, [withMetrics('dateField')]);
    // the mixes refused before stay refused, at the same paths
    await refused({ collection: 'flightLogs', metric: 'hobbs', metrics: [{ field: 'hobbs' }] }, [{ path: '/metric', message: expect.stringContaining('cannot be combined with metrics[]') }]);
    await refused({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }], dateRange: {}, startDate: '2024-01-01' }, [{ path: '/startDate', message: 'startDate cannot be combined with dateRange' }]);
  });

  it('each form as the contract shows it answers, with dateGroup, groupBy, filters and timezone in both', async () => {
    const shared = { collection: 'flightLogs', groupBy: 'aircraftId', dateGroup: 'month', timezone: 'Australia/Sydney', filters: { aircraftId: 'acme-ac-1' } };
    const plain = await answer({ ...shared, metric: 'hobbs', operation: 'sum', dateField: 'timeDate', startDate: '2024-01-01', endDate: '2024-12-31' });
    const alt = await answer({ ...shared, metrics: [{ field: 'hobbs', operation: 'sum' }], dateRange: { field: 'timeDate', start: '2024-01-01', end: '2024-12-31' } });
    expect(alt.results).toEqual(plain.results);
    // the range is of UTC dates (2024-12-31 includes that whole UTC day); 2024-12-31T23:30Z is January 2025 in Sydney
    expect(plain.results.map((x) => [x.period, x.value])).toEqual([['2024-06', 3], ['2025-01', 4]]);
    expect((await answer({ collection: 'flightLogs', metrics: [{ field: 'hobbs' }] })).totalCount).toBe(4);
    expect((await answer({ collection: 'flightLogs', metric: 'hobbs' })).totalCount).toBe(4);
  });
});
