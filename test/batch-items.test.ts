// Batches (docs/contract/gaps.md §11): an item that fails any check — a NUL character anywhere in it, an
// out-of-range number, a reference of another company, a wrong type — is reported in `errors` with its index and
// the other items are processed; only a body that is not the documented envelope fails the whole request. The
// batch runner (src/lib/batch.ts) checks each item for NUL itself, iteratively, before the item's own check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/context.js';
import { scopedPrisma } from '../src/db/scoped.js';
import { importFlightLogsCsv } from '../src/modules/flight-logs/csv.js';
import { createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
const services = () => createServices(scopedPrisma(env.database.prisma, env.a.id));
const NUL_MESSAGE = /text must not contain the NUL character \(\\u0000\)/;

type Outcome = { results: { uid: string; status: string }[]; errors: { index: number; error: string }[] };
const indexes = (o: Outcome) => o.errors.map((e) => e.index);
const errorAt = (o: Outcome, index: number) => o.errors.find((e) => e.index === index)?.error ?? '';

/** An item nested `depth` levels deep with NUL at the bottom (deeper than any recursion would survive). */
function deep(depth: number): unknown {
  let v: unknown = 'bottom\u0000';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('the batch runner, at the service', () => {
  it('flight logs: NUL in a value, a key or a nested value, a wrong type, another company\u2019s aircraft and an out-of-range figure are each their item\u2019s error', async () => {
    const logsBefore = (await env.rest.get('/flight-logs?aircraftId=acme-ac-1')).body.count;
    const out = await services().flightLogs.batchCreate([
      flightLogBody({ notes: 'first' }),
      flightLogBody({ pilot: 'pat\u0000' }),
      flightLogBody({ trackingItems: { 'rem\u0000arks': 'x' } }),
      flightLogBody({ remarks: { nested: ['ok', 'not\u0000ok'] } }),
      flightLogBody({ pax: 'two' }),
      flightLogBody({ aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' }),
      flightLogBody({ hobbs: 1e25 }),
      flightLogBody({ notes: 'last' }),
    ]);
    expect(indexes(out)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(out.results).toHaveLength(2);
    expect(errorAt(out, 1)).toMatch(/^invalid item: \/pilot: /);
    expect(errorAt(out, 1)).toMatch(NUL_MESSAGE);
    expect(errorAt(out, 2)).toContain('/trackingItems/rem\\u0000arks');
    expect(errorAt(out, 2)).not.toContain('\u0000'); // the message names the key without carrying the character
    expect(errorAt(out, 3)).toContain('/remarks/nested/1');
    expect(errorAt(out, 4)).toMatch(/\/pax/);
    expect(errorAt(out, 5)).toMatch(/globex-ac-1 is not an aircraft of your company/);
    expect(errorAt(out, 6)).toMatch(/\/hobbs: .*1e9/);
    expect((await env.rest.get('/flight-logs?aircraftId=acme-ac-1')).body.count).toBe(logsBefore + 2);
  });

  it('finds NUL 5,000 levels deep without recursion, before the item\u2019s own check', async () => {
    const out = await services().flightLogs.batchCreate([{ pilot: deep(5000) }, flightLogBody()]);
    expect(indexes(out)).toEqual([0]);
    expect(errorAt(out, 0)).toMatch(NUL_MESSAGE);
    expect(errorAt(out, 0)).toContain('/pilot' + '/0'.repeat(5000));
    expect(out.results).toHaveLength(1);
  });

  it('flight-log batch delete: an id holding NUL, a number and an unknown id are errors; the others are deleted', async () => {
    const made = await services().flightLogs.batchCreate([flightLogBody(), flightLogBody()]);
    const [a, b] = made.results.map((r) => r.uid);
    const out = await services().flightLogs.batchDelete([a, `${b}\u0000`, 7, 'fl_nope', b]);
    expect(indexes(out)).toEqual([1, 2, 3]);
    expect(errorAt(out, 1)).toMatch(NUL_MESSAGE);
    expect(errorAt(out, 2)).toBe('each id must be a non-empty string');
    expect(out.results.map((r) => r.uid)).toEqual([a, b]);
  });

  it('vehicles: NUL, a wrong type and an out-of-range figure are each their item\u2019s error', async () => {
    const v = (over: Record<string, unknown> = {}) => ({ make: 'Isuzu', model: 'NPR', registration: `NUL-${uniq()}`, ...over });
    const out = await services().vehicles.batchCreate([v(), v({ color: 'red\u0000' }), v({ year: 'old' }), v({ initialValues: { odometer: 1e9 } }), v({ photos: [{ caption: '\u0000' }] }), v()]);
    expect(indexes(out)).toEqual([1, 2, 3, 4]);
    expect(errorAt(out, 1)).toMatch(/\/color: text must not contain the NUL/);
    expect(errorAt(out, 4)).toContain('/photos/0/caption');
    expect(out.results).toHaveLength(2);
  });

  it('an envelope that is not a list of 1 to 50 fails the whole batch', async () => {
    await expect(services().flightLogs.batchCreate({ 0: flightLogBody() })).rejects.toThrow(/items must be an array/);
    await expect(services().vehicles.batchCreate([])).rejects.toThrow(/1 to 50/);
    await expect(services().flightLogs.batchDelete(Array.from({ length: 51 }, (_, i) => `fl_${i}`))).rejects.toThrow(/1 to 50/);
  });

  it('CSV import-logs: a row holding NUL is rejected by its line, the others are imported', async () => {
    const csv = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,hobbs', `2026-04-01T08:00:00Z,acme-pilot,acme-ac-2,VH-ACZ,YSSY,YS\u0000BK,1,`, '2026-04-02T08:00:00Z,acme-pilot,acme-ac-2,VH-ACZ,YSSY,YSBK,1,'].join('\n');
    const s = services();
    const r = await importFlightLogsCsv(s.flightLogs, csv, { aircraft: (uid) => s.aircraft.find(uid) });
    expect(r.imported).toBe(1);
    expect(r.rejected).toEqual([{ line: 2, error: expect.stringMatching(/\/endLocation: text must not contain the NUL/) }]);
    // a __proto__ column: its values were dropped and the rows imported; now the file is refused, as any input is
    const proto = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,__proto__', '2026-04-03T08:00:00Z,acme-pilot,acme-ac-2,VH-ACZ,YSSY,YSBK,1,7'].join('\n');
    await expect(importFlightLogsCsv(s.flightLogs, proto, { aircraft: (uid) => s.aircraft.find(uid) })).rejects.toThrow(/__proto__ is not allowed as a key/);
  });
  it('CSV import-logs: a column named twice is refused whole (which of two hobbs cells is the flight\u2019s?); a rejected row is told at the line it starts on', async () => {
    const s = services();
    const before = (await env.rest.get('/aircraft/acme-ac-1')).body.totals;
    const dup = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,hobbs,landings,hobbs', '2026-04-07T08:00:00Z,acme-pilot,acme-ac-1,VH-ACM,YSSY,YSBK,1.5,1,150'].join('\n');
    await expect(importFlightLogsCsv(s.flightLogs, dup, { aircraft: (uid) => s.aircraft.find(uid) })).rejects.toThrow('the header row names the column hobbs twice');
    expect((await env.rest.get('/aircraft/acme-ac-1')).body.totals).toEqual(before);
    const multi = [
      'timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,tacho,notes',
      '2026-04-07T08:00:00Z,acme-pilot,acme-ac-2,VH-WRONG,YSSY,YSBK,1,0.5,"first line',
      'second line"',
      '2026-04-07T09:00:00Z,acme-pilot,acme-ac-2,VH-WRONG,YSSY,YSBK,1,0.5,one line',
    ].join('\n');
    const r = await importFlightLogsCsv(s.flightLogs, multi, { aircraft: (uid) => s.aircraft.find(uid) });
    expect(r.rejected.map((x) => x.line)).toEqual([2, 4]);
  });
  it('CSV import-logs: a file without a pax column imports its rows with pax null, as empty cells', async () => {
    const csv = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,tacho', '2026-04-05T08:00:00Z,acme-pilot,acme-ac-2,VH-ACZ,YSSY,YSBK,1.25'].join('\n');
    const s = services();
    const r = await importFlightLogsCsv(s.flightLogs, csv, { aircraft: (uid) => s.aircraft.find(uid) });
    expect(r).toMatchObject({ imported: 1, rejected: [] });
    const [log] = (await env.rest.get('/flight-logs?aircraftId=acme-ac-2&startDate=2026-04-05&endDate=2026-04-05')).body.data;
    expect(log).toMatchObject({ pax: null, tacho: 1.25 });
  });
  it('CSV import-logs: a figure is plain decimal digits with at most 6 decimal places, checked on the cell as written', async () => {
    const row = (line: string) => `2026-04-06T08:00:00Z,acme-pilot,acme-ac-2,VH-ACZ,YSSY,YSBK,1,${line}`;
    const csv = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,tacho', row('0x10'), row('0b11'), row('12 h'), row('1.00000000000000001'), row('1E-7'), row('2.5000000'), row('25E-1'), row(' 12.75 '), row('1e9999999'), row('5e-99999999'), row('0e-99999999')].join('\n');
    const s = services();
    const before = (await env.rest.get('/aircraft/acme-ac-2')).body.totals.tacho;
    const r = await importFlightLogsCsv(s.flightLogs, csv, { aircraft: (uid) => s.aircraft.find(uid) });
    // JavaScript's number literals are not figures (Number('0x10') is 16); the API refuses the same strings
    expect(r.rejected.map((x) => x.line)).toEqual([2, 3, 4, 5, 6, 10, 11]);
    for (const x of r.rejected.slice(0, 3)) expect(x.error).toMatch(/\/tacho: .*must be a number/);
    // digits a double would round away are refused, not rounded to another figure
    for (const x of [...r.rejected.slice(3, 5), r.rejected[6]]) expect(x.error).toBe('invalid flight log: /tacho: tacho must have at most 6 decimal places');
    // a huge exponent is past a double's range, said at once (its digits are not worked out), in the words the API
    // gives the same digits in a JSON body
    expect(r.rejected[5].error).toBe('invalid flight log: /tacho: the number 1e9999999 cannot be kept exactly (it would be read as Infinity); send 0 or a number whose size is between 1e-300 and 1e308');
    // trailing zeros are no decimal places; an exponent is decimal notation too; a cell is trimmed
    expect(r.imported).toBe(4);
    expect((await env.rest.get('/aircraft/acme-ac-2')).body.totals.tacho).toBe(before + 2.5 + 2.5 + 12.75);
  });
});

describe('the batch routes', () => {
  it('REST: a wrong type, another company\u2019s aircraft and an out-of-range figure are per item', async () => {
    const r = await env.rest.post('/flight-logs/batch', {
      items: [flightLogBody({ pax: 'two' }), flightLogBody(), flightLogBody({ aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO' }), flightLogBody({ landings: 0.1234567 })],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(indexes(r.body)).toEqual([0, 2, 3]);
    expect(r.body.results).toHaveLength(1);
  });

  it('REST: an envelope that is not the documented one fails the whole request', async () => {
    expectValidation(await env.rest.post('/flight-logs/batch', { items: [] }), '/items');
    expectValidation(await env.rest.post('/vehicles/batch', { items: {} }), '/items');
    expectValidation(await env.rest.post('/flight-logs/batch-delete', { ids: 'fl_1' }), '/ids');
    // a key beside the envelope's own (it was ignored, and the items written)
    const before = (await env.rest.get('/flight-logs?limit=500')).body.count;
    expectValidation(await env.rest.post('/flight-logs/batch', { items: [flightLogBody()], item: flightLogBody() }), '/item');
    expectValidation(await env.rest.post('/vehicles/batch', { items: [{ make: 'A', model: 'B', registration: 'ENV-1' }], dryRun: true }), '/dryRun');
    expectValidation(await env.rest.post('/flight-logs/batch-delete', { ids: ['fl_nope'], force: true }), '/force');
    expect((await env.rest.get('/flight-logs?limit=500')).body.count).toBe(before);
    expect((await env.rest.get('/vehicles?limit=500')).body.data.some((v: { registration: string }) => v.registration === 'ENV-1')).toBe(false);
  });

  // The operation-level NUL check (src/graphql/policy.ts) leaves the items of these arguments to the batch runner:
  // they are declared INDEPENDENT_ITEMS.
  it('GraphQL: NUL inside an item given as a literal is that item\u2019s error', async () => {
    const r = await env.gql(`mutation {
      createFlightLogs(items: [
        { timeDate: "2026-03-01T09:30:00Z", pilot: "acme-pilot", aircraftId: "acme-ac-1", aircraftRegistration: "VH-ACM", startLocation: "YSSY", endLocation: "YSBK", pax: 1, notes: "a\\u0000b" },
        { timeDate: "2026-03-01T09:30:00Z", pilot: "acme-pilot", aircraftId: "acme-ac-1", aircraftRegistration: "VH-ACM", startLocation: "YSSY", endLocation: "YSBK", pax: 1 }
      ]) { results { uid } errors { index error } }
      deleteFlightLogs(ids: ["fl_\\u0000", "fl_nope"]) { results { uid } errors { index error } }
    }`);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.createFlightLogs.results).toHaveLength(1);
    expect(r.body.data.createFlightLogs.errors).toEqual([{ index: 0, error: expect.stringMatching(/\/notes: text must not contain the NUL/) }]);
    expect(r.body.data.deleteFlightLogs.errors).toEqual([
      { index: 0, error: expect.stringMatching(NUL_MESSAGE) },
      { index: 1, error: expect.stringMatching(/not found/) },
    ]);
  });

  // over REST the envelope's keys are the operation's variables, so the operation sees `items`/`ids` feed a batch
  it('REST: NUL in one item of /flight-logs/batch, /vehicles/batch and /flight-logs/batch-delete is that item\u2019s error', async () => {
    const logs = await env.rest.post('/flight-logs/batch', { items: [flightLogBody({ pilot: 'p\u0000' }), flightLogBody()] });
    expect(logs.status, JSON.stringify(logs.body)).toBe(200);
    expect(indexes(logs.body)).toEqual([0]);
    const vehicles = await env.rest.post('/vehicles/batch', { items: [{ make: 'A', model: 'B', registration: `R-${uniq()}\u0000` }, { make: 'A', model: 'B', registration: `R-${uniq()}` }] });
    expect(vehicles.status, JSON.stringify(vehicles.body)).toBe(200);
    expect(indexes(vehicles.body)).toEqual([0]);
    const deleted = await env.rest.post('/flight-logs/batch-delete', { ids: ['fl_\u0000', 'fl_nope'] });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(indexes(deleted.body)).toEqual([0, 1]);
  });

  it('GraphQL: NUL in one item given in variables is that item\u2019s error', async () => {
    const r = await env.gql(`mutation($items: JSON!) { createVehicles(items: $items) { results { uid } errors { index error } } }`, {
      items: [{ make: 'A\u0000', model: 'B', registration: `R-${uniq()}` }, { make: 'A', model: 'B', registration: `R-${uniq()}` }],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.createVehicles.errors.map((e: { index: number }) => e.index)).toEqual([0]);
  });
});
