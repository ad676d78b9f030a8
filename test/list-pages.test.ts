// Every list is bounded (gaps.md §17) on REST, GraphQL and MCP: aircraft, users, vehicles, components, schedule
// items, forms and the maintenance status (paged by its computed urgency order) take `limit`
// (1-500) and `cursor` and answer `nextCursor`; without `limit` at most 1,000 records. A small company's lists answer
// exactly as before, `{data, count}` (nextCursor is left out on REST when there is no next page); 10,000 components answer 1,000 and a cursor, and walking it returns each once,
// in the documented order (name, serial number, uid). Bad `limit`/`cursor` is the same 400 on every channel.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from './helpers.js';
import { compareUrgency } from '../src/modules/schedule/rules.js';
import { now } from '../src/lib/clock.js';

let env: TestEnv;
let mcp: Client;
const MANY = 10_000;
/** Schedule items and forms of company a: more than a list answers without `limit`. */
const ITEMS = 1_203;
const FORMS = 1_001;

type Result = Awaited<ReturnType<Client['callTool']>> & { structuredContent?: any };
const call = (name: string, args: Record<string, unknown> = {}) => mcp.callTool({ name, arguments: args }) as Promise<Result>;
const text = (r: Result) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

beforeAll(async () => {
  env = await createTestEnv();
  // company a gets 10,000 components in one statement; names and serial numbers repeat so the order needs every key
  const rows = Array.from({ length: MANY }, (_, i) => ({
    companyId: env.a.id,
    uid: `bulk-${String((i * 7919) % MANY).padStart(5, '0')}`,
    name: ['Magneto', 'magneto', 'Alternator', 'Pump', 'Zeta valve'][i % 5]!,
    type: 'part',
    partNumber: `PN-${i % 13}`,
    serialNumber: `SN-${i % 37}`,
    alternatePartNumbers: [],
    ancestorUids: [],
  }));
  await env.database.prisma.component.createMany({ data: rows });
  // 1,203 schedule items: calendar ones due from 5 days ago to 6 days ahead (many on one day, so the order needs
  // name and uid), usage ones on acme-ac-1's hobbs (1200.5) before, at and after their threshold, some with neither,
  // and a few inactive ones (listed only with includeInactive, never in the status)
  const day = 86_400_000;
  const today = Date.UTC(now().getUTCFullYear(), now().getUTCMonth(), now().getUTCDate());
  await env.database.prisma.scheduleItem.createMany({
    data: Array.from({ length: ITEMS }, (_, i) => ({
      companyId: env.a.id,
      uid: `si-bulk-${String((i * 7919) % ITEMS).padStart(5, '0')}`,
      name: ['Inspection', 'inspection', 'Battery', 'Zeta check', 'ELT test'][i % 5]!,
      type: 'Inspection',
      documentation: [],
      archivedDocumentation: [],
      relatedTo: i % 3 === 0 ? `${env.a.prefix}-ac-1` : env.a.id,
      relatedToType: i % 3 === 0 ? 'aircraft' : 'company',
      recurring: false,
      ...(i % 3 === 0 ? { trackingItem: 'hobbs', dueAtInterval: 1190 + (i % 7) * 3.5 } : {}),
      ...(i % 4 !== 3 ? { calendarDateDue: new Date(today + ((i % 12) - 5) * day) } : {}),
      status: i % 101 === 50 ? 'inactive' : 'active',
    })),
  });
  await env.database.prisma.form.createMany({
    data: Array.from({ length: FORMS }, (_, i) => ({
      companyId: env.a.id,
      uid: `fm-bulk-${String((i * 7919) % FORMS).padStart(5, '0')}`,
      name: ['Daily', 'daily', 'Walk-around', 'Zulu'][i % 4]!,
      code: `bulk-${i}`,
      department: 'Ops',
      sections: [],
      signatories: [],
      dynamicFields: [],
    })),
  });
  mcp = new Client({ name: 'fleetops-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL('http://fleetops.test/mcp'), {
      fetch: (url, init) => env.app.fetch(new Request(url, init)),
      requestInit: { headers: { authorization: `Bearer ${env.a.key}` } },
    }),
  );
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await env?.close();
});

/** The company's components in the documented order, straight from the database. */
async function expectedOrder(companyId: string): Promise<string[]> {
  const rows = await env.database.prisma.component.findMany({
    where: { companyId, status: { not: 'deleted' } },
    orderBy: [{ name: 'asc' }, { serialNumber: 'asc' }, { uid: 'asc' }],
    select: { uid: true },
  });
  return rows.map((r) => r.uid);
}

describe('a small company sees its lists as before', () => {
  it.each(['/aircraft', '/users', '/vehicles', '/components', '/schedule-items', '/maintenance-status', '/forms'])('GET %s: every record and count, no nextCursor', async (path) => {
    const r = await env.json('GET', `/api/v1${path}`, { key: env.b.key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['count', 'data']);
    expect(r.body.count).toBe(r.body.data.length);
    if (path === '/aircraft' || path === '/users') expect(r.body.count).toBeGreaterThan(0);
  });

  it('limit 1 walks aircraft and users one at a time, each once, in their order', async () => {
    for (const [path, key] of [
      ['/aircraft', 'registration'],
      ['/users', 'displayName'],
    ] as const) {
      const all = (await env.rest.get(path)).body.data;
      const seen: any[] = [];
      let cursor: string | null = null;
      do {
        const r: { status: number; body: any } = await env.rest.get(`${path}?${new URLSearchParams({ limit: '1', ...(cursor ? { cursor } : {}) })}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.data.length).toBeLessThanOrEqual(1);
        seen.push(...r.body.data);
        cursor = r.body.nextCursor ?? null;
      } while (cursor && seen.length <= all.length);
      expect(seen).toEqual(all);
      expect(all.length).toBeGreaterThan(1);
      const sorted = [...all].sort((x, y) => (x[key] === y[key] ? 0 : x[key] < y[key] ? -1 : 1));
      expect(all.map((x: any) => x[key])).toEqual(sorted.map((x: any) => x[key]));
    }
  });

  it('vehicles page with limit and cursor, each once, by registration', async () => {
    for (const registration of ['V-3', 'V-1', 'V-2']) {
      const r = await env.rest.post('/vehicles', { make: 'Ford', model: 'Transit', registration });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const all = (await env.rest.get('/vehicles')).body.data.map((v: any) => v.registration);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all).toEqual([...all].sort());
    const first = await env.rest.get('/vehicles?limit=2');
    expect(first.body.data.map((v: any) => v.registration)).toEqual(all.slice(0, 2));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await env.rest.get(`/vehicles?limit=${all.length - 2}&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((v: any) => v.registration)).toEqual(all.slice(2));
    expect(second.body).not.toHaveProperty('nextCursor');
    // GraphQL continues the REST cursor: one cursor, one order
    const g = await env.gql('query($c: String) { vehicles(limit: 1, cursor: $c) { data { registration } nextCursor } }', { c: first.body.nextCursor });
    expect(g.body.data.vehicles.data.map((v: any) => v.registration)).toEqual([all[2]]);
    // GraphQL says null at the end (REST leaves it out)
    expect((await env.gql('{ vehicles { count nextCursor } }')).body.data.vehicles).toEqual({ count: all.length, nextCursor: null });
  });
});

describe('10,000 components', () => {
  it('GET /components answers 1,000 and a cursor; walking it returns each once, in order', async () => {
    const expected = await expectedOrder(env.a.id);
    expect(expected.length).toBe(MANY);
    const first = await env.rest.get('/components');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1000);
    expect(first.body.count).toBe(1000);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const seen: string[] = first.body.data.map((c: any) => c.uid);
    let cursor: string | null = first.body.nextCursor;
    let pages = 1;
    while (cursor && pages < 20) {
      const r = await env.rest.get(`/components?cursor=${encodeURIComponent(cursor)}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.data.map((c: any) => c.uid));
      cursor = r.body.nextCursor ?? null;
      pages++;
    }
    expect(pages).toBe(10);
    expect(new Set(seen).size).toBe(MANY);
    expect(seen).toEqual(expected);
  }, 120_000);

  it('GraphQL components take limit and cursor and continue the same order', async () => {
    const expected = await expectedOrder(env.a.id);
    const Q = 'query($limit: Int, $cursor: String) { components(limit: $limit, cursor: $cursor) { count nextCursor data { uid } } }';
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: { body: any } = await env.gql(Q, { limit: 500, cursor });
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
      const page: any = r.body.data.components;
      expect(page.count).toBe(500);
      seen.push(...page.data.map((c: any) => c.uid));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 30);
    expect(pages).toBe(MANY / 500);
    expect(seen).toEqual(expected);
    // without limit GraphQL answers at most 1,000 too
    const d = await env.gql('{ components { count nextCursor } }');
    expect(d.body.data.components.count).toBe(1000);
    expect(d.body.data.components.nextCursor).toEqual(expect.any(String));
  }, 120_000);

  it('a filter pages within itself', async () => {
    const all = (await env.rest.get('/components?serialNumber=SN-5&limit=500')).body;
    const expected = all.data.map((c: any) => c.uid);
    expect(all).not.toHaveProperty('nextCursor');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: { body: any } = await env.rest.get(`/components?${new URLSearchParams({ serialNumber: 'SN-5', limit: '7', ...(cursor ? { cursor } : {}) })}`);
      expect(r.body.data.every((c: any) => c.serialNumber === 'SN-5')).toBe(true);
      seen.push(...r.body.data.map((c: any) => c.uid));
      cursor = r.body.nextCursor ?? null;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(seen.length).toBeGreaterThan(200);
  });

  it('MCP listComponents takes limit and cursor and continues the same order', async () => {
    const expected = await expectedOrder(env.a.id);
    const first = await call('listComponents', { limit: 3 });
    expect(first.isError, text(first)).toBeFalsy();
    expect(first.structuredContent.data.map((c: any) => c.uid)).toEqual(expected.slice(0, 3));
    const second = await call('listComponents', { limit: 3, cursor: first.structuredContent.nextCursor });
    expect(second.structuredContent.data.map((c: any) => c.uid)).toEqual(expected.slice(3, 6));
    const aircraft = await call('listAircraft', { limit: 1 });
    expect(aircraft.isError, text(aircraft)).toBeFalsy();
    expect(aircraft.structuredContent.data).toHaveLength(1);
    expect(aircraft.structuredContent.nextCursor).toEqual(expect.any(String));
  });
});

/** Walks a REST list with `limit` (or none), page after page: every page's records, in order. */
async function walk(path: string, limit?: number, key = 'uid'): Promise<{ seen: string[]; pages: number; first: any }> {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let first: any;
  do {
    const qs = new URLSearchParams({ ...(limit ? { limit: String(limit) } : {}), ...(cursor ? { cursor } : {}) });
    const r: { status: number; body: any } = await env.rest.get(`${path}${path.includes('?') ? '&' : '?'}${qs}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    first ??= r.body;
    expect(r.body.count).toBe(r.body.data.length);
    seen.push(...r.body.data.map((x: any) => x[key]));
    cursor = r.body.nextCursor ?? null;
    pages++;
  } while (cursor && pages < 200);
  return { seen, pages, first };
}

describe('schedule items, maintenance status and forms: more than 1,000', () => {
  it('GET /schedule-items answers 1,000 and a cursor; walking returns each once, by name and uid', async () => {
    const expected = (
      await env.database.prisma.scheduleItem.findMany({
        where: { companyId: env.a.id, status: 'active' },
        orderBy: [{ name: 'asc' }, { uid: 'asc' }],
        select: { uid: true },
      })
    ).map((r) => r.uid);
    expect(expected.length).toBeGreaterThan(1000);
    const all = await walk('/schedule-items');
    expect(all.first.count).toBe(1000);
    expect(all.first.nextCursor).toEqual(expect.any(String));
    expect(all.pages).toBe(2);
    expect(all.seen).toEqual(expected);
    const small = await walk('/schedule-items', 97);
    expect(small.seen).toEqual(expected);
    // a filter pages within itself, inactive items too when asked
    const inactive = await walk('/schedule-items?includeInactive=true', 500);
    expect(inactive.seen.length).toBe(expected.length + 12);
    expect(new Set(inactive.seen).size).toBe(inactive.seen.length);
    const onAircraft = await walk(`/schedule-items?relatedTo=${env.a.prefix}-ac-1`, 50);
    expect(onAircraft.seen).toEqual(expected.filter((u) => onAircraft.seen.includes(u)));
    expect(onAircraft.seen.length).toBeGreaterThan(300);
  }, 120_000);

  it('GET /maintenance-status pages its computed order, most urgent first, each item once', async () => {
    const active = await env.database.prisma.scheduleItem.count({ where: { companyId: env.a.id, status: 'active' } });
    const whole = await walk('/maintenance-status', undefined, 'scheduleItemUid');
    expect(whole.first.count).toBe(1000);
    expect(whole.first.nextCursor).toEqual(expect.any(String));
    expect(whole.seen.length).toBe(active);
    expect(new Set(whole.seen).size).toBe(active);
    // any page size walks the same order (37: page boundaries inside the groups and between them)
    for (const limit of [37, 500]) {
      expect((await walk('/maintenance-status', limit, 'scheduleItemUid')).seen).toEqual(whole.seen);
    }
    // and the order is most urgent first (rules.compareUrgency), with every group present
    const rows: any[] = [];
    let cursor: string | null = null;
    do {
      const r: { body: any } = await env.rest.get(`/maintenance-status?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      rows.push(...r.body.data);
      cursor = r.body.nextCursor ?? null;
    } while (cursor);
    const u = (s: any) => ({ ...s, uid: s.scheduleItemUid });
    for (let i = 1; i < rows.length; i++) expect(compareUrgency(u(rows[i - 1]), u(rows[i]))).toBeLessThan(0);
    // (REST leaves a null out: `== null` is either)
    expect(rows.some((s) => s.remaining != null && s.remaining < 0)).toBe(true);
    expect(rows.some((s) => s.remaining === 0)).toBe(true);
    expect(rows.some((s) => s.calendarDaysRemaining === 0)).toBe(true);
    expect(rows.some((s) => s.remaining == null && s.calendarDaysRemaining == null)).toBe(true);
    // filters page within themselves
    const overdue = await walk('/maintenance-status?overdueOnly=true', 100, 'scheduleItemUid');
    expect(overdue.seen).toEqual(whole.seen.filter((x) => overdue.seen.includes(x)));
    expect(overdue.pages).toBeGreaterThan(1);
  }, 120_000);

  it('GET /forms answers 1,000 and a cursor; walking returns each once, by name and uid', async () => {
    const expected = (
      await env.database.prisma.form.findMany({ where: { companyId: env.a.id, status: 'active' }, orderBy: [{ name: 'asc' }, { uid: 'asc' }], select: { uid: true } })
    ).map((r) => r.uid);
    expect(expected.length).toBeGreaterThan(1000);
    const all = await walk('/forms');
    expect(all.first.count).toBe(1000);
    expect(all.seen).toEqual(expected);
    expect((await walk('/forms', 333)).seen).toEqual(expected);
  }, 120_000);

  it('GraphQL scheduleItems, maintenanceStatus and forms take limit and cursor and continue the REST order', async () => {
    for (const [path, field, key] of [
      ['/schedule-items', 'scheduleItems', 'uid'],
      ['/maintenance-status', 'maintenanceStatus', 'scheduleItemUid'],
      ['/forms', 'forms', 'uid'],
    ] as const) {
      const rest = await walk(path, 500, key);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r: { body: any } = await env.gql(`query($c: String) { ${field}(limit: 400, cursor: $c) { count nextCursor data { ${key} } } }`, { c: cursor });
        expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
        const page = r.body.data[field];
        seen.push(...page.data.map((x: any) => x[key]));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      expect(seen).toEqual(rest.seen);
      // without limit at most 1,000, and a cursor
      const d = await env.gql(`{ ${field} { count nextCursor } }`);
      expect(d.body.data[field].count).toBe(1000);
      expect(d.body.data[field].nextCursor).toEqual(expect.any(String));
    }
  }, 120_000);

  it('MCP list tools take limit and cursor', async () => {
    for (const [tool, path, key] of [
      ['listScheduleItems', '/schedule-items', 'uid'],
      ['getMaintenanceStatus', '/maintenance-status', 'scheduleItemUid'],
      ['listForms', '/forms', 'uid'],
    ] as const) {
      const expected = (await env.rest.get(`${path}?limit=6`)).body.data.map((x: any) => x[key]);
      const first = await call(tool, { limit: 3 });
      expect(first.isError, text(first)).toBeFalsy();
      expect(first.structuredContent.data.map((x: any) => x[key])).toEqual(expected.slice(0, 3));
      const second = await call(tool, { limit: 3, cursor: first.structuredContent.nextCursor });
      expect(second.structuredContent.data.map((x: any) => x[key])).toEqual(expected.slice(3, 6));
    }
  });
});

describe('an empty cursor', () => {
  it('is said once (both checks said it)', async () => {
    for (const path of ['/flight-logs', '/vehicles']) {
      const r = await env.json('GET', `/api/v1${path}?cursor=`);
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ path: '/query/cursor', message: 'cursor is not a nextCursor this service issued' }]);
    }
  });
});

describe('bad limit or cursor: the same 400 on every channel', () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['/components', 'limit=0', { limit: 0 }, '/limit'],
    ['/components', 'limit=501', { limit: 501 }, '/limit'],
    ['/aircraft', 'limit=abc', { limit: 'abc' }, '/limit'],
    ['/users', 'cursor=not-a-cursor', { cursor: 'not-a-cursor' }, '/cursor'],
    ['/vehicles', `cursor=${Buffer.from('["x"]').toString('base64url')}`, { cursor: Buffer.from('["x"]').toString('base64url') }, '/cursor'],
    // a flight-log cursor is not a component cursor
    ['/components', `cursor=${Buffer.from('["2026-01-01T00:00:00.000Z","u"]').toString('base64url')}`, { cursor: Buffer.from('["2026-01-01T00:00:00.000Z","u"]').toString('base64url') }, '/cursor'],
    ['/schedule-items', 'limit=0', { limit: 0 }, '/limit'],
    ['/schedule-items', 'cursor=not-a-cursor', { cursor: 'not-a-cursor' }, '/cursor'],
    ['/maintenance-status', 'limit=501', { limit: 501 }, '/limit'],
    ['/maintenance-status', 'cursor=not-a-cursor', { cursor: 'not-a-cursor' }, '/cursor'],
    // the right shape, but not a number where the urgency key has one
    ['/maintenance-status', `cursor=${Buffer.from('["maintenance-status","soon","","a","b"]').toString('base64url')}`, { cursor: Buffer.from('["maintenance-status","soon","","a","b"]').toString('base64url') }, '/cursor'],
    // a cursor of another list of the same shape: a users cursor read as an aircraft position would skip aircraft
    ['/aircraft', `cursor=${Buffer.from('["user","Olivia Owner","acme-owner"]').toString('base64url')}`, { cursor: Buffer.from('["user","Olivia Owner","acme-owner"]').toString('base64url') }, '/cursor'],
    // lists ordered by time: the same check, at the same place
    ['/flight-logs', 'cursor=not-a-cursor', { cursor: 'not-a-cursor' }, '/cursor'],
    ['/flight-logs', `cursor=${Buffer.from('["audit-log","2026-01-01T00:00:00.000Z","u"]').toString('base64url')}`, { cursor: Buffer.from('["audit-log","2026-01-01T00:00:00.000Z","u"]').toString('base64url') }, '/cursor'],
    // a time no cursor was issued with: only the instant as the service writes it (Date read both)
    ['/flight-logs', `cursor=${Buffer.from('["flight-log","2026-03-03","x"]').toString('base64url')}`, { cursor: Buffer.from('["flight-log","2026-03-03","x"]').toString('base64url') }, '/cursor'],
    ['/flight-logs', `cursor=${Buffer.from('["flight-log","Tue Mar 03 2026","x"]').toString('base64url')}`, { cursor: Buffer.from('["flight-log","Tue Mar 03 2026","x"]').toString('base64url') }, '/cursor'],
    ['/forms', 'limit=0', { limit: 0 }, '/limit'],
    ['/forms', `cursor=${Buffer.from('["a","b","c"]').toString('base64url')}`, { cursor: Buffer.from('["a","b","c"]').toString('base64url') }, '/cursor'],
  ];
  const tool = {
    '/components': 'listComponents',
    '/aircraft': 'listAircraft',
    '/users': 'listUsers',
    '/vehicles': 'listVehicles',
    '/schedule-items': 'listScheduleItems',
    '/maintenance-status': 'getMaintenanceStatus',
    '/forms': 'listForms',
    '/flight-logs': 'listFlightLogs',
  } as Record<string, string>;
  const field = {
    '/components': 'components',
    '/aircraft': 'aircraftList',
    '/users': 'users',
    '/vehicles': 'vehicles',
    '/schedule-items': 'scheduleItems',
    '/maintenance-status': 'maintenanceStatus',
    '/forms': 'forms',
    '/flight-logs': 'flightLogs',
  } as Record<string, string>;

  it.each(cases)('%s?%s', async (path, qs, args, at) => {
    const rest = await env.json('GET', `/api/v1${path}?${qs}`);
    expect(rest.status).toBe(400);
    expect(rest.res.headers.get('content-type')).toContain('application/problem+json');
    // query parameters are reported under /query on REST (and MCP, which runs the REST operation), as for every list
    const restError = rest.body.errors.find((e: any) => e.path === `/query${at}`);
    expect(restError, JSON.stringify(rest.body)).toBeDefined();

    const m = await call(tool[path]!, args);
    expect(m.isError).toBe(true);
    expect(text(m)).toContain(rest.body.detail);
    expect(text(m)).toContain(`/query${at}`);
    expect(text(m)).toContain(restError.message);

    if (typeof args.limit !== 'string') {
      const g = await env.gql(`query($limit: Int, $cursor: String) { ${field[path]}(limit: $limit, cursor: $cursor) { count } }`, args);
      const e = g.body.errors?.[0];
      expect(e?.extensions?.status).toBe(400);
      expect(e?.extensions?.errors).toContainEqual({ path: at, message: restError.message });
    }
  });
});
