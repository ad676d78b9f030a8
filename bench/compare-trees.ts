// Two checkouts of this repository, this one and another (an earlier commit), measured against each other in ONE
// process: each tree's own app (its src/, its node_modules) over its own database, each on its own node:http server,
// requests alternated in rounds whose order flips every round, so both see the same machine. It answers "is this
// change slower than before it?" (issue 22: no read or write slower), which bench/flight-logs.ts cannot: its floor
// runs in the process too, and what the floor gets depends on the tree beside it.
//
//   git worktree add ../before <commit> && (cd ../before && npm ci)
//   npx tsx bench/compare-trees.ts --other ../before [--ops list,graphql,aircraft,create,batch,delete,completion,aggregate]
//                       [--rounds 60] [--per-round 10] [--stores pg,lite] [--other-first]
//
// Prints, per operation and store, this tree / the other: the median of the rounds' wall-clock ratios, the median
// of their CPU-time ratios, and each side's mean ms per request. Only the requests are timed: what an operation
// needs first (the logs a batch-delete removes) is made untimed before each. The CPU time is this process's: both
// trees' apps and the HTTP client (the same for both sides), not PostgreSQL's; and the two apps share one V8 heap,
// so less garbage from one tree is also less collection during the other's requests. Both trees must have
// bench/fixture.ts's `benchApp` and `logItems` (2c5aeb0 and later). Runs in production mode, as `fleetops serve` does.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createServerAdapter } from '@whatwg-node/server';
import { listen } from './fixture.js';
import { withTempDatabase } from './pg.js';

if (process.env.NODE_ENV !== 'production') {
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  process.exit(r.status ?? 1);
}

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const OTHER = path.resolve(arg('other', ''));
if (!process.argv.includes('--other')) throw new Error('usage: bench/compare-trees.ts --other <checkout> (see the header)');
const THIS = path.resolve(import.meta.dirname, '..');
const OPS = arg('ops', 'list,graphql,aircraft,create,batch,delete,completion,aggregate').split(',');
const ROUNDS = Number(arg('rounds', '60'));
const PER_ROUND = Number(arg('per-round', '10'));
const STORES = arg('stores', 'pg,lite').split(',');

type Side = { name: 'this' | 'other'; url: string; key: string; item: () => unknown; state: Record<string, unknown>; close: () => Promise<void> };

async function side(name: Side['name'], databaseUrl: string | null): Promise<Side> {
  const tree = name === 'this' ? THIS : OTHER;
  const { openDatabase } = await import(path.join(tree, 'src/db/database.ts'));
  const { benchApp, logItems } = await import(path.join(tree, 'bench/fixture.ts'));
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: 'memory://' });
  const { app, key } = await benchApp(database);
  const server = await listen(createServerAdapter((r: Request) => app.fetch(r)) as never);
  return {
    name, url: server.url, key, item: logItems(), state: {},
    close: async () => {
      await server.close();
      await app.close();
      await database.close();
    },
  };
}

async function call(s: Side, method: string, p: string, body?: unknown): Promise<any> {
  const r = await fetch(s.url + p, {
    method, headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${s.name} ${p}: ${r.status} ${text}`);
  return JSON.parse(text);
}

const batchOf = (s: Side) => ({ items: Array.from({ length: 50 }, s.item) });

/** An operation: `prepare` (untimed) returns what the timed `run` needs. */
type Op = { setup?: (s: Side) => Promise<void>; prepare?: (s: Side) => Promise<unknown>; run: (s: Side, prepared: unknown) => Promise<unknown> };
const ops: Record<string, Op> = {
  list: { run: (s) => call(s, 'GET', '/api/v1/flight-logs?limit=100') },
  graphql: { run: (s) => call(s, 'POST', '/graphql', { query: '{ flightLogs(limit: 100) { count data { uid timeDate trackingItems aircraft { registration totals } pilotUser { displayName } } } }' }) },
  aircraft: { run: (s) => call(s, 'GET', '/api/v1/aircraft/bench-ac') },
  create: { run: (s) => call(s, 'POST', '/api/v1/flight-logs', s.item()) },
  batch: { run: (s) => call(s, 'POST', '/api/v1/flight-logs/batch', batchOf(s)) },
  delete: {
    prepare: async (s) => ((await call(s, 'POST', '/api/v1/flight-logs/batch', batchOf(s))) as { results: { uid: string }[] }).results.map((r) => r.uid),
    run: (s, ids) => call(s, 'POST', '/api/v1/flight-logs/batch-delete', { ids }),
  },
  // a vehicle check with an odometer reading and two defects (bench/form-completion.ts answers the same form)
  completion: {
    setup: async (s) => {
      const vehicle = await call(s, 'POST', '/api/v1/vehicles', { make: 'Toyota', model: 'Hilux', registration: `CMP-${s.name}` });
      const form = await call(s, 'POST', '/api/v1/forms', {
        name: 'Daily vehicle check', code: `daily-${s.name}`, department: 'Ground ops',
        sections: [{ name: 'Check', fields: [
          { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
          { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' },
          { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
        ] }],
      });
      Object.assign(s.state, { vehicle: vehicle.uid, form: form.uid, reading: 1000 });
    },
    run: (s) => call(s, 'POST', '/api/v1/form-completions', {
      formId: s.state.form,
      answers: { vehicle: s.state.vehicle, odometer: (s.state.reading = (s.state.reading as number) + 7), defects: [{ description: 'Cracked mirror', severity: 'low' }, { description: 'Worn tyre' }] },
    }),
  },
  aggregate: {
    run: (s) => call(s, 'POST', '/api/v1/aggregate', { collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'day', timezone: 'Australia/Sydney' }),
  },
};

const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)]!;

async function compare(store: string, op: string, urls: [string | null, string | null]) {
  const order: Side['name'][] = process.argv.includes('--other-first') ? ['other', 'this'] : ['this', 'other'];
  const sides = [await side(order[0]!, urls[0]), await side(order[1]!, urls[1])];
  const o = ops[op]!;
  for (const s of sides) {
    for (let i = 0; i < 3; i++) await ops.batch!.run(s, null); // 150 logs, so lists read an index
    await o.setup?.(s);
    for (let i = 0; i < 30; i++) await o.run(s, await o.prepare?.(s));
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  const total = { this: 0, other: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const w = { this: 0, other: 0 };
    const c = { this: 0, other: 0 };
    for (const s of r % 2 ? [...sides].reverse() : sides) {
      for (let i = 0; i < PER_ROUND; i++) {
        const prepared = await o.prepare?.(s);
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await o.run(s, prepared);
        w[s.name] += performance.now() - t0;
        const used = process.cpuUsage(c0);
        c[s.name] += used.user + used.system;
      }
      total[s.name] += w[s.name];
    }
    wall.push(w.this / w.other);
    cpu.push(c.this / c.other);
  }
  const ms = (t: number) => (t / ROUNDS / PER_ROUND).toFixed(3);
  console.log(`| ${op} | ${store} | ${median(wall).toFixed(3)} | ${median(cpu).toFixed(3)} | ${ms(total.this)} | ${ms(total.other)} |`);
  for (const s of sides) await s.close();
}

console.log(`this tree (${THIS}) / the other (${OTHER}); ${ROUNDS} rounds of ${PER_ROUND} requests per side, order flipped each round`);
console.log('| operation | store | wall-clock ratio (median of rounds) | CPU ratio | this, ms | other, ms |');
console.log('|---|---|---:|---:|---:|---:|');
for (const store of STORES) {
  for (const op of OPS) {
    if (store === 'pg') await withTempDatabase('fleetops_cmp_a', (a) => withTempDatabase('fleetops_cmp_b', (b) => compare(store, op, [a, b])));
    else await compare(store, op, [null, null]);
  }
}
