// The operator console in a real browser (Debian's chromium driven by playwright-core), signed in with the demo
// company's key, walking every page: the fleet overview with its overdue item first, an aircraft's page, logging a
// flight (the API's message at the field, then the aircraft's total moving by exactly the flown value), the flight-log
// list with its filters and CSV export, a CSV import in two batches with a rejected row, the utilisation charts and
// their tables, filling a form and seeing its webhook delivered and re-sent, the public link, and the console at 390 px
// by keyboard; then, with the demo's admin key, the admin section: an API key created (shown once) and revoked, an
// aircraft added and edited (a refused delete shows the API's 409), a user edited, the SMS provider set and removed,
// and the audit log showing what those pages did; a read_write key sees no admin section. axe-core checks every
// page for WCAG 2.1 A/AA violations. One server and one browser for the file; the
// console is built first (scripts/build-console.mjs), so the test never runs a stale bundle. SCREENSHOT=1 refreshes
// docs/images/console-*.png.
//
// The demo is `fleetops demo`'s year of flights counted back from the service's clock, so no figure here is the
// demo's: the test arranges its flights in the six whole months before the clock's month (Sydney months) and
// expects what it arranged or what it reads back from the API (sums worked out here, exactly, from the logs).
import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../scripts/build-console.mjs';
import { loadDemo } from '../src/modules/companies/demo.js';
import { CHROMIUM, chromiumAvailable, serveApp, webhookReceiver, type Listening } from './browser.js';
import { addDays, createTestEnv, todayIn, uniq, type TestEnv } from './helpers.js';

const TZ = 'Australia/Sydney';
const AC = 'demo-vh-abc';
const XYZ = 'demo-vh-xyz';
/** The console's page of flight logs (console/src/pages/flight-logs.tsx) and of an aircraft's latest logs (asset.tsx). */
const PAGE_SIZE = 25;
const LATEST = 10;

/** `YYYY-MM-DD HH:MM` of an instant in Sydney, by Intl (not by the console's own conversion). */
function sydney(iso: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: TZ, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}
/** `YYYY-MM` plus n months. */
function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
/** The last day of a month, `YYYY-MM-DD`. */
const lastDay = (month: string) => addDays(`${addMonths(month, 1)}-01`, -1);
/** `2026-03` as the console labels it: `Mar 2026`. */
const monthLabel = (month: string) => new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
/** A figure as the console shows it: at least `precision` decimals. */
const shown = (v: number, precision: number) => new Intl.NumberFormat('en', { minimumFractionDigits: precision, maximumFractionDigits: 10 }).format(v);
/** Millionths: tracking values summed exactly (no value here has more than six decimals). */
const micro = (v: unknown) => (typeof v === 'number' ? Math.round(v * 1e6) : 0);
/** The six whole months before the clock's month in Sydney, oldest first: the demo flew all of them. */
const MONTHS = [6, 5, 4, 3, 2, 1].map((k) => addMonths(todayIn(TZ).slice(0, 7), -k));

interface Log {
  uid: string;
  timeDate: string;
  aircraftId: string;
  pax: number | null;
  trackingItems: Record<string, unknown>;
}

describe.skipIf(!chromiumAvailable)('operator console in chromium', () => {
  let env: TestEnv;
  let key: string;
  let server: Listening;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let hooks: string[];
  const errors: string[] = [];
  const tag = uniq();
  const overdueName = `100-hourly inspection ${tag}`;
  const dueSoonName = `Tacho check ${tag}`;
  const dueNowName = `Tacho limit ${tag}`;
  /** The completion submitted in the browser. */
  let completionUid: string;

  /** A GraphQL call as the demo company (arranging data and reading the truth the page must show). */
  async function gql<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const r = await env.gql<T>(query, variables, key);
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    return r.body.data!;
  }
  const totals = async (id: string) => (await gql(`query($id: ID!) { aircraft(id: $id) { totals } }`, { id })).aircraft.totals as Record<string, number>;

  /** Every flight log the filter matches, newest first, read page by page from the API. */
  async function logs(filter: { aircraftId?: string; startDate?: string; endDate?: string }): Promise<Log[]> {
    const out: Log[] = [];
    let cursor: string | undefined;
    do {
      const page = (
        await gql(
          `query($aircraftId: String, $startDate: String, $endDate: String, $cursor: String) {
            flightLogs(aircraftId: $aircraftId, startDate: $startDate, endDate: $endDate, cursor: $cursor, limit: 500) { nextCursor data { uid timeDate aircraftId pax trackingItems } }
          }`,
          { ...filter, cursor },
        )
      ).flightLogs;
      out.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }
  /** The logs flown on Sydney days `from` to `to`, newest first (read a day wider in UTC, then sorted out by Intl). */
  async function logsOnDays(from: string, to: string, aircraftId?: string): Promise<Log[]> {
    const all = await logs({ aircraftId, startDate: addDays(from, -1), endDate: addDays(to, 1) });
    return all.filter((l) => sydney(l.timeDate).slice(0, 10) >= from && sydney(l.timeDate).slice(0, 10) <= to);
  }
  const rowUids = (table: string) => page.locator(`${table} tbody tr`).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-log') ?? tr.getAttribute('data-delivery')));

  /** No WCAG 2.1 A/AA violation on the page as it is now. */
  async function expectAccessible(what: string) {
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const found = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(found, `axe on ${what}`).toEqual([]);
  }

  async function shot(name: string) {
    if (!process.env.SCREENSHOT) return;
    fs.mkdirSync(path.resolve('docs/images'), { recursive: true });
    await page.screenshot({ path: path.resolve(`docs/images/console-${name}.png`), fullPage: true });
  }

  const heading = () => page.locator('h1').textContent();

  beforeAll(async () => {
    receiver = await webhookReceiver();
    hooks = receiver.bodies;
    const [, e] = await Promise.all([buildConsole(), createTestEnv({ dispatch: true, config: { webhookAllowPrivate: true } })]);
    env = e;
    // the demo company, as `fleetops demo` loads it, under an id of this run (a shared PostgreSQL keeps earlier runs')
    ({ key } = await loadDemo(env.database, `demo-${tag}`));

    // an engine fitted to VH-ABC whose hours follow the airframe's Hobbs
    const engine = await gql(`mutation($input: CreateComponentInput!) { createComponent(input: $input) { uid } }`, {
      input: { name: 'Engine', type: 'Engine', partNumber: '250-C20B', serialNumber: `CAE-${tag}`, counters: [{ displayText: 'Hours since new', unit: 'hours' }] },
    });
    await gql(`mutation($id: ID!, $input: InstallComponentInput!) { installComponent(id: $id, input: $input) { status } }`, {
      id: engine.createComponent.uid,
      input: { parentType: 'aircraft', parentUid: AC, mappings: [{ counterKey: 'hoursSinceNew', sourceKey: 'hobbs' }] },
    });
    await gql(`mutation($id: ID!, $input: InstallComponentInput!) { installComponent(id: $id, input: $input) { status } }`, {
      id: (await gql(`mutation($input: CreateComponentInput!) { createComponent(input: $input) { uid } }`, { input: { name: 'Fuel pump', type: 'Pump', partNumber: 'FP-1', serialNumber: `FP-${tag}` } })).createComponent.uid,
      input: { parentType: 'component', parentUid: engine.createComponent.uid },
    });

    // a flight a month on each aircraft in the six months charted, on top of the demo's (UTC instants: the test
    // reads their Sydney times with Intl); the Cessna's are at 03:00 UTC (and 45.25 s, which the edit form's minutes
    // cannot show: an edit keeps them), when the demo never logs one
    const items: Record<string, unknown>[] = [];
    MONTHS.forEach((m, i) => {
      items.push({ timeDate: `${m}-${11 + i}T23:00:00Z`, pilot: 'demo-pilot', aircraftId: AC, aircraftRegistration: 'VH-ABC', startLocation: 'YSSY', endLocation: 'YSCN', pax: 1, trackingItems: { hobbs: (i + 1) * 0.5, landings: i + 1 } });
      items.push({ timeDate: `${m}-${21 + i}T03:00:45.250Z`, pilot: 'demo-pilot', aircraftId: XYZ, aircraftRegistration: 'VH-XYZ', startLocation: 'YSBK', endLocation: 'YWOL', pax: 0, trackingItems: { tacho: 1.25, airframeHours: 1.3 } });
    });
    // the first morning of the second month in Sydney, still the first month's last day in UTC: charted in Sydney's
    items.push({ timeDate: `${lastDay(MONTHS[0])}T22:00:00Z`, pilot: 'demo-owner', aircraftId: AC, aircraftRegistration: 'VH-ABC', startLocation: 'YSBK', endLocation: 'YSBK', pax: 0, trackingItems: { hobbs: 0.7, landings: 3 } });
    const batch = await gql(`mutation($items: JSON!) { createFlightLogs(items: $items) { errors { index error } } }`, { items });
    expect(batch.createFlightLogs.errors).toEqual([]);

    // the maintenance picture: overdue by hours (VH-ABC), due soon by hours (VH-XYZ), overdue by date (a vehicle)
    const abc = await totals(AC);
    const xyz = await totals(XYZ);
    const item = (input: Record<string, unknown>) => gql(`mutation($input: CreateScheduleItemInput!) { createScheduleItem(input: $input) { uid } }`, { input });
    await item({ name: overdueName, type: 'Inspection', relatedTo: AC, relatedToType: 'aircraft', trackingItem: 'hobbs', dueAtInterval: abc.hobbs - 2.5, recurring: true, recurringInterval: 100 });
    await item({ name: dueSoonName, type: 'Inspection', relatedTo: XYZ, relatedToType: 'aircraft', trackingItem: 'tacho', dueAtInterval: xyz.tacho + 6, recurring: false });
    // exactly at its limit: due now (the alerts' "overdue" with status due), never "due soon"
    await item({ name: dueNowName, type: 'Inspection', relatedTo: XYZ, relatedToType: 'aircraft', trackingItem: 'tacho', dueAtInterval: xyz.tacho, recurring: false });
    await item({ name: `Registration renewal ${tag}`, type: 'Renewal', relatedTo: 'demo-ute', relatedToType: 'vehicle', calendarDateDue: '2020-01-31', recurring: false });
    await item({ name: `Annual inspection ${tag}`, type: 'Inspection', relatedTo: AC, relatedToType: 'aircraft', calendarDateDue: '2099-06-30', recurring: false });


    // the demo form delivers to a local webhook receiver
    await gql(`mutation($id: ID!, $input: JSON!) { updateForm(id: $id, input: $input) { status } }`, { id: 'demo-form-daily', input: { webhooks: [{ url: receiver.url }] } });

    server = await serveApp(env.app);
    base = server.base;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: TZ, locale: 'en-AU', acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    // script errors, CSP refusals ("Refused to ...") and any failed load but the API's answers to the deliberate
    // mistakes (the wrong key: 401; the missing answers: 400)
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => r.status() >= 400 && new URL(r.url()).pathname !== '/graphql' && errors.push(`${r.status()} ${r.url()}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await env?.close();
    await receiver?.close();
  });

  it('is served with a CSP that allows no inline script or style, and refuses a wrong key', async () => {
    const res = await page.goto(`${base}/console`);
    const csp = res!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await expect(heading()).resolves.toBe('Fleet Ops console');
    await expectAccessible('sign-in');
    await shot('sign-in');
    await page.getByLabel('API key').fill('fo_wrong_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/refused/);
    await expect(page.evaluate(() => sessionStorage.length)).resolves.toBe(0);
  });

  it('signs in with the demo key and shows the fleet: the overdue item first, due soon highlighted', async () => {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Fleet', exact: true }).waitFor();
    // figures are shown in the signed-in user's time zone (the demo owner's, Sydney, as the browser's) until another is chosen
    await expect(page.getByLabel('Time zone').inputValue()).resolves.toBe(TZ);
    const table = page.locator('table.status-table');
    await table.locator('tbody tr').first().waitFor();
    const first = table.locator('tbody tr').first();
    await expect(first.getAttribute('class')).resolves.toBe('row-overdue');
    await expect(first.locator('.badge').textContent()).resolves.toBe('Overdue');
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({ cls: tr.className, text: tr.textContent ?? '' })));
    // overdue rows first, then due soon, then the rest (an item a few hours from its limit before one due in two
    // months: the API puts items with a date before those counted by usage), and ours are where they belong
    const rank = ['row-overdue', 'row-due', 'row-dueSoon', 'row-ok', 'row-unknown'];
    const ranks = rows.map((r) => rank.indexOf(r.cls));
    expect(ranks).not.toContain(-1);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks)).toEqual(new Set([0, 1, 2, 3]));
    const dueNow = rows.find((r) => r.text.includes(dueNowName))!;
    expect(dueNow.cls).toBe('row-due');
    expect(dueNow.text).toMatch(/Due now.*0 left/);
    const overdue = rows.find((r) => r.text.includes(overdueName))!;
    expect(overdue.cls).toBe('row-overdue');
    expect(overdue.text).toMatch(/2\.5 over/);
    expect(rows.find((r) => r.text.includes(dueSoonName))!.cls).toBe('row-dueSoon');
    expect(rows.find((r) => r.text.includes(`Registration renewal ${tag}`))!.text).toMatch(/days overdue.*due 2020-01-31/);
    // totals against next limits
    const abc = page.locator('tr[data-asset="demo-vh-abc"]');
    await expect(abc.locator('[data-total="hobbs"] strong').textContent()).resolves.toBe(shown((await totals(AC)).hobbs, 1));
    await expect(abc.textContent()).resolves.toContain('Overdue');
    await expectAccessible('fleet overview');
    await shot('fleet');
  });

  it("shows an aircraft's totals, schedule, components tree with counters and recent logs", async () => {
    await page.locator('tr[data-asset="demo-vh-abc"] a').click();
    await page.locator('h1', { hasText: 'Aircraft VH-ABC' }).waitFor();
    await page.locator('.tree').first().waitFor();
    await expect(page.locator('[data-component]').first().textContent()).resolves.toMatch(/Engine.*Hours since new/);
    await expect(page.locator('.tree .tree').textContent()).resolves.toContain('Fuel pump');
    await expect(page.locator('table.status-table').textContent()).resolves.toContain(overdueName);
    // the aircraft's latest logs, newest first (by time, then uid, as the API pages them), at Sydney times
    const latest = (await logs({ aircraftId: AC }))
      .sort((a, b) => b.timeDate.localeCompare(a.timeDate) || (a.uid < b.uid ? 1 : a.uid > b.uid ? -1 : 0))
      .slice(0, LATEST);
    expect(latest).toHaveLength(LATEST);
    await expect(rowUids('table.logs')).resolves.toEqual(latest.map((l) => l.uid));
    await expect(page.locator('table.logs tbody tr td:first-child').allTextContents()).resolves.toEqual(latest.map((l) => sydney(l.timeDate)));
    // tracking values named and in the aircraft's order: its maintenance items, then its log items (Remarks last)
    const meta = (await gql(`query($id: ID!) { aircraft(id: $id) { maintenanceTrackingItems logTrackingItems } }`, { id: AC })).aircraft;
    const items: [string, { displayText: string; precision?: number }][] = [...Object.entries(meta.maintenanceTrackingItems), ...Object.entries(meta.logTrackingItems)] as any;
    const tracking = (l: Log) =>
      items
        .filter(([k]) => l.trackingItems[k] !== undefined)
        .map(([k, m]) => `${m.displayText} ${typeof l.trackingItems[k] === 'number' ? shown(l.trackingItems[k] as number, m.precision ?? 0) : l.trackingItems[k]}`)
        .join(', ');
    expect(latest.some((l) => Object.keys(l.trackingItems).some((k) => k in meta.logTrackingItems)), 'some of the latest logs have log items').toBe(true);
    await expect(page.locator('table.logs tbody tr td:nth-child(6)').allTextContents()).resolves.toEqual(latest.map(tracking));
    await expect(page.locator('table.logs caption').textContent()).resolves.toBe('Latest flight logs of VH-ABC');
    await expectAccessible('aircraft page');
    await shot('aircraft');
  });

  it("logs a flight: the API's message at the field, then the aircraft's total moves by exactly the flown value", async () => {
    const day = `${MONTHS[2]}-15`;
    const thatDay = () => logsOnDays(day, day, AC);
    const earlier = new Set((await thatDay()).map((l) => l.uid));
    const before = await totals(AC);
    await page.getByRole('link', { name: 'Log a flight' }).click();
    await page.locator('h1', { hasText: 'Log a flight' }).waitFor();
    await expect(page.getByLabel('Aircraft').inputValue()).resolves.toBe(AC);
    await page.getByLabel(`Date and time (${TZ})`).fill(`${day}T10:30`);
    await page.getByLabel('Pilot', { exact: true }).selectOption('demo-pilot');
    await page.getByLabel('To', { exact: true }).fill('YSCN');
    await page.getByLabel('Passengers').fill('2');
    await page.getByLabel('Hobbs').fill('1.3');
    await page.getByLabel('Landings').fill('1');
    await page.getByRole('button', { name: 'Log flight' }).click();
    // the departure left out: the API's own words, at that field, and the field marked
    const fromError = page.locator('#startLocation-error');
    await fromError.waitFor();
    await expect(fromError.textContent()).resolves.toBe('startLocation is required');
    const from = page.getByLabel('From', { exact: true });
    await expect(from.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(from.getAttribute('aria-describedby')).resolves.toBe('startLocation-error');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('startLocation');
    expect(await totals(AC)).toEqual(before);
    await expectAccessible('flight log form with an error');
    await shot('log-flight');

    await from.fill('YSSY');
    // more decimal places than the API keeps: refused before sending (the double would round them away), in the
    // API's words at the field (console/src/figures.ts)
    await page.getByLabel('Hobbs').fill('1.30000001');
    await page.getByRole('button', { name: 'Log flight' }).click();
    const hobbsError = page.locator('#t-hobbs-error');
    await hobbsError.waitFor();
    await expect(hobbsError.textContent()).resolves.toBe('hobbs must have at most 6 decimal places');
    expect(await totals(AC)).toEqual(before);
    await page.getByLabel('Hobbs').fill('1.3');
    await page.getByRole('button', { name: 'Log flight' }).click();
    await page.locator('h1', { hasText: 'Aircraft VH-ABC' }).waitFor();
    await expect(page.locator('.flash').textContent()).resolves.toBe('Flight logged on VH-ABC.');
    const after = await totals(AC);
    // exact: tenths of an hour, no floating-point drift
    expect(Math.round(after.hobbs * 10) - Math.round(before.hobbs * 10)).toBe(13);
    expect(after.landings - before.landings).toBe(1);
    await expect(page.locator('table.totals-table tr[data-total="hobbs"] .total').textContent()).resolves.toBe(shown(after.hobbs, 1));
    // one new log that day, at 10:30 Sydney time (the zone's offset on that date, daylight saving or not)
    const logged = (await thatDay()).filter((l) => !earlier.has(l.uid));
    expect(logged).toHaveLength(1);
    expect(sydney(logged[0].timeDate)).toBe(`${day} 10:30`);
    expect(logged[0]).toMatchObject({ pax: 2, trackingItems: { hobbs: 1.3, landings: 1 } });
  });

  it('lists flight logs with filters and pages, edits one, and exports the filtered list as CSV', async () => {
    // the Cessna's logs over four months: the demo's and the test's, more than a page
    const from = `${MONTHS[0]}-01`;
    const to = lastDay(MONTHS[3]);
    await page.getByRole('link', { name: 'Flight logs', exact: true }).click();
    await page.locator('h1', { hasText: 'Flight logs' }).waitFor();
    await page.locator('table.logs').waitFor();
    await page.getByLabel('Aircraft', { exact: true }).selectOption(XYZ);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/aircraftId=demo-vh-xyz/);
    const expected = await logsOnDays(from, to, XYZ);
    expect(expected.length).toBeGreaterThan(PAGE_SIZE);
    const pageOf = (n: number) => expected.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE).map((l) => l.uid);
    await expect.poll(() => rowUids('table.logs')).toEqual(pageOf(1));
    const regs = await page.locator('table.logs tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(regs)).toEqual(new Set(['VH-XYZ']));
    await expectAccessible('flight logs');
    await shot('flight-logs');

    // every page in turn, newest first, then back
    const pages = Math.ceil(expected.length / PAGE_SIZE);
    const next = page.getByRole('button', { name: 'Next page' });
    const previous = page.getByRole('button', { name: 'Previous page' });
    await expect(previous.isDisabled()).resolves.toBe(true);
    for (let n = 2; n <= pages; n++) {
      await next.click();
      await expect.poll(() => page.locator('table.logs caption').textContent()).toBe(`Flight logs, page ${n}, newest first`);
      await expect.poll(() => rowUids('table.logs')).toEqual(pageOf(n));
    }
    await expect(next.isDisabled()).resolves.toBe(true);
    for (let n = pages - 1; n >= 1; n--) {
      await previous.click();
      await expect.poll(() => rowUids('table.logs')).toEqual(pageOf(n));
    }
    await expect(previous.isDisabled()).resolves.toBe(true);

    // the export holds the whole filtered list, every page of it
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    const text = fs.readFileSync((await file.path())!, 'utf8');
    expect(text.slice(0, text.indexOf('\n'))).toBe('uid,timeDate,pilot,copilot,copilotType,aircraftId,aircraftRegistration,flightNumber,startLocation,endLocation,pax,notes,companyId,createdAt,updatedAt,tacho,airframeHours');
    const csv: Record<string, string>[] = parseCsv(text, { columns: true });
    expect(csv.map((r) => r.uid)).toEqual(expected.map((l) => l.uid));
    expect(new Set(csv.map((r) => `${r.aircraftId} ${r.aircraftRegistration}`))).toEqual(new Set([`${XYZ} VH-XYZ`]));
    await expect(page.locator('.export-status').textContent()).resolves.toBe(`Exported ${expected.length} flight logs to flight-logs.csv.`);

    // the test's own flight in the last month of the period (on the first page), edited
    const mine = expected.find((l) => l.timeDate === `${MONTHS[3]}-24T03:00:45.250Z`)!;
    expect(pageOf(1)).toContain(mine.uid);
    await page.getByRole('link', { name: `Edit the flight of ${sydney(mine.timeDate)} on VH-XYZ`, exact: true }).click();
    await page.locator('h1', { hasText: 'Edit flight log' }).waitFor();
    await expect(page.getByLabel(`Date and time (${TZ})`).inputValue()).resolves.toBe(sydney(mine.timeDate).replace(' ', 'T'));
    await expect(page.getByLabel('Tacho').inputValue()).resolves.toBe('1.25');
    const before = await totals(XYZ);
    await page.getByLabel('Tacho').fill('1.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('h1', { hasText: 'Aircraft VH-XYZ' }).waitFor();
    const after = await totals(XYZ);
    expect(Math.round(after.tacho * 100) - Math.round(before.tacho * 100)).toBe(25);
    // the date and time were not touched: not sent, so the log keeps its seconds
    const edited = (await gql(`query($id: ID!) { flightLog(id: $id) { timeDate } }`, { id: mine.uid })).flightLog;
    expect(edited.timeDate).toBe(mine.timeDate);
  });

  it('imports a CSV in batches of 50 with progress, reporting the rejected row by its line', async () => {
    const before = await totals(AC);
    const lines = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,hobbs,landings'];
    for (let i = 0; i < 60; i++) {
      const reg = i === 41 ? 'VH-NOPE' : 'VH-ABC'; // line 43 names another registration
      const hobbs = i === 17 ? '0.10000001' : '0.1'; // line 19: more than 6 decimal places, refused as the file is read
      lines.push(`${MONTHS[4]}-${String(1 + (i % 28)).padStart(2, '0')}T0${i % 10}:00:00Z,demo-pilot,${AC},${reg},YSSY,YSCN,1,${hobbs},1`);
    }
    await page.goto(`${base}/console/flight-logs/import`);
    await page.locator('h1', { hasText: 'Import flight logs' }).waitFor();
    // a header naming a column twice is refused whole, in the words of `fleetops import-logs`
    await page.getByLabel('Or paste the CSV').fill(`${lines[0]},hobbs\n${lines[1]},0.2`);
    await page.getByRole('button', { name: 'Import' }).click();
    await expect.poll(() => page.locator('.error-box').textContent()).toBe('Import stopped. The header row names the column hobbs twice.');
    await page.getByLabel('Or paste the CSV').fill(lines.join('\n'));
    await page.getByRole('button', { name: 'Import' }).click();
    const status = page.locator('#import-status');
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toMatch(/^Finished/);
    await expect(status.textContent()).resolves.toBe('Finished: 58 imported, 2 rejected of 60 rows.');
    await expect(page.locator('#import-progress').getAttribute('value')).resolves.toBe('60');
    const rejected = await page.locator('table.rejected tbody tr').allTextContents();
    expect(rejected).toHaveLength(2);
    expect(rejected[0]).toBe('19invalid flight log: /hobbs: hobbs must have at most 6 decimal places');
    expect(rejected[1]).toMatch(/^43.*VH-NOPE|^43.*registration/i);
    const after = await totals(AC);
    expect(Math.round(after.hobbs * 10) - Math.round(before.hobbs * 10)).toBe(58);
    expect(after.landings - before.landings).toBe(58);
    await expectAccessible('import');
    await shot('import');
  });

  it('charts hours and landings per month per aircraft in the time zone, with the figures as a table', async () => {
    await page.getByRole('link', { name: 'Utilisation' }).click();
    await page.locator('h1', { hasText: 'Utilisation' }).waitFor();
    await page.getByLabel('From month').fill(MONTHS[0]);
    await page.getByLabel('To month').fill(MONTHS[5]);
    await page.getByRole('button', { name: 'Show' }).click();
    const table = page.locator('#hours-table');
    await expect.poll(() => table.locator('tbody th').allTextContents()).toEqual(MONTHS.map(monthLabel));
    const header = await table.locator('thead th').allTextContents();
    expect(header).toEqual([`Month (${TZ})`, 'VH-ABC (Hobbs)', 'VH-XYZ (Tacho)', 'All aircraft']);
    // VH-XYZ has no landings item: one series
    expect(await page.locator('#landings-table thead th').allTextContents()).toEqual([`Month (${TZ})`, 'VH-ABC (Landings)', 'All aircraft']);

    // what the logs say, month by month in Sydney: the demo's, the arranged ones, the one logged and the one edited
    // in the browser, the imported ones
    const period = await logsOnDays(`${MONTHS[0]}-01`, lastDay(MONTHS[5]));
    await expect(page.locator('p[role=status]', { hasText: 'months in' }).textContent()).resolves.toContain(`; ${period.length} flight logs.`);
    const sum = (aircraftId: string, key: string, month?: string) =>
      period.filter((l) => l.aircraftId === aircraftId && (!month || sydney(l.timeDate).startsWith(month))).reduce((t, l) => t + micro(l.trackingItems[key]), 0);
    const row = (id: string, label: string) => page.locator(`#${id}-table tr`, { has: page.locator('th', { hasText: label }) }).locator('td').allTextContents();
    for (const m of MONTHS) {
      const [hobbs, tacho, landings] = [sum(AC, 'hobbs', m), sum(XYZ, 'tacho', m), sum(AC, 'landings', m)];
      expect(hobbs && tacho && landings, `the demo and the test flew both aircraft in ${m}`).toBeGreaterThan(0);
      expect(await row('hours', monthLabel(m)), m).toEqual([shown(hobbs / 1e6, 1), shown(tacho / 1e6, 1), shown((hobbs + tacho) / 1e6, 1)]);
      expect(await row('landings', monthLabel(m)), m).toEqual([shown(landings / 1e6, 0), shown(landings / 1e6, 0)]);
    }
    const [hobbs, tacho] = [sum(AC, 'hobbs'), sum(XYZ, 'tacho')];
    expect(await row('hours', 'Total')).toEqual([shown(hobbs / 1e6, 1), shown(tacho / 1e6, 1), shown((hobbs + tacho) / 1e6, 1)]);

    const canvas = page.locator('#hours-table').locator('xpath=ancestor::figure').locator('canvas');
    await expect(canvas.getAttribute('role')).resolves.toBe('img');
    await expect(canvas.getAttribute('aria-label')).resolves.toMatch(/hours flown per month and aircraft, in hours/);
    // the chart drew something
    const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
      return n;
    });
    expect(painted).toBeGreaterThan(1000);
    await expectAccessible('utilisation');
    await shot('utilisation');
  });

  it('fills in the daily inspection, shows its answers and side effects, delivers its webhook and re-sends it', async () => {
    await page.getByRole('link', { name: 'Forms' }).click();
    await page.getByRole('link', { name: 'Daily vehicle inspection', exact: true }).click();
    await page.locator('h1', { hasText: 'Daily vehicle inspection' }).waitFor();
    await expectAccessible('form page');
    await page.getByRole('link', { name: 'Fill in this form' }).click();
    await page.locator('form.fill').waitFor();
    // a required answer left out: the API's message at that question
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#form-errors').waitFor();
    await expect(page.locator('[data-field="vehicle"] .field-error').textContent()).resolves.toMatch(/required/);
    await expectAccessible('form with errors');

    const odo = (await gql(`{ vehicle(id: "demo-ute") { totals } }`)).vehicle.totals.odometer as number;
    await page.getByRole('combobox', { name: /^Vehicle/ }).selectOption('demo-ute');
    await page.getByLabel('Odometer reading').fill(String(odo + 120));
    await page.getByLabel('Fuel level').selectOption('3/4');
    for (const q of ['Tyres and wheel nuts', 'Brakes', 'Oil, coolant and washer fluid', 'Mirrors and windscreen', 'First-aid kit and extinguisher']) {
      await page.getByRole('group', { name: q }).getByRole('radio', { name: 'pass' }).check();
    }
    await page.getByRole('group', { name: 'Lights and indicators' }).getByRole('radio', { name: 'fail' }).check();
    await page.getByLabel('Comment (Lights and indicators)').fill('Left indicator out');
    await page.getByLabel('Defects found').fill('Left indicator bulb blown');
    await page.getByLabel('Severity').selectOption('medium');
    await page.getByRole('group', { name: 'Vehicle is fit for service' }).getByRole('radio', { name: 'yes' }).check();
    await page.getByLabel('Driver signature').fill('https://files.example/signatures/dana.png');
    await page.getByLabel('Your name').fill('Dana Driver');
    await shot('form-fill');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('h1', { hasText: 'completion' }).waitFor();
    await expect(page.locator('.flash').textContent()).resolves.toBe('Submitted: 1 defect raised, 1 vehicle updated.');
    const uid = (completionUid = (await page.locator('#completion-uid').textContent())!);
    await expect(page.locator('[data-answer="lights"]').textContent()).resolves.toBe('Lights and indicatorsfailComment: Left indicator out');
    await expect(page.locator('[data-answer="defects"] td').textContent()).resolves.toBe('Left indicator bulb blown (severity: medium)');
    // the webhook delivery shows as delivered (the page reads the log again while one is pending)
    const webhookRows = page.locator('table.deliveries tbody tr', { hasText: receiver.url });
    const row = webhookRows.first();
    await expect.poll(() => row.locator('.badge').textContent(), { timeout: 45_000 }).toBe('delivered');
    await expect(row.textContent()).resolves.toContain('HTTP 200');
    expect(JSON.parse(hooks[0])).toMatchObject({ completionId: uid });
    // and so is every other delivery of this submission, as the API records it: the form also notifies its
    // recipients by email, which a service without SMTP_URL skips and says why
    const deliveries = async () =>
      (await gql(`query($id: ID!, $c: String!) { formDeliveries(id: $id, completionId: $c) { data { uid channel target status error } } }`, { id: 'demo-form-daily', c: uid })).formDeliveries.data as {
        uid: string;
        channel: string;
        target: string;
        status: string;
        error: string | null;
      }[];
    await expect.poll(async () => (await deliveries()).filter((d) => d.status === 'pending').length, { timeout: 45_000 }).toBe(0);
    const recorded = await deliveries();
    expect(recorded.map((d) => `${d.channel} ${d.target}`).sort()).toEqual(['email ops@demo.fleetops.test', `webhook ${receiver.url}`]);
    await expect.poll(() => rowUids('table.deliveries')).toEqual(recorded.map((d) => d.uid));
    for (const d of recorded) {
      const tr = page.locator(`table.deliveries tr[data-delivery="${d.uid}"]`);
      await expect.poll(() => tr.locator('.badge').textContent(), { timeout: 45_000 }).toBe(d.status);
      if (d.error) await expect(tr.textContent()).resolves.toContain(d.error);
      // a time only for a send that was tried
      if (d.status === 'skipped') await expect(tr.textContent()).resolves.not.toMatch(/ in \d+ ms/);
    }
    expect((await gql(`{ vehicle(id: "demo-ute") { totals } }`)).vehicle.totals.odometer).toBe(odo + 120);
    await expectAccessible('completion');
    await shot('completion');

    await row.getByRole('button', { name: /Re-send/ }).click();
    await expect.poll(() => webhookRows.count(), { timeout: 45_000 }).toBe(2);
    await expect.poll(() => webhookRows.first().locator('.badge').textContent(), { timeout: 45_000 }).toBe('delivered');
    await expect(webhookRows.first().textContent()).resolves.toContain('(re-send)');
    await expect.poll(() => rowUids('table.deliveries')).toEqual((await deliveries()).map((d) => d.uid));
    expect(hooks).toHaveLength(2);
    expect(JSON.parse(hooks[1])).toMatchObject({ completionId: uid });
    // the link the defect item (and the notifications) carry, <appBaseUrl>/forms/completions/<uid>, opens this
    // submission (it was the console's "Page not found")
    const items = (await gql(`{ scheduleItems(relatedTo: "demo-ute", type: "Defect") { data { name documentation } } }`)).scheduleItems.data as { name: string; documentation: string[] | null }[];
    const link = items.find((i) => i.name === 'Defect: Left indicator bulb blown')!.documentation![0];
    expect(link).toBe(`${base}/console/forms/completions/${uid}`);
    await page.goto(link);
    await expect.poll(() => page.locator('#completion-uid').textContent()).toBe(uid);
  });

  it('makes a form public and shows its link; the form page lists the completion and the deliveries', async () => {
    await page.getByRole('link', { name: 'Daily vehicle inspection', exact: true }).click();
    await page.locator('h1', { hasText: 'Daily vehicle inspection' }).waitFor();
    await page.locator('table.deliveries').waitFor();
    // the completion from the browser among the form's, and the form's deliveries newest first, as the API has them
    await page.locator(`a[href="/console/completions/${completionUid}"]`).waitFor();
    const recorded = (await gql(`{ formDeliveries(id: "demo-form-daily", limit: 20) { data { uid } } }`)).formDeliveries.data.map((d: { uid: string }) => d.uid);
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    await expect(rowUids('table.deliveries')).resolves.toEqual(recorded);
    await page.getByRole('button', { name: 'Make public' }).click();
    const link = page.locator('#public-link');
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    const publicId = (await gql(`{ form(id: "demo-form-daily") { publicId } }`)).form.publicId;
    expect(href).toBe(`${base}/forms/public/${publicId}`);
    expect((await fetch(href)).status).toBe(200);
    await expectAccessible('form page, public');
    await shot('form');
  });

  it('works at 390 px wide and by keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/console`);
    await page.locator('table.status-table').waitFor();
    // nothing wider than the screen but the tables' own scrolling regions
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    await expect(page.getByRole('link', { name: 'Flight logs', exact: true }).isVisible()).resolves.toBe(false);
    // keyboard: skip link, then the menu opens with Enter and a section is reached with Tab and Enter
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Menu');
    // Escape closes the open menu from inside it, the focus back on its button
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Flight logs', exact: true }).isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('link', { name: 'Flight logs', exact: true }).isVisible()).resolves.toBe(false);
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Menu');
    await expect(page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Flight logs');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Flight logs' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await expectAccessible('flight logs at 390 px');
    await shot('mobile');
    await page.goto(`${base}/console`);
    await page.locator('table.status-table').waitFor();
    await expectAccessible('fleet at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  // ---- the admin section (admin keys): API keys, aircraft, users, integration settings, the audit log ----
  /** What the admin pages did, for the audit log at the end. */
  const admin = { keyId: '', aircraftId: '', registration: `VH-${tag.toUpperCase()}` };
  const acceptNextDialog = () => page.once('dialog', (d) => void d.accept());
  const auditOf = async (entity: string, entityId: string) =>
    (await gql(`query($e: AuditEntity, $id: String) { auditLog(entity: $e, entityId: $id) { data { uid action changes } } }`, { e: entity, id: entityId })).auditLog.data as {
      uid: string;
      action: string;
      changes: Record<string, { before: unknown; after: unknown }>;
    }[];

  it('admin: API keys are listed without secrets; a new key is shown once with a copy button, then revoked; the API refuses self-revocation', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.goto(`${base}/console`);
    await expect(page.locator('header .company').textContent()).resolves.toBe('Demo Aviation');
    await expect(page.locator('header .who').textContent()).resolves.toMatch(/key demo \(admin\)/);
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.locator('h1', { hasText: 'Admin' }).waitFor();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'API keys' }).click();
    await page.locator('h1', { hasText: 'API keys' }).waitFor();
    await page.locator('table.keys tbody tr').first().waitFor();
    const listed = (await gql(`{ apiKeys { data { id prefix revokedAt } } }`)).apiKeys.data as { id: string; prefix: string; revokedAt: string | null }[];
    await expect(page.locator('table.keys tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key')))).resolves.toEqual(listed.map((k) => k.id));
    // only prefixes: no key in the page
    await expect(page.content()).resolves.not.toContain(key);

    // a name left out: the API's message at the field
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-name-error').waitFor();
    await expect(page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Name', { exact: true }).fill(`console test ${tag}`);
    await page.getByLabel('Scope').selectOption('read_write');
    await page.getByLabel('Acts as user').selectOption('demo-pilot');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New API key (read_write)');
    await shown.waitFor();
    const made = await shown.inputValue();
    expect(made).toMatch(/^fo_live_/);
    const viewer = (await env.gql('{ viewer { key { id name scope } user { uid } } }', undefined, made)).body.data.viewer;
    expect(viewer).toMatchObject({ key: { name: `console test ${tag}`, scope: 'read_write' }, user: { uid: 'demo-pilot' } });
    admin.keyId = viewer.key.id;
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(() => page.locator('.new-key-shown [role=status]').textContent()).toMatch(/^(Copied to the clipboard\.|Selected: press)/);
    if ((await page.locator('.new-key-shown [role=status]').textContent()) === 'Copied to the clipboard.') {
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(made);
    }
    const row = page.locator(`table.keys tr[data-key="${admin.keyId}"]`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(made.slice(0, 12));
    await expect(row.textContent()).resolves.toContain('Pat Pilot');
    await expectAccessible('API keys with a new key');
    await shot('admin-keys');

    // shown once: gone after hiding it, and from a fresh load
    await page.getByRole('button', { name: 'Done: hide the key' }).click();
    await expect(page.content()).resolves.not.toContain(made);
    await page.reload();
    await row.waitFor();
    await expect(page.content()).resolves.not.toContain(made);

    acceptNextDialog();
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').textContent()).toBe(`Key “console test ${tag}” revoked.`);
    await expect.poll(() => row.locator('td:nth-child(7)').textContent()).not.toBe('Live');
    await expect(row.getByRole('button', { name: /^Revoke/ }).count()).resolves.toBe(0);
    expect((await env.gql('{ viewer { key { id } } }', undefined, made)).status).toBe(401);

    // the console's own key: the API refuses, and its message is shown
    const mine = page.locator('table.keys tr', { hasText: '(this console)' });
    acceptNextDialog();
    await mine.getByRole('button', { name: /^Revoke/ }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toMatch(/^Not revoked\. an API key cannot revoke itself/);
    await expect(mine.textContent()).resolves.toContain('Live');
    await expectAccessible('API keys with a refusal');
  });

  it('admin: adds an aircraft with tracking items and initial values, edits it, and shows the 409 of a delete', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Aircraft' }).click();
    await page.locator('h1', { hasText: 'Aircraft' }).waitFor();
    await page.locator('table.admin-aircraft tr[data-aircraft="demo-vh-abc"]').waitFor();
    await expectAccessible('admin aircraft');
    await shot('admin-aircraft');
    await page.getByRole('link', { name: 'Add an aircraft' }).click();
    await page.locator('h1', { hasText: 'Add an aircraft' }).waitFor();
    await page.getByLabel('Registration').fill(admin.registration);
    await page.getByLabel('Type code').fill('R44');
    await page.getByLabel('Category').fill('rotary-wing');
    await page.getByLabel('Manufacturer').fill('Robinson');
    await page.getByLabel('Model').fill('R44 Raven');
    await page.getByLabel('Engine type').fill('piston');
    await page.getByRole('button', { name: 'Add a maintenance item' }).click();
    const hobbs = page.getByRole('group', { name: /^Maintenance item 1/ });
    await hobbs.getByLabel('Key').fill('hobbs');
    await hobbs.getByLabel('Name').fill('Hobbs');
    await hobbs.getByLabel('Decimals shown').fill('1');
    await hobbs.getByLabel('Initial value').fill('120.5');
    await page.getByRole('button', { name: 'Add a maintenance item' }).click();
    const landings = page.getByRole('group', { name: /^Maintenance item 2/ });
    await landings.getByLabel('Key').fill('landings');
    await landings.getByLabel('Name').fill('Landings');
    await landings.getByLabel('Initial value').fill('400');
    await page.getByRole('button', { name: 'Add a log item' }).click();
    const remarks = page.getByRole('group', { name: /^Log item 1/ });
    await remarks.getByLabel('Key').fill('remarks');
    await remarks.getByLabel('Name').fill('Remarks');
    await remarks.getByLabel('Value type').selectOption('string');
    // a registration the company has already: the API's 409, at the field
    await page.getByLabel('Registration').fill('VH-ABC');
    await page.getByRole('button', { name: 'Add aircraft' }).click();
    await page.locator('#registration-error').waitFor();
    await expect(page.locator('#registration-error').textContent()).resolves.toBe('registration VH-ABC is already aircraft demo-vh-abc');
    await expectAccessible('aircraft form with an error');
    await shot('admin-aircraft-form');
    await page.getByLabel('Registration').fill(admin.registration);
    await page.getByRole('button', { name: 'Add aircraft' }).click();
    await expect.poll(() => page.locator('.flash').textContent()).toBe(`Aircraft ${admin.registration} added.`);
    const created = ((await gql(`{ aircraftList { data { uid registration model totals initialValues maintenanceTrackingItems logTrackingItems } } }`)).aircraftList.data as any[]).find(
      (a) => a.registration === admin.registration,
    );
    admin.aircraftId = created.uid;
    expect(created).toMatchObject({
      model: 'R44 Raven',
      totals: { hobbs: 120.5, landings: 400 },
      maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number' } },
      logTrackingItems: { remarks: { displayText: 'Remarks', type: 'string' } },
    });

    // edit: a name field and an initial value (the total moves by exactly the difference); only changes are sent
    await page.getByRole('link', { name: admin.registration, exact: true }).click();
    await page.locator('h1', { hasText: `Edit aircraft ${admin.registration}` }).waitFor();
    await expect(page.getByRole('group', { name: /^Maintenance item 1/ }).getByLabel('Initial value').inputValue()).resolves.toBe('120.5');
    await page.getByLabel('Model').fill('R44 Raven II');
    await page.getByRole('group', { name: /^Maintenance item 1/ }).getByLabel('Initial value').fill('130.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').textContent()).toBe(`Aircraft ${admin.registration} updated.`);
    const edited = (await gql(`query($id: ID!) { aircraft(id: $id) { model totals } }`, { id: admin.aircraftId })).aircraft;
    expect(edited).toEqual({ model: 'R44 Raven II', totals: { hobbs: 130.5, landings: 400 } });

    // VH-ABC has flight logs: deleting it is refused with the counts, as the API says
    await page.getByRole('link', { name: 'VH-ABC', exact: true }).click();
    await page.locator('h1', { hasText: 'Edit aircraft VH-ABC' }).waitFor();
    acceptNextDialog();
    await page.getByRole('button', { name: 'Delete aircraft' }).click();
    const refusal = page.locator('#form-errors');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/^Refused\. aircraft demo-vh-abc has \d+ flight logs?.*cannot be deleted/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('form-errors');
    await expect(gql(`{ aircraft(id: "demo-vh-abc") { uid } }`)).resolves.toEqual({ aircraft: { uid: 'demo-vh-abc' } });
    await expectAccessible('aircraft form with a refused delete');
  });

  it('admin: edits a user (status, roles, phone, time zone) with the API\u2019s message for a bad phone', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users' }).click();
    await page.locator('h1', { hasText: 'Users' }).waitFor();
    await page.getByRole('link', { name: 'Dana Driver' }).click();
    await page.locator('h1', { hasText: 'Edit user Dana Driver' }).waitFor();
    await page.getByLabel('Phone').fill('0400 000 001');
    await page.getByLabel('Status', { exact: true }).selectOption('Pending');
    await page.locator('#timezone').selectOption('Australia/Perth');
    await page.getByLabel('Roles').fill('driver, mechanic');
    await page.getByLabel('Last name').fill('Driver');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#phone-error').waitFor();
    await expect(page.locator('#phone-error').textContent()).resolves.toMatch(/E\.164/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('phone');
    await expectAccessible('user form with an error');
    await shot('admin-user');
    await page.getByLabel('Phone').fill('+61400000001');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.flash').textContent()).toBe('User Dana Driver updated.');
    await expect(page.locator('tr[data-user="demo-driver"]').textContent()).resolves.toContain('driver, mechanic');
    const u = (await gql(`{ user(uid: "demo-driver") { status roles phone timezone lastName } }`)).user;
    expect(u).toEqual({ status: 'Pending', roles: ['driver', 'mechanic'], phone: '+61400000001', timezone: 'Australia/Perth', lastName: 'Driver' });
    await expectAccessible('users');
    await shot('admin-users');

    // a new user, with an id the server makes
    await page.getByRole('link', { name: 'Add a user' }).click();
    await page.locator('h1', { hasText: 'Add a user' }).waitFor();
    await page.getByLabel(/^Display name/).fill(`Casey Crew ${tag}`);
    await page.getByLabel(/^Email/).fill(`casey-${tag}@demo.fleetops.test`);
    await page.getByLabel('Roles').fill('pilot');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect.poll(() => page.locator('.flash').textContent()).toBe(`User Casey Crew ${tag} added.`);
    const users = (await gql(`{ users { data { uid displayName email status roles } } }`)).users.data as any[];
    expect(users.find((x) => x.displayName === `Casey Crew ${tag}`)).toMatchObject({ email: `casey-${tag}@demo.fleetops.test`, status: 'Active', roles: ['pilot'] });
  });

  it('admin: sets the SMS provider (the token write-only) and removes it', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Integrations' }).click();
    await page.locator('h1', { hasText: 'Integrations' }).waitFor();
    await expect(page.locator('#sms-state').textContent()).resolves.toMatch(/None/);
    const sid = `AC${'0123456789abcdef'.repeat(2)}`;
    await page.getByLabel('Account SID').fill(sid);
    await page.getByLabel('Sending number').fill('+61400000002');
    await page.getByLabel('Auth token').fill(`token-${tag}-0123456789`);
    await page.getByRole('button', { name: 'Save SMS settings' }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').textContent()).toBe('SMS settings saved.');
    await expect.poll(() => page.locator('#sms-state').textContent()).toContain('Stored (never shown)');
    await expect.poll(() => page.getByLabel('Auth token').inputValue()).toBe('');
    await expect(page.content()).resolves.not.toContain(`token-${tag}`);
    expect((await gql(`{ integrationSettings { sms { provider accountSid from hasAuthToken } } }`)).integrationSettings.sms).toEqual({
      provider: 'twilio', accountSid: sid, from: '+61400000002', hasAuthToken: true,
    });
    await expectAccessible('integrations');
    await shot('admin-integrations');
    acceptNextDialog();
    await page.getByRole('button', { name: 'Remove SMS provider' }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').textContent()).toBe('SMS provider removed.');
    await expect.poll(() => page.locator('#sms-state').textContent()).toMatch(/None/);
    expect((await gql(`{ integrationSettings { sms { provider } } }`)).integrationSettings.sms).toBeNull();
  });

  it('admin: turns maintenance alerts on (the API\u2019s message for a bad value, a webhook secret write-only), and lists the alerts sent', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Alerts' }).click();
    await page.locator('h1', { hasText: 'Alerts' }).waitFor();
    await expect.poll(() => page.locator('#alerts-state').textContent()).toMatch(/Off/);
    // settings saved with no recipient raise nothing: the page says so, before and after the save (it said alerts
    // were on, and that they were "recorded but sent to no one")
    await expect(page.getByText('No recipients: no alert is raised until one is added.').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').first().textContent()).toBe('Alert settings saved. Alerts stay off until a recipient is added.');
    await expect.poll(() => page.locator('#alerts-state').textContent()).toMatch(/Off/);
    expect((await gql(`{ alertSettings { enabled } }`)).alertSettings.enabled).toBe(false);
    const secret = 'whsec_' + Buffer.from(`alerts-${tag}-signing-key-0123456789`).toString('base64');
    await page.getByLabel('Usage units before the threshold').fill('-1');
    await page.getByRole('button', { name: 'Add a recipient' }).click();
    await page.getByLabel('Recipient 1: email').fill(`maintenance-${tag}@example.com`);
    await page.getByRole('button', { name: 'Add a recipient' }).click();
    await page.getByLabel('Recipient 2: channel').selectOption('url');
    await page.getByLabel('Recipient 2: webhook url').fill(receiver.url);
    await page.getByLabel('Recipient 2: signing secret').fill(secret);
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    // the API's own message, at the field, and nothing saved
    await expect.poll(() => page.locator('#dueSoonHours-error').textContent()).toBe('dueSoonHours must be 0 or more');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('dueSoonHours');
    expect((await gql(`{ alertSettings { enabled } }`)).alertSettings.enabled).toBe(false);
    await expectAccessible('alerts with an error');
    await page.getByLabel('Usage units before the threshold').fill('10');
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').first().textContent()).toBe('Alert settings saved: alerts are on.');
    await expect.poll(() => page.locator('#alerts-state').textContent()).toMatch(/On/);
    expect((await gql(`{ alertSettings { enabled dueSoonHours dueSoonDays recipients { email url hasSecret } } }`)).alertSettings).toEqual({
      enabled: true,
      dueSoonHours: 10,
      dueSoonDays: 14,
      recipients: [
        { email: `maintenance-${tag}@example.com`, url: null, hasSecret: null },
        { email: null, url: receiver.url, hasSecret: true },
      ],
    });
    await expect(page.content()).resolves.not.toContain(secret);
    await expect(page.getByLabel('Recipient 2: signing secret').inputValue()).resolves.toBe('');
    // saving turned alerts on: the overdue 100-hourly is alerted at once, to the webhook (signed) and by email (no SMTP here: skipped)
    await expect.poll(() => hooks.some((h) => h.includes('"maintenance.overdue"') && h.includes(overdueName)), { timeout: 30_000 }).toBe(true);
    await page.reload();
    await page.locator('table', { has: page.locator('th', { hasText: 'Outcome' }) }).waitFor();
    const row = page.locator('tr', { hasText: overdueName }).filter({ hasText: receiver.url });
    await expect.poll(() => row.first().textContent()).toMatch(/Due or overdue.*webhook.*delivered/);
    await expect(page.locator('tr', { hasText: overdueName }).filter({ hasText: `maintenance-${tag}@example.com` }).first().textContent()).resolves.toMatch(/skipped/);
    await expectAccessible('alerts');
    await shot('admin-alerts');
    const before = hooks.filter((h) => h.includes(overdueName)).length;
    await row.first().getByRole('button', { name: /Send again/ }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').last().textContent()).toBe('Sent again as a new delivery.');
    await expect.poll(() => hooks.filter((h) => h.includes(overdueName)).length, { timeout: 30_000 }).toBe(before + 1);
    // "due soon" in the console is the alerts' threshold: changed here, the fleet page says so
    await page.getByLabel('Usage units before the threshold').fill('4.5');
    await page.getByLabel('Days before the due date').fill('7');
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').first().textContent()).toBe('Alert settings saved: alerts are on.');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Fleet' }).click();
    await expect.poll(() => page.locator('p.summary').textContent()).toMatch(/within 7 days or 4\.5 hours/);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Alerts' }).click();
    await page.locator('#alerts-state').waitFor();
    await page.getByLabel('Usage units before the threshold').fill('10');
    await page.getByLabel('Days before the due date').fill('14');
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await expect.poll(() => page.locator('p[role=status].flash-inline').first().textContent()).toBe('Alert settings saved: alerts are on.');
    // the stored secret can be removed (the page had no way to send null)
    await page.getByLabel(/Remove the stored secret of recipient 2/).check();
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await expect.poll(async () => (await gql(`{ alertSettings { recipients { url hasSecret } } }`)).alertSettings.recipients[1]).toEqual({ url: receiver.url, hasSecret: false });
    await expect.poll(() => page.getByLabel(/Remove the stored secret/).count()).toBe(0);
  });

  it('admin: the audit log shows the entries those pages made, with the changed fields before and after', async () => {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' }).click();
    await page.locator('h1', { hasText: 'Audit log' }).waitFor();
    await page.locator('table.audit tbody tr').first().waitFor();
    const rowsOf = () => page.locator('table.audit tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-audit')));
    const filter = async (entity: string, id: string) => {
      await page.getByLabel('Record kind').selectOption(entity);
      await page.getByLabel('Record id').fill(id);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(new RegExp(`entityId=${encodeURIComponent(id)}`));
    };
    // the key: created, then revoked
    await filter('api_key', admin.keyId);
    const keyEntries = await auditOf('api_key', admin.keyId);
    expect(keyEntries.map((e) => e.action)).toEqual(['revoked', 'created']);
    await expect.poll(rowsOf).toEqual(keyEntries.map((e) => e.uid));
    await expect(page.locator(`tr[data-audit="${keyEntries[0].uid}"] li[data-field="revokedAt"]`).textContent()).resolves.toMatch(/^revokedAt: before — → after \d{4}-/);
    await expect(page.locator(`tr[data-audit="${keyEntries[1].uid}"] li[data-field="name"]`).textContent()).resolves.toBe(`name: before — → after console test ${tag}`);
    await expect(page.locator('table.audit').textContent()).resolves.not.toMatch(/fo_live_[A-Za-z0-9]{20}/);
    // the aircraft: created, then its model and initial value changed
    await filter('aircraft', admin.aircraftId);
    const acEntries = await auditOf('aircraft', admin.aircraftId);
    expect(acEntries.map((e) => e.action)).toEqual(['updated', 'created']);
    await expect.poll(rowsOf).toEqual(acEntries.map((e) => e.uid));
    const update = page.locator(`tr[data-audit="${acEntries[0].uid}"]`);
    await expect(update.locator('li[data-field="model"]').textContent()).resolves.toBe('model: before R44 Raven → after R44 Raven II');
    await expect(update.locator('li[data-field="initialValues"]').textContent()).resolves.toContain('"hobbs":130.5');
    await expect(update.textContent()).resolves.toContain(`key demo (${(await gql('{ viewer { key { id } } }')).viewer.key.id}) as demo-owner (graphql)`);
    // the user
    await filter('user', 'demo-driver');
    const userEntries = await auditOf('user', 'demo-driver');
    await expect.poll(rowsOf).toEqual(userEntries.map((e) => e.uid));
    await expect(page.locator(`tr[data-audit="${userEntries[0].uid}"] li[data-field="phone"]`).textContent()).resolves.toBe('phone: before — → after +61400000001');
    await expect(page.locator(`tr[data-audit="${userEntries[0].uid}"] li[data-field="status"]`).textContent()).resolves.toBe('status: before Active → after Pending');
    await expectAccessible('audit log');
    await shot('admin-audit');

    // every entry of the company, page by page (25 a page), as the API has them
    await page.goto(`${base}/console/admin/audit`);
    await page.locator('table.audit tbody tr').first().waitFor();
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const p: any = (await gql(`query($c: String) { auditLog(cursor: $c, limit: 25) { nextCursor data { uid } } }`, { c: cursor })).auditLog;
      all.push(p.data.map((e: { uid: string }) => e.uid).join(' '));
      cursor = p.nextCursor;
    } while (cursor);
    for (let n = 0; n < all.length; n++) {
      await expect.poll(async () => (await rowsOf()).join(' ')).toBe(all[n]);
      if (n < all.length - 1) await page.getByRole('button', { name: 'Next page' }).click();
    }
    await expect(page.getByRole('button', { name: 'Next page' }).isDisabled()).resolves.toBe(true);
  });

  it('admin pages at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const p of ['keys', 'audit', 'alerts', `aircraft/${admin.aircraftId}`]) {
      await page.goto(`${base}/console/admin/${p}`);
      await page.locator('h1').waitFor();
      await page.locator('main form, main table').first().waitFor();
      // what sticks out, if anything, named in the message
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 391 && !e.closest('.table-wrap'))
          .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
      );
      await expect(page.evaluate(() => document.documentElement.scrollWidth), `${p}: ${wide.join(', ')}`).resolves.toBeLessThanOrEqual(390);
      await expectAccessible(`admin ${p} at 390 px`);
    }
    // by keyboard: the menu opens with Enter, Admin is its fifth entry, then the admin pages' own navigation
    await page.goto(`${base}/console`);
    await page.locator('table.status-table').waitFor();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Menu');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Admin');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Admin' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await shot('admin-mobile');
    await page.keyboard.press('Shift+Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Audit log');
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'Audit log' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('admin: deletes an aircraft nothing refers to', async () => {
    await page.goto(`${base}/console/admin/aircraft/${admin.aircraftId}`);
    await page.locator('h1', { hasText: `Edit aircraft ${admin.registration}` }).waitFor();
    acceptNextDialog();
    await page.getByRole('button', { name: 'Delete aircraft' }).click();
    await expect.poll(() => page.locator('.flash').textContent()).toBe(`Aircraft ${admin.registration} deleted.`);
    await expect(page.locator(`tr[data-aircraft="${admin.aircraftId}"]`).count()).resolves.toBe(0);
    const r = await env.gql(`query($id: ID!) { aircraft(id: $id) { uid } }`, { id: admin.aircraftId }, key);
    expect(r.body.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect((await auditOf('aircraft', admin.aircraftId)).map((e) => e.action)).toEqual(['deleted', 'updated', 'created']);
  });

  it('a read_write key sees no admin section', async () => {
    const rw = (await gql(`mutation { createApiKey(input: {name: "console rw ${tag}", scope: read_write}) { key } }`)).createApiKey.key as string;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/console`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(rw);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Fleet', exact: true }).waitFor();
    await expect(page.locator('header .who').textContent()).resolves.toMatch(/key console rw .* \(read and write\)/);
    await expect(page.getByRole('link', { name: 'Forms' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Admin', exact: true }).count()).resolves.toBe(0);
    await page.goto(`${base}/console/admin/keys`);
    await page.locator('h1', { hasText: 'Admin keys only' }).waitFor();
    await expect(page.locator('table.keys').count()).resolves.toBe(0);
    await expectAccessible('admin page refused to a read_write key');
  });

  it('signs out: the key is gone from the browser', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(heading()).resolves.toBe('Fleet Ops console');
    await expect(page.evaluate(() => sessionStorage.length)).resolves.toBe(0);
    // nothing the pages did broke their CSP, threw or failed to load
    expect(errors).toEqual([]);
  });
});

// The console's message for a refusal the server makes outside GraphQL (problem+json: the rate limit, a body too large).
// The refusal is a real one from the server; the browser is then answered with it for every GraphQL request
// (Playwright's route), so which request meets the limit does not depend on when a minute's window turns.
describe.skipIf(!chromiumAvailable)('the console when the API refuses a request outside GraphQL', () => {
  let env: TestEnv;
  let server: Listening;
  let browser: Browser;
  /** A real refusal by the server's rate limit: status, headers and body as the console would receive them. */
  let refusal: { status: number; headers: Record<string, string>; body: string };
  beforeAll(async () => {
    await buildConsole();
    env = await createTestEnv({ rateLimitPerMinute: 1 });
    server = await serveApp(env.app);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    // one request a minute: ask until the server refuses (a minute's window may turn between two asks)
    for (let i = 0; i < 5 && !refusal; i++) {
      const r = await env.app.fetch(
        new Request('http://x/graphql', { method: 'POST', headers: { authorization: `Bearer ${env.a.key}`, 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: '{ __typename }' }) }),
      );
      if (r.status === 429) refusal = { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await env?.close();
  });

  it("shows the API's own words for a 429 (problem+json), not only its status", async () => {
    expect(refusal?.headers['content-type']).toMatch(/^application\/problem\+json/);
    const detail = (JSON.parse(refusal.body) as { detail: string }).detail;
    expect(detail).toMatch(/^rate limit of 1 request per minute exceeded; retry in \d+ s/);
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    // every GraphQL request the console makes is answered with that refusal, so the outcome does not depend on time
    await page.route('**/graphql', (route) => route.fulfill({ status: refusal.status, headers: refusal.headers, body: refusal.body }));
    await page.addInitScript((key) => sessionStorage.setItem('fleetops.console.key', key), env.a.key);
    await page.goto(`${server.base}/console/flight-logs`);
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(detail);
    await expect(page.getByRole('alert').first().textContent()).resolves.not.toContain('The server answered 429');
  });
});
