import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';

/**
 * The flight-log benchmarks' company: one pilot, one aircraft VH-BEN (`bench-ac`) with `hobbs` and `landings`, an
 * API key; and the app over it with rate limits off. Both bench/flight-logs.ts and bench/profile-op.ts use it, so
 * a profile explains the same work the comparison times.
 */
export async function benchApp(database: Database): Promise<{ app: App; key: string; companyId: string }> {
  const companyId = `bench-${randomBytes(3).toString('hex')}`;
  const key = 'fo_bench_' + randomBytes(16).toString('hex');
  await importData(database, {
    companies: [{
      id: companyId, name: 'Bench', users: [{ uid: 'bench-pilot', email: 'p@bench.test', displayName: 'Bench Pilot', roles: ['pilot'] }],
      aircraft: [{ uid: 'bench-ac', registration: 'VH-BEN', type: 'B06', category: 'rotary-wing', engineType: 'turbine', engineCount: 1,
        maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' }, landings: { displayText: 'Landings', type: 'number' } },
        initialValues: { hobbs: 100 } }],
      vehicles: [], apiKeys: [{ name: 'bench', key }],
    }],
  });
  const app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
  await app.ready;
  return { app, key, companyId };
}

/** A valid flight log for the bench aircraft; each call one minute after the last. */
export function logItems() {
  let seq = 0;
  return () => ({
    timeDate: new Date(Date.UTC(2025, 0, 1) + seq++ * 60_000).toISOString(),
    pilot: 'bench-pilot', aircraftId: 'bench-ac', aircraftRegistration: 'VH-BEN', startLocation: 'YSSY', endLocation: 'YSBK', pax: 1, hobbs: 1.2, landings: 1,
  });
}

/** A node:http server on a free port of 127.0.0.1 (the benchmarks' service and floor sides). */
export function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) });
    }),
  );
}
