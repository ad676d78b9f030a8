// Sustained mixed load on PostgreSQL: the service and the floor (bare node:http + pg, least SQL) each in their own
// process (bench/load-server.ts), driven from this process with autocannon: list 100 logs, create one log,
// batch-create 10, and a GraphQL page of 100 logs with aircraft and pilot. Prints throughput, p50/p99 latency and
// the server's resident memory after the run, side by side, with ratios.
// Run: npx tsx bench/load.ts [--seconds 15] [--connections 10]   (BENCH_DATABASE_URL: default the local server)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import { withTempDatabase } from './pg.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('--seconds', 15);
const CONNECTIONS = arg('--connections', 10);
const KEY = 'fo_bench_' + randomBytes(16).toString('hex');

const log = (i: number) => ({
  timeDate: new Date(Date.UTC(2025, 0, 1) + i * 61_000).toISOString(),
  pilot: 'p1', aircraftId: `ac-${i % 5}`, aircraftRegistration: `VH-L${'ABCDE'[i % 5]}`, startLocation: 'YSSY', endLocation: 'YSBK', pax: 1, hobbs: 1.2, landings: 1,
});

function start(kind: 'service' | 'floor', url: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/load-server.ts', kind, url], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    proc.stdout!.once('data', (d) => resolve({ url: String(d).trim(), proc }));
    proc.once('exit', (c) => reject(new Error(`${kind} exited with ${c}`)));
  });
}

async function load(base: string) {
  let n = 1_000_000 + Math.floor(Math.random() * 1_000_000);
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      { method: 'GET', path: '/api/v1/flight-logs?limit=100', headers },
      { method: 'POST', path: '/api/v1/flight-logs', headers, setupRequest: (r) => ({ ...r, body: JSON.stringify(log(n++)) }) },
      { method: 'GET', path: '/api/v1/flight-logs?limit=100', headers },
      { method: 'POST', path: '/graphql', headers, body: JSON.stringify({ query: '{ flightLogs(limit: 100) { count data { uid timeDate trackingItems aircraft { registration totals } pilotUser { displayName } } } }' }) },
      { method: 'POST', path: '/api/v1/flight-logs/batch', headers, setupRequest: (r) => ({ ...r, body: JSON.stringify({ items: Array.from({ length: 10 }, () => log(n++)) }) }) },
    ],
  });
  const rss = Number(await (await fetch(`${base}/rss`)).text());
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, rss };
}

const procs: ChildProcess[] = [];
await withTempDatabase('fleetops_load', async (url) => {
  try {
    const database = await openDatabase({ databaseUrl: url });
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
          apiKeys: [{ name: 'load', key: KEY }],
        },
      ],
    });
    await database.close();
    const rows: [string, Awaited<ReturnType<typeof load>>][] = [];
    for (const kind of ['floor', 'service'] as const) {
      const s = await start(kind, url);
      procs.push(s.proc);
      await load(s.url); // warm-up run, not counted
      rows.push([kind, await load(s.url)]);
      s.proc.kill();
    }
    const [floorRow, serviceRow] = [rows[0][1], rows[1][1]];
    console.log(`\nPostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s, mix: list 100 ×2, create 1, GraphQL 100 logs with aircraft and pilot, batch-create 10`);
    console.log('| | requests/s | p50 ms | p99 ms | non-2xx + errors | resident MB |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [k, r] of rows) console.log(`| ${k === 'floor' ? 'floor (node:http + pg)' : 'fleetops'} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${(r.rss / 2 ** 20).toFixed(0)} |`);
    console.log(`| ratio (floor/service throughput) | ${(floorRow.rps / serviceRow.rps).toFixed(2)}x | | | | |`);
  } finally {
    for (const p of procs) p.kill();
  }
});
