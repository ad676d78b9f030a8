// How an aggregation is answered (docs/aggregation.md, "How it is computed"):
// - the cut days the service computes from the request are the days the database's own time-zone rules cut, across
//   zones with daylight saving, half-hour offsets and fixed offsets, and the runtime's offsets (Intl) are followed day
//   by day;
// - if the two copies of the time-zone rules disagreed about a day, the statement says so and the service answers
//   from the logs: the answer stays exact;
// - a request is ONE statement (plus, once a minute per company, the size read that chooses the plan): the dynamic
//   names are checked by that statement, and an unknown one still gets its 400 with the same messages;
// - a small company reads its logs, a dense one the rollup, and both answer what the other plan answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedPrisma } from '../src/db/scoped.js';
import { AggregateCheck, AggregationService } from '../src/modules/aggregation/service.js';
import { cutDays, dayOf } from '../src/modules/aggregation/days.js';
import { forgetSizes, planCosts } from '../src/modules/aggregation/sizes.js';
import { parseTimeZone, type TimeZoneSpec } from '../src/modules/aggregation/timezone.js';
import { createTestEnv, keepKey, type TestEnv } from './helpers.js';

const API = '/api/v1';
const DAY = 86_400_000;
let env: TestEnv;
const statements: string[] = [];
beforeAll(async () => {
  env = await createTestEnv({ onQuery: (sql) => statements.push(sql) });
});
afterAll(async () => {
  await env?.close();
});

/** The UTC day numbers PostgreSQL's own rules cut for a period in a zone (the statement's zone check, as a list). */
async function databaseCutDays(tz: TimeZoneSpec, unit: string, first: number, last: number): Promise<number[]> {
  const zone = tz.kind === 'iana' ? `'${tz.name}'` : `make_interval(mins => ${tz.minutes})`;
  const rows = await env.database.sql.query<{ d: string }>(
    `SELECT g::date::text AS d FROM generate_series($1::timestamp, $2::timestamp, interval '1 day') g,
       LATERAL (SELECT (g AT TIME ZONE 'UTC') AT TIME ZONE ${zone} AS s,
                       ((g + interval '1 day') AT TIME ZONE 'UTC' - interval '1 millisecond') AT TIME ZONE ${zone} AS e) l
     WHERE l.e - l.s <> interval '23:59:59.999' OR date_trunc('${unit}', l.s) <> date_trunc('${unit}', l.e)
     ORDER BY 1`,
    [new Date(first * DAY).toISOString().slice(0, 19), new Date(last * DAY).toISOString().slice(0, 19)],
  );
  return rows.map((r) => dayOf(Date.parse(`${r.d}T00:00:00Z`)));
}

describe('cut days', () => {
  // zones whose rules for these years every recent copy of the time-zone database agrees on (daylight saving, half-hour
  // and 45-minute offsets, a 30-minute daylight shift); where copies differ (Africa/Casablanca's predicted changes,
  // Asia/Tehran since 2022) the statement's own check decides, as the last test shows
  const zones = ['Australia/Sydney', 'Australia/Adelaide', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Europe/London', 'UTC', 'AEST', 'UTC-03:30', 'UTC+05:45'];
  const periods = ['day', 'week', 'month', 'quarter', 'year'] as const;

  it('are the days the database cuts, for every zone and period (2019-2024)', async () => {
    const first = dayOf(Date.UTC(2019, 0, 1));
    const last = dayOf(Date.UTC(2024, 11, 31));
    for (const name of zones) {
      const tz = parseTimeZone(name)!;
      for (const period of periods) {
        expect(cutDays(tz, period, first, last, null, null), `${name} ${period}`).toEqual(await databaseCutDays(tz, period, first, last));
      }
    }
  });

  it('a range cuts the days it starts or ends inside; none and UTC days cut nothing else', () => {
    const d = dayOf(Date.UTC(2024, 2, 10));
    const utc = parseTimeZone('UTC')!;
    expect(cutDays(utc, 'none', d, d + 5, Date.UTC(2024, 2, 10, 6), Date.UTC(2024, 2, 15, 0, 0, 0, 1))).toEqual([d, d + 5]);
    expect(cutDays(utc, 'day', d, d + 9, Date.UTC(2024, 2, 10), Date.UTC(2024, 2, 20))).toEqual([]);
    // a whole-day range in Sydney: the month boundary and the end of daylight saving (7 April 2024) cut
    const sydney = parseTimeZone('Australia/Sydney')!;
    expect(cutDays(sydney, 'month', dayOf(Date.UTC(2024, 2, 25)), dayOf(Date.UTC(2024, 3, 10)), null, null)).toEqual([
      dayOf(Date.UTC(2024, 2, 31)),
      dayOf(Date.UTC(2024, 3, 6)),
    ]);
  });
});

describe('one statement per request', () => {
  const body = { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney' };

  it('the size read once, then one statement; no key lookup, no transaction', async () => {
    await keepKey(env, () => statements); // the API key, read once and kept
    forgetSizes();
    statements.length = 0;
    expect((await env.json('POST', `${API}/aggregate`, { body })).status).toBe(200);
    expect(statements, statements.join('\n')).toHaveLength(2);
    expect(statements[0]).toContain('"FlightLogDaily"'); // the size
    for (const b of [body, { ...body, metric: '__count__' }, { collection: 'aircraft', metric: 'engineCount', groupBy: 'type' }, { collection: 'schedule', metric: '__count__' }]) {
      statements.length = 0;
      const r = await env.json('POST', `${API}/aggregate`, { body: b });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(statements, JSON.stringify(b)).toHaveLength(1);
    }
  });

  it('an unknown name: the same 400 as when the keys are read first', async () => {
    const cases: [Record<string, unknown>, { path: string; message: string }[]][] = [
      [{ ...body, metric: 'nope' }, [{ path: '/metric', message: 'unknown field "nope" for flightLogs' }]],
      [{ ...body, metric: undefined, dateField: undefined, dateRange: { field: 'timeDate' }, metrics: [{ field: 'hobbs' }, { field: 'odometer' }, { field: 'nope' }] }, [
        { path: '/metrics/1/field', message: 'unknown field "odometer" for flightLogs' },
        { path: '/metrics/2/field', message: 'unknown field "nope" for flightLogs' },
      ]],
      [{ ...body, filters: { remarks: 'x', nope: 'y' } }, [{ path: '/filters/nope', message: 'unknown field "nope" for flightLogs' }]],
      // names whose messages depend on the keys: read first
      [{ ...body, dateField: 'hobbs' }, [{ path: '/dateField', message: 'hobbs is not a date field; the date fields of flightLogs are timeDate, createdAt, updatedAt' }]],
      [{ ...body, metric: 'tracking.nope' }, [{ path: '/metric', message: 'unknown field "tracking.nope" for flightLogs' }]],
    ];
    for (const [b, errors] of cases) {
      const r = await env.json('POST', `${API}/aggregate`, { body: b });
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.body.errors, JSON.stringify(b)).toEqual(errors);
    }
    // a prefix form of a known key answers
    const r = await env.json('POST', `${API}/aggregate`, { body: { ...body, metric: 'tracking.hobbs' } });
    expect(r.status).toBe(200);
  });
});

describe('the plan by size', () => {
  /** n logs of company a spread over `days` days from 2022-01-01 on both aircraft, written set-based. */
  async function seed(n: number, days: number) {
    await env.database.sql.query(
      `INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
       SELECT $1, 'seed-' || i, CASE WHEN i % 2 = 0 THEN 'acme-ac-1' ELSE 'acme-ac-2' END, CASE WHEN i % 2 = 0 THEN 'VH-ACM' ELSE 'VH-ACZ' END,
              timestamptz '2022-01-01T00:00:00Z' + (i::float8 / $2) * ($3 * interval '1 day'), 'acme-pilot', 'YSSY', 'YSBK', 1,
              CASE WHEN i % 2 = 0 THEN jsonb_build_object('hobbs', (i % 17) / 10.0, 'landings', i % 3) ELSE jsonb_build_object('tacho', (i % 13) / 4.0) END, now()
       FROM generate_series(0, $2 - 1) i`,
      [env.a.id, n, days],
    );
  }

  it('the costs: few logs read the logs, dense ones the rollup', () => {
    const plan = { filters: [], metrics: [{ field: 'hobbs', operation: 'sum', resolved: { name: 'hobbs', source: 'dynamic', column: 'tracking', key: 'hobbs' } }] } as never;
    const sparse = { first: 0, last: 1826, rows: 2000, days: 1900, logs: 2100 };
    const dense = { first: 0, last: 1826, rows: 2000, days: 100, logs: 54_000 };
    const a = planCosts(plan, sparse, 0, 1826, 69);
    expect(a.rollup).toBeGreaterThan(a.logs);
    const b = planCosts(plan, dense, 0, 1826, 69);
    expect(b.rollup).toBeLessThan(b.logs / 3);
  });

  it('a dense company reads the rollup in one statement and answers what the logs answer', async () => {
    await seed(12_000, 40);
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const logs = new AggregationService(db, { plan: 'logs' });
    forgetSizes();
    for (const dateGroup of ['month', 'week', 'quarter', 'none']) {
      for (const timezone of ['Australia/Sydney', 'America/New_York', 'UTC']) {
        const b = { collection: 'flightLogs', metrics: [{ field: 'hobbs', operation: 'avg' }, { field: '__count__' }, { field: 'tacho' }], groupBy: 'aircraftId', dateGroup, timezone, dateRange: { field: 'timeDate', start: '2022-01-03T05:00:00Z' } };
        statements.length = 0;
        const r = await env.json('POST', `${API}/aggregate`, { body: b });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const main = statements.filter((s) => s.includes('GROUPING SETS'));
        expect(main).toHaveLength(1);
        expect(main[0], `${dateGroup} ${timezone}`).toContain('"FlightLogDaily" x JOIN dd');
        expect(r.body).toEqual(JSON.parse(JSON.stringify(await logs.aggregate(AggregateCheck.parse(b)))));
      }
    }
  });

  it('if the runtime and the database disagreed about a day, the answer comes from the logs', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const b = { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney' };
    const expected = await new AggregationService(db, { plan: 'logs' }).aggregate(AggregateCheck.parse(b));
    // the statement is told that no day is cut (as if the zone had no months): its check refuses the month boundaries
    statements.length = 0;
    const got = await new AggregationService(db, { plan: 'rollup', alterSource: (src) => ({ ...src, cut: [] }) }).aggregate(AggregateCheck.parse(b));
    expect(got).toEqual(expected);
    const main = statements.filter((s) => s.includes('GROUPING SETS'));
    expect(main).toHaveLength(2); // the rollup's answer, refused by its own check, then the logs
    expect(main[0]).toContain('"FlightLogDaily" x JOIN dd');
    expect(main[1]).not.toContain('"FlightLogDaily"');
  });
});
