// The public form in a real browser (Debian's chromium driven by playwright-core): open the page, submit with a
// required answer missing (the error is shown and announced, nothing is stored), fill it in, submit, see the
// confirmation with the completion id; then the completion and its webhook delivery exist. The screenshot in the
// README is taken here (SCREENSHOT=1 writes docs/images/public-form.png).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable, serveApp, webhookReceiver, type Listening } from './browser.js';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';

describe.skipIf(!chromiumAvailable)('public form in chromium', () => {
  let env: TestEnv;
  let server: Listening;
  let base: string;
  let browser: Browser;
  let publicId: string;
  let formId: string;
  let hooks: string[];
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    receiver = await webhookReceiver();
    hooks = receiver.bodies;
    env = await createTestEnv({ dispatch: true, config: { webhookAllowPrivate: true } });
    const hook = receiver.url;
    const r = await env.json('POST', '/api/v1/forms', {
      body: {
        name: 'Daily vehicle inspection',
        code: `daily-${uniq()}`,
        department: 'Ground operations',
        revision: 3,
        publiclyAvailable: true,
        webhooks: [{ url: hook }],
        sections: [
          {
            name: 'Vehicle',
            fields: [
              { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
              { name: 'odometer', label: 'Odometer reading', type: 'odometer', vehicleField: 'vehicle', required: true, precision: 0 },
            ],
          },
          {
            name: 'Walk-around checks',
            description: 'Pass, fail or n/a; add a comment for anything not a pass.',
            fields: [
              { name: 'tyres', label: 'Tyres and wheel nuts', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
              { name: 'lights', label: 'Lights and indicators', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
              { name: 'fuelLevel', label: 'Fuel level', type: 'select', options: ['full', '3/4', '1/2', '1/4', 'reserve'] },
            ],
          },
          {
            name: 'Defects and sign-off',
            fields: [
              { name: 'defects', label: 'Defects found', type: 'defect', assetField: 'vehicle', description: 'Each defect is added to the maintenance schedule' },
              { name: 'fit', label: 'Vehicle is fit for service', type: 'boolean', required: true },
            ],
          },
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    formId = r.body.uid;
    publicId = (await env.json('GET', `/api/v1/forms/${formId}`)).body.publicId;
    server = await serveApp(env.app);
    base = server.base;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await env?.close();
    await receiver?.close();
  });

  /** A public form of one section holding `fields`: its uid and the public id its page is served under. */
  async function publicForm(name: string, code: string, department: string, fields: Record<string, unknown>[], section = 'Answers') {
    const r = await env.json('POST', '/api/v1/forms', { body: { name, code: `${code}-${uniq()}`, department, publiclyAvailable: true, sections: [{ name: section, fields }] } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { uid: r.body.uid as string, publicId: (await env.json('GET', `/api/v1/forms/${r.body.uid}`)).body.publicId as string };
  }

  it('shows a missing answer, then answers the server refused (at their field, in plain words), then submits and confirms; the completion and its webhook delivery exist', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(`${base}/forms/public/${publicId}`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Daily vehicle inspection');

    // first try: the odometer and the lights check are left out
    await page.getByRole('combobox', { name: 'Vehicle', exact: true }).selectOption('acme-v-1');
    await page.getByRole('group', { name: 'Tyres and wheel nuts' }).getByRole('radio', { name: 'pass' }).check();
    await page.getByRole('group', { name: 'Vehicle is fit for service' }).getByRole('radio', { name: 'yes' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    const summary = page.locator('#summary');
    await expect(summary.textContent()).resolves.toMatch(/Please correct 2 answers/);
    await expect(page.locator('#f-0-1-err').textContent()).resolves.toBe('This answer is required');
    await expect(page.locator('#f-0-1').getAttribute('aria-invalid')).resolves.toBe('true');
    expect((await env.json('GET', `/api/v1/form-completions?formId=${formId}`)).body.count).toBe(0);

    // fill it in and send
    await page.getByRole('textbox', { name: 'Odometer reading' }).fill('48250');
    await page.getByRole('group', { name: 'Lights and indicators' }).getByRole('radio', { name: 'fail' }).check();
    await page.locator('#f-1-1-comment').fill('Left indicator out');
    await page.getByRole('combobox', { name: 'Fuel level' }).selectOption('1/2');
    await page.getByRole('textbox', { name: 'Defects found' }).fill('Left indicator bulb blown');
    await page.getByRole('combobox', { name: 'Severity' }).selectOption('medium');
    await page.getByRole('textbox', { name: 'Your name' }).fill('Dana Driver');
    if (process.env.SCREENSHOT) {
      fs.mkdirSync(path.resolve('docs/images'), { recursive: true });
      await page.screenshot({ path: path.resolve('docs/images/public-form.png'), fullPage: true });
    }

    // answers only the server can refuse are shown at their field, in plain words: no field name, id, path or code
    const odometer = page.getByRole('textbox', { name: 'Odometer reading' });
    const plain = async (locator: string) => {
      const text = (await page.locator(locator).textContent())!;
      for (const internal of ['/answers', 'acme-v-1', 'validation_error', 'odometer', 'vehicle:', 'your company']) expect(text).not.toContain(internal);
      return text;
    };
    await odometer.fill('48250.5'); // the form takes whole kilometres
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#f-0-1-err:not(:empty)').waitFor({ timeout: 30_000 });
    await expect(plain('#f-0-1-err')).resolves.toBe('Enter a number of at least 0 and less than 1000000000 without decimals.');
    await expect(page.locator('#f-0-1').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(plain('#summary')).resolves.toMatch(/^Please correct 1 answer\.$/);
    await odometer.fill('48250');
    // the chosen vehicle leaves the fleet while the form is open
    expect((await env.json('DELETE', '/api/v1/vehicles/acme-v-1')).status).toBe(200);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#f-0-0-err:not(:empty)').waitFor({ timeout: 30_000 });
    await expect(plain('#f-0-0-err')).resolves.toBe('The vehicle you chose can no longer be chosen. Choose a vehicle from the list.');
    await expect(page.locator('#f-0-1-err').textContent()).resolves.toBe('');
    expect((await env.json('GET', `/api/v1/form-completions?formId=${formId}`)).body.count).toBe(0);
    expect((await env.json('POST', '/api/v1/vehicles/acme-v-1/restore')).status).toBe(200);

    await page.getByRole('button', { name: 'Submit' }).click();
    const id = page.locator('#completion-id');
    await id.waitFor({ timeout: 30_000 });
    const uid = (await id.textContent())!;
    await expect(summary.textContent()).resolves.toMatch(/Thank you/);
    await expect(page.locator('#public-form').isHidden()).resolves.toBe(true);
    // the browser reports each refused submission (400) as a failed load; nothing else may go wrong
    expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    expect(consoleErrors).toHaveLength(2);

    const c = await env.json('GET', `/api/v1/form-completions/${uid}`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      userId: 'public',
      submitterName: 'Dana Driver',
      data: { vehicle: 'acme-v-1', odometer: 48250, tyres: 'pass', lights: 'fail', lights__comment: 'Left indicator out', fuelLevel: '1/2', fit: true, defects: { description: 'Left indicator bulb blown', severity: 'medium' } },
      sideEffects: { scheduleItemsCreated: 1, vehiclesUpdated: 1, warnings: [] },
    });
    const end = Date.now() + 10_000;
    let log: any[] = [];
    while (Date.now() < end) {
      log = (await env.json('GET', `/api/v1/forms/${formId}/deliveries`)).body.data;
      if (log[0]?.status === 'delivered') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ completionId: uid, status: 'delivered', statusCode: 200 });
    expect(JSON.parse(hooks[0])).toMatchObject({ submittedBy: 'public', completionId: uid });
  }, 180_000);

  it('sends a number as the digits typed: one no double holds exactly is refused at its field in the API’s words, not rounded; one the browser cannot read is refused unsent', async () => {
    const r = await env.json('POST', '/api/v1/forms', {
      body: {
        name: 'Stores count',
        code: `stores-${uniq()}`,
        department: 'Stores',
        publiclyAvailable: true,
        sections: [
          {
            name: 'Count',
            fields: [
              { name: 'parcels', label: 'Parcels counted', type: 'number', required: true },
              { name: 'fuel', label: 'Fuel (litres)', type: 'number', precision: 2, companions: [{ name: 'spilt', label: 'Litres spilt', type: 'number' }] },
            ],
          },
        ],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const storesId = r.body.uid;
    const storesPublic = (await env.json('GET', `/api/v1/forms/${storesId}`)).body.publicId;
    const stored = async () => (await env.json('GET', `/api/v1/form-completions?formId=${storesId}`)).body.count;
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    const sent: string[] = [];
    page.on('request', (q) => q.method() === 'POST' && sent.push(q.postData() ?? ''));
    await page.goto(`${base}/forms/public/${storesPublic}`);
    const parcels = page.getByRole('textbox', { name: 'Parcels counted' });
    const fuel = page.getByRole('textbox', { name: 'Fuel (litres)' });
    const submit = () => page.getByRole('button', { name: 'Submit' }).click();
    const inexact = (text: string, read: string) => `The number ${text} cannot be kept exactly (it would be read as ${read}); send at most 15 significant digits.`;

    // 17 digits: Number() made it 12345678901234568, which the API stored; the digits go as typed and the API refuses them
    await parcels.fill('12345678901234567');
    await fuel.fill('2.5');
    await submit();
    await page.locator('#f-0-0-err:not(:empty)').waitFor({ timeout: 30_000 });
    await expect(page.locator('#f-0-0-err').textContent()).resolves.toBe(inexact('12345678901234567', '12345678901234568'));
    await expect(page.locator('#f-0-0').getAttribute('aria-invalid')).resolves.toBe('true');
    expect(sent.at(-1)).toBe('{"answers":{"parcels":12345678901234567,"fuel":2.5}}');
    // Number() made this 1, which passed the field's 2 places
    await parcels.fill('3');
    await fuel.fill('1.00000000000000001');
    await submit();
    await page.locator('#f-0-1-err:not(:empty)').waitFor({ timeout: 30_000 });
    await expect(page.locator('#f-0-1-err').textContent()).resolves.toBe(inexact('1.00000000000000001', '1'));
    await expect(page.locator('#f-0-0-err').textContent()).resolves.toBe('');
    expect(await stored()).toBe(0);

    // past a double's range: refused in the page, nothing sent (in a type=number box the browser read no number, and
    // the answer was dropped as if blank)
    await parcels.fill('1e999');
    await fuel.fill('');
    const before = sent.length;
    await submit();
    await page.locator('#f-0-0-err:not(:empty)').waitFor({ timeout: 30_000 });
    await expect(page.locator('#f-0-0-err').textContent()).resolves.toBe('Enter a number');
    expect(sent.length).toBe(before);

    // what is typed is what is read, key by key as a person types: a decimal comma is not a thousands separator (a
    // type=number box made `1,3` 13 and sent it), and a lone `-` is not a blank answer; each is refused, nothing sent
    for (const typed of ['1,3', '-', '1.2e']) {
      await parcels.fill('');
      await parcels.click();
      await page.keyboard.type(typed);
      await expect(parcels.inputValue()).resolves.toBe(typed);
      await submit();
      await page.locator('#f-0-0-err:not(:empty)').waitFor({ timeout: 30_000 });
      await expect(page.locator('#f-0-0-err').textContent(), typed).resolves.toBe('Enter a number');
      expect(sent.length, typed).toBe(before);
    }

    // decimal notation is sent as JSON writes it, its digits unchanged; a number companion too
    await parcels.fill('007');
    await fuel.fill('.5');
    await page.locator('#f-0-1-spilt').fill('1E2');
    await submit();
    const id = page.locator('#completion-id');
    await id.waitFor({ timeout: 30_000 });
    expect(sent.at(-1)).toBe('{"answers":{"parcels":7,"fuel":0.5,"fuel__spilt":1e2}}');
    const c = await env.json('GET', `/api/v1/form-completions/${(await id.textContent())!}`);
    expect(c.body.data).toEqual({ parcels: 7, fuel: 0.5, fuel__spilt: 100 });
    await page.close();
  }, 180_000);

  it('a field may have any name: named like the form\u2019s own properties or the page\u2019s name box, it is answered and sent; an option is sent as written', async () => {
    // the page read the form element's properties, which a control of the same name overrides: a field named
    // `action` was the address posted to (405), one named `elements` broke the script, `submitterName` read as empty
    const names = ['action', 'elements', 'submitterName', 'hidden', 'querySelector', 'addEventListener'];
    const { publicId: id } = await publicForm('Names', 'names', 'Ops', [
      ...names.map((name) => ({ name, label: `Field ${name}`, type: 'text', required: true })),
      { name: 'count', label: 'Count', type: 'number', required: true },
      // an option the template wrote with a space at its end is that option (the page trimmed it to none)
      { name: 'grade', label: 'Grade', type: 'select', options: ['Good ', 'Poor'], required: true },
    ]);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/forms/public/${id}`);
    for (const name of names) await page.getByRole('textbox', { name: `Field ${name}`, exact: true }).fill(`answer ${name}`);
    await page.getByRole('textbox', { name: 'Count' }).fill('3');
    await page.getByRole('combobox', { name: 'Grade' }).selectOption('Good ');
    await page.getByRole('textbox', { name: 'Your name' }).fill('Sam Sender');
    await page.getByRole('button', { name: 'Submit' }).click();
    const done = page.locator('#completion-id');
    await done.waitFor({ timeout: 30_000 });
    const c = await env.json('GET', `/api/v1/form-completions/${(await done.textContent())!}`);
    expect(c.body).toMatchObject({ submitterName: 'Sam Sender', data: { ...Object.fromEntries(names.map((n) => [n, `answer ${n}`])), count: 3, grade: 'Good ' } });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('a part of an answer the server refused (a defect\u2019s description, one of several links, a reading\u2019s decimals) is shown at its field with the limit it broke', async () => {
    // the page placed only refusals at /answers/<field>: one at /answers/<field>/description or /0 was a bare "please
    // check your answers", and a reading past 6 decimal places was told "at least 0", which it was
    const parts = await publicForm('Parts', 'parts', 'Ops', [
      { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
      { name: 'odo', label: 'Reading', type: 'odometer', vehicleField: 'vehicle' },
      { name: 'defect', label: 'Defect', type: 'defect', assetField: 'vehicle' },
      { name: 'pics', label: 'Pictures', type: 'photo', multiple: true },
    ], 'Check');
    const page = await browser.newPage();
    await page.goto(`${base}/forms/public/${parts.publicId}`);
    await page.locator('#f-0-0').selectOption('acme-v-1');
    const refusedAt = async (id: string) => {
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.locator(`${id}-err:not(:empty)`).waitFor({ timeout: 30_000 });
      await expect(page.locator('#summary').textContent()).resolves.toBe('Please correct 1 answer.');
      return page.locator(`${id}-err`).textContent();
    };
    await page.locator('#f-0-2').fill('x'.repeat(2001));
    await expect(refusedAt('#f-0-2')).resolves.toBe('Describe the defect in a few words (at most 2000 characters).');
    await page.locator('#f-0-2').fill('Brake light out');
    await page.locator('#f-0-3').fill('https://x.test/' + 'a'.repeat(2100));
    await expect(refusedAt('#f-0-3')).resolves.toBe('Enter web links (starting with https://, each at most 2048 characters), one per line.');
    await page.locator('#f-0-3').fill('');
    await page.locator('#f-0-1').fill('100.1234567');
    await expect(refusedAt('#f-0-1')).resolves.toBe('Enter a number of at least 0 and less than 1000000000 with at most 6 decimal places.');
    await page.locator('#f-0-1').fill('1000000000'); // refused before it is sent
    await expect(refusedAt('#f-0-1')).resolves.toBe('Less than 1000000000');
    expect((await env.json('GET', `/api/v1/form-completions?formId=${parts.uid}`)).body.count).toBe(0);
    await page.close();
  }, 180_000);
});
