// Resident memory under the mixed load (bench/mix.ts) on PostgreSQL, for the service as `fleetops serve` runs it
// (the bundle, production mode, DATABASE_URL; bench/processes.ts) next to the floor (bare node:http + pg): RSS once
// started and idle, then after each of three rounds of load, with each round's throughput. The sides run one after
// the other (the machine's cores are shared).
// Run: npx tsx bench/memory.ts [--seconds 15] [--connections 10] [--rounds 3] [--only service|floor] [--detail]
//   extra node flags for the service: BENCH_NODE_ARGS="--max-semi-space-size=4"; BENCH_DATABASE_URL: default the local server
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MIX, runMix, seedLoad, type MixResult } from './mix.js';
import { withTempDatabase } from './pg.js';
import { rssOf, startFloor, startService, type Side } from './processes.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SECONDS = Number(arg('--seconds', '15'));
const CONNECTIONS = Number(arg('--connections', '10'));
const ROUNDS = Number(arg('--rounds', '3'));
const ONLY = arg('--only', '');
const DETAIL = process.argv.includes('--detail');
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const MB = (b: number) => (b / 2 ** 20).toFixed(0);

async function measure(side: Side, key: string) {
  await sleep(2000); // start-up work settles (connections, the first timers)
  // --detail: the service's heap figures on stderr (bench/memory-probe.cjs) at every measurement
  const rss = () => {
    if (DETAIL && side.proc.spawnargs.includes('serve')) side.proc.kill('SIGUSR2');
    return rssOf(side.proc.pid!);
  };
  const idle = rss();
  const rounds: (MixResult & { rss: number })[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await runMix(side.url, key, SECONDS, CONNECTIONS);
    await sleep(1000);
    rounds.push({ ...r, rss: rss() });
  }
  side.proc.kill();
  return { idle, rounds };
}

await withTempDatabase('fleetops_memory', async (url) => {
  const key = await seedLoad(url);
  const rows: [string, Awaited<ReturnType<typeof measure>>][] = [];
  if (ONLY !== 'service') rows.push(['floor (node:http + pg)', await measure(await startFloor(url), key)]);
  if (ONLY !== 'floor') rows.push([`fleetops serve${NODE_ARGS.length ? ' ' + NODE_ARGS.join(' ') : ''}`, await measure(await startService(url, {}, DETAIL ? ['--require', path.resolve(import.meta.dirname, 'memory-probe.cjs'), ...NODE_ARGS] : NODE_ARGS), key)]);
  console.log(`\nPostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, mix: ${MIX}`);
  const head = Array.from({ length: ROUNDS }, (_, i) => `after round ${i + 1}`);
  console.log(`| | idle MB | ${head.map((h) => `${h} MB`).join(' | ')} | requests/s per round | errors |`);
  console.log(`|---|---:|${head.map(() => '---:').join('|')}|---|---:|`);
  for (const [k, m] of rows) {
    console.log(`| ${k} | ${MB(m.idle)} | ${m.rounds.map((r) => MB(r.rss)).join(' | ')} | ${m.rounds.map((r) => r.rps.toFixed(0)).join(', ')} | ${m.rounds.reduce((a, r) => a + r.errors, 0)} |`);
  }
});
