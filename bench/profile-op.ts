// Profiles one flight-log operation (or a form completion with an odometer reading and two defects, or an aggregation) through the service (in-process app.fetch, no sockets) on PostgreSQL: the
// timed calls only (after start-up and warm-up), with the V8 profiler, written to FILE.cpuprofile.
//   NODE_ENV=production npx tsx bench/profile-op.ts [create|batch|list|aircraft|graphql|completion|aggregate] [N] [FILE]
// then `npx tsx bench/top-frames.ts FILE.cpuprofile` names where the time goes (docs/benchmarks.md).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { openDatabase } from '../src/db/database.js';
import { benchApp, logItems } from './fixture.js';
import { withTempDatabase } from './pg.js';

const op = process.argv[2] ?? 'batch';
const N = Number(process.argv[3]) || 200;
const OUT = process.argv[4] ?? `/tmp/fleetops-${op}.cpuprofile`;

await withTempDatabase('fleetops_prof', async (url) => {
  const database = await openDatabase({ databaseUrl: url });
  const { app, key } = await benchApp(database);
  const item = logItems();
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await app.fetch(new Request('http://x' + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
    if (r.status >= 300) throw new Error(`${path} ${r.status} ${await r.text()}`);
    return r.json();
  };
  // a vehicle and a daily check for the completion (bench/form-completion.ts answers the same form)
  const vehicle = (await call('POST', '/api/v1/vehicles', { make: 'Toyota', model: 'Hilux', registration: 'PRF-1' })) as { uid: string };
  const form = (await call('POST', '/api/v1/forms', {
    name: 'Daily vehicle check', code: 'daily-prof', department: 'Ground ops',
    sections: [{ name: 'Check', fields: [
      { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
      { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' },
      { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
    ] }],
  })) as { uid: string };
  let reading = 1000;
  const aircraftUid = ((await call('GET', '/api/v1/aircraft')) as { data: { uid: string }[] }).data[0].uid;
  const ops: Record<string, () => Promise<unknown>> = {
    completion: () =>
      call('POST', '/api/v1/form-completions', {
        formId: form.uid,
        answers: { vehicle: vehicle.uid, odometer: (reading += 7), defects: [{ description: 'Cracked mirror', severity: 'low' }, { description: 'Worn tyre' }] },
      }),
    create: () => call('POST', '/api/v1/flight-logs', item()),
    batch: () => call('POST', '/api/v1/flight-logs/batch', { items: Array.from({ length: 50 }, item) }),
    list: () => call('GET', '/api/v1/flight-logs?limit=100'),
    aircraft: () => call('GET', `/api/v1/aircraft/${aircraftUid}`),
    // the shape of bench/aggregate.ts's "Sydney days, cut range" (mid-day ends) over this company's logs
    aggregate: () =>
      call('POST', '/api/v1/aggregate', {
        collection: 'flightLogs', metric: 'hobbs', dateField: 'timeDate', dateGroup: 'day', timezone: 'Australia/Sydney',
        startDate: '2024-12-31T05:30:00Z', endDate: '2025-01-01T02:45:00Z',
      }),
    graphql: () => call('POST', '/graphql', { query: '{ flightLogs(limit: 100) { count data { uid timeDate trackingItems aircraft { registration totals } pilotUser { displayName } } } }' }),
  };
  for (let i = 0; i < 4; i++) await ops.batch();
  for (let i = 0; i < 20; i++) await ops[op]();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await ops[op]();
  const elapsed = performance.now() - t0;
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(OUT, JSON.stringify(profile));
  session.disconnect();
  console.log(`${op}: ${(elapsed / N).toFixed(2)} ms per call (${N} calls); profile in ${OUT}`);
  await app.close();
  await database.close();
});
