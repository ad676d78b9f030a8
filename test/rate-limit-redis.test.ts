import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';

/**
 * With REDIS_URL, several server processes share one budget per API key. Two app instances over one Redis stand
 * for two processes: together they allow exactly the limit, then both answer 429. Runs when TEST_REDIS_URL is set.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('rate limit shared through Redis', () => {
  let env: TestEnv;
  let one: App;
  let two: App;
  beforeAll(async () => {
    env = await createTestEnv();
    const config = { rateLimitPerMinute: 4, authFailLimitPerMinute: 2, redisUrl, bodyLimitBytes: 1 << 20, logLevel: 'silent' };
    // no dispatcher: on a shared PostgreSQL it would send other suites' deliveries (test/helpers.ts createTestEnv)
    one = createApp({ database: env.database, config, dispatch: false });
    two = createApp({ database: env.database, config, dispatch: false });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await env?.close();
  });

  const get = (app: App, key: string) =>
    app.fetch(new Request('http://fleetops.test/api/v1/aircraft', { headers: { authorization: `Bearer ${key}` } }));

  it('counts one budget per key across instances', async () => {
    // a fresh key so earlier runs against the same Redis do not count
    const { key } = await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: `redis-${uniq()}` });
    const statuses: number[] = [];
    for (const app of [one, two, one, two]) statuses.push((await get(app, key)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const fifth = await get(two, key);
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get(one, key)).status).toBe(429);
    // another key has its own budget
    expect((await get(one, env.b.key)).status).toBe(200);
  });

  it('counts failed authentications per address across instances; over the budget the address is refused before its key is read', async () => {
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const attempt = (app: App, key: string) =>
      app.fetch(new Request('http://fleetops.test/api/v1/aircraft', { headers: { authorization: `Bearer ${key}` } }), { clientAddress: address });
    expect([(await attempt(one, 'fo_wrong')).status, (await attempt(two, 'fo_wrong')).status]).toEqual([401, 401]);
    expect((await attempt(one, env.b.key)).status).toBe(429);
    expect((await attempt(two, env.b.key)).status).toBe(429);
  });
});
