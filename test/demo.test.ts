// `fleetops demo` (src/modules/companies/demo.ts): a year of flight logs with exact totals, fitted components whose
// counters follow them, a schedule with an overdue and a due-soon item, form completions with a defect and an
// odometer reading; the three requests it prints answer something; a second run starts over and keeps the keys;
// every record it writes (imported ones included) was updated no earlier than it was created. The clock is fixed
// by test/setup-clock.ts (CI runs this file at several hours: .ci/run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { DEMO_IDS, DEMO_TIME_ZONE, demoData, demoRequests, loadDemo, type DemoSummary } from '../src/modules/companies/demo.js';
import { addDays, openTestDatabase, todayIn, uniq } from './helpers.js';

let database: Database;
let app: App;
let demo: DemoSummary;
const COMPANY = `demo-${uniq()}`;

beforeAll(async () => {
  database = await openTestDatabase();
  // a company of its own: test files share one PostgreSQL database, and others load the demo too
  demo = await loadDemo(database, COMPANY);
  app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const call = async (method: string, path: string, body?: unknown, key = demo.key) => {
  const res = await app.fetch(
    new Request(`http://fleetops.test${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: res.status, body: await res.json() };
};

/** Every flight log of an aircraft, page by page through the API. */
async function allLogs(aircraftId: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const r = await call('GET', `/api/v1/flight-logs?aircraftId=${aircraftId}&limit=500${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    out.push(...r.body.data);
    cursor = r.body.nextCursor;
  } while (cursor);
  return out;
}

/** Exact sum of decimals with at most `places` decimal places (integers of the smallest unit, no float drift). */
const exactSum = (values: number[], places: number) => values.reduce((s, v) => s + Math.round(v * 10 ** places), 0);

describe('fleetops demo', () => {
  it('loads a year of flight logs, up to yesterday in Sydney, whose totals are exactly initial values plus the logs', async () => {
    const today = todayIn(DEMO_TIME_ZONE);
    for (const a of demoData.companies[0].aircraft) {
      const logs = await allLogs(a.uid);
      // the glider in storage is never logged: it is what the docs' example of deleting an aircraft deletes
      if (a.uid === 'demo-vh-gld') {
        expect(logs).toEqual([]);
        continue;
      }
      expect(logs.length, a.uid).toBeGreaterThan(100);
      const days = logs.map((l) => new Intl.DateTimeFormat('en-CA', { timeZone: DEMO_TIME_ZONE }).format(new Date(l.timeDate))).sort();
      expect(days[0] >= addDays(today, -365), `${a.uid} first ${days[0]}`).toBe(true);
      expect(days[days.length - 1], a.uid).toBe(a.uid === 'demo-vh-abc' ? addDays(today, -1) : days[days.length - 1]);
      expect(days.every((d) => d < today)).toBe(true);
      const { body } = await call('GET', `/api/v1/aircraft/${a.uid}`);
      for (const [key, item] of Object.entries<any>(a.maintenanceTrackingItems)) {
        const places = item.precision;
        const initial = (a.initialValues as Record<string, number | undefined>)[key] ?? 0;
        const expected = Math.round(initial * 10 ** places) + exactSum(logs.map((l) => l[key] ?? 0), places);
        expect(Math.round(body.totals[key] * 10 ** places), `${a.uid} ${key}`).toBe(expected);
      }
    }
    expect(demo.flightLogs).toBe((await allLogs('demo-vh-abc')).length + (await allLogs('demo-vh-xyz')).length);
  });

  it('fits components whose counters follow the flights since they were fitted', async () => {
    const blade = (await call('GET', `/api/v1/components/${DEMO_IDS.blade}`)).body;
    expect(blade).toMatchObject({ state: 'installed', parent: { type: 'aircraft', uid: 'demo-vh-abc' } });
    const flown = exactSum((await allLogs('demo-vh-abc')).map((l) => l.hobbs), 1) / 10;
    expect(blade.totals.hours).toBeCloseTo(flown, 6);
    expect(blade.counters.find((c: any) => c.key === 'hours').binding).toMatchObject({ parentType: 'aircraft', parentUid: 'demo-vh-abc', sourceKey: 'hobbs' });
    const engine = (await call('GET', `/api/v1/components/${DEMO_IDS.engine}`)).body;
    const tacho = exactSum((await allLogs('demo-vh-xyz')).map((l) => l.tacho), 2) / 100;
    expect(engine.totals.hoursSinceNew).toBeCloseTo(3120.4 + tacho, 6);
    const list = (await call('GET', '/api/v1/components')).body;
    expect(list.data.map((c: any) => c.state).sort()).toEqual(expect.arrayContaining(['installed', 'inStores']));
  });

  it('has a maintenance schedule with an overdue item and items due soon', async () => {
    const status = (await call('GET', '/api/v1/maintenance-status')).body;
    const byUid = Object.fromEntries(status.data.map((s: any) => [s.scheduleItemUid, s]));
    expect(byUid[DEMO_IDS.annual]).toMatchObject({ calendarDaysRemaining: -3 });
    expect(status.data[0].scheduleItemUid).toBe(DEMO_IDS.annual); // overdue first
    expect(byUid[DEMO_IDS.hundredHourly].remaining).toBeCloseTo(6.5, 6);
    expect(byUid[DEMO_IDS.registration]).toMatchObject({ calendarDaysRemaining: 10 });
    // the defect the daily check raised is due today
    expect(byUid[DEMO_IDS.defectItem]).toMatchObject({ calendarDaysRemaining: 0, type: 'Defect' });
    expect(byUid[DEMO_IDS.retired]).toBeUndefined(); // inactive
    const soon = (await call('GET', '/api/v1/maintenance-status?dueWithinDays=14')).body;
    expect(soon.data.map((s: any) => s.scheduleItemUid)).toEqual(expect.arrayContaining([DEMO_IDS.annual, DEMO_IDS.registration, DEMO_IDS.defectItem, DEMO_IDS.compressorWash]));
    const done = (await call('GET', `/api/v1/schedule-completions?scheduleItemId=${DEMO_IDS.compressorWash}`)).body;
    expect(done.count).toBe(1);
  });

  it('has form completions: one raised a defect, both recorded the odometer', async () => {
    const list = (await call('GET', '/api/v1/form-completions')).body;
    expect(list.count).toBe(2);
    const defect = (await call('GET', `/api/v1/form-completions/${DEMO_IDS.defectCheck}`)).body;
    expect(defect.sideEffects).toMatchObject({ scheduleItemsCreated: 1, vehiclesUpdated: 1 });
    expect((await call('GET', '/api/v1/vehicles/demo-ute')).body.totals).toEqual({ odometer: 48530 });
    const deliveries = (await call('GET', '/api/v1/forms/demo-form-daily/deliveries')).body;
    expect(deliveries.data.map((d: any) => d.uid).sort()).toEqual([DEMO_IDS.cleanEmail, DEMO_IDS.defectEmail].sort());
  });

  it('prints three requests that answer something', async () => {
    const requests = demoRequests('http://127.0.0.1:3000', demo.key);
    expect(requests).toHaveLength(3);
    const status = await call('GET', '/api/v1/maintenance-status');
    expect(requests[0].curl).toContain('/api/v1/maintenance-status');
    expect(status.body.count).toBeGreaterThan(3);
    const body = JSON.parse(/-d '([^']+)'/.exec(requests[1].curl)![1]);
    const hours = await call('POST', '/api/v1/aggregate', body);
    expect(hours.status).toBe(200);
    const months = new Set(hours.body.results.map((r: any) => r.period));
    expect(months.size).toBeGreaterThanOrEqual(12);
    expect(hours.body.results.some((r: any) => r.value > 0)).toBe(true);
    expect(requests[2].curl).toContain('/api/v1/flight-logs?limit=5');
    expect((await call('GET', '/api/v1/flight-logs?limit=5')).body.data).toHaveLength(5);
  });

  it('every record of the demo (imported ones included) was updated no earlier than it was created', async () => {
    const tables = await database.sql.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'updatedAt'
       AND table_name IN (SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'createdAt')`,
    );
    expect(tables.length).toBeGreaterThan(5);
    for (const { table_name } of tables) {
      const scope = table_name === 'Company' ? `"id" = $1` : `"companyId" = $1`;
      const bad = await database.sql.query(`SELECT count(*)::int AS n FROM "${table_name}" WHERE ${scope} AND "updatedAt" < "createdAt"`, [COMPANY]);
      expect(bad[0].n, table_name).toBe(0);
    }
  });

  // Before, the summary counted a deleted component and vehicle and a completed item (6, 4 and 8 where the lists
  // show 5, 3 and 7; CLI audit, twenty-first session)
  it('says as many components, vehicles and schedule items as the lists show', async () => {
    const listed = async (path: string) => (await call('GET', `/api/v1${path}`)).body.data.length as number;
    expect({ components: demo.components, vehicles: demo.vehicles, scheduleItems: demo.scheduleItems }).toEqual({
      components: await listed('/components'),
      vehicles: await listed('/vehicles'),
      scheduleItems: await listed('/schedule-items'),
    });
    expect(await listed('/components?includeDeleted=true')).toBeGreaterThan(demo.components);
  });

  it('runs again: starts the demo over (same records, same totals) and keeps the earlier keys', async () => {
    const aircraft = async (key: string) => (await call('GET', '/api/v1/aircraft', undefined, key)).body.data.map(({ updatedAt: _u, ...a }: any) => a);
    const before = await aircraft(demo.key);
    await call('DELETE', `/api/v1/vehicles/demo-trailer`);
    const again = await loadDemo(database, COMPANY);
    expect(again).toMatchObject({ flightLogs: demo.flightLogs, components: demo.components, scheduleItems: demo.scheduleItems, formCompletions: 2 });
    expect(await aircraft(again.key)).toEqual(before);
    expect((await call('GET', '/api/v1/vehicles/demo-trailer')).status).toBe(200); // the earlier key still works
  }, 180_000);
});
