// A number is taken as written or refused, on every channel (src/lib/json-numbers.ts, docs/api-notes.md): JSON.parse
// made `1.00000000000000001` the double 1, which then passed the six-decimal check, so a figure the client never
// wrote was accepted. And text must be Unicode: a lone surrogate in a PATCH was stored as U+FFFD with a 200, where a
// create refused it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { InexactNumber, inexactMessage, isExactNumberText, parseJson } from '../src/lib/json-numbers.js';
import { companyFixture, createTestEnv, flightLogBody, newKey, seedDataDir, uniq, type TestEnv } from './helpers.js';

const INEXACT = '1.00000000000000001';
/** A JSON text with the first `"hobbs":1.5` written as `"hobbs":<text>` (JSON.stringify cannot write such a number). */
const withHobbs = (value: unknown, text = INEXACT) => {
  const json = JSON.stringify(value);
  expect(json).toContain('"hobbs":1.5');
  return json.replace('"hobbs":1.5', `"hobbs":${text}`);
};
const MESSAGE = `the number ${INEXACT} cannot be kept exactly (it would be read as 1); send at most 15 significant digits`;

describe('numbers as written (unit)', () => {
  it('tells an exact number from one the double would change', () => {
    for (const t of ['1', '1.10', '1e2', '1E+2', '0.30000000000000004', '-0', '0.0', '123456789.123456', '5e-324', '1.7976931348623157e308', '0.000000000000001', '-12.5']) {
      expect(isExactNumberText(t), t).toBe(true);
    }
    for (const t of [INEXACT, '0.1000000000000000055511151231257827', '1e400', '-1e400', '1e-400', '12345678901234567', '9007199254740993', '1200.00000000000001']) {
      expect(isExactNumberText(t), t).toBe(false);
    }
  });

  it('says why: too many digits, or past a double’s range (few digits, so the digits are not the advice)', () => {
    expect(inexactMessage('12345678901234567')).toBe('the number 12345678901234567 cannot be kept exactly (it would be read as 12345678901234568); send at most 15 significant digits');
    expect(inexactMessage('1e999')).toBe('the number 1e999 cannot be kept exactly (it would be read as Infinity); send 0 or a number whose size is between 1e-300 and 1e308');
    expect(inexactMessage('-1e400')).toBe('the number -1e400 cannot be kept exactly (it would be read as -Infinity); send 0 or a number whose size is between 1e-300 and 1e308');
    expect(inexactMessage('1e-400')).toBe('the number 1e-400 cannot be kept exactly (it would be read as 0); send 0 or a number whose size is between 1e-300 and 1e308');
    // a denormal that lost digits is past the range too
    expect(inexactMessage('1.23456789e-320')).toMatch(/send 0 or a number whose size is between 1e-300 and 1e308$/);
  });

  it('what JSON.stringify writes is always exact, and parses as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), (n, s) => {
        const text = JSON.stringify({ n, s, list: [n, { deep: n }] });
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('any decimal of at most 15 significant digits is exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), fc.integer({ min: -20, max: 20 }), (digits, exp) => {
        expect(isExactNumberText(`${digits}e${exp}`)).toBe(true);
      }),
    );
  });

  it('marks the inexact number at its path and leaves the rest as JSON.parse reads it', () => {
    const v = parseJson(`{"a":[1,{"b":${INEXACT}}],"uid":"1234567890123456789","c":{"x":1e400},"d":{"e":${INEXACT},"e":2}}`) as any;
    expect(v.a[1].b).toEqual(new InexactNumber(INEXACT));
    expect(v.uid).toBe('1234567890123456789');
    expect(v.c.x).toEqual(new InexactNumber('1e400'));
    expect(v.d.e).toBe(2); // a key named twice keeps its last value, as JSON.parse does
    expect(parseJson('12345678901234567')).toEqual(new InexactNumber('12345678901234567'));
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
  });
});

describe('numbers as written, on every channel', () => {
  let env: TestEnv;
  const totals = async () => (await env.rest.get('/aircraft/acme-ac-1')).body.totals;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('REST: a create with an inexact figure is a 400 at its path, and writes nothing', async () => {
    const before = await totals();
    for (const text of [INEXACT, '0.1000000000000000055511151231257827', '1e400']) {
      const res = await env.request('POST', '/api/v1/flight-logs', { body: withHobbs(flightLogBody({ hobbs: 1.5 }), text) });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const body = await res.json();
      expect(body.errors).toEqual([{ path: '/hobbs', message: expect.stringContaining(`the number ${text} cannot be kept exactly`) }]);
    }
    // the same figure as the client would write it: accepted
    const ok = await env.request('POST', '/api/v1/flight-logs', { body: withHobbs(flightLogBody({ hobbs: 1.5 }), '1.000000') });
    expect(ok.status).toBe(201);
    expect(await totals()).toEqual({ ...before, hobbs: before.hobbs + 1 });
  });

  it('REST: in a batch it is that item’s error; the other items are written', async () => {
    const before = await totals();
    const res = await env.request('POST', '/api/v1/flight-logs/batch', { body: withHobbs({ items: [flightLogBody({ hobbs: 1.5 }), flightLogBody({ hobbs: 2 })] }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.errors).toEqual([{ index: 0, error: `invalid item: /hobbs: ${MESSAGE}` }]);
    expect(body.results).toHaveLength(1);
    expect(await totals()).toEqual({ ...before, hobbs: before.hobbs + 2 });
  });

  it('REST: a PATCH with one is refused and changes nothing', async () => {
    const created = await env.rest.post('/flight-logs', flightLogBody({ hobbs: 1.5 }));
    const id = created.body.uid ?? created.body.id;
    const before = await totals();
    const res = await env.request('PATCH', `/api/v1/flight-logs/${id}`, { body: `{"hobbs":${INEXACT}}` });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ path: '/hobbs', message: MESSAGE }]);
    expect(await totals()).toEqual(before);
  });

  it('GraphQL: in variables, in an inline literal, and in an inline batch item', async () => {
    const before = await totals();
    const input = { ...flightLogBody(), trackingItems: { hobbs: 1.5 } };
    const doc = 'mutation($input: CreateFlightLogInput!) { createFlightLog(input: $input) { uid } }';
    const viaVariables = await env.request('POST', '/graphql', { body: withHobbs({ query: doc, variables: { input } }) });
    const v = await viaVariables.json();
    expect(v.errors[0].message).toContain(`/trackingItems/hobbs: ${MESSAGE}`);

    const literal = `{ timeDate: "2026-03-01T09:30:00Z", pilot: "acme-pilot", aircraftId: "acme-ac-1", aircraftRegistration: "VH-ACM", startLocation: "YSSY", endLocation: "YSBK", pax: 2, trackingItems: { hobbs: ${INEXACT} } }`;
    const inline = await env.gql(`mutation { createFlightLog(input: ${literal}) { uid } }`);
    expect(inline.body.errors?.map((e: any) => e.message)).toEqual([MESSAGE]);

    const batch = await env.gql(`mutation { createFlightLogs(items: [${literal.replace(`trackingItems: { hobbs: ${INEXACT} }`, `hobbs: ${INEXACT}`)}]) { results { uid } errors { index error } } }`);
    expect(batch.body.errors, JSON.stringify(batch.body.errors)).toBeUndefined();
    expect(batch.body.data.createFlightLogs).toEqual({ results: [], errors: [{ index: 0, error: `invalid item: /hobbs: ${MESSAGE}` }] });
    expect(await totals()).toEqual(before);
  });

  it('MCP: a tool call with one is a tool error naming it, and writes nothing', async () => {
    const before = await totals();
    const body = withHobbs({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'createFlightLog', arguments: { body: flightLogBody({ hobbs: 1.5 }) } } });
    const res = await env.request('POST', '/mcp', { headers: { accept: 'application/json, text/event-stream' }, body });
    const { result } = await res.json();
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(`/hobbs: ${MESSAGE}`);
    expect(await totals()).toEqual(before);
  });

  it('text must be Unicode: a lone surrogate is a 400 on a PATCH as on a create, and changes nothing', async () => {
    const created = await env.rest.post('/flight-logs', flightLogBody({ notes: 'before' }));
    const id = created.body.uid ?? created.body.id;
    const create = await env.request('POST', '/api/v1/flight-logs', { body: JSON.stringify(flightLogBody({ notes: 'x' })).replace('"notes":"x"', '"notes":"x\\ud800"') });
    expect(create.status).toBe(400);
    const patch = await env.request('PATCH', `/api/v1/flight-logs/${id}`, { body: '{"notes":"x\\ud800"}' });
    expect(patch.status).toBe(400);
    expect((await patch.json()).errors).toEqual([{ path: '/notes', message: expect.stringContaining('lone surrogate') }]);
    expect((await env.rest.get(`/flight-logs/${id}`)).body.notes).toBe('before');
    // a pair is text like any other
    const pair = await env.request('PATCH', `/api/v1/flight-logs/${id}`, { body: '{"notes":"\\ud83d\\ude81"}' });
    expect(pair.status).toBe(200);
    expect((await env.rest.get(`/flight-logs/${id}`)).body.notes).toBe('🚁');
  });
});

describe('numbers as written: fleetops import', () => {
  it('refuses an import file with an inexact figure at its path, writing nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fo-exact-'));
    try {
      await seedDataDir(dir);
      const id = `exact-${uniq()}`;
      const file = path.join(dir, 'import.json');
      const company = companyFixture(id, newKey(), 'exact');
      company.aircraft[0].initialValues = { hobbs: 1.5, landings: 3000 };
      fs.writeFileSync(file, withHobbs({ companies: [company] }));
      const env = { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent' };
      const r = await runCli(['import', file], { env, cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(MESSAGE);
      expect(r.stderr).toContain('/companies/0/aircraft/0/initialValues/hobbs');
      // nothing was written: the corrected file creates the company
      fs.writeFileSync(file, withHobbs({ companies: [company] }, '1.5'));
      const again = await runCli(['import', file], { env, cwd: dir });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`${id}: company created; users 3 created`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('numbers as written: GraphQL by GET', () => {
  it('a variable in the query string is read as written too', async () => {
    const env = await createTestEnv();
    try {
      const query = 'query($input: AggregateInput!) { aggregate(input: $input) { totalCount } }';
      const variables = `{"input":{"collection":"flightLogs","metric":"hobbs","filters":{"pax":${INEXACT}}}}`;
      const res = await env.request('GET', `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(variables)}`);
      const body = await res.json();
      expect(body.errors?.[0].message).toContain(MESSAGE);
      // variables or extensions that are not JSON: a 400 naming them (Yoga's own GET parser let them be a 500)
      for (const name of ['variables', 'extensions']) {
        const bad = await env.request('GET', `/graphql?query=${encodeURIComponent(query)}&${name}=${encodeURIComponent('{"input":')}`);
        expect(bad.status).toBe(400);
        expect((await bad.json()).errors).toEqual([{ message: `the ${name} parameter is not valid JSON: Unexpected end of JSON input`, extensions: { code: 'BAD_REQUEST' } }]);
      }
    } finally {
      await env.close();
    }
  });
});

describe('numbers as written: the hard cases', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('a variable that feeds a batch and another field is checked whole: nothing is written', async () => {
    const query = 'mutation($x: JSON!) { updateVehicle(id: "acme-v-1", input: { thirdPartyUser: $x }) { uid } createVehicles(items: $x) { errors { index error } } }';
    const res = await env.request('POST', '/graphql', { body: `{"query":${JSON.stringify(query)},"variables":{"x":{"a":${INEXACT}}}}` });
    const body = await res.json();
    expect(body.errors?.[0].message).toContain(MESSAGE);
    expect((await env.rest.get('/vehicles/acme-v-1')).body.thirdPartyUser ?? null).toBeNull();
  });

  it('a body of very many or very deep inexact numbers is refused whole, at once', async () => {
    const many = `{"items":[${Array.from({ length: 1500 }, () => INEXACT).join(',')}]}`;
    const res = await env.request('POST', '/api/v1/flight-logs/batch', { body: many });
    expect(res.status).toBe(400);
    const deep = '['.repeat(100) + INEXACT + ']'.repeat(100);
    const d = await env.request('POST', '/api/v1/flight-logs', { body: deep });
    expect(d.status).toBe(400);
    const mcp = await env.request('POST', '/mcp', { headers: { accept: 'application/json, text/event-stream' }, body: deep });
    expect(mcp.status).toBe(400);
  });
});
