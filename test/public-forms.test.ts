// Public forms (docs/contract/gaps.md §7): the HTML page rendered from the template (labels bound to inputs, fieldsets, required
// marks, options, limits, no external asset, a strict CSP), submissions as JSON through the same completion service
// (userId and webhook submittedBy `public`), 404 for inactive, non-public and unknown forms, the per-address rate
// limit and the size cap.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';

type Body = Record<string, any>;
let env: TestEnv;
let publicId: string;
let formId: string;
const hits: { body: string }[] = [];
let receiver: http.Server;

function form(over: Body = {}): Body {
  return {
    name: 'Report a vehicle problem',
    code: `report-${uniq()}`,
    department: 'Fleet',
    publiclyAvailable: true,
    sections: [
      {
        name: 'Vehicle',
        description: 'Which vehicle is it?',
        fields: [
          { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
          { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle', max: 999999 },
        ],
      },
      {
        name: 'Problem',
        fields: [
          { name: 'lights', label: 'Lights', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
          { name: 'urgency', label: 'Urgency', type: 'select', options: ['today', 'this week'] },
          { name: 'seenOn', label: 'Seen on', type: 'date' },
          { name: 'defect', label: 'What is wrong', type: 'defect', assetField: 'vehicle', description: 'One sentence is enough' },
        ],
      },
    ],
    ...over,
  };
}

const submit = (id: string, body: unknown, clientAddress = '203.0.113.1') =>
  env.app.fetch(new Request(`http://fleetops.test/forms/public/${id}/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }), { clientAddress });

async function json(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let b = '';
    req.on('data', (c) => (b += c));
    req.on('end', () => {
      hits.push({ body: b });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  env = await createTestEnv({ dispatch: true, config: { webhookAllowPrivate: true, publicRateLimitPerMinute: 5 } });
  const r = await env.json('POST', '/api/v1/forms', { body: form({ webhooks: [{ url: `http://127.0.0.1:${port}/hook` }] }) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  formId = r.body.uid;
  publicId = (await env.json('GET', `/api/v1/forms/${formId}`)).body.publicId;
});
afterAll(async () => {
  await env?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

describe('GET /forms/public/{publicId}', () => {
  it('serves an accessible HTML page rendered from the sections, with no external asset', async () => {
    const res = await env.request('GET', `/forms/public/${publicId}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<h1>Report a vehicle problem</h1>');
    expect(html).toMatch(/<fieldset class="section"><legend>Vehicle<\/legend>/);
    expect(html).toMatch(/<label for="f-0-0">Vehicle <span class="req"/);
    expect(html).toMatch(/<select id="f-0-0" name="vehicle"[^>]* required>/);
    expect(html).toContain('ACME123 (Toyota Hilux)'); // the company's vehicles to choose from
    expect(html).not.toContain('GLOBEX123');
    // a number is a text box with a decimal keypad: the page reads what is typed (a number box read `1,3` as 13)
    expect(html).toMatch(/<input type="text" id="f-0-1" name="[^"]*"[^>]* inputmode="decimal"/);
    expect(html).not.toContain('type="number"');
    expect(html).toMatch(/<legend>Lights <span class="req"/);
    expect(html).toContain('value="n/a"');
    expect(html).toMatch(/<label for="f-1-0-comment">Comment<\/label>/);
    expect(html).toContain('<option value="this week">this week</option>');
    expect(html).toMatch(/<input type="date" id="f-1-2"/);
    expect(html).toContain('One sentence is enough');
    // the name's limit is the API's (500; the page said 200)
    expect(html).toMatch(/<input type="text" id="submitterName" maxlength="500"/);
    expect(html).toContain('Check your name: at most 500 characters.');
    expect(html).toContain('role="alert"');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/); // nothing loaded from elsewhere
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(html).toContain(`<script nonce="${nonce}">`);
  });

  it('is 404 for unknown, non-public and inactive forms', async () => {
    expectProblem(await json(await env.request('GET', '/forms/public/nope', { key: null })), 404, 'not_found');
    const priv = await env.json('POST', '/api/v1/forms', { body: form({ publiclyAvailable: false, publicId: `priv-${uniq()}` }) });
    const privId = (await env.json('GET', `/api/v1/forms/${priv.body.uid}`)).body.publicId;
    expectProblem(await json(await env.request('GET', `/forms/public/${privId}`, { key: null })), 404);
    expectProblem(await json(await submit(privId, { answers: {} })), 404);
    const off = await env.json('POST', '/api/v1/forms', { body: form({ status: 'inactive' }) });
    const offId = (await env.json('GET', `/api/v1/forms/${off.body.uid}`)).body.publicId;
    expectProblem(await json(await env.request('GET', `/forms/public/${offId}`, { key: null })), 404);
  });
  it('answers another method with a 405 problem naming the methods (Allow), on the page and the submissions', async () => {
    for (const [method, path, allow] of [
      ['PUT', `/forms/public/${publicId}`, 'GET, HEAD'],
      ['DELETE', `/forms/public/${publicId}`, 'GET, HEAD'],
      ['GET', `/forms/public/${publicId}/submissions`, 'POST'],
    ] as const) {
      const r = await json(await env.request(method, path, { key: null }));
      expectProblem(r, 405, 'method_not_allowed');
      expect(r.res.headers.get('allow'), `${method} ${path}`).toBe(allow);
    }
  });
});

describe('the fixed pages and documents', () => {
  it('are read with GET or HEAD: another method is a 405 problem with Allow, and changes nothing', async () => {
    for (const path of ['/', '/healthz', '/readyz', '/metrics', '/docs', '/api/v1/openapi.json']) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const r = await json(await env.request(method, path, { key: null }));
        expectProblem(r, 405, 'method_not_allowed');
        expect(r.res.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
      }
      expect((await env.request('GET', path, { key: null, headers: { accept: 'application/json' } })).status, path).toBeLessThan(400);
    }
  });
});

describe('POST /forms/public/{publicId}/submissions', () => {
  it('stores a completion by `public` and delivers its webhook with submittedBy public', async () => {
    const r = await json(await submit(publicId, { answers: { vehicle: 'acme-v-1', lights: 'fail', lights__comment: 'left indicator', defect: { description: 'Indicator out' } }, submitterName: 'A passer-by' }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({ uid: expect.any(String), status: 'created' });
    const c = (await env.json('GET', `/api/v1/form-completions/${r.body.uid}`)).body;
    expect(c).toMatchObject({ userId: 'public', submitterName: 'A passer-by', data: { vehicle: 'acme-v-1', lights: 'fail', lights__comment: 'left indicator' } });
    expect(c.sideEffects.scheduleItemsCreated).toBe(1);
    const end = Date.now() + 10_000;
    while (!hits.length && Date.now() < end) await new Promise((r2) => setTimeout(r2, 25));
    expect(JSON.parse(hits[0].body)).toMatchObject({ event: 'form.submitted', submittedBy: 'public', completionId: r.body.uid });
  });

  it('a defect description that ends past 200 characters in emoji is stored (it was a 500)', async () => {
    const r = await json(await submit(publicId, { answers: { vehicle: 'acme-v-1', lights: 'pass', defect: { description: 'b'.repeat(196) + '\u{1F600}'.repeat(5) } } }, '198.51.100.77'));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it('refuses bad answers and keys an anonymous submitter must not set, storing nothing', async () => {
    const before = (await env.json('GET', `/api/v1/form-completions?formId=${formId}`)).body.count;
    expectValidation(await json(await submit(publicId, { answers: { vehicle: 'acme-v-1' } }, '198.51.100.1')), '/answers/lights');
    expectValidation(await json(await submit(publicId, { answers: { vehicle: 'globex-v-1', lights: 'pass' } }, '198.51.100.1')), '/answers/vehicle');
    expectValidation(await json(await submit(publicId, { answers: { vehicle: 'acme-v-1', lights: 'pass' }, userId: 'acme-owner' }, '198.51.100.1')), '/userId');
    expectValidation(await json(await submit(publicId, { answers: { vehicle: 'acme-v-1', lights: 'pass' }, appBaseUrl: 'https://evil.example' }, '198.51.100.1')), '/appBaseUrl');
    // what no channel takes: a __proto__ key (its answer was lost with a 201) and NUL in text (a 500)
    expectValidation(await json(await submit(publicId, '{"answers":{"vehicle":"acme-v-1","lights":"pass","__proto__":{"lights__comment":"x"}}}', '198.51.100.2')), '/answers/__proto__');
    expectValidation(await json(await submit(publicId, { answers: { vehicle: 'acme-v-1', lights: 'pass', lights__comment: 'a\u0000b' } }, '198.51.100.2')), '/answers/lights__comment');
    expect((await env.json('GET', `/api/v1/form-completions?formId=${formId}`)).body.count).toBe(before);
  });

  it('caps the body size (413) and wants JSON (415)', async () => {
    const big = JSON.stringify({ answers: { vehicle: 'acme-v-1', lights: 'pass', lights__comment: 'x'.repeat(70_000) } });
    expectProblem(await json(await submit(publicId, big, '198.51.100.2')), 413);
    const res = await env.app.fetch(new Request(`http://fleetops.test/forms/public/${publicId}/submissions`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }), { clientAddress: '198.51.100.2' });
    expectProblem(await json(res), 415);
  });

  it('limits submissions per client address (429 with Retry-After); other addresses go on', async () => {
    const body = { answers: { vehicle: 'acme-v-1', lights: 'pass' } };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await submit(publicId, body, '192.0.2.77')).status);
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    const limited = await json(await submit(publicId, body, '192.0.2.77'));
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await submit(publicId, body, '192.0.2.78')).status).toBe(201);
  });
});
