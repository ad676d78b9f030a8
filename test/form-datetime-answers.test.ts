// A form's datetime answer is read by parseIso (src/lib/dates.ts), the one rule of every date input: an answer whose
// instant falls past the years 0001 to 9999 in UTC (`9999-12-31T23:00:00-05:00` is 10000-01-01T04:00Z), or that
// parseIso does not read at all, is a 400 at its path on every channel (REST, GraphQL, MCP, the public form), and
// nothing is stored; a valid answer is stored as written, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, mcpTool, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
let formId: string;
let publicId: string;

const PAST_9999 = '9999-12-31T23:00:00-05:00';
const BEFORE_0001 = '0001-01-01T00:30:00+01:00';

beforeAll(async () => {
  env = await createTestEnv();
  const r = await env.rest.post('/forms', {
    name: 'Departure check',
    code: `departure-${uniq()}`,
    department: 'Flight ops',
    publiclyAvailable: true,
    sections: [{ name: 'When', fields: [{ name: 'departedAt', label: 'Departed at', type: 'datetime' }] }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  formId = r.body.uid;
  publicId = (await env.rest.get(`/forms/${formId}`)).body.publicId;
});
afterAll(async () => {
  await env?.close();
});

const completions = async () => (await env.rest.get(`/form-completions?formId=${formId}`)).body.count as number;
const submitPublic = async (answers: Record<string, unknown>) => {
  const res = await env.app.fetch(
    new Request(`http://fleetops.test/forms/public/${publicId}/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers }) }),
    { clientAddress: '203.0.113.9' },
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
};

describe('a datetime answer', () => {
  it('past the year 9999 in UTC is a 400 at its path over REST, with the words of every date input, and nothing is stored', async () => {
    const before = await completions();
    const r = await env.rest.post('/form-completions', { formId, answers: { departedAt: PAST_9999 } });
    expectValidation(r, '/answers/departedAt');
    expect(r.body.errors).toEqual([
      { path: '/answers/departedAt', message: 'departedAt must fall within the years 0001 to 9999 in UTC: 9999-12-31T23:00:00-05:00 is +010000-01-01T04:00:00.000Z' },
    ]);
    // before the year 0001 in UTC: refused too (parseIso reads no date of the years 0001 to 0099, see src/lib/dates.ts)
    expectValidation(await env.rest.post('/form-completions', { formId, answers: { departedAt: BEFORE_0001 } }), '/answers/departedAt');
    // what parseIso does not read: more than 9 decimal places of a second, the year 0000
    for (const text of ['2026-03-01T09:30:00.1234567890Z', '0000-06-01T00:00:00Z']) {
      const bad = await env.rest.post('/form-completions', { formId, answers: { departedAt: text } });
      expectValidation(bad, '/answers/departedAt');
      expect(bad.body.errors[0].message, text).toMatch(/^departedAt must be an ISO 8601 date-time/);
    }
    expect(await completions()).toBe(before);
  });

  it('is refused alike over GraphQL, MCP and the public form', async () => {
    const before = await completions();
    const g = await env.gql(`mutation($input: CreateFormCompletionInput!) { createFormCompletion(input: $input) { uid } }`, {
      input: { formId, answers: { departedAt: PAST_9999 } },
    });
    expect(g.body.errors?.[0]?.extensions?.code, JSON.stringify(g.body)).toBe('VALIDATION_ERROR');
    expect(g.body.errors?.[0]?.extensions?.errors).toEqual([expect.objectContaining({ path: '/answers/departedAt' })]);
    const m = await mcpTool(env, 'createFormCompletion', { body: { formId, answers: { departedAt: PAST_9999 } } });
    expect(m.isError, JSON.stringify(m)).toBe(true);
    expect(m.content.map((c) => c.text).join(' ')).toContain('/answers/departedAt');
    const p = await submitPublic({ departedAt: PAST_9999 });
    expectValidation(p, '/answers/departedAt');
    expect(await completions()).toBe(before);
  });

  it('that is valid is stored as written, as before (the offset and the fraction kept)', async () => {
    for (const text of ['9999-12-31T23:59:59Z', '2026-03-01T09:30:00+10:00', '2026-03-01T09:30:00.123456789-05:00', '1000-01-01T00:30:00-01:00']) {
      const r = await env.rest.post('/form-completions', { formId, answers: { departedAt: text } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const stored = await env.rest.get(`/form-completions/${r.body.uid}`);
      expect(stored.body.data.departedAt).toBe(text);
    }
    const p = await submitPublic({ departedAt: '2026-03-01T09:30:00+10:00' });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
  });
});

describe('a date answer', () => {
  it('of the year 0000 is refused as every date input refuses it (the field\u2019s format took it); 0001-01-01 and 9999-12-31 are taken', async () => {
    const r = await env.rest.post('/forms', { name: 'Dates', code: `dates-${uniq()}`, department: 'Ops', sections: [{ name: 'When', fields: [{ name: 'on', label: 'On', type: 'date' }] }] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const count = async () => (await env.rest.get(`/form-completions?formId=${r.body.uid}`)).body.count as number;
    const bad = await env.rest.post('/form-completions', { formId: r.body.uid, answers: { on: '0000-01-01' } });
    expectValidation(bad, '/answers/on');
    expect(bad.body.errors).toEqual([{ path: '/answers/on', message: 'on must be a date, YYYY-MM-DD, in the years 0001 to 9999' }]);
    expect(await count()).toBe(0);
    for (const on of ['0001-01-01', '9999-12-31']) expect((await env.rest.post('/form-completions', { formId: r.body.uid, answers: { on } })).status, on).toBe(201);
  });
});

