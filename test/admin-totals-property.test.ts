// Property (fast-check, issue 23): any sequence of flight-log writes and aircraft updates (initial values set and
// cleared, maintenance items added, renamed and removed) leaves every total equal to a recomputation from
// scratch: initialValues + the sum over the aircraft's live logs, in exact decimals. Black box over REST: the
// recomputation reads the aircraft and its logs as any client would. A removal that logs forbid is a 409 that
// changes nothing. CI runs a fixed seed; PROPERTY_RUNS and PROPERTY_SEED run more or other sequences.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 10);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

let env: TestEnv;
let admin: string;
beforeAll(async () => {
  env = await createTestEnv();
  admin = await adminKey(env);
});
afterAll(() => env?.close());

const api = (method: string, path: string, body?: unknown, key = admin) => env.json(method, `/api/v1${path}`, { key, body });

/** A figure with at most 6 decimal places, as a client sends it. */
const figure = fc.integer({ min: -5_000_000, max: 50_000_000 }).map((micro) => micro / 1e6);
/** Exact micro-units of a figure the service answered (at most 6 decimals, magnitude below 1e9). */
const micro = (v: unknown) => BigInt(Math.round(Number(v) * 1e6));

type Op =
  | { kind: 'log'; values: Record<string, number | string> }
  | { kind: 'editLog'; at: number; values: Record<string, number | null> }
  | { kind: 'deleteLog'; at: number }
  | { kind: 'initial'; key: string; value: number | null }
  | { kind: 'addItem'; value: number | null }
  | { kind: 'rename'; key: string }
  | { kind: 'removeItem'; key: string };

const KEYS = ['hobbs', 'landings', 'x0', 'x1', 'x2'];
const key = fc.constantFrom(...KEYS);
const values = fc.dictionary(key, figure, { maxKeys: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('log' as const), values }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('editLog' as const), at: fc.nat(), values: fc.dictionary(key, fc.option(figure, { nil: null }), { maxKeys: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteLog' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('initial' as const), key, value: fc.option(figure, { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('addItem' as const), value: fc.option(figure, { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeItem' as const), key }) },
);

/** The aircraft and its live logs as a client reads them, and the totals recomputed from them from scratch. */
async function recomputed(uid: string) {
  const a = (await api('GET', `/aircraft/${uid}`)).body;
  const logs: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const page: any = (await api('GET', `/flight-logs?aircraftId=${uid}&limit=500${cursor ? `&cursor=${cursor}` : ''}`)).body;
    logs.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  const expected: Record<string, bigint> = {};
  for (const [k, item] of Object.entries<any>(a.maintenanceTrackingItems)) {
    if (item.type !== 'number') continue;
    expected[k] = (a.initialValues[k] === undefined ? 0n : micro(a.initialValues[k])) + logs.reduce((s, l) => s + (typeof l[k] === 'number' ? micro(l[k]) : 0n), 0n);
  }
  const actual = Object.fromEntries(Object.entries<number>(a.totals).map(([k, v]) => [k, micro(v)]));
  return { a, logs, expected, actual };
}

describe('aircraft totals under any sequence of log writes and aircraft updates', () => {
  it('every total equals initialValues + the sum over live logs, after every step', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        run++;
        const reg = `VH-P${run}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
        const made = await api('POST', '/aircraft', {
          registration: reg,
          type: 'R44',
          category: 'rotary-wing',
          engineType: 'piston',
          engineCount: 1,
          maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' }, landings: { displayText: 'Landings', type: 'number' } },
          logTrackingItems: { remarks: { displayText: 'Remarks', type: 'string' } },
          initialValues: { hobbs: 10.5 },
        });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        const uid = made.body.uid as string;
        const live: string[] = [];
        let added = 0;
        for (const o of ops) {
          const { a } = await recomputed(uid);
          const items = a.maintenanceTrackingItems as Record<string, unknown>;
          const known = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([k]) => k in items));
          if (o.kind === 'log') {
            const r = await api('POST', '/flight-logs', flightLogBody({ aircraftId: uid, aircraftRegistration: reg, ...known(o.values), remarks: 'p' }), env.a.key);
            expect(r.status, JSON.stringify(r.body)).toBe(201);
            live.push(r.body.uid);
          } else if (o.kind === 'editLog' && live.length) {
            const r = await api('PATCH', `/flight-logs/${live[o.at % live.length]}`, known(o.values), env.a.key);
            expect(r.status, JSON.stringify(r.body)).toBe(200);
          } else if (o.kind === 'deleteLog' && live.length) {
            const [gone] = live.splice(o.at % live.length, 1);
            expect((await api('DELETE', `/flight-logs/${gone}`, undefined, env.a.key)).status).toBe(200);
          } else if (o.kind === 'initial' && o.key in items) {
            const r = await api('PATCH', `/aircraft/${uid}`, { initialValues: { [o.key]: o.value } });
            expect(r.status, JSON.stringify(r.body)).toBe(200);
          } else if (o.kind === 'addItem') {
            const k = `x${added++ % 3}`;
            if (k in items) continue;
            const r = await api('PATCH', `/aircraft/${uid}`, { maintenanceTrackingItems: { [k]: { displayText: k.toUpperCase(), type: 'number' } }, ...(o.value === null ? {} : { initialValues: { [k]: o.value } }) });
            expect(r.status, JSON.stringify(r.body)).toBe(200);
          } else if (o.kind === 'rename' && o.key in items) {
            const r = await api('PATCH', `/aircraft/${uid}`, { maintenanceTrackingItems: { [o.key]: { displayText: `${o.key} (renamed)`, type: 'number' } } });
            expect(r.status, JSON.stringify(r.body)).toBe(200);
          } else if (o.kind === 'removeItem' && o.key in items) {
            const before = await recomputed(uid);
            const carried = before.logs.filter((l) => l[o.key] !== undefined).length;
            const r = await api('PATCH', `/aircraft/${uid}`, { maintenanceTrackingItems: { [o.key]: null } });
            if (carried) {
              expect(r.status, JSON.stringify(r.body)).toBe(409);
              expect(r.body.detail).toContain(`${carried} flight log${carried === 1 ? '' : 's'}`);
              expect((await recomputed(uid)).a).toEqual(before.a); // nothing changed
            } else expect(r.status, JSON.stringify(r.body)).toBe(200);
          }
          const after = await recomputed(uid);
          expect(after.actual, JSON.stringify(o)).toEqual(after.expected);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
