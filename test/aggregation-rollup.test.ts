// The flight-log rollup (FlightLogDaily, kept by triggers on FlightLog) behind flight-log aggregations:
// - after creates, batch creates, updates (new time, new values, moved to another aircraft, a value removed),
//   deletes and batch deletes through HTTP, and concurrent writers, it equals the sums recomputed from the logs;
// - every aggregation it serves answers exactly what the raw-table plan answers (periods, time zones with daylight
//   saving, ranges that cut days, aircraft filters, sum/count/avg/__count__, several metrics);
// - the DST tables of aggregation.test.ts hold on this plan too (that file's queries filter by flight number, which
//   the rollup does not serve, so they read the raw table).
// Companies this small read their logs unless a plan is fixed (sizes.ts): the comparisons fix each plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';
import { scopedPrisma } from '../src/db/scoped.js';
import { AggregateCheck, AggregationService } from '../src/modules/aggregation/service.js';
import { rollupServes } from '../src/modules/aggregation/sql.js';

const API = '/api/v1';
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;

async function create(items: Body[], key?: string): Promise<string[]> {
  const r = await env.json('POST', `${API}/flight-logs/batch`, { body: { items }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.errors).toEqual([]);
  return r.body.results.map((x: { uid: string }) => x.uid);
}
const ac2 = (over: Body) => flightLogBody({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', ...over });

/** The rollup rows of company a, and the same figures recomputed from its logs, as comparable sorted lists. */
async function rollupVsLogs() {
  const sql = env.database.sql;
  const norm = (rows: Record<string, unknown>[]) =>
    rows.map((r) => `${r.key}|${r.day}|${r.aircraftId}|${Number(r.sum)}|${r.numbers}|${r.present}`).sort();
  const rollup = await sql.query<Record<string, unknown>>(
    `SELECT key, day::text AS day, "aircraftId", sum::text AS sum, numbers, present FROM "FlightLogDaily"
     WHERE "companyId" = $1 AND present <> 0`,
    [env.a.id],
  );
  const logs = await sql.query<Record<string, unknown>>(
    `SELECT e.k AS key, (l."timeDate" AT TIME ZONE 'UTC')::date::text AS day, l."aircraftId",
            COALESCE(sum(e.v), 0)::text AS sum, count(e.v)::int AS numbers, count(*)::int AS present
     FROM "FlightLog" l
     CROSS JOIN LATERAL (SELECT ''::text AS k, NULL::numeric AS v UNION ALL
       SELECT j.key, CASE WHEN jsonb_typeof(j.value) = 'number' THEN j.value::numeric END FROM jsonb_each(l.tracking) j
       WHERE jsonb_typeof(j.value) <> 'null') e
     WHERE l."companyId" = $1 GROUP BY 1, 2, 3`,
    [env.a.id],
  );
  // rows that fell to zero logs must hold nothing else
  const empty = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "FlightLogDaily" WHERE "companyId" = $1 AND present = 0 AND (numbers <> 0 OR sum <> 0)`,
    [env.a.id],
  );
  return { rollup: norm(rollup), logs: norm(logs), inconsistentEmptyRows: empty[0].n };
}

describe('the rollup follows every write', () => {
  it('creates, updates, moves, deletes and concurrent writers', async () => {
    const ids = await create([
      flightLogBody({ timeDate: '2024-03-01T10:00:00Z', hobbs: 1.1, landings: 2, fuelUplift: 10.5 }),
      flightLogBody({ timeDate: '2024-03-01T23:59:59.999Z', hobbs: 2.2, landings: 1 }),
      flightLogBody({ timeDate: '2024-03-02T00:00:00Z', hobbs: 0.3, remarks: 'gusty' }),
      ac2({ timeDate: '2024-03-01T12:00:00Z', tacho: 1.25 }),
    ]);
    let s = await rollupVsLogs();
    expect(s.rollup.length).toBeGreaterThan(0);
    expect(s.rollup).toEqual(s.logs);

    const patch = (id: string, body: Body) => env.json('PATCH', `${API}/flight-logs/${id}`, { body });
    // new time (another day), new value, a value removed
    expect((await patch(ids[0], { timeDate: '2024-03-05T01:00:00Z', hobbs: 1.7, fuelUplift: null })).status).toBe(200);
    // moved to the other aircraft (its tracking keys change with it)
    expect((await patch(ids[1], { aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', hobbs: null, landings: null, tacho: 0.75 })).status).toBe(200);
    // a change that touches no tracked figure
    expect((await patch(ids[2], { notes: 'checked' })).status).toBe(200);
    s = await rollupVsLogs();
    expect(s.rollup).toEqual(s.logs);

    expect((await env.json('DELETE', `${API}/flight-logs/${ids[3]}`)).status).toBe(200);
    const more = await create(Array.from({ length: 30 }, (_, i) => flightLogBody({ timeDate: new Date(Date.UTC(2024, 2, 1 + (i % 7), i)).toISOString(), hobbs: (i % 9) / 10, landings: i % 3 })));
    const del = await env.json('POST', `${API}/flight-logs/batch-delete`, { body: { ids: more.slice(0, 10) } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    // concurrent writers on both aircraft (figures as exact decimals: 0.1 * 3 is 0.30000000000000004, refused by gaps.md §11)
    await Promise.all([
      create(Array.from({ length: 10 }, (_, i) => flightLogBody({ timeDate: `2024-03-0${1 + (i % 5)}T0${i % 10}:15:00Z`, hobbs: (i + 1) / 10 }))),
      create(Array.from({ length: 10 }, (_, i) => ac2({ timeDate: `2024-03-0${1 + (i % 5)}T1${i % 10}:45:00Z`, tacho: (i + 1) / 20 }))),
      env.json('PATCH', `${API}/flight-logs/${more[20]}`, { body: { timeDate: '2024-04-30T23:00:00Z', hobbs: 9.9 } }),
    ]);
    s = await rollupVsLogs();
    expect(s.rollup).toEqual(s.logs);
    expect(s.inconsistentEmptyRows).toBe(0);
    // the other company's writes never land in company a's rows
    await create([flightLogBody({ pilot: 'globex-pilot', aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO', hobbs: 5 })], env.b.key);
    s = await rollupVsLogs();
    expect(s.rollup).toEqual(s.logs);
  });
});

describe('the rollup plan answers what the raw-table plan answers', () => {
  beforeAll(async () => {
    // daylight-saving edges (as in aggregation.test.ts) and a spread over two years on both aircraft
    await create([
      flightLogBody({ timeDate: '2024-06-30T20:00:00Z', hobbs: 1 }),
      flightLogBody({ timeDate: '2024-04-06T13:30:00Z', hobbs: 2 }),
      flightLogBody({ timeDate: '2024-04-06T12:30:00Z', hobbs: 4 }),
      flightLogBody({ timeDate: '2024-04-07T14:30:00Z', hobbs: 8 }),
      flightLogBody({ timeDate: '2024-10-05T13:30:00Z', hobbs: 16 }),
      flightLogBody({ timeDate: '2024-10-05T14:30:00Z', hobbs: 32 }),
      flightLogBody({ timeDate: '2024-10-06T13:30:00Z', hobbs: 64 }),
      flightLogBody({ timeDate: '2024-03-10T04:30:00Z', hobbs: 128 }),
      flightLogBody({ timeDate: '2024-03-11T04:30:00Z', hobbs: 256 }),
      flightLogBody({ timeDate: '2024-11-03T04:30:00Z', hobbs: 512 }),
      flightLogBody({ timeDate: '2024-11-04T04:30:00Z', hobbs: 1024 }),
      flightLogBody({ timeDate: '2024-12-30T12:00:00Z', hobbs: 0.1, landings: 1 }),
      flightLogBody({ timeDate: '2024-12-31T13:30:00Z', hobbs: 0.2, landings: 1 }),
    ]);
    const spread: Body[] = [];
    for (let i = 0; i < 45; i++) {
      const at = new Date(Date.UTC(2023, 0, 1) + i * 16.3 * 86_400_000 + (i % 24) * 3_600_000 + (i % 4) * 15 * 60_000).toISOString();
      spread.push(i % 3 === 0 ? ac2({ timeDate: at, tacho: (i % 7) * 0.25 }) : flightLogBody({ timeDate: at, hobbs: (i % 11) / 10, ...(i % 2 ? { landings: i % 4 } : {}) }));
    }
    await create(spread);
  });

  const timezones = ['UTC', 'Australia/Sydney', 'America/New_York', 'Asia/Kathmandu', 'AEST', 'UTC-03:30', 'Australia/Adelaide'];
  const groups = ['none', 'day', 'week', 'month', 'quarter', 'year'];
  const metricSets: Body[] = [
    { metric: 'hobbs' },
    { metric: 'hobbs', operation: 'avg' },
    { metric: 'landings', operation: 'count' },
    { metric: '__count__' },
    { metric: '__count__', operation: 'avg' },
    { metrics: [{ field: 'hobbs', operation: 'sum' }, { field: 'tacho', operation: 'avg' }, { field: '__count__' }] },
  ];
  const ranges: Body[] = [
    {},
    { startDate: '2024-03-10T04:30:00Z', endDate: '2024-11-03T04:30:00Z' },
    { startDate: '2024-04-01', endDate: '2024-10-31' },
    { startDate: '2023-06-15T13:00:00Z', endDate: '2024-12-31T12:59:59.999Z' },
  ];

  it('across periods, time zones, ranges, groups, filters and operations', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const rollup = new AggregationService(db, { plan: 'rollup' });
    const rawOnly = new AggregationService(db, { plan: 'logs' });
    let compared = 0;
    for (const timezone of timezones) {
      for (const dateGroup of groups) {
        for (const [i, metric] of metricSets.entries()) {
          const range = ranges[(compared + i) % ranges.length];
          const body: Body = {
            collection: 'flightLogs', timezone, dateGroup, ...metric,
            ...(metric.metrics ? { dateRange: { field: 'timeDate', start: range.startDate, end: range.endDate } } : { dateField: 'timeDate', ...range }),
            ...(compared % 2 ? { groupBy: 'aircraftId' } : {}),
            ...(compared % 5 === 0 ? { filters: { aircraftId: 'acme-ac-1' } } : {}),
          };
          const a = await rollup.aggregate(AggregateCheck.parse(body));
          const b = await rawOnly.aggregate(AggregateCheck.parse(body));
          expect(a, JSON.stringify(body)).toEqual(b);
          compared++;
        }
      }
    }
    expect(compared).toBe(timezones.length * groups.length * metricSets.length);
  });

  it('serves only what it can: other fields, filters and min/max read the logs', () => {
    // rollupServes decides on a validated plan; the shapes here mirror the service's
    const base = {
      collection: 'flightLogs', def: {}, groupBy: null, dateField: null, start: null, end: null, timezone: { kind: 'offset', minutes: 0 },
      dateGroup: 'none', filters: [], params: {}, alternative: false,
    } as never as Parameters<typeof rollupServes>[0];
    const hobbs = { field: 'hobbs', operation: 'sum', resolved: { name: 'hobbs', source: 'dynamic', column: 'tracking', key: 'hobbs' } } as const;
    expect(rollupServes({ ...base, metrics: [hobbs] })).toBe(true);
    expect(rollupServes({ ...base, metrics: [{ ...hobbs, operation: 'max' }] })).toBe(false);
    expect(rollupServes({ ...base, metrics: [{ field: 'pax', operation: 'sum', resolved: { name: 'pax', source: 'core', column: 'pax', kind: 'number' } }] })).toBe(false);
    expect(rollupServes({ ...base, metrics: [hobbs], groupBy: { name: 'pilot', source: 'core', column: 'pilot', kind: 'text' } })).toBe(false);
    expect(rollupServes({ ...base, metrics: [hobbs], filters: [{ field: { name: 'pilot', source: 'core', column: 'pilot', kind: 'text' }, value: 'x' }] })).toBe(false);
    expect(rollupServes({ ...base, metrics: [hobbs], dateField: { name: 'createdAt', source: 'core', column: 'createdAt', kind: 'date' } })).toBe(false);
    expect(rollupServes({ ...base, collection: 'aircraft', metrics: [hobbs] })).toBe(false);
    expect(rollupServes({ ...base, metrics: [hobbs], dateGroup: 'day' })).toBe(true);
    expect(rollupServes({ ...base, metrics: [hobbs], dateGroup: 'month', timezone: { kind: 'iana', name: 'Australia/Sydney' } })).toBe(true);
    expect(rollupServes({ ...base, metrics: [hobbs], dateGroup: 'day', timezone: { kind: 'iana', name: 'Australia/Sydney' } })).toBe(false);
  });

  it('DST tables over HTTP and on the rollup plan (days of a zone read the logs; months and weeks read the rollup)', async () => {
    // a company this small reads its logs over HTTP; the rollup plan is asked the same and must answer the same
    const rollup = new AggregationService(scopedPrisma(env.database.prisma, env.a.id), { plan: 'rollup' });
    const ask = async (body: Body) => {
      const r = await env.json('POST', `${API}/aggregate`, { body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(JSON.parse(JSON.stringify(await rollup.aggregate(AggregateCheck.parse(body)))), JSON.stringify(body)).toEqual(r.body);
      return r.body as { results: { group: string; period: string; value: number; count: number }[] };
    };
    const days = async (timezone: string, startDate: string, endDate: string) => {
      const r = await ask({ collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'day', timezone, startDate, endDate, filters: { aircraftId: 'acme-ac-1' } });
      return r.results.filter((x) => x.value >= 1 && Number.isInteger(x.value)).map((x) => [x.period, x.value]);
    };
    expect(await days('Australia/Sydney', '2024-04-06T12:00:00Z', '2024-04-07T15:00:00Z')).toEqual([['2024-04-06', 4], ['2024-04-07', 2], ['2024-04-08', 8]]);
    expect(await days('AEST', '2024-04-06T12:00:00Z', '2024-04-07T15:00:00Z')).toEqual([['2024-04-06', 6], ['2024-04-08', 8]]);
    expect(await days('Australia/Sydney', '2024-10-05T13:00:00Z', '2024-10-06T14:00:00Z')).toEqual([['2024-10-05', 16], ['2024-10-06', 32], ['2024-10-07', 64]]);
    expect(await days('America/New_York', '2024-03-10T00:00:00Z', '2024-03-11T05:00:00Z')).toEqual([['2024-03-09', 128], ['2024-03-11', 256]]);
    expect(await days('America/New_York', '2024-11-03T00:00:00Z', '2024-11-04T05:00:00Z')).toEqual([['2024-11-03', 1536]]);
    const month = await ask({ collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney', startDate: '2024-06-30T20:00:00Z', endDate: '2024-06-30T20:00:00Z' });
    expect(month.results).toEqual([{ group: 'all', period: '2024-07', value: 1, count: 1 }]);
    const weeks = await ask({ collection: 'flightLogs', metric: 'landings', dateField: 'timeDate', dateGroup: 'week', timezone: 'Australia/Sydney', startDate: '2024-12-29', endDate: '2025-01-05' });
    expect(weeks.results).toEqual([{ group: 'all', period: '2025-W01', value: 2, count: 2 }]);
  });
});
