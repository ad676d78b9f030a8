// The mixed load of bench/load.ts and bench/memory.ts: a company seeded with five aircraft, a pilot and an API key,
// and the request mix autocannon sends (list 100 logs ×2, create one log, a GraphQL page of 100 logs with aircraft
// and pilot, batch-create 10).
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';

export const MIX = 'list 100 ×2, create 1, GraphQL 100 logs with aircraft and pilot, batch-create 10';

const log = (i: number) => ({
  timeDate: new Date(Date.UTC(2025, 0, 1) + i * 61_000).toISOString(),
  pilot: 'p1', aircraftId: `ac-${i % 5}`, aircraftRegistration: `VH-L${'ABCDE'[i % 5]}`, startLocation: 'YSSY', endLocation: 'YSBK', pax: 1, hobbs: 1.2, landings: 1,
});

/** Migrates the database at `url` and seeds the load's company; returns its API key. */
export async function seedLoad(url: string): Promise<string> {
  const key = 'fo_bench_' + randomBytes(16).toString('hex');
  const database = await openDatabase({ databaseUrl: url });
  try {
    await importData(database, {
      companies: [
        {
          id: 'load',
          name: 'Load',
          users: [{ uid: 'p1', email: 'p1@load.test', displayName: 'Pat', roles: ['pilot'] }],
          aircraft: Array.from({ length: 5 }, (_, i) => ({
            uid: `ac-${i}`, registration: `VH-L${'ABCDE'[i]}`, type: 'B06', category: 'rotary-wing', engineType: 'turbine', engineCount: 1,
            maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' }, landings: { displayText: 'Landings', type: 'number' } },
          })),
          apiKeys: [{ name: 'load', key }],
        },
      ],
    });
  } finally {
    await database.close();
  }
  return key;
}

export interface MixResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One run of the mix against `base` for `seconds` with `connections` connections. */
export async function runMix(base: string, key: string, seconds: number, connections: number): Promise<MixResult> {
  let n = 1_000_000 + Math.floor(Math.random() * 1_000_000);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      { method: 'GET', path: '/api/v1/flight-logs?limit=100', headers },
      { method: 'POST', path: '/api/v1/flight-logs', headers, setupRequest: (r) => ({ ...r, body: JSON.stringify(log(n++)) }) },
      { method: 'GET', path: '/api/v1/flight-logs?limit=100', headers },
      { method: 'POST', path: '/graphql', headers, body: JSON.stringify({ query: '{ flightLogs(limit: 100) { count data { uid timeDate trackingItems aircraft { registration totals } pilotUser { displayName } } } }' }) },
      { method: 'POST', path: '/api/v1/flight-logs/batch', headers, setupRequest: (r) => ({ ...r, body: JSON.stringify({ items: Array.from({ length: 10 }, () => log(n++)) }) }) },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}
