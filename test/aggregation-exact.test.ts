// Exact figures, checked against exact arithmetic done here (BigInt), never against the code under test:
// - exact.ts: a decimal, and a sum divided by a count, become the double nearest to the exact value (ties to even),
//   including where rounding the quotient to 16 decimals first lands one step off;
// - POST /aggregate (and both plans of the service): for generated flight logs with decimal values of every size,
//   each sum, count, average, minimum and maximum per aircraft, per month and in total is that nearest double of
//   the exact figure.
// CI runs a fixed seed and a bounded count; PROPERTY_RUNS / PROPERTY_SEED run more or others.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedPrisma } from '../src/db/scoped.js';
import { averageToNumber, decimalToNumber, nearestDouble } from '../src/modules/aggregation/exact.js';
import { AggregateCheck, AggregationService } from '../src/modules/aggregation/service.js';
import { forgetSizes } from '../src/modules/aggregation/sizes.js';
import { createTestEnv, flightLogBody, flightLogBody2, type TestEnv } from './helpers.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261124);

/** A rational as numerator / denominator (denominator > 0). */
type Q = [bigint, bigint];

/** The exact value of a finite double. */
function ofDouble(d: number): Q {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const e = (exponent === 0 ? 1 : exponent) - 1075; // value = mantissa * 2^e
  const n = negative ? -mantissa : mantissa;
  return e >= 0 ? [n << BigInt(e), 1n] : [n, 1n << BigInt(-e)];
}

/** The next double up or down (finite d). */
function step(d: number, up: boolean): number {
  if (d === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, d > 0 === up ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** |x - y| compared with |x - z|: negative when y is nearer. */
function compareDistance(x: Q, y: Q, z: Q): number {
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const dy: Q = [abs(x[0] * y[1] - y[0] * x[1]), x[1] * y[1]];
  const dz: Q = [abs(x[0] * z[1] - z[0] * x[1]), x[1] * z[1]];
  const l = dy[0] * dz[1];
  const r = dz[0] * dy[1];
  return l < r ? -1 : l > r ? 1 : 0;
}

const evenMantissa = (d: number) => (ofDouble(d)[0] & 1n) === 0n || ofDouble(d)[1] === 1n;

/** Whether d is the double nearest to x (ties to the even one). */
function isNearest(d: number, x: Q): boolean {
  if (!Number.isFinite(d)) return false;
  const here = ofDouble(d);
  for (const other of [step(d, true), step(d, false)]) {
    if (!Number.isFinite(other)) continue;
    const c = compareDistance(x, here, ofDouble(other));
    if (c > 0) return false;
    if (c === 0 && !evenMantissa(d)) return false;
  }
  return true;
}

/** A decimal string as an exact rational. */
function ofDecimal(text: string): Q {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text)!;
  const digits = BigInt(`${m[2] || '0'}${m[3] ?? ''}`) * (m[1] ? -1n : 1n);
  const exp = Number(m[4] ?? 0) - (m[3] ?? '').length;
  return exp >= 0 ? [digits * 10n ** BigInt(exp), 1n] : [digits, 10n ** BigInt(-exp)];
}
const add = (a: Q, b: Q): Q => [a[0] * b[1] + b[0] * a[1], a[1] * b[1]];
const less = (a: Q, b: Q) => a[0] * b[1] < b[0] * a[1];

describe('exact.ts: the double nearest to the exact value', () => {
  it('a decimal of any length and scale', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,40}$/), fc.integer({ min: 0, max: 40 }))
      .map(([neg, digits, scale]) => {
        const padded = digits.padStart(scale + 1, '0');
        const text = scale ? `${padded.slice(0, -scale)}.${padded.slice(-scale)}` : padded;
        return neg ? `-${text}` : text;
      });
    fc.assert(
      fc.property(decimal, (text) => {
        expect(isNearest(decimalToNumber(text), ofDecimal(text)), text).toBe(true);
      }),
      { numRuns: RUNS * 10, seed: SEED },
    );
  });

  it('a sum divided by a count, where rounding the quotient first can land one step off', () => {
    // PostgreSQL's numeric division gives these quotients to 16 decimals; a double read from that text is one step
    // away from the nearest to the exact quotient
    for (const [sum, count, expected] of [
      ['25.8', 14, 1.8428571428571427],
      ['71', 18, 3.9444444444444446],
      ['433.8', 28, 15.492857142857142],
    ] as const) {
      const v = averageToNumber(sum, count);
      expect(v).toBe(expected);
      const [p, q] = ofDecimal(sum);
      expect(isNearest(v, [p, q * BigInt(count)])).toBe(true);
    }
    fc.assert(
      fc.property(fc.tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,30}$/), fc.integer({ min: 0, max: 25 }), fc.bigInt({ min: 1n, max: 10n ** 12n })), ([neg, digits, scale, n]) => {
        const padded = digits.padStart(scale + 1, '0');
        const sum = `${neg ? '-' : ''}${scale ? `${padded.slice(0, -scale)}.${padded.slice(-scale)}` : padded}`;
        const [p, q] = ofDecimal(sum);
        expect(isNearest(averageToNumber(sum, n), [p, q * n]), `${sum} / ${n}`).toBe(true);
      }),
      { numRuns: RUNS * 10, seed: SEED },
    );
  });

  it('ratios at the edges: exact ties, subnormals, the largest doubles', () => {
    // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: the even one
    expect(nearestDouble(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(nearestDouble(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(nearestDouble(1n, 2n ** 1074n)).toBe(Number.MIN_VALUE);
    expect(nearestDouble(1n, 2n ** 1075n)).toBe(0); // halfway to the smallest subnormal: ties to even (zero)
    expect(nearestDouble(3n, 2n ** 1076n)).toBe(Number.MIN_VALUE);
    expect(nearestDouble(2n ** 1024n - 2n ** 971n, 1n)).toBe(Number.MAX_VALUE);
    expect(nearestDouble(2n ** 1024n - 2n ** 970n - 1n, 1n)).toBe(Number.MAX_VALUE);
    // halfway between the largest double and 2^1024 rounds (to even) past the range
    expect(nearestDouble(2n ** 1024n - 2n ** 970n, 1n)).toBe(Infinity);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 1100n }), fc.bigInt({ min: 1n, max: 2n ** 1100n }), (p, q) => {
        const d = nearestDouble(p, q);
        if (Number.isFinite(d)) expect(isNearest(d, [p, q])).toBe(true);
        else expect(p >= q * (2n ** 1024n - 2n ** 970n)).toBe(true);
      }),
      { numRuns: RUNS * 10, seed: SEED },
    );
  });
});

describe('POST /aggregate: every figure is the nearest double to the exact one', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  // values as an operator's figures (tenths, hundredths) and as any figure a tracking value may be (magnitude below
  // 1e9, at most 6 decimal places: src/modules/tracking/value.ts), up to 15 significant digits
  const value = fc.oneof(
    fc.integer({ min: 0, max: 99_999 }).map((n) => n / 10),
    fc.integer({ min: -(10 ** 9) + 1, max: 10 ** 9 - 1 }).chain((n) => fc.integer({ min: 0, max: 6 }).map((k) => n / 10 ** k)),
    fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }).map((n) => Number(n) / 1e6),
  );
  const log = fc.record({ ac2: fc.boolean(), day: fc.integer({ min: 0, max: 89 }), minute: fc.integer({ min: 0, max: 1439 }), hobbs: fc.option(value, { nil: undefined }) });
  const METRICS = ['sum', 'avg', 'min', 'max', 'count'].map((operation) => ({ field: 'hobbs', operation }));

  it('sums, averages, minima, maxima and counts per aircraft and month, over both plans', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const plans = [new AggregationService(db, { plan: 'logs' }), new AggregationService(db, { plan: 'rollup' })];
    let window = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(log, { minLength: 1, maxLength: 25 }), async (logs) => {
        // each run writes into a 90-day window of its own and asks only about it
        const from = Date.UTC(2001, 0, 1) + window++ * 90 * 86_400_000;
        const items: Record<string, unknown>[] = logs.map((l) => {
          // the second aircraft tracks no hobbs: its groups have no numeric value
          const body = l.ac2 ? flightLogBody2({ tacho: 1 }) : flightLogBody(l.hobbs === undefined ? {} : { hobbs: l.hobbs });
          return { ...body, timeDate: new Date(from + l.day * 86_400_000 + l.minute * 60_000).toISOString() };
        });
        const created = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items } });
        expect(created.body.errors).toEqual([]);
        const request = {
          collection: 'flightLogs', metrics: METRICS, groupBy: 'aircraftId', dateGroup: 'month',
          dateRange: { field: 'timeDate', start: new Date(from).toISOString(), end: new Date(from + 90 * 86_400_000 - 1).toISOString() },
        };

        // the exact figures: JSON numbers as written (their shortest decimal, which the database keeps) added here
        type Acc = { sum: Q; n: number; min: Q | null; max: Q | null; logs: number };
        const acc = new Map<string, Acc>();
        const at = (k: string) => acc.get(k) ?? (acc.set(k, { sum: [0n, 1n], n: 0, min: null, max: null, logs: 0 }), acc.get(k)!);
        for (const it of items) {
          const group = String(it.aircraftId);
          const month = String(it.timeDate).slice(0, 7);
          for (const k of [`${group}|${month}`, `${group}|`]) {
            const a = at(k);
            a.logs++;
            if (typeof it.hobbs !== 'number') continue;
            const x = ofDecimal(JSON.stringify(it.hobbs));
            a.sum = add(a.sum, x);
            a.n++;
            if (!a.min || less(x, a.min)) a.min = x;
            if (!a.max || less(a.max, x)) a.max = x;
          }
        }
        const check = (k: string, operation: string, got: number | null, count?: number) => {
          const a = acc.get(k)!;
          if (count !== undefined) expect(count, k).toBe(a.logs);
          const exact: Q | null =
            operation === 'sum' ? a.sum : operation === 'count' ? [BigInt(a.n), 1n] : operation === 'avg' ? (a.n ? [a.sum[0], a.sum[1] * BigInt(a.n)] : null) : operation === 'min' ? a.min : a.max;
          if (exact === null) return expect(got, `${k} ${operation}`).toBeNull();
          expect(got !== null && isNearest(got, exact), `${k} ${operation}: ${got}`).toBe(true);
        };

        forgetSizes(); // the rollup plan's span then covers this run's window
        const answers = [await env.json('POST', '/api/v1/aggregate', { body: request }).then((r) => r.body), ...(await Promise.all(plans.map((p) => p.aggregate(AggregateCheck.parse(request)))))];
        // the rollup answers sums, counts and averages; min and max read the logs whatever the plan
        for (const answer of answers) {
          for (const m of answer.metrics!) {
            for (const row of m.results) check(`${row.group}|${row.period}`, m.operation, row.value, row.count);
            for (const [group, total] of Object.entries(m.totals)) check(`${group}|`, m.operation, total as number | null);
            expect(m.results.length).toBe([...acc.keys()].filter((k) => !k.endsWith('|')).length);
          }
        }
      }),
      { numRuns: Math.ceil(RUNS / 4), seed: SEED },
    );
  });
});
