// Time from `fleetops serve` to a 200 from /readyz, on existing data, on both stores (issue 27: < 1.5 s), as users
// start it: `node bin/fleetops.js serve` (the bundle when it is fresh), production mode. With --other, the same for
// another checkout (an earlier commit in a `git worktree` with its own `npm ci`), the two alternated start by start
// (who goes first flips every start), each over its own copy of the same data. Also `fleetops --help`.
// Run: npx tsx bench/start-up.ts [--runs 10] [--stores lite,pg] [--other ../wt/base]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { withTempDatabase } from './pg.js';

const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
if (process.argv.includes('--help')) {
  console.log('npx tsx bench/start-up.ts [--runs 10] [--stores lite,pg] [--other <checkout>]');
  process.exit(0);
}
const RUNS = Number(arg('--runs', '10'));
const STORES = arg('--stores', 'lite,pg')!.split(',');
const OTHER = arg('--other');
const trees = [{ name: 'this', dir: process.cwd() }, ...(OTHER ? [{ name: 'other', dir: path.resolve(OTHER) }] : [])];

/** The status of GET /readyz, 0 while nothing listens. */
function readyz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

/** Seconds from spawning `fleetops serve` in `tree` to a 200 from /readyz. */
async function start(tree: string, env: Record<string, string>): Promise<number> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['bin/fleetops.js', 'serve'], { cwd: tree, env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    for (;;) {
      // node:http, not fetch: a refused connection costs this process little CPU, which the server's start shares
      if ((await readyz(port)) === 200) return (performance.now() - t0) / 1000;
      if (proc.exitCode !== null) throw new Error(`fleetops serve in ${tree} exited with ${proc.exitCode}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    proc.kill('SIGTERM');
    if (proc.exitCode === null) await new Promise((r) => proc.once('exit', r));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;

/** RUNS starts of each tree, alternated; `envOf(tree index)` is the store each start uses. */
async function alternate(label: string, envOf: (i: number) => Record<string, string>) {
  const times: number[][] = trees.map(() => []);
  for (let i = 0; i < trees.length; i++) await start(trees[i].dir, envOf(i)); // a first start of each, not timed
  for (let run = 0; run < RUNS; run++) {
    const order = run % 2 ? [...trees.keys()].reverse() : [...trees.keys()];
    for (const i of order) times[i].push(await start(trees[i].dir, envOf(i)));
  }
  for (const [i, t] of times.entries()) console.log(`| ${label} | ${trees[i].name} (${trees[i].dir}) | ${median(t).toFixed(2)} s | ${range(t)} s |`);
  if (trees.length === 2) console.log(`| ${label} | this / other | ${(median(times[0]) / median(times[1])).toFixed(2)} | |`);
}

console.log(`fleetops serve → 200 from /readyz on existing data; ${RUNS} starts per tree${trees.length === 2 ? ', alternated' : ''}`);
console.log('| store | tree | median | range |');
console.log('|---|---|---:|---:|');
if (STORES.includes('lite')) {
  // one data directory made by this tree's first start, then a copy per tree
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-start-'));
  try {
    await start(trees[0].dir, { DATA_DIR: path.join(base, 'made') });
    const dirs = trees.map((_, i) => {
      const d = path.join(base, `tree${i}`);
      fs.cpSync(path.join(base, 'made'), d, { recursive: true });
      return d;
    });
    await alternate('embedded (PGlite)', (i) => ({ DATA_DIR: dirs[i] }));
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
if (STORES.includes('pg')) {
  // one database per tree, migrated by its first start
  const run = async (urls: string[]) => alternate('PostgreSQL', (i) => ({ DATABASE_URL: urls[i] }));
  const nest = async (i: number, urls: string[]): Promise<unknown> =>
    i === trees.length ? run(urls) : withTempDatabase(`fleetops_start${i}`, (url) => nest(i + 1, [...urls, url]));
  await nest(0, []);
}
const help = trees.map((t) => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['bin/fleetops.js', '--help'], { cwd: t.dir, stdio: 'ignore' });
    times.push((performance.now() - t0) / 1000);
  }
  return `${t.name} ${median(times).toFixed(2)} s (${range(times)})`;
});
console.log(`\nfleetops --help, median of 5: ${help.join('; ')}`);
