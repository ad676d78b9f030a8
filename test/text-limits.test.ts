// Text a client sends is handled in linear time and bounded (issue 21: 200,000 capitals in a counter's displayText
// held the event loop for two minutes in a backtracking regular expression). Each path whose text went through
// such an expression gets the worst case at 1,000,000 characters through the public API, and is answered as its
// rules say. No timing is asserted: a quadratic path would not finish within the test timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';
import { oneLine, trimTrailing } from '../src/lib/text.js';
import { formatDec } from '../src/lib/decimal.js';

const MILLION = 1_000_000;
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

const component = (counters: unknown[]) => ({ name: 'Starter generator', type: 'starter', partNumber: 'SG-1', serialNumber: `S-${uniq()}`, counters });

describe('counter display texts (the key is derived from them)', () => {
  it('1,000,000 capitals on create and on update: 400 at the display text, nothing written', async () => {
    const before = (await env.rest.get('/components')).body.count;
    for (const displayText of ['A'.repeat(MILLION), 'A'.repeat(MILLION - 1) + 'b', 'aB'.repeat(MILLION / 2)]) {
      const r = await env.rest.post('/components', component([{ displayText, unit: 'hours' }]));
      expectValidation(r, '/counters/0/displayText');
      expect(r.body.errors.find((e: { path: string }) => e.path === '/counters/0/displayText').message).toMatch(/200 characters at most/);
    }
    expect((await env.rest.get('/components')).body.count).toBe(before);

    const made = await env.rest.post('/components', component([]));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expectValidation(await env.rest.patch(`/components/${made.body.uid}`, { counters: [{ displayText: 'A'.repeat(MILLION), unit: 'cycles' }] }), '/counters/0/displayText');
    expect((await env.rest.get(`/components/${made.body.uid}`)).body.counters).toEqual([]);
  });

  it('the longest display text is taken and its key derived', async () => {
    const r = await env.rest.post('/components', component([{ displayText: 'A'.repeat(199) + 'b', unit: 'hours' }]));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect((await env.rest.get(`/components/${r.body.uid}`)).body.counters.map((c: { key: string }) => c.key)).toEqual(['a'.repeat(60)]);
  });

  it('GraphQL refuses the same display text with the same error', async () => {
    const r = await env.gql(`mutation($i: CreateComponentInput!) { createComponent(input: $i) { uid } }`, {
      i: component([{ displayText: 'A'.repeat(MILLION), unit: 'hours' }]),
    });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    expect(r.body.errors![0].extensions.errors.map((e: { path: string }) => e.path)).toContain('/counters/0/displayText');
  });

  it('a component has at most 100 counters (each derivation checks the keys taken)', async () => {
    const many = Array.from({ length: 101 }, () => ({ displayText: 'Hours', unit: 'hours' }));
    expectValidation(await env.rest.post('/components', component(many)), '/counters');
    const ok = await env.rest.post('/components', component(many.slice(1)));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expectValidation(await env.rest.patch(`/components/${ok.body.uid}`, { counters: [{ displayText: 'Hours', unit: 'hours' }] }), '/counters');
  });
});

describe('other texts that reach a derived value', () => {
  it('a submission\u2019s appBaseUrl of 1,000,000 slashes: 400, nothing stored; trailing slashes are dropped from links', async () => {
    const form = await env.rest.post('/forms', {
      name: 'Walkaround',
      code: `walk-${uniq()}`,
      department: 'Ops',
      sections: [{ name: 'S', fields: [{ name: 'aircraft', label: 'Aircraft', type: 'aircraft', required: true }, { name: 'defects', label: 'Defects', type: 'defect', assetField: 'aircraft' }] }],
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const answers = { aircraft: 'acme-ac-2', defects: { description: `Chipped blade ${uniq()}` } };
    const base = 'https://app.example/' + '/'.repeat(MILLION - 30) + 'x';
    expectValidation(await env.rest.post('/form-completions', { formId: form.body.uid, answers, appBaseUrl: base }), '/appBaseUrl');
    expect((await env.rest.get(`/form-completions?formId=${form.body.uid}`)).body.count).toBe(0);
    // the link to a submission is built from appBaseUrl without its trailing slashes (a loop, not /\/+$/)
    const made = await env.rest.post('/form-completions', { formId: form.body.uid, answers, appBaseUrl: 'https://app.example' + '/'.repeat(2000) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const defects = (await env.rest.get('/schedule-items?relatedTo=acme-ac-2&type=Defect')).body.data.filter((d: { name: string }) => d.name.includes(answers.defects.description));
    expect(defects.map((d: { documentation: string[] }) => d.documentation)).toEqual([[`https://app.example/forms/completions/${made.body.uid}`]]);
  });

  it('tracking item display texts, flight-log and vehicle texts have limits', async () => {
    const long = 'A'.repeat(MILLION);
    expectValidation(await env.rest.post('/vehicles', { make: 'Ford', model: 'Ranger', registration: `R-${uniq()}`, maintenanceTrackingItems: { odometer: { displayText: long, type: 'number' } } }), '/maintenanceTrackingItems/odometer/displayText');
    expectValidation(await env.rest.post('/vehicles', { make: long, model: 'Ranger', registration: `R-${uniq()}` }), '/make');
    expectValidation(await env.rest.post('/flight-logs', flightLogBody({ pilot: long })), '/pilot');
    expectValidation(await env.rest.post('/flight-logs', flightLogBody({ notes: 'n'.repeat(10_001) })), '/notes');
    expectValidation(await env.rest.post('/flight-logs', flightLogBody({ remarks: 'r'.repeat(10_001) })), '/remarks');
    const ok = await env.rest.post('/flight-logs', flightLogBody({ notes: 'n'.repeat(10_000), remarks: 'r'.repeat(10_000) }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });
});

describe('the helpers that replace backtracking expressions', () => {
  it('trimTrailing and formatDec drop a trailing run in one pass', () => {
    expect(trimTrailing('https://a.example//', '/')).toBe('https://a.example');
    expect(trimTrailing('////', '/')).toBe('');
    expect(trimTrailing('/'.repeat(MILLION) + 'x', '/')).toHaveLength(MILLION + 1);
    expect(trimTrailing('x' + '/'.repeat(MILLION), '/')).toBe('x');
    expect(formatDec({ units: 12300n, scale: 4 })).toBe('1.23');
    expect(formatDec({ units: 1n, scale: 300 })).toBe('0.' + '0'.repeat(299) + '1');
    expect(formatDec({ units: 10n ** 300n, scale: 300 })).toBe('1');
  });

  it('oneLine turns each run of line breaks into one space', () => {
    expect(oneLine('x\r\nBcc: evil@x')).toBe('x Bcc: evil@x');
    expect(oneLine('a\rb\nc\u2028d\u2029e\u0085f\vg\fh')).toBe('a b c d e f g h');
    expect(oneLine('\r\n\r\nhead\n')).toBe(' head ');
    expect(oneLine('plain')).toBe('plain');
    expect(oneLine('\r\n'.repeat(MILLION / 2) + 'x')).toBe(' x');
  });
});
