import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, keepKey, type TestEnv } from './helpers.js';

/** Lists of logs with their aircraft and pilot resolve in a fixed number of SQL statements, whatever their length. */
let env: TestEnv;
let statements = 0;
const seen: string[] = [];
beforeAll(async () => {
  env = await createTestEnv({ onQuery: (q) => { statements++; seen.push(q); if (process.env.DEBUG_SQL) console.log(statements, q.slice(0, 150)); } });
  await keepKey(env, () => seen); // the key's first use: looked up, then known (counts below leave it out)
}, 180_000);
afterAll(() => env?.close());

async function createLogs(n: number, from: number) {
  const items = Array.from({ length: n }, (_, i) => ({
    timeDate: new Date(Date.UTC(2026, 0, 1, 0, from + i)).toISOString(),
    pilot: (from + i) % 2 ? 'acme-pilot' : 'acme-owner',
    copilot: 'acme-new',
    aircraftId: (from + i) % 3 ? 'acme-ac-1' : 'acme-ac-2',
    aircraftRegistration: (from + i) % 3 ? 'VH-ACM' : 'VH-ACZ',
    startLocation: 'YSSY',
    endLocation: 'YSBK',
    pax: 1,
  }));
  const r = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items } });
  expect(r.body.errors).toEqual([]);
}

async function count(fn: () => Promise<unknown>): Promise<number> {
  statements = 0;
  await fn();
  return statements;
}

const LIST = `query($n: Int) { flightLogs(limit: $n) { count data { uid aircraft { registration totals } pilotUser { displayName } copilotUser { uid } } } }`;

describe('N+1', () => {
  it('GraphQL: a page of logs with aircraft, pilot and co-pilot costs the same statements for 6 or 48 logs', async () => {
    const baseline = await count(() => env.gql('{ __typename }'));
    await createLogs(6, 0);
    const small = await count(async () => {
      const r = await env.gql(LIST, { n: 6 });
      expect(r.body.data.flightLogs.count).toBe(6);
      expect(r.body.data.flightLogs.data.every((l: any) => l.aircraft.registration && l.pilotUser.displayName)).toBe(true);
    });
    await createLogs(42, 6);
    const large = await count(async () => {
      const r = await env.gql(LIST, { n: 48 });
      expect(r.body.data.flightLogs.count).toBe(48);
    });
    expect(large).toBe(small);
    // one statement for the page, one for its aircraft, one for its users
    expect(small - baseline).toBeLessThanOrEqual(3);
    // and nothing else: the key is known from the first request (cached), so the whole request is those three
    expect(large).toBeLessThanOrEqual(3);
    expect(baseline).toBe(0);
  });

  it('REST: a page of logs is one query, no relation loads', async () => {
    const baseline = await count(() => env.json('GET', '/api/v1/users/acme-pilot'));
    const n = await count(async () => {
      const r = await env.json('GET', '/api/v1/flight-logs?limit=48');
      expect(r.body.count).toBe(48);
    });
    expect(n - baseline).toBeLessThanOrEqual(1);
  });

  it('a page reads the columns its selection needs (test/flight-logs-columns.test.ts), the aircraft only when selected, once for the page', async () => {
    const reads = async (selection: string) => {
      seen.length = 0;
      const r = await env.gql(`{ flightLogs(limit: 5) { data { ${selection} } } }`);
      expect(r.body.errors).toBeUndefined();
      const select = (table: string) => seen.filter((q) => /^\s*select/i.test(q) && new RegExp(`from\\s+"?(public"?\\.)?"?${table}(?!\\w)`, 'i').test(q));
      return { logs: select('FlightLog').join('\n'), aircraft: select('Aircraft') };
    };
    const narrow = await reads('uid');
    expect(narrow.logs).not.toMatch(/"notes"|"pax"|"tracking"/);
    expect(narrow.aircraft).toEqual([]);
    // the aircraft through the request's loader: one statement for the page's logs, however many
    const wide = await reads('uid trackingItems aircraft { registration }');
    expect(wide.aircraft).toHaveLength(1);
    expect(wide.aircraft[0]).toMatch(/"registration"/);
  });

  it('a batch is set-based: 50 logs on two aircraft cost the same statements as 2', async () => {
    const items = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        timeDate: new Date(Date.UTC(2027, 0, 1, 0, from + i)).toISOString(),
        pilot: 'acme-pilot',
        aircraftId: i % 2 ? 'acme-ac-1' : 'acme-ac-2',
        aircraftRegistration: i % 2 ? 'VH-ACM' : 'VH-ACZ',
        startLocation: 'YSSY',
        endLocation: 'YSBK',
        pax: 1,
        ...(i % 2 ? { hobbs: 0.1 } : { tacho: 0.1 }),
      }));
    const small = await count(async () => {
      const r = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items: items(2, 0) } });
      expect(r.body.results).toHaveLength(2);
    });
    const large = await count(async () => {
      const r = await env.json('POST', '/api/v1/flight-logs/batch', { body: { items: items(50, 100) } });
      expect(r.body.results).toHaveLength(50);
    });
    expect(large).toBe(small);
  });

  it('a vehicle batch is set-based too: 50 vehicles cost the same statements as 2', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ make: 'Toyota', model: 'Hilux', registration: `SET-${n}-${i}` }));
    const small = await count(async () => {
      const r = await env.json('POST', '/api/v1/vehicles/batch', { body: { items: items(2) } });
      expect(r.body.results).toHaveLength(2);
    });
    const large = await count(async () => {
      const r = await env.json('POST', '/api/v1/vehicles/batch', { body: { items: items(50) } });
      expect(r.body.results).toHaveLength(50);
      expect(r.body.errors).toEqual([]);
    });
    expect(large).toBe(small);
  });
});
