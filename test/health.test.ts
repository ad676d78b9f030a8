// Health for load balancers and orchestrators (docs/deploy.md): /healthz answers while the process is alive;
// /readyz only while it should get traffic: the database reachable, every migration of this release applied, and
// not draining (shutdown begun, DRAIN_DELAY_MS). No key needed for either.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { readMigrations } from '../src/db/migrate.js';
import { startServer } from '../src/server.js';
import { onPostgres, openEmbeddedTestDatabase, seedDataDir } from './helpers.js';

const open: { app: App; db: Database }[] = [];
afterAll(async () => {
  for (const o of open) {
    await o.app.close();
    await o.db.close().catch(() => {});
  }
});

/** An app on an embedded database of its own (these tests change its migrations table, or close it). */
async function appOnOwnDatabase() {
  const db = await openEmbeddedTestDatabase();
  const app = createApp({ database: db, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
  open.push({ app, db });
  const get = async (p: string) => {
    const res = await app.fetch(new Request(`http://fleetops.test${p}`));
    return { status: res.status, body: (await res.json()) as any, res };
  };
  return { app, db, get };
}

describe('/readyz', () => {
  it('is 200 while the database answers and every migration is applied; never cached', async () => {
    const { get } = await appOnOwnDatabase();
    const r = await get('/readyz');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', database: 'pglite', migrations: 'applied', draining: false });
    expect(r.res.headers.get('cache-control')).toBe('no-store');
  });

  it('is 503 when a migration of this release is not applied (until `fleetops migrate`); /healthz stays 200', async () => {
    const { db, get } = await appOnOwnDatabase();
    const last = readMigrations().at(-1)!.name;
    await db.sql.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [last]);
    const r = await get('/readyz');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'unavailable', migrations: 'pending', pending: [last], reason: `migrations not applied: ${last} (run fleetops migrate)` });
    expect((await get('/healthz')).status).toBe(200);
  });

  it('is 503 once draining, while every other request is still served', async () => {
    const { app, get } = await appOnOwnDatabase();
    app.drain();
    const r = await get('/readyz');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'unavailable', draining: true, reason: 'draining: the process is shutting down' });
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/api/v1/openapi.json')).status).toBe(200);
  });

  it('is 503 when the database cannot be reached', async () => {
    const { db, get } = await appOnOwnDatabase();
    await db.close();
    const r = await get('/readyz');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'unavailable', reason: 'the database cannot be reached' });
    expect((await get('/healthz')).status).toBe(200);
  });

  it('is 503 when the database takes the connection and never answers (a network black hole), within its timeout', async () => {
    const db = await openEmbeddedTestDatabase();
    // the same database, whose raw statements never answer
    const silent = Object.assign(Object.create(db) as Database, { sql: { ...db.sql, query: () => new Promise(() => {}) } });
    const app = createApp({ database: silent, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false, readyTimeoutMs: 50 });
    open.push({ app, db });
    const res = await app.fetch(new Request('http://fleetops.test/readyz'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', reason: 'the database did not answer within 0.05 s' });
  });
});

describe.skipIf(onPostgres)('the real server on SIGTERM (DRAIN_DELAY_MS)', () => {
  it('answers /readyz 503 and keeps serving for the drain delay, then stops listening', async () => {
    const dir = await seedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-drain-')));
    try {
      const server = await startServer(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', DRAIN_DELAY_MS: '1500' }, { dotenv: false }));
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const t0 = Date.now();
      const closing = server.close();
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ draining: true });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await closing;
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1500);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.skipIf(onPostgres)('behind a load balancer (TRUST_PROXY)', () => {
  /** A failed authentication from `client` (as X-Forwarded-For names it): 401, or 429 once its address is limited. */
  const failedAuth = async (url: string, client: string) =>
    (await fetch(`${url}/api/v1/aircraft`, { headers: { authorization: 'Bearer fo_live_wrongwrongwrongwrongwrongwrongwr', 'x-forwarded-for': client } })).status;

  it('per-address limits count the client X-Forwarded-For names when the peer is a trusted proxy, and ignore the header otherwise', async () => {
    for (const [trust, separate] of [['loopback', true], ['', false]] as const) {
      const dir = await seedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-proxy-')));
      const server = await startServer(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', AUTH_FAIL_LIMIT_PER_MINUTE: '2', TRUST_PROXY: trust }, { dotenv: false }));
      try {
        expect([await failedAuth(server.url, '203.0.113.9'), await failedAuth(server.url, '203.0.113.9'), await failedAuth(server.url, '203.0.113.9')]).toEqual([401, 401, 429]);
        // another client behind the same balancer: its own count, or (header not trusted) the balancer's exhausted one
        expect(await failedAuth(server.url, '203.0.113.10')).toBe(separate ? 401 : 429);
      } finally {
        await server.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 180_000);

  it('a TRUST_PROXY that is not an address list is a configuration error', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'not an address' }, { dotenv: false })).toThrow(/TRUST_PROXY is a comma-separated list of addresses or CIDR ranges/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }, { dotenv: false }).trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
  });
});
