// The front door in a real browser (Debian's chromium, playwright-core), on a server holding the demo company: `/`
// lands on the operator console when it is built (`npm install` builds it), else on the API docs; one documented
// write is tried from Swagger UI with its example and answers 2xx; GraphiQL
// at /graphql runs a query with the demo key. No request leaves the service's own origin (the pages' CSPs allow
// nothing else, and every request the browser makes is checked).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { consoleAvailable } from '../src/http/console.js';
import { loadDemo } from '../src/modules/companies/demo.js';
import { openTestDatabase, uniq } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

describe.skipIf(!available)('front door in chromium', () => {
  let database: Database;
  let app: App;
  let server: http.Server;
  let base: string;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    key = (await loadDemo(database, `demo-${uniq()}`)).key;
    app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
    server = http.createServer(createServerAdapter<{ req: http.IncomingMessage }>((req, ctx) => app.fetch(req, { clientAddress: ctx.req.socket.remoteAddress })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await app?.close();
    await database?.close();
  });

  /** A page that records every request it makes and every CSP violation. */
  async function open(): Promise<{ page: Page; requests: string[]; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    return { page, requests, problems };
  }
  const foreign = (urls: string[]) => urls.filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'));

  it('/ lands on the console when it is built, else on the docs; a documented write tried from the docs with its example answers 201', async () => {
    const { page, requests, problems } = await open();
    // the switch GET / reads (src/http/console.ts): the console's index.html is there
    const built = consoleAvailable();
    const nav = await page.goto(`${base}/`);
    expect(nav?.status()).toBe(200);
    if (built) {
      expect(page.url()).toBe(`${base}/console`);
      // the console's sign-in page, drawn by its own script under its CSP
      await page.locator('h1', { hasText: 'Fleet Ops console' }).waitFor({ timeout: 30_000 });
      await page.getByLabel('API key').waitFor();
      const docs = await page.goto(`${base}/docs`);
      expect(docs?.status()).toBe(200);
    } else {
      expect(page.url()).toBe(`${base}/docs`);
    }
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });

    // authorise with the demo key
    await page.getByRole('button', { name: /Authorize/ }).first().click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(key);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done, .modal-ux button.close-modal').first().click();

    // POST /schedule-items, tried out with the documented example
    const op = page.locator('[id$="-createScheduleItem"]').first();
    await op.locator('.opblock-summary').click();
    const tryOut = op.getByRole('button', { name: 'Try it out' });
    if (await tryOut.isVisible()) await tryOut.click();
    const answered = page.waitForResponse((r) => r.url() === `${base}/api/v1/schedule-items` && r.request().method() === 'POST');
    await op.getByRole('button', { name: 'Execute' }).click();
    const res = await answered;
    expect(res.status()).toBe(201);
    await expect(op.locator('.live-responses-table tbody .response-col_status').first().textContent()).resolves.toMatch(/201/);
    const created = await res.json();
    const item = await app.fetch(new Request(`${base}/api/v1/schedule-items/${created.uid}`, { headers: { authorization: `Bearer ${key}` } }));
    expect((await item.json()).name).toBe('Magneto inspection');
    expect(foreign(requests)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('GraphiQL at /graphql runs a query with the demo key, from local assets only', async () => {
    const { page, requests, problems } = await open();
    const nav = await page.goto(`${base}/graphql`);
    expect(nav?.status()).toBe(200);
    expect(nav?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    // the headers editor holds the Authorization placeholder: put the demo key in it
    const headers = page.locator('.graphiql-editor-tool .monaco-editor:visible').first();
    await headers.waitFor({ timeout: 30_000 });
    await headers.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${key}` }));
    const answered = page.waitForResponse((r) => r.url() === `${base}/graphql` && r.request().method() === 'POST' && !(r.request().postData() ?? '').includes('IntrospectionQuery'));
    await page.locator('.graphiql-execute-button').click();
    const res = await answered;
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.aircraftList.data.map((a: any) => a.registration).sort()).toEqual(['VH-ABC', 'VH-GLD', 'VH-XYZ']);
    // and GraphiQL shows the answer
    await page.locator('.graphiql-response', { hasText: 'VH-XYZ' }).first().waitFor({ timeout: 30_000 });
    expect(foreign(requests)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);
});
