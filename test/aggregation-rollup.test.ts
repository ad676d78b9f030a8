// The flight-log rollup always equals the raw sums: after creates, updates (value, time and aircraft changes),
// deletes and both batches, every query the rollup serves answers exactly what the flight logs themselves give,
// in several time zones and periods, on both databases. And the rollup is what answers (changing it changes it).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedPrisma } from '../src/db/scoped.js';
import { AggregationService } from '../src/modules/aggregation/service.js';
import { createTestEnv, flightLogBody, flightLogBody2, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

const QUERIES: Record<string, unknown>[] = [
  { collection: 'flightLogs', metric: 'hobbs', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney' },
  { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone: 'America/New_York' },
  { collection: 'flightLogs', metric: 'landings', operation: 'avg', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'week' },
  { collection: 'flightLogs', metric: 'landings', operation: 'count', dateField: 'timeDate', dateGroup: 'quarter', timezone: 'UTC+05:45' },
  { collection: 'flightLogs', metric: '__count__', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'year', timezone: 'AEST' },
  { collection: 'flightLogs', metric: 'tacho', filters: { aircraftId: 'acme-ac-2' } },
  { collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', startDate: '2025-02-01', endDate: '2025-02-28', timezone: 'Australia/Sydney', dateGroup: 'day' },
  { collection: 'flightLogs', metric: 'hobbs', filters: { aircraftId: 'nope' } },
];

async function compare() {
  const db = scopedPrisma(env.database.prisma, env.a.id);
  const viaRollup = new AggregationService(db, true);
  const raw = new AggregationService(db, false);
  for (const q of QUERIES) expect(await viaRollup.aggregate(q), JSON.stringify(q)).toEqual(await raw.aggregate(q));
}

describe('the flight-log rollup', () => {
  it('equals the raw sums after generated mixed writes', async () => {
    const time = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2025, 11, 31) }).map((t) => new Date(t - (t % 60_000)).toISOString());
    const hobbs = fc.integer({ min: 1, max: 500 }).map((n) => n / 10);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create'), t: time, h: hobbs, ac2: fc.boolean(), landings: fc.option(fc.integer({ min: 0, max: 5 })) }),
      fc.record({ kind: fc.constant('update'), t: fc.option(time), h: fc.option(hobbs), move: fc.boolean() }),
      fc.record({ kind: fc.constant('delete') }),
      fc.record({ kind: fc.constant('batch'), ts: fc.array(time, { minLength: 1, maxLength: 6 }), h: hobbs }),
      fc.record({ kind: fc.constant('batchDelete'), n: fc.integer({ min: 1, max: 4 }) }),
    );
    const uids: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 25 }), async (ops) => {
        for (const o of ops as any[]) {
          if (o.kind === 'create') {
            const body = o.ac2 ? flightLogBody2({ timeDate: o.t, tacho: o.h }) : flightLogBody({ timeDate: o.t, hobbs: o.h, ...(o.landings === null ? {} : { landings: o.landings }) });
            const r = await env.json('POST', '/api/v1/flight-logs', { body });
            uids.push(r.body.uid);
          } else if (o.kind === 'update' && uids.length) {
            const uid = uids[uids.length - 1];
            const patch: Record<string, unknown> = {};
            if (o.t) patch.timeDate = o.t;
            if (o.move) Object.assign(patch, { aircraftId: 'acme-ac-1', aircraftRegistration: 'VH-ACM', tacho: null });
            if (o.h !== null) patch.hobbs = o.h;
            await env.json('PATCH', `/api/v1/flight-logs/${uid}`, { body: patch });
          } else if (o.kind === 'delete' && uids.length) {
            await env.json('DELETE', `/api/v1/flight-logs/${uids.pop()}`);
          } else if (o.kind === 'batch') {
            const items = [...o.ts.map((t: string) => flightLogBody({ timeDate: t, hobbs: o.h, landings: 1 })), flightLogBody({ hobbs: 'bad' })];
            const r = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items } });
            uids.push(...r.body.results.map((x: { uid: string }) => x.uid));
          } else if (o.kind === 'batchDelete' && uids.length) {
            const ids = uids.splice(Math.max(0, uids.length - o.n));
            await env.json('POST', '/api/v1/flight-logs/batch-delete', { body: { ids: [...ids, 'fl_missing'] } });
          }
        }
        await compare();
      }),
      { seed: 7, numRuns: 4 },
    );
  }, 120_000);

  it('is what answers those queries', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const q = { collection: 'flightLogs', metric: 'hobbs', filters: { aircraftId: 'acme-ac-1' } };
    const before = (await new AggregationService(db, true).aggregate(q)) as any;
    await env.database.sql.query(`UPDATE "FlightLogRollup" SET total = total + 1000 WHERE "companyId" = $1 AND key = 'hobbs' AND "aircraftId" = 'acme-ac-1' AND ctid = (SELECT ctid FROM "FlightLogRollup" WHERE "companyId" = $1 AND key = 'hobbs' AND "aircraftId" = 'acme-ac-1' AND n > 0 LIMIT 1)`, [env.a.id]);
    const after = (await new AggregationService(db, true).aggregate(q)) as any;
    expect(after.totals['all'] - before.totals['all']).toBeCloseTo(1000, 6);
    await env.database.sql.query(`UPDATE "FlightLogRollup" SET total = total - 1000 WHERE "companyId" = $1 AND key = 'hobbs' AND "aircraftId" = 'acme-ac-1' AND total >= 1000`, [env.a.id]);
    await compare();
  });
});
