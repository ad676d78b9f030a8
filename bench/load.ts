// Sustained mixed load on PostgreSQL (bench/mix.ts): the service as `fleetops serve` runs it and the floor (bare
// node:http + pg, least SQL), each in its own process (bench/processes.ts), driven from this process with
// autocannon. Prints throughput, p50/p99 latency and the server's resident memory after the run, side by side, with
// ratios. Resident memory over several rounds: bench/memory.ts.
// Run: npx tsx bench/load.ts [--seconds 15] [--connections 10]   (BENCH_DATABASE_URL: default the local server)
import { MIX, runMix, seedLoad, type MixResult } from './mix.js';
import { withTempDatabase } from './pg.js';
import { rssOf, startFloor, startService, type Side } from './processes.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('--seconds', 15);
const CONNECTIONS = arg('--connections', 10);

const sides: Side[] = [];
await withTempDatabase('fleetops_load', async (url) => {
  try {
    const key = await seedLoad(url);
    const rows: [string, MixResult & { rss: number }][] = [];
    for (const kind of ['floor', 'service'] as const) {
      const s = kind === 'floor' ? await startFloor(url) : await startService(url);
      sides.push(s);
      await runMix(s.url, key, SECONDS, CONNECTIONS); // warm-up run, not counted
      rows.push([kind, { ...(await runMix(s.url, key, SECONDS, CONNECTIONS)), rss: rssOf(s.proc.pid!) }]);
      s.proc.kill();
    }
    const [floorRow, serviceRow] = [rows[0][1], rows[1][1]];
    console.log(`\nPostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s, mix: ${MIX}`);
    console.log('| | requests/s | p50 ms | p99 ms | non-2xx + errors | resident MB |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [k, r] of rows) console.log(`| ${k === 'floor' ? 'floor (node:http + pg)' : 'fleetops serve'} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${(r.rss / 2 ** 20).toFixed(0)} |`);
    console.log(`| ratio (floor/service throughput) | ${(floorRow.rps / serviceRow.rps).toFixed(2)}x | | | | |`);
  } finally {
    for (const s of sides) s.proc.kill();
  }
});
