// A page of logs reads the columns its selection needs, planned once per document (src/db/selection.ts,
// `columnPlanner`): every field of a log, selected alone, in a fragment, behind a directive or under an alias,
// answers what it answers when the page reads every column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

let env: TestEnv;
const seen: string[] = [];
let fields: { name: string; object: boolean }[];

beforeAll(async () => {
  env = await createTestEnv({ onQuery: (q) => void seen.push(q) });
  const items = [
    flightLogBody({ timeDate: '2026-05-01T08:00:00Z', copilot: 'acme-owner', copilotType: 'Dual', flightNumber: 'FO1', notes: 'gusty', pax: 3, hobbs: 1.4 }),
    flightLogBody({ timeDate: '2026-05-02T08:00:00Z', pilot: 'not-a-user', pax: null, hobbs: 0.7 }),
  ];
  expect((await env.rest.post('/flight-logs/batch', { items })).body.errors).toEqual([]);
  const t = await env.gql('{ __type(name: "FlightLog") { fields { name type { kind ofType { kind } } } } }');
  fields = t.body.data.__type.fields.map((f: any) => ({ name: f.name, object: (f.type.ofType?.kind ?? f.type.kind) === 'OBJECT' }));
}, 180_000);
afterAll(() => env?.close());

const sel = (f: { name: string; object: boolean }) => (f.object ? `${f.name} { uid }` : f.name);

async function page(query: string, variables?: Record<string, unknown>) {
  seen.length = 0;
  const r = await env.gql(query, variables);
  expect(r.body.errors).toBeUndefined();
  const logs = seen.filter((q) => /^\s*select/i.test(q) && /from\s+"?(public"?\.)?"?FlightLog(?!\w)/i.test(q));
  expect(logs).toHaveLength(1);
  return { data: r.body.data, sql: logs[0]! };
}

describe('a page of logs reads the columns its selection needs', () => {
  it('every field of a log, selected alone, answers as when the page reads every column', async () => {
    expect(fields.length).toBeGreaterThan(15);
    const whole = await page(`{ flightLogs(limit: 2) { data { ${fields.map(sel).join(' ')} } } }`);
    expect(whole.sql).toMatch(/"notes"[\s\S]*"tracking"|"tracking"[\s\S]*"notes"/);
    const rows = whole.data.flightLogs.data;
    expect(rows[0].notes).toBeNull(); // newest first: the second log
    expect(rows[1]).toMatchObject({ notes: 'gusty', pax: 3, flightNumber: 'FO1', copilotUser: { uid: 'acme-owner' } });
    for (const f of fields) {
      const alone = await page(`{ flightLogs(limit: 2) { data { ${sel(f)} } } }`);
      expect(alone.data.flightLogs.data, f.name).toEqual(rows.map((r: any) => ({ [f.name]: r[f.name] })));
    }
  });

  it('reads only those columns: a page of uids leaves the notes and the tracking values unread', async () => {
    const narrow = await page('{ flightLogs(limit: 2) { count nextCursor data { uid } } }');
    expect(narrow.sql).not.toMatch(/"notes"|"tracking"|"pax"/);
    const tracking = await page('{ flightLogs(limit: 2) { data { trackingItems aircraft { registration } } } }');
    expect(tracking.sql).toMatch(/"tracking"/);
    expect(tracking.sql).toMatch(/"aircraftId"/);
    expect(tracking.sql).not.toMatch(/"notes"/);
    expect(tracking.data.flightLogs.data[1]).toEqual({ trackingItems: { hobbs: 1.4 }, aircraft: { registration: 'VH-ACM' } });
  });

  it('fields in fragments, behind @skip and @include, under aliases, in two operations of one document', async () => {
    const doc = `
      fragment Who on FlightLog { pilotUser { displayName } ... on FlightLog { n: notes } }
      query A($skip: Boolean!) { flightLogs(limit: 2) { d: data { uid ...Who pax @skip(if: $skip) } } }
      query B { flightLogs(limit: 2) { data { uid } } }`;
    for (const skip of [true, false]) {
      seen.length = 0;
      const r = await env.json('POST', '/graphql', { body: { query: doc, operationName: 'A', variables: { skip } } });
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.flightLogs.d[1]).toEqual({ uid: expect.any(String), pilotUser: { displayName: expect.any(String) }, n: 'gusty', ...(skip ? {} : { pax: 3 }) });
    }
    const b = await env.json('POST', '/graphql', { body: { query: doc, operationName: 'B' } });
    expect(b.body.data.flightLogs.data).toHaveLength(2);
    // the same field twice (merged): each node's selection counts
    const merged = await page('{ flightLogs(limit: 2) { data { uid } } flightLogs(limit: 2) { data { notes } } }');
    expect(merged.data.flightLogs.data[1]).toEqual({ uid: expect.any(String), notes: 'gusty' });
  });

  it('a REST page reads every column', async () => {
    seen.length = 0;
    const r = await env.rest.get('/flight-logs?limit=2');
    expect(r.body.data[1]).toMatchObject({ notes: 'gusty', pax: 3, hobbs: 1.4 });
    expect(seen.find((q) => /from\s+"?(public"?\.)?"?FlightLog(?!\w)/i.test(q))).toMatch(/"notes"[\s\S]*"tracking"|"tracking"[\s\S]*"notes"/);
  });
});
