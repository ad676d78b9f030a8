// Running the company over the API (docs/contract/gaps.md §12, issue 23), black box over REST, GraphQL and MCP:
// the admin scope (403 for read and read_write keys on every management operation, reads stay open), aircraft
// create/update/delete with exact totals and 409s that name counts, users create/update (no delete), API keys
// (list without secrets, create shown once, revoke at once, no self-revocation, never the last admin key), and
// the audit log (an entry per change, none for a refusal, filters, cursor pages, never key material).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyService, hashKey } from '../src/auth/keys.js';
import { keyDropWatcher } from '../src/auth/key-drops.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { createTestEnv, flightLogBody, openTestDatabase, onPostgres, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';

let env: TestEnv;
/** Company a's admin key, and a read key. */
let admin: string;
let adminId: string;
/** The admin key's name: 'admin', or 'second admin' when that key won the revocation race below. */
let adminName = 'admin';
let readKey: string;

beforeAll(async () => {
  env = await createTestEnv();
  const keys = new ApiKeyService(env.database.prisma);
  const made = await keys.create({ companyId: env.a.id, name: 'admin', scope: 'admin' });
  admin = made.key;
  adminId = made.info.id;
  readKey = (await keys.create({ companyId: env.a.id, name: 'reader', scope: 'read' })).key;
});
afterAll(() => env?.close());

const as = (key: string) => ({
  get: (path: string) => env.json('GET', `/api/v1${path}`, { key }),
  post: (path: string, body: unknown, headers?: Record<string, string>) => env.json('POST', `/api/v1${path}`, { key, body, headers }),
  patch: (path: string, body: unknown) => env.json('PATCH', `/api/v1${path}`, { key, body }),
  del: (path: string) => env.json('DELETE', `/api/v1${path}`, { key }),
});

const aircraftBody = (over: Record<string, unknown> = {}) => ({
  registration: `VH-${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
  type: 'AS50',
  category: 'rotary-wing',
  manufacturer: 'Airbus',
  model: 'AS350 B3',
  engineType: 'turbine',
  engineCount: 1,
  maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number', precision: 0 } },
  logTrackingItems: { remarks: { displayText: 'Remarks', type: 'string' } },
  initialValues: { hobbs: 100.1, landings: 10 },
  ...over,
});

/** The audit entries of one record, newest first. */
async function auditOf(entityId: string) {
  const r = await as(admin).get(`/audit-log?entityId=${encodeURIComponent(entityId)}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as any[];
}

/** A flight log for aircraft `uid` (registration `reg`) through REST, with company a's read_write key. */
async function logFor(uid: string, reg: string, tracking: Record<string, unknown>) {
  const r = await env.rest.post('/flight-logs', flightLogBody({ aircraftId: uid, aircraftRegistration: reg, ...tracking }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
}

describe('the admin scope', () => {
  const management: [string, string, unknown?][] = [
    ['POST', '/aircraft', aircraftBody()],
    ['PATCH', '/aircraft/acme-ac-2', { status: 'stored' }],
    ['DELETE', '/aircraft/acme-ac-2'],
    ['POST', '/users', { email: 'x@acme.test', displayName: 'X' }],
    ['PATCH', '/users/acme-new', { status: 'Active' }],
    ['GET', '/api-keys'],
    ['POST', '/api-keys', { name: 'k', scope: 'admin' }],
    ['DELETE', `/api-keys/00000000-0000-0000-0000-000000000000`],
    ['GET', '/audit-log'],
  ];

  it('REST: read and read_write keys get 403 problem+json on every management route, and nothing changes', async () => {
    const before = await as(admin).get('/audit-log');
    for (const key of [env.a.key, readKey]) {
      for (const [method, path, body] of management) {
        const r = await env.json(method, `/api/v1${path}`, { key, body });
        expectProblem(r, 403, 'forbidden');
        expect(r.body.detail, `${method} ${path}`).toMatch(/manages the company: it needs an admin key \(this key's scope is (read|read_write)\)/);
      }
    }
    expect((await as(admin).get('/audit-log')).body.data).toEqual(before.body.data);
    expect((await as(admin).get('/aircraft/acme-ac-2')).body.status).toBe('active');
    expect((await as(admin).get('/users/acme-new')).body.status).toBe('Pending');
  });

  it('the contract\u2019s reads stay open to every key', async () => {
    for (const key of [env.a.key, readKey, admin]) {
      expect((await as(key).get('/aircraft')).status).toBe(200);
      expect((await as(key).get('/users')).status).toBe(200);
      expect((await as(key).get('/aircraft/acme-ac-1')).status).toBe(200);
    }
  });

  it('GraphQL: the same operations answer FORBIDDEN (HTTP 403) to a read_write key', async () => {
    for (const q of [
      'mutation { createAircraft(input: {registration: "VH-GQL", type: "T", category: "c", engineType: "e", engineCount: 1}) { uid } }',
      'mutation { updateUser(uid: "acme-new", input: {status: Active}) { status } }',
      'mutation { revokeApiKey(id: "x") { id } }',
      '{ apiKeys { count } }',
      '{ auditLog { count } }',
    ]) {
      const r = await env.gql(q);
      expect(r.status, q).toBe(403);
      expect(r.body.errors?.[0]?.extensions?.code, q).toBe('FORBIDDEN');
    }
    expect((await env.gql('{ aircraftList { count } users { count } }')).body.data).toMatchObject({ aircraftList: { count: 2 }, users: { count: 3 } });
  });
});

describe('aircraft', () => {
  it('create: 201 {uid, status}; totals start at the initial values; audited with the key and the fields', async () => {
    const body = aircraftBody();
    const r = await as(admin).post('/aircraft', body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({ uid: expect.stringMatching(/^ac_/), status: 'created' });
    const got = await as(env.a.key).get(`/aircraft/${r.body.uid}`);
    expect(got.body).toMatchObject({ registration: body.registration, totals: { hobbs: 100.1, landings: 10 }, initialValues: body.initialValues, companyId: env.a.id });
    const [entry] = await auditOf(r.body.uid);
    expect(entry).toMatchObject({ entity: 'aircraft', entityId: r.body.uid, action: 'created', keyId: adminId, channel: 'rest', userId: 'acme-owner' });
    expect(entry.changes.registration).toEqual({ before: null, after: body.registration });
    expect(entry.changes.initialValues.after).toEqual(body.initialValues);
  });

  it('create: 400 for a server-controlled or unknown field, a missing field, or initial values of no number maintenance item; nothing is written', async () => {
    const before = (await as(admin).get('/aircraft')).body.count;
    expectValidation(await as(admin).post('/aircraft', aircraftBody({ uid: 'mine' })), '/uid');
    expectValidation(await as(admin).post('/aircraft', aircraftBody({ totals: { hobbs: 1 } })), '/totals');
    expectValidation(await as(admin).post('/aircraft', aircraftBody({ colour: 'red' })));
    const { registration: _r, ...noReg } = aircraftBody();
    expectValidation(await as(admin).post('/aircraft', noReg), '/registration');
    expectValidation(await as(admin).post('/aircraft', aircraftBody({ initialValues: { remarks: 3 } })), '/initialValues/remarks');
    expectValidation(await as(admin).post('/aircraft', aircraftBody({ logTrackingItems: { hobbs: { displayText: 'H', type: 'number' } } })), '/logTrackingItems/hobbs');
    expectValidation(await as(admin).post('/aircraft', aircraftBody({ initialValues: { hobbs: 1.1234567 } })), '/initialValues/hobbs');
    expect((await as(admin).get('/aircraft')).body.count).toBe(before);
  });

  it('create: 409 for a registration the company has already (another company may have it)', async () => {
    const r = await as(admin).post('/aircraft', aircraftBody({ registration: 'VH-ACM' }));
    expectProblem(r, 409, 'conflict');
    expect(r.body.detail).toMatch(/VH-ACM is already aircraft acme-ac-1/);
    const other = await as(admin).post('/aircraft', aircraftBody({ registration: 'VH-GLO' }));
    expect(other.status).toBe(201);
  });

  it('update: initial values move the totals by exactly the difference; a new maintenance item starts at its initial value; a rename keeps the totals', async () => {
    const { body: c } = await as(admin).post('/aircraft', aircraftBody({ initialValues: { hobbs: 0.1, landings: 1 } }));
    const reg = (await as(admin).get(`/aircraft/${c.uid}`)).body.registration;
    await logFor(c.uid, reg, { hobbs: 0.2, landings: 2 });
    await logFor(c.uid, reg, { hobbs: 1.7, landings: 1 });
    expect((await as(admin).get(`/aircraft/${c.uid}`)).body.totals).toEqual({ hobbs: 2, landings: 4 });

    let r = await as(admin).patch(`/aircraft/${c.uid}`, { initialValues: { hobbs: 1000.3 } });
    expect(r.body).toEqual({ uid: c.uid, status: 'updated' });
    expect((await as(admin).get(`/aircraft/${c.uid}`)).body.totals).toEqual({ hobbs: 1002.2, landings: 4 });

    r = await as(admin).patch(`/aircraft/${c.uid}`, { maintenanceTrackingItems: { cycles: { displayText: 'Cycles', type: 'number' }, hobbs: { displayText: 'Hobbs meter', type: 'number', precision: 1 } }, initialValues: { cycles: 55 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const a = (await as(admin).get(`/aircraft/${c.uid}`)).body;
    expect(a.totals).toEqual({ hobbs: 1002.2, landings: 4, cycles: 55 });
    expect(a.maintenanceTrackingItems.hobbs.displayText).toBe('Hobbs meter');

    // null takes an initial value away: the total is the logs' sum alone
    await as(admin).patch(`/aircraft/${c.uid}`, { initialValues: { landings: null } });
    expect((await as(admin).get(`/aircraft/${c.uid}`)).body.totals).toEqual({ hobbs: 1002.2, landings: 3, cycles: 55 });
    // the same values again: no_changes, and no audit entry
    const entries = (await auditOf(c.uid)).length;
    expect((await as(admin).patch(`/aircraft/${c.uid}`, { initialValues: { cycles: 55 }, status: 'active' })).body).toEqual({ uid: c.uid, status: 'no_changes' });
    expect((await auditOf(c.uid)).length).toBe(entries);
    const [latest] = await auditOf(c.uid);
    expect(latest.changes).toEqual({ initialValues: { before: { hobbs: 1000.3, landings: 1, cycles: 55 }, after: { hobbs: 1000.3, cycles: 55 } } });
  });

  it('update: 409 with the count when logs carry a key being removed, retyped or moved; nothing changes and nothing is audited', async () => {
    const { body: c } = await as(admin).post('/aircraft', aircraftBody());
    const reg = (await as(admin).get(`/aircraft/${c.uid}`)).body.registration;
    await logFor(c.uid, reg, { hobbs: 1, remarks: 'ok' });
    await logFor(c.uid, reg, { hobbs: 2 });
    const before = (await as(admin).get(`/aircraft/${c.uid}`)).body;
    const audited = (await auditOf(c.uid)).length;
    for (const [patch, path, n] of [
      [{ maintenanceTrackingItems: { hobbs: null } }, '/maintenanceTrackingItems/hobbs', 2],
      [{ maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'string' } } }, '/maintenanceTrackingItems/hobbs', 2],
      [{ logTrackingItems: { remarks: null } }, '/logTrackingItems/remarks', 1],
      [{ maintenanceTrackingItems: { hobbs: null }, logTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' } } }, '/maintenanceTrackingItems/hobbs', 2],
    ] as const) {
      const r = await as(admin).patch(`/aircraft/${c.uid}`, patch);
      expectProblem(r, 409, 'conflict');
      expect(r.body.errors.map((e: any) => e.path)).toContain(path);
      expect(r.body.detail).toContain(`${n} flight log${n === 1 ? '' : 's'} of this aircraft carry`);
    }
    // landings is carried by no log: it can go, and its initial value with it
    expect((await as(admin).patch(`/aircraft/${c.uid}`, { maintenanceTrackingItems: { landings: null } })).body.status).toBe('updated');
    const after = (await as(admin).get(`/aircraft/${c.uid}`)).body;
    expect(after.totals).toEqual({ hobbs: before.totals.hobbs });
    expect(after.initialValues).toEqual({ hobbs: 100.1 });
    expect((await auditOf(c.uid)).length).toBe(audited + 1);
  });

  it('update: a new registration is followed by the aircraft\u2019s logs; 404 for another company\u2019s aircraft; 400 for a bad patch', async () => {
    const { body: c } = await as(admin).post('/aircraft', aircraftBody());
    const reg = (await as(admin).get(`/aircraft/${c.uid}`)).body.registration;
    const log = await logFor(c.uid, reg, { hobbs: 1 });
    const newReg = `VH-N${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
    expect((await as(admin).patch(`/aircraft/${c.uid}`, { registration: newReg })).body.status).toBe('updated');
    expect((await env.rest.get(`/flight-logs/${log}`)).body.aircraftRegistration).toBe(newReg);
    expect((await env.rest.get(`/flight-logs?aircraftRegistration=${newReg}`)).body.count).toBe(1);
    expectProblem(await as(admin).patch('/aircraft/globex-ac-1', { status: 'x' }), 404, 'not_found');
    expectValidation(await as(admin).patch(`/aircraft/${c.uid}`, { engineCount: 'two' }), '/engineCount');
    expectValidation(await as(admin).patch(`/aircraft/${c.uid}`, { initialValues: { remarks: 1 } }), '/initialValues/remarks');
    expectValidation(await as(admin).patch(`/aircraft/${c.uid}`, { companyId: 'x' }), '/companyId');
    expectProblem(await as(admin).patch(`/aircraft/${c.uid}`, { registration: 'VH-ACM' }), 409, 'conflict');
  });

  it('delete: 409 with the count while logs refer to it; otherwise deleted, audited with its last values, then 404', async () => {
    const { body: c } = await as(admin).post('/aircraft', aircraftBody());
    const reg = (await as(admin).get(`/aircraft/${c.uid}`)).body.registration;
    const log = await logFor(c.uid, reg, { hobbs: 1 });
    const r = await as(admin).del(`/aircraft/${c.uid}`);
    expectProblem(r, 409, 'conflict');
    expect(r.body.detail).toMatch(/1 flight log\b/);
    expect((await env.json('DELETE', `/api/v1/flight-logs/${log}`)).status).toBe(200);
    // a deleted (inactive) schedule item keeps the aircraft's history and counts: the 409 says it is inactive, since
    // the schedule list does not show it
    const item = await env.json('POST', '/api/v1/schedule-items', { body: { name: 'Annual', type: 'Inspection', relatedTo: c.uid, relatedToType: 'aircraft', recurring: false, calendarDateDue: '2027-01-01' } });
    expect((await env.json('DELETE', `/api/v1/schedule-items/${item.body.uid}`)).status).toBe(200);
    const held = await as(admin).del(`/aircraft/${c.uid}`);
    expectProblem(held, 409, 'conflict');
    expect(held.body.detail).toBe(`aircraft ${c.uid} has 1 schedule item (inactive): it cannot be deleted while they refer to it`);
    await env.database.prisma.scheduleItem.deleteMany({ where: { companyId: env.a.id, uid: item.body.uid } });
    expect((await as(admin).del(`/aircraft/${c.uid}`)).body).toEqual({ uid: c.uid, status: 'deleted' });
    expectProblem(await as(admin).get(`/aircraft/${c.uid}`), 404);
    expectProblem(await as(admin).del(`/aircraft/${c.uid}`), 404);
    const [entry] = await auditOf(c.uid);
    expect(entry).toMatchObject({ action: 'deleted', changes: { registration: { before: reg, after: null } } });
  });

  it('GraphQL: createAircraft / updateAircraft / deleteAircraft, with the service\u2019s 400 and 409', async () => {
    const gql = (q: string, v?: Record<string, unknown>) => env.gql(q, v, admin);
    const created = await gql('mutation($i: CreateAircraftInput!) { createAircraft(input: $i) { uid status } }', { i: aircraftBody({ initialValues: { hobbs: 5 } }) });
    const uid = created.body.data.createAircraft.uid;
    expect(created.body.data.createAircraft.status).toBe('created');
    const upd = await gql('mutation($id: ID!, $i: UpdateAircraftInput!) { updateAircraft(id: $id, input: $i) { status } }', { id: uid, i: { initialValues: { hobbs: 7.5 } } });
    expect(upd.body.data.updateAircraft.status).toBe('updated');
    expect((await gql(`{ aircraft(id: "${uid}") { totals } }`)).body.data.aircraft.totals).toEqual({ hobbs: 7.5, landings: 0 });
    const bad = await gql('mutation($i: CreateAircraftInput!) { createAircraft(input: $i) { uid } }', { i: aircraftBody({ engineCount: -1 }) });
    expect(bad.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    const dup = await gql('mutation($i: CreateAircraftInput!) { createAircraft(input: $i) { uid } }', { i: aircraftBody({ registration: 'VH-ACM' }) });
    expect(dup.body.errors![0].extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((await gql(`mutation { deleteAircraft(id: "${uid}") { status } }`)).body.data.deleteAircraft.status).toBe('deleted');
    const [entry] = await auditOf(uid);
    expect(entry).toMatchObject({ action: 'deleted', channel: 'graphql', keyId: adminId });
  });
});

describe('users', () => {
  it('create: 201 with a given uid or one the server makes; audited; 409 for a taken uid or email; 400 for bad values', async () => {
    const r = await as(admin).post('/users', { uid: 'idp|123', email: 'cara@acme.test', displayName: 'Cara Crew', roles: ['pilot'], phone: '+61411111111', timezone: 'Australia/Perth' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({ uid: 'idp|123', status: 'created' });
    expect((await env.rest.get('/users/idp%7C123')).body).toMatchObject({ email: 'cara@acme.test', status: 'Active', roles: ['pilot'], timezone: 'Australia/Perth' });
    // a zone name in another case is the same zone: stored and shown as the time zone database spells it
    const cased = await as(admin).post('/users', { email: 'cased@acme.test', displayName: 'Case', timezone: 'australia/PERTH' });
    expect(cased.status, JSON.stringify(cased.body)).toBe(201);
    expect((await env.rest.get(`/users/${cased.body.uid}`)).body.timezone).toBe('Australia/Perth');
    expect((await as(admin).patch(`/users/${cased.body.uid}`, { timezone: 'AUSTRALIA/PERTH' })).body.status).toBe('no_changes');
    const made = await as(admin).post('/users', { email: 'dan@acme.test', displayName: 'Dan', status: 'Pending' });
    expect(made.body.uid).toMatch(/^usr_/);
    expectProblem(await as(admin).post('/users', { uid: 'idp|123', email: 'other@acme.test', displayName: 'X' }), 409, 'conflict');
    expectProblem(await as(admin).post('/users', { email: 'CARA@acme.test', displayName: 'X' }), 409, 'conflict');
    expectValidation(await as(admin).post('/users', { email: 'no', displayName: 'X' }), '/email');
    expectValidation(await as(admin).post('/users', { email: 'e@acme.test', displayName: 'X', phone: '0400' }), '/phone');
    // E.164 as every phone the service takes: + and 7 to 15 digits (`+12` was taken for a user, refused as an SMS recipient)
    const short = await as(admin).post('/users', { email: 'e2@acme.test', displayName: 'X', phone: '+12' });
    expectValidation(short, '/phone');
    expect(short.body.errors[0].message).toBe('phone must be an E.164 phone number: + and 7 to 15 digits, no spaces (e.g. +61412345678)');
    expectValidation(await as(admin).post('/users', { email: 'e@acme.test', displayName: 'X', timezone: 'Mars/Base' }), '/timezone');
    // no URL path can name a user `.` or `..` (`/users/%2E%2E` is `/users/..`): refused, not made unreachable
    for (const uid of ['.', '..', ' .. ']) expectValidation(await as(admin).post('/users', { uid, email: 'dots@acme.test', displayName: 'X' }), '/uid');
    expectValidation(await as(admin).post('/users', { email: 'e@acme.test', displayName: 'X', status: 'Gone' }), '/status');
    expectValidation(await as(admin).post('/users', { email: 'e@acme.test', displayName: 'X', companyId: 'x' }), '/companyId');
    expect((await env.rest.get('/users?role=pilot')).body.data.map((u: any) => u.uid)).toContain('idp|123');
    const [entry] = await auditOf('idp|123');
    expect(entry).toMatchObject({ entity: 'user', action: 'created', changes: { email: { before: null, after: 'cara@acme.test' } } });
  });

  // on the embedded store transactions run one at a time, so only PostgreSQL (CI's second run) can race them
  it.runIf(onPostgres)('one email, one user, however many create it at once (in any case): one 201, the others 409', async () => {
    const sent = await Promise.all(
      Array.from({ length: 8 }, (_, i) => as(admin).post('/users', { email: i % 2 ? 'Race@Acme.test' : 'race@acme.test', displayName: `Racer ${i}` })),
    );
    expect(sent.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const users = (await env.rest.get('/users?limit=500')).body.data.filter((u: any) => u.email.toLowerCase() === 'race@acme.test');
    expect(users).toHaveLength(1);
  });

  it('update: status, roles, names, phone, timezone; null clears; no_changes; 404; no delete route', async () => {
    await as(admin).post('/users', { uid: 'u-upd', email: 'upd@acme.test', displayName: 'Up Date', phone: '+61422222222' });
    const r = await as(admin).patch('/users/u-upd', { status: 'Inactive', roles: ['engineer', 'pilot'], firstName: 'Up', phone: null, timezone: 'UTC' });
    expect(r.body).toEqual({ uid: 'u-upd', status: 'updated' });
    const u = (await env.rest.get('/users/u-upd')).body;
    expect(u).toMatchObject({ status: 'Inactive', roles: ['engineer', 'pilot'], firstName: 'Up', timezone: 'UTC' });
    expect(u.phone).toBeUndefined();
    expect((await as(admin).patch('/users/u-upd', { status: 'Inactive' })).body.status).toBe('no_changes');
    const [entry] = await auditOf('u-upd');
    expect(entry.changes).toEqual({
      status: { before: 'Active', after: 'Inactive' },
      roles: { before: [], after: ['engineer', 'pilot'] },
      firstName: { before: null, after: 'Up' },
      phone: { before: '+61422222222', after: null },
      timezone: { before: null, after: 'UTC' },
    });
    expectProblem(await as(admin).patch('/users/globex-owner', { status: 'Inactive' }), 404);
    expectValidation(await as(admin).patch('/users/u-upd', { roles: ['pilot', ''] }), '/roles/1');
    expectValidation(await as(admin).patch('/users/u-upd', { uid: 'renamed' }));
    expect((await as(admin).del('/users/u-upd')).status).toBe(405);
    const gql = await env.gql('mutation { updateUser(uid: "u-upd", input: {status: Active}) { status } }', undefined, admin);
    expect(gql.body.data.updateUser.status).toBe('updated');
    expect((await auditOf('u-upd'))[0]).toMatchObject({ channel: 'graphql', changes: { status: { before: 'Inactive', after: 'Active' } } });
  });
});

describe('API keys', () => {
  it('the list is bounded (gaps.md §17): limit and cursor walk it oldest first, each key once', async () => {
    for (const name of ['page a', 'page b', 'page c']) expect((await as(admin).post('/api-keys', { name, scope: 'read' })).status).toBe(201);
    const all = (await as(admin).get('/api-keys')).body;
    expect(all).not.toHaveProperty('nextCursor');
    expect(all.count).toBeGreaterThanOrEqual(4);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: { status: number; body: any } = await as(admin).get(`/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.data.map((k: any) => k.id));
      cursor = r.body.nextCursor ?? null;
    } while (cursor && seen.length <= all.count);
    expect(seen).toEqual(all.data.map((k: any) => k.id));
    const g = await env.gql('{ apiKeys(limit: 1) { count nextCursor data { id } } }', undefined, admin);
    expect(g.body.data.apiKeys).toMatchObject({ count: 1, nextCursor: expect.any(String), data: [{ id: all.data[0].id }] });
    // a cursor whose time is not an instant this service wrote is refused like any bad cursor
    const bad = Buffer.from(JSON.stringify(['api-key', 'yesterday', 'k'])).toString('base64url');
    expectValidation(await as(admin).get(`/api-keys?cursor=${bad}`), '/query/cursor');
    // instants toISOString writes but no row has (years beyond 9999 or before 1): 400, not the database's 500
    for (const t of ['+275760-09-13T00:00:00.000Z', '-001000-01-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z']) {
      expect(new Date(t).toISOString()).toBe(t);
      const cursor = Buffer.from(JSON.stringify(['api-key', t, 'x'])).toString('base64url');
      expectValidation(await as(admin).get(`/api-keys?cursor=${cursor}`), '/query/cursor');
      const g = await env.gql(`{ apiKeys(cursor: "${cursor}") { count } }`, undefined, admin);
      expect(g.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    }
    expectValidation(await as(admin).get('/api-keys?limit=0'), '/query/limit');
  });

  it('create: 201 with the key shown once; it works at once with its scope; the list never shows a key or a hash', async () => {
    const r = await as(admin).post('/api-keys', { name: 'ops read', scope: 'read' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ id: expect.any(String), key: expect.stringMatching(/^fo_live_[0-9A-Za-z]{32}$/), name: 'ops read', scope: 'read', userId: null });
    expect(r.body.prefix).toBe(r.body.key.slice(0, 12));
    const key = r.body.key as string;
    expect((await as(key).get('/aircraft')).status).toBe(200);
    expectProblem(await as(key).post('/flight-logs', flightLogBody()), 403);
    const list = await as(admin).get('/api-keys');
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(key);
    expect(text).not.toContain(hashKey(key));
    const mine = list.body.data.find((k: any) => k.id === r.body.id);
    expect(mine).toEqual({ id: r.body.id, prefix: r.body.prefix, name: 'ops read', scope: 'read', userId: null, createdAt: expect.any(String), lastUsedAt: mine.lastUsedAt, revokedAt: null });
    expect(mine.lastUsedAt === null || typeof mine.lastUsedAt === 'string').toBe(true); // written off the request's path, at most once a minute
    expect(Object.keys(mine).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scope', 'userId']);
    // a key acting as a user of the company; a user of another company is a 400
    expect((await as(admin).post('/api-keys', { name: 'pilot app', userId: 'acme-pilot' })).body).toMatchObject({ scope: 'read_write', userId: 'acme-pilot' });
    expectValidation(await as(admin).post('/api-keys', { name: 'x', userId: 'globex-owner' }), '/userId');
    expectValidation(await as(admin).post('/api-keys', { name: 'x', scope: 'root' }), '/scope');
    expectValidation(await as(admin).post('/api-keys', { name: '' }), '/name');
  });

  it('create refuses an Idempotency-Key: its answer holds a secret, which is never stored', async () => {
    const before = (await as(admin).get('/api-keys')).body.count;
    const r = await as(admin).post('/api-keys', { name: 'again' }, { 'idempotency-key': 'k-1' });
    expectProblem(r, 400);
    expect(r.body.detail).toMatch(/Idempotency-Key is not accepted by createApiKey/);
    expect((await as(admin).get('/api-keys')).body.count).toBe(before);
  });

  it('revoke: at once (the next request is a 401), audited; again changes nothing; 404 for another company\u2019s key', async () => {
    const { body: made } = await as(admin).post('/api-keys', { name: 'short-lived' });
    expect((await as(made.key).get('/aircraft')).status).toBe(200); // known and cached
    const r = await as(admin).del(`/api-keys/${made.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.id, revokedAt: expect.any(String) });
    expectProblem(await as(made.key).get('/aircraft'), 401);
    expect((await as(admin).del(`/api-keys/${made.id}`)).body.revokedAt).toBe(r.body.revokedAt);
    const entries = await auditOf(made.id);
    expect(entries.map((e) => e.action)).toEqual(['revoked', 'created']);
    expect(entries[0].changes).toEqual({ revokedAt: { before: null, after: r.body.revokedAt } });
    const globex = await new ApiKeyService(env.database.prisma).list(env.b.id);
    expectProblem(await as(admin).del(`/api-keys/${globex[0].id}`), 404);
    expect((await env.json('GET', '/api/v1/aircraft', { key: env.b.key })).status).toBe(200);
  });

  it('a key cannot revoke itself (409); two admin keys revoking each other at once leave one (the last admin key stays)', async () => {
    const r = await as(admin).del(`/api-keys/${adminId}`);
    expectProblem(r, 409, 'conflict');
    expect(r.body.detail).toMatch(/cannot revoke itself/);
    const { body: second } = await as(admin).post('/api-keys', { name: 'second admin', scope: 'admin' });
    const [x, y] = await Promise.all([as(admin).del(`/api-keys/${second.id}`), as(second.key).del(`/api-keys/${adminId}`)]);
    // the loser was revoked before it authenticated (401), or in the moment between (409: the last admin key)
    const statuses = [x.status, y.status].sort();
    expect([[200, 401], [200, 409]]).toContainEqual(statuses);
    if (statuses[1] === 409) expect((x.status === 409 ? x : y).body.detail).toMatch(/last admin key/);
    const survivor = x.status === 200 ? { key: admin, id: adminId, name: adminName } : { key: second.key, id: second.id, name: 'second admin' };
    const live = (await as(survivor.key).get('/api-keys')).body.data.filter((k: any) => k.scope === 'admin' && !k.revokedAt);
    expect(live.map((k: any) => k.id)).toEqual([survivor.id]);
    admin = survivor.key;
    adminId = survivor.id;
    adminName = survivor.name;
    // a read_write key made on the server's host cannot revoke anything; the CLI's key event is audited
    const { key: rw, info } = await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'cli key', scope: 'read_write' });
    expectProblem(await as(rw).del(`/api-keys/${adminId}`), 403);
    expect((await as(admin).get(`/audit-log?entity=api_key&entityId=${info.id}`)).body.data[0]).toMatchObject({ channel: 'cli', keyId: null, action: 'created' });
  });

  it('the rule under that race, played step by step: the company\u2019s last live admin key is not revoked', async () => {
    const { revokeKey } = await import('../src/modules/api-keys/service.js');
    const { scopedPrisma } = await import('../src/db/scoped.js');
    const db = scopedPrisma(env.database.prisma, env.a.id);
    // a request of an admin key that was revoked after it authenticated asks to revoke the last live one
    const err = await revokeKey(db, adminId, { keyId: 'revoked-meanwhile', userId: null, channel: 'rest' }, { self: 'revoked-meanwhile', keepAnAdmin: true }).catch((e) => e);
    expect(err).toMatchObject({ status: 409, message: expect.stringMatching(/last admin key/) });
    expect((await as(admin).get('/aircraft')).status).toBe(200);
  });

  it('GraphQL: apiKeys, createApiKey (the key once), revokeApiKey', async () => {
    const made = await env.gql('mutation { createApiKey(input: {name: "gql", scope: read_write}) { id key prefix scope } }', undefined, admin);
    const k = made.body.data.createApiKey;
    expect(k.key.startsWith(k.prefix)).toBe(true);
    const list = await env.gql('{ apiKeys { count data { id prefix scope revokedAt } } }', undefined, admin);
    expect(list.body.data.apiKeys.data.find((x: any) => x.id === k.id)).toEqual({ id: k.id, prefix: k.prefix, scope: 'read_write', revokedAt: null });
    const rev = await env.gql(`mutation { revokeApiKey(id: "${k.id}") { revokedAt } }`, undefined, admin);
    expect(rev.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    expect((await env.gql('{ aircraftList { count } }', undefined, k.key)).status).toBe(401);
    const self = await env.gql(`mutation { revokeApiKey(id: "${adminId}") { id } }`, undefined, admin);
    expect(self.body.errors![0].extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
  });
});

describe('viewer', () => {
  const VIEWER = '{ viewer { company { id name } key { id name prefix scope revokedAt } user { uid displayName roles } } }';
  it('names the company, the request\u2019s key with its scope (never the key) and the user it acts as, to every key', async () => {
    const a = await env.gql(VIEWER, undefined, admin);
    expect(a.body.errors).toBeUndefined();
    expect(a.body.data.viewer).toEqual({
      company: { id: env.a.id, name: 'ACME Aviation' },
      key: { id: adminId, name: adminName, prefix: admin.slice(0, 12), scope: 'admin', revokedAt: null },
      // a key without a user acts as the company's owner
      user: { uid: 'acme-owner', displayName: 'Olivia Owner', roles: ['owner', 'admin'] },
    });
    const r = await env.gql('{ viewer { key { name scope } } }', undefined, readKey);
    expect(r.body.data.viewer.key).toEqual({ name: 'reader', scope: 'read' });
    const rw = await env.gql('{ viewer { company { id } key { scope prefix } } }', undefined, env.a.key);
    expect(rw.body.data.viewer).toEqual({ company: { id: env.a.id }, key: { scope: 'read_write', prefix: env.a.key.slice(0, 12) } });
    // another company's key sees its own company
    const b = await env.gql('{ viewer { company { id } } }', undefined, env.b.key);
    expect(b.body.data.viewer.company.id).toBe(env.b.id);
    expect(JSON.stringify(a.body)).not.toContain(admin);
  });

  it('a key made for a user acts as that user; no key is a 401', async () => {
    const made = await env.gql('mutation { createApiKey(input: {name: "pilot app", scope: read, userId: "acme-pilot"}) { key } }', undefined, admin);
    const v = await env.gql(VIEWER, undefined, made.body.data.createApiKey.key);
    expect(v.body.data.viewer.user).toEqual({ uid: 'acme-pilot', displayName: 'Pat Pilot', roles: ['pilot'] });
    expect(v.body.data.viewer.key).toMatchObject({ name: 'pilot app', scope: 'read' });
    expect((await env.gql(VIEWER, undefined, null)).status).toBe(401);
  });
});

describe('the audit log', () => {
  it('filters by entity, entityId, action and key; pages with a cursor; 400 for a bad filter', async () => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await as(admin).get(`/audit-log?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(r.body.data.length);
      all.push(...r.body.data);
      cursor = r.body.nextCursor;
    } while (cursor);
    const whole = (await as(admin).get('/audit-log?limit=500')).body;
    expect(whole.nextCursor).toBeNull();
    expect(all.map((e) => e.uid)).toEqual(whole.data.map((e: any) => e.uid));
    expect(new Set(all.map((e) => e.uid)).size).toBe(all.length);
    for (let i = 1; i < all.length; i++) expect(all[i - 1].at >= all[i].at).toBe(true);
    const users = (await as(admin).get('/audit-log?entity=user')).body.data;
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((e: any) => e.entity === 'user')).toBe(true);
    const revoked = (await as(admin).get('/audit-log?action=revoked')).body.data;
    expect(revoked.length).toBeGreaterThan(0);
    expect(revoked.every((e: any) => e.action === 'revoked' && e.entity === 'api_key')).toBe(true);
    expect((await as(admin).get(`/audit-log?keyId=${adminId}`)).body.data.every((e: any) => e.keyId === adminId)).toBe(true);
    expectValidation(await as(admin).get('/audit-log?entity=plane'), /entity/);
    expectValidation(await as(admin).get('/audit-log?limit=0'), /limit/);
    expectValidation(await as(admin).get('/audit-log?cursor=nonsense'), '/query/cursor');
  });

  it('records the integration and alert settings saved: what changed, secrets only as marks; nothing for a refusal or no change', async () => {
    const settingsLog = async () => (await as(admin).get('/audit-log?entity=settings&limit=500')).body.data as any[];
    const before = (await settingsLog()).length;
    const TOKEN = 'f'.repeat(32);
    const sms = { provider: 'twilio', accountSid: 'AC' + 'a'.repeat(32), from: '+61412345678' };
    expect((await env.json('PUT', '/api/v1/settings/integrations', { key: admin, body: { sms: { ...sms, authToken: TOKEN } } })).status).toBe(200);
    let log = await settingsLog();
    expect(log).toHaveLength(before + 1);
    expect(log[0]).toMatchObject({ entity: 'settings', entityId: 'integrations', action: 'updated', keyId: adminId, channel: 'rest' });
    const firstBefore = log[0].changes.sms.before; // another test of this file may have saved SMS settings first
    expect(log[0].changes.sms.after).toEqual({ ...sms, authToken: firstBefore?.accountSid === sms.accountSid ? expect.stringMatching(/secret/) : '[new secret]' });
    // the same again (the token left out, kept): no change, no entry; a new sending number and token: both recorded
    expect((await env.json('PUT', '/api/v1/settings/integrations', { key: admin, body: { sms } })).status).toBe(200);
    expect(await settingsLog()).toHaveLength(before + 1);
    const gql = await env.gql(`mutation { putIntegrationSettings(input: {sms: {provider: "twilio", accountSid: "${sms.accountSid}", from: "+61400000000", authToken: "${'e'.repeat(32)}"}}) { sms { from } } }`, undefined, admin);
    expect(gql.body.errors).toBeUndefined();
    log = await settingsLog();
    expect(log[0]).toMatchObject({ entityId: 'integrations', channel: 'graphql', changes: { sms: { before: { ...sms, authToken: '[secret]' }, after: { ...sms, from: '+61400000000', authToken: '[new secret]' } } } });
    // a refusal changes nothing and records nothing
    expectValidation(await env.json('PUT', '/api/v1/settings/alerts', { key: admin, body: { dueSoonDays: -1, recipients: [] } }), '/dueSoonDays');
    expect(await settingsLog()).toHaveLength(before + 2);
    // alert settings: created, then a changed threshold and a webhook secret kept (the mark stays) or replaced
    const hook = { url: 'https://hooks.example.com/alerts', secret: 'whsec_' + Buffer.from('k'.repeat(32)).toString('base64') };
    const put = (body: unknown) => env.json('PUT', '/api/v1/settings/alerts', { key: admin, body });
    expect((await put({ dueSoonDays: 10, recipients: [{ email: 'ops@example.com' }, hook] })).status).toBe(200);
    log = await settingsLog();
    expect(log[0]).toMatchObject({ entityId: 'alerts', changes: { dueSoonDays: { after: 10 }, recipients: { after: [{ email: 'ops@example.com' }, { url: hook.url, secret: expect.stringMatching(/secret\]$/) }] } } });
    expect((await put({ dueSoonDays: 12, recipients: [{ email: 'ops@example.com' }, { url: hook.url }] })).status).toBe(200);
    log = await settingsLog();
    expect(log[0]).toMatchObject({ entityId: 'alerts', action: 'updated', changes: { dueSoonDays: { before: 10, after: 12 } } });
    expect(Object.keys(log[0].changes), JSON.stringify(log[0].changes)).toEqual(['dueSoonDays']);
    const text = JSON.stringify(await settingsLog());
    for (const secret of [TOKEN, 'e'.repeat(32), hook.secret]) expect(text).not.toContain(secret);
  });

  it('never holds key material, and another company sees none of it', async () => {
    const { body } = await as(admin).post('/api-keys', { name: 'secret check' });
    const text = JSON.stringify((await as(admin).get('/audit-log?limit=500')).body);
    expect(text).not.toContain(body.key);
    expect(text).not.toContain(hashKey(body.key));
    expect(text).not.toContain(admin);
    const { key: globexAdmin } = await new ApiKeyService(env.database.prisma).create({ companyId: env.b.id, name: 'g', scope: 'admin' });
    const theirs = (await env.json('GET', '/api/v1/audit-log?limit=500', { key: globexAdmin })).body.data;
    expect(theirs.every((e: any) => !String(e.entityId).startsWith('acme') && e.keyId !== adminId)).toBe(true);
    // its own import (3 users, 2 aircraft, 1 key) and its admin key: none of acme's settings entries
    expect(theirs.map((e: any) => e.entity).sort()).toEqual(['aircraft', 'aircraft', 'api_key', 'api_key', 'user', 'user', 'user']);
    expect(theirs.filter((e: any) => e.entity !== 'api_key').every((e: any) => e.entityId.startsWith('globex') && e.channel === 'import')).toBe(true);
  });
});

describe('MCP', () => {
  async function connect(key: string): Promise<Client> {
    const c = new Client({ name: 'admin-test', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL('http://fleetops.test/mcp'), {
        fetch: (url, init) => env.app.fetch(new Request(url, init)),
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    return c;
  }
  const MANAGEMENT = ['createAircraft', 'updateAircraft', 'deleteAircraft', 'createUser', 'updateUser', 'listAuditLog'];
  const KEYS = ['listApiKeys', 'createApiKey', 'revokeApiKey'];

  it('an admin key gets the aircraft and user management tools, never key management; other keys neither', async () => {
    const c = await connect(admin);
    const names = (await c.listTools()).tools.map((t) => t.name);
    for (const n of MANAGEMENT) expect(names).toContain(n);
    for (const n of KEYS) expect(names).not.toContain(n);
    await c.close();
    const rw = await connect(env.a.key);
    const rwNames = (await rw.listTools()).tools.map((t) => t.name);
    for (const n of [...MANAGEMENT, ...KEYS]) expect(rwNames).not.toContain(n);
    expect(rwNames).toContain('listAircraft');
    // calling one anyway is the operation's 403
    const r: any = await rw.callTool({ name: 'createAircraft', arguments: { body: aircraftBody() } });
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.content[1].text)).toMatchObject({ status: 403, code: 'forbidden' });
    await expect(rw.callTool({ name: 'createApiKey', arguments: { body: { name: 'x' } } })).rejects.toThrow(/unknown tool/);
    await rw.close();
  });

  it('aircraft and users through tools: created, updated, refused (400, 409), audited with channel mcp', async () => {
    const c = await connect(admin);
    const call = (name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args }) as Promise<any>;
    const made = await call('createAircraft', { body: aircraftBody({ initialValues: { hobbs: 1 } }) });
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    const uid = made.structuredContent.uid;
    expect((await call('updateAircraft', { id: uid, body: { initialValues: { hobbs: 2.25 } } })).structuredContent).toEqual({ uid, status: 'updated' });
    expect((await call('getAircraft', { id: uid })).structuredContent.totals.hobbs).toBe(2.25);
    const bad = await call('updateAircraft', { id: uid, body: { engineCount: -3 } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[1].text)).toMatchObject({ status: 400, code: 'validation_error' });
    const dup = await call('createAircraft', { body: aircraftBody({ registration: 'VH-ACM' }) });
    expect(JSON.parse(dup.content[1].text)).toMatchObject({ status: 409 });
    expect((await call('createUser', { body: { uid: 'mcp-user', email: 'mcp@acme.test', displayName: 'M' } })).structuredContent).toEqual({ uid: 'mcp-user', status: 'created' });
    expect((await call('updateUser', { uid: 'mcp-user', body: { status: 'Inactive' } })).structuredContent.status).toBe('updated');
    expect((await call('deleteAircraft', { id: uid })).structuredContent.status).toBe('deleted');
    const log = (await call('listAuditLog', { entityId: uid })).structuredContent.data;
    expect(log.map((e: any) => [e.action, e.channel])).toEqual([
      ['deleted', 'mcp'],
      ['updated', 'mcp'],
      ['created', 'mcp'],
    ]);
    await c.close();
  });
});

describe('revocation in every process', () => {
  it('a key revoked through one server (or the CLI) answers 401 from another on the same database, on the very next request', async () => {
    // embedded: one process, whose caches the revoke drops at once. PostgreSQL: the other server is another process
    // (a fresh copy of the modules: caches of its own) on a second pool and listener that hears of key changes
    // 300 ms late, as a busy process would; the revoke answers only once every listening process has said it dropped
    // the key (src/auth/key-drops.ts), so even then its next request is a 401
    // (its DATABASE_URL names the connections itself, as an operator's may: the listener is still counted)
    const database = onPostgres ? await openDatabase({ databaseUrl: `${process.env.TEST_DATABASE_URL}?application_name=another-server` }) : env.database;
    let other: { fetch(r: Request): Promise<Response> | Response; close(): Promise<void> };
    if (database.listen) {
      const listen = database.listen.bind(database);
      const late: Database = { ...database, listen: (channel, onMessage, onState) => listen(channel, (p) => void setTimeout(() => onMessage(p), 300), onState) };
      vi.resetModules();
      const { createApp: elsewhere } = await import('../src/app.js');
      other = elsewhere({ database: late, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
      await (other as unknown as { ready: Promise<void> }).ready;
    } else other = (await createTestEnv({ database })).app;
    try {
      const cli = new ApiKeyService(env.database.prisma, { watchDrops: keyDropWatcher(env.database) });
      for (const via of ['api', 'cli'] as const) {
        const { body: made } = await as(admin).post('/api-keys', { name: `two servers, revoked by ${via}` });
        const viaOther = () => other.fetch(new Request(`http://fleetops.test/api/v1/aircraft`, { headers: { authorization: `Bearer ${made.key}` } }));
        expect((await viaOther()).status).toBe(200);
        expect((await viaOther()).status).toBe(200); // cached there
        if (via === 'api') expect((await as(admin).del(`/api-keys/${made.id}`)).status).toBe(200);
        else await cli.revoke(made.id);
        expect((await viaOther()).status, via).toBe(401);
      }
    } finally {
      await other.close();
      if (database !== env.database) await database.close();
    }
  });
});
