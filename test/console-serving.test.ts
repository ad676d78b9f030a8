// How the server serves the built console (src/http/console.ts), without a browser: index.html for every page path
// under /console with a CSP that allows no inline script or style, hashed assets cached for good, nothing outside
// the assets folder, nothing for other methods, and nothing at all when the console is not built (the switch the
// front door reads: consoleAvailable).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAvailable, serveConsole } from '../src/http/console.js';
import { homeResponse } from '../src/http/front-door.js';

describe('serving the console', () => {
  let dir: string;
  const get = (p: string, method = 'GET') => serveConsole(new Request(`http://fleetops.test${p}`, { method }), p, dir);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-console-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'console-ABC123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'assets', 'console-ABC123.css'), 'body{}');
    fs.writeFileSync(path.join(dir, 'secret.env'), 'KEY=1');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers index.html for the console and any page under it, with a strict CSP and no caching', async () => {
    for (const p of ['/console', '/console/', '/console/flight-logs', '/console/aircraft/demo-vh-abc']) {
      const res = (await get(p))!;
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await expect(res.text()).resolves.toBe('<!doctype html><title>console</title>');
    }
  });

  it('serves the hashed assets with their types, cached for good; HEAD has no body', async () => {
    const js = (await get('/console/assets/console-ABC123.js'))!;
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await expect(js.text()).resolves.toBe('console.log(1)');
    expect((await get('/console/assets/console-ABC123.css'))!.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const head = (await get('/console/assets/console-ABC123.js', 'HEAD'))!;
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it('serves nothing outside the assets folder, no unknown file or type, and no other method', async () => {
    for (const p of ['/console/assets/../secret.env', '/console/assets/%2e%2e%2fsecret.env', '/console/assets/missing.js', '/console/assets/.hidden.js', '/console/assets/x.env', '/console/assets/sub/x.js']) {
      expect(await get(p), p).toBeNull();
    }
    expect(await get('/console', 'POST')).toBeNull();
    expect(await get('/console/flight-logs', 'DELETE')).toBeNull();
  });

  it('is absent until built: consoleAvailable is the switch for GET /', async () => {
    expect(consoleAvailable(dir)).toBe(true);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-console-none-'));
    expect(consoleAvailable(empty)).toBe(false);
    expect(await serveConsole(new Request('http://fleetops.test/console'), '/console', empty)).toBeNull();
    fs.rmSync(empty, { recursive: true });
  });

  it('GET / sends a browser to the console when there is one, else to the docs; other clients get the index', async () => {
    const browser = new Request('http://fleetops.test/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    const withConsole = homeResponse(browser, { consolePath: '/console', version: 'v1' });
    expect(withConsole.status).toBe(302);
    expect(withConsole.headers.get('location')).toBe('/console');
    const without = homeResponse(browser, { version: 'v1' });
    expect(without.status).toBe(302);
    expect(without.headers.get('location')).toBe('/docs');
    const index = homeResponse(new Request('http://fleetops.test/', { headers: { accept: '*/*' } }), { consolePath: '/console', version: 'v1' });
    expect(index.status).toBe(200);
    expect((await index.json()).links).toMatchObject({ console: '/console', docs: '/docs', graphql: '/graphql' });
    const bare = await homeResponse(new Request('http://fleetops.test/'), { version: 'v1' }).json();
    expect(bare.links).not.toHaveProperty('console');
  });
});
