// REST contract of /api/v1/aircraft and /api/v1/users (docs/contract/api-v1.md §2.2, §2.12, §4.1, §4.4; docs/contract/gaps.md §2, §3):
// list and get bodies, field types, omitted optional fields, filters, tenant isolation and problem+json errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from './helpers.js';
import { expectProblem } from './assertions.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env?.close());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The fixture aircraft of a company (test/helpers.ts) as the contract presents them. */
function expectedAircraft(companyId: string, prefix: string) {
  const P = prefix.toUpperCase();
  return [
    {
      uid: `${prefix}-ac-1`,
      registration: `VH-${P.slice(0, 3)}`,
      type: 'B06',
      category: 'rotary-wing',
      manufacturer: 'Bell',
      model: '206B',
      engineType: 'turbine',
      engineCount: 1,
      status: 'active',
      companyId,
      maintenanceTrackingItems: {
        hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 },
        landings: { displayText: 'Landings', type: 'number', precision: 0 },
      },
      logTrackingItems: {
        fuelUplift: { displayText: 'Fuel uplift', type: 'number' },
        remarks: { displayText: 'Remarks', type: 'string' },
      },
      totals: { hobbs: 1200.5, landings: 3000 },
      initialValues: { hobbs: 1200.5, landings: 3000 },
    },
    {
      uid: `${prefix}-ac-2`,
      registration: `VH-${P.slice(0, 2)}Z`,
      type: 'C172',
      category: 'fixed-wing',
      engineType: 'piston',
      engineCount: 1,
      status: 'active',
      companyId,
      maintenanceTrackingItems: { tacho: { displayText: 'Tacho', type: 'number', precision: 2 } },
      logTrackingItems: {},
      totals: { tacho: 0 },
      initialValues: {},
    },
  ];
}

function expectedUsers(prefix: string) {
  return {
    owner: {
      uid: `${prefix}-owner`,
      email: `owner@${prefix}.test`,
      displayName: 'Olivia Owner',
      firstName: 'Olivia',
      lastName: 'Owner',
      status: 'Active',
      roles: ['owner', 'admin'],
      timezone: 'Australia/Sydney',
    },
    pilot: {
      uid: `${prefix}-pilot`,
      email: `pilot@${prefix}.test`,
      displayName: 'Pat Pilot',
      status: 'Active',
      roles: ['pilot'],
      phone: '+61400000000',
    },
    new: { uid: `${prefix}-new`, email: `new@${prefix}.test`, displayName: 'Nina New', status: 'Pending', roles: ['driver'] },
  };
}

/** createdAt/updatedAt are not contract fields; when present they must be ISO 8601 UTC. Returns the rest. */
function withoutTimestamps(o: Record<string, unknown>) {
  const { createdAt, updatedAt, ...rest } = o;
  for (const t of [createdAt, updatedAt]) if (t !== undefined) expect(t).toMatch(ISO_UTC);
  return rest;
}

const byUid = <T extends { uid: string }>(xs: T[]) => [...xs].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));


// Contract field types of Aircraft (docs/contract/api-v1.md §2.2): [field, typeof, required]
const AIRCRAFT_FIELDS: [string, 'string' | 'number' | 'object', boolean][] = [
  ['uid', 'string', true],
  ['registration', 'string', true],
  ['type', 'string', true],
  ['category', 'string', true],
  ['manufacturer', 'string', false],
  ['model', 'string', false],
  ['engineType', 'string', true],
  ['engineCount', 'number', true],
  ['status', 'string', true],
  ['companyId', 'string', true],
  ['maintenanceTrackingItems', 'object', true],
  ['logTrackingItems', 'object', true],
  ['totals', 'object', false],
  ['initialValues', 'object', false],
];

describe('GET /api/v1/aircraft', () => {
  it('200 {data, count} with every company aircraft and a matching count', async () => {
    const r = await env.json('GET', '/api/v1/aircraft');
    expect(r.status).toBe(200);
    expect(r.res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(Object.keys(r.body).sort()).toEqual(['count', 'data']);
    expect(Array.isArray(r.body.data)).toBe(true);
    expect(r.body.count).toBe(r.body.data.length);
    expect(r.body.count).toBe(2);
    expect(byUid(r.body.data.map(withoutTimestamps))).toEqual(byUid(expectedAircraft(env.a.id, 'acme')));
  });

  it('every contract field is present with the right type; optional absent fields are omitted, not null', async () => {
    const { body } = await env.json('GET', '/api/v1/aircraft');
    for (const a of body.data) {
      for (const [field, type, required] of AIRCRAFT_FIELDS) {
        if (required) expect(a, `${a.uid}.${field}`).toHaveProperty(field);
        if (field in a) {
          expect(a[field], `${a.uid}.${field} is not null`).not.toBeNull();
          expect(typeof a[field], `${a.uid}.${field}`).toBe(type);
        }
      }
      expect(Number.isInteger(a.engineCount)).toBe(true);
      for (const map of [a.maintenanceTrackingItems, a.logTrackingItems]) {
        expect(Array.isArray(map)).toBe(false);
        for (const meta of Object.values<any>(map)) {
          expect(typeof meta.displayText).toBe('string');
          expect(['number', 'string']).toContain(meta.type);
          if ('precision' in meta) expect(typeof meta.precision).toBe('number');
        }
      }
      for (const [k, v] of Object.entries(a)) expect(v, `${a.uid}.${k} is null`).not.toBeNull();
    }
    const ac2 = body.data.find((a: any) => a.uid === 'acme-ac-2');
    expect(ac2).not.toHaveProperty('manufacturer');
    expect(ac2).not.toHaveProperty('model');
  });

  it('totals start at initialValues, with 0 for maintenance items without an initial value; initialValues present', async () => {
    const { body } = await env.json('GET', '/api/v1/aircraft');
    const ac1 = body.data.find((a: any) => a.uid === 'acme-ac-1');
    const ac2 = body.data.find((a: any) => a.uid === 'acme-ac-2');
    expect(ac1.initialValues).toEqual({ hobbs: 1200.5, landings: 3000 });
    expect(ac1.totals).toEqual({ hobbs: 1200.5, landings: 3000 });
    expect(ac2.initialValues).toEqual({});
    expect(ac2.totals).toEqual({ tacho: 0 });
    // totals cover exactly the maintenance tracking items (log items do not accumulate)
    for (const a of body.data) expect(Object.keys(a.totals).sort()).toEqual(Object.keys(a.maintenanceTrackingItems).sort());
  });

  it('is sorted, and the order is stable across calls', async () => {
    const first = await env.json('GET', '/api/v1/aircraft');
    const second = await env.json('GET', '/api/v1/aircraft');
    const uids = first.body.data.map((a: any) => a.uid);
    expect(second.body.data.map((a: any) => a.uid)).toEqual(uids);
    expect(second.body).toEqual(first.body);
    // ordered by registration (VH-ACM before VH-ACZ)
    const regs = first.body.data.map((a: any) => a.registration);
    expect(regs).toEqual([...regs].sort());
    expect(uids).toEqual(['acme-ac-1', 'acme-ac-2']);
  });

  it("lists only the caller's company (each key sees its own aircraft)", async () => {
    const a = await env.json('GET', '/api/v1/aircraft');
    const b = await env.json('GET', '/api/v1/aircraft', { key: env.b.key });
    expect(a.body.data.every((x: any) => x.companyId === env.a.id)).toBe(true);
    expect(b.status).toBe(200);
    expect(b.body.count).toBe(2);
    expect(b.body.data.every((x: any) => x.companyId === env.b.id)).toBe(true);
    expect(byUid(b.body.data.map(withoutTimestamps))).toEqual(byUid(expectedAircraft(env.b.id, 'globex')));
  });
});

describe('GET /api/v1/aircraft/{id}', () => {
  it('200 with the exact aircraft', async () => {
    const [ac1, ac2] = expectedAircraft(env.a.id, 'acme');
    const r1 = await env.json('GET', '/api/v1/aircraft/acme-ac-1');
    expect(r1.status).toBe(200);
    expect(r1.res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(withoutTimestamps(r1.body)).toEqual(ac1);
    const r2 = await env.json('GET', '/api/v1/aircraft/acme-ac-2');
    expect(r2.status).toBe(200);
    expect(withoutTimestamps(r2.body)).toEqual(ac2);
    expect(r2.body).not.toHaveProperty('manufacturer');
  });

  it('the single aircraft equals its entry in the list', async () => {
    const list = await env.json('GET', '/api/v1/aircraft');
    for (const a of list.body.data) {
      const one = await env.json('GET', `/api/v1/aircraft/${encodeURIComponent(a.uid)}`);
      expect(one.body).toEqual(a);
    }
  });

  it('404 problem+json for an unknown id', async () => {
    const r = await env.json('GET', '/api/v1/aircraft/no-such-aircraft');
    expectProblem(r, 404, 'not_found');
  });

  it("404 (never 403) for the other company's aircraft, both ways", async () => {
    const aToB = await env.json('GET', '/api/v1/aircraft/globex-ac-1');
    expectProblem(aToB, 404, 'not_found');
    expect(JSON.stringify(aToB.body)).not.toContain('Bell');
    const bToA = await env.json('GET', '/api/v1/aircraft/acme-ac-1', { key: env.b.key });
    expectProblem(bToA, 404, 'not_found');
    // and each company still sees its own
    expect((await env.json('GET', '/api/v1/aircraft/globex-ac-1', { key: env.b.key })).status).toBe(200);
  });
});

describe('aircraft are managed by admin keys only (docs/contract/gaps.md §12); unknown paths', () => {
  it('POST /api/v1/aircraft with a read_write key is 403 problem+json, whatever the body, and creates nothing', async () => {
    for (const body of [{ uid: 'x', registration: 'VH-XXX' }, { registration: 'VH-XXX', type: 'T', category: 'c', engineType: 'e', engineCount: 1 }]) {
      const r = await env.json('POST', '/api/v1/aircraft', { body });
      expectProblem(r, 403, 'forbidden');
      expect(r.body.detail).toMatch(/needs an admin key/);
    }
    expect((await env.json('GET', '/api/v1/aircraft')).body.count).toBe(2);
  });

  it('PATCH and DELETE /api/v1/aircraft/{id} with a read_write key are 403 and change nothing', async () => {
    for (const method of ['PATCH', 'DELETE']) {
      const r = await env.json(method, '/api/v1/aircraft/acme-ac-1', method === 'PATCH' ? { body: { status: 'x' } } : {});
      expectProblem(r, 403, 'forbidden');
    }
    const after = await env.json('GET', '/api/v1/aircraft/acme-ac-1');
    expect(after.body.status).toBe('active');
  });

  it('an unknown path under /api/v1 is 404 problem+json', async () => {
    expectProblem(await env.json('GET', '/api/v1/no-such-resource'), 404, 'not_found');
    expectProblem(await env.json('GET', '/api/v1/aircraft/acme-ac-1/nothing-here'), 404, 'not_found');
  });
});

describe('GET /api/v1/users', () => {
  it('200 {data, count}: every user of the company, with optional fields omitted when absent', async () => {
    const u = expectedUsers('acme');
    const r = await env.json('GET', '/api/v1/users');
    expect(r.status).toBe(200);
    expect(r.res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(Object.keys(r.body).sort()).toEqual(['count', 'data']);
    expect(r.body.count).toBe(r.body.data.length);
    expect(byUid(r.body.data)).toEqual(byUid([u.owner, u.pilot, u.new]));
    for (const user of r.body.data) {
      for (const [k, v] of Object.entries(user)) expect(v, `${user.uid}.${k} is null`).not.toBeNull();
      expect(Array.isArray(user.roles)).toBe(true);
    }
  });

  it('the order is stable across calls', async () => {
    const a = await env.json('GET', '/api/v1/users');
    const b = await env.json('GET', '/api/v1/users');
    expect(b.body).toEqual(a.body);
  });

  it('?status=Pending returns only pending users', async () => {
    const r = await env.json('GET', '/api/v1/users?status=Pending');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [expectedUsers('acme').new], count: 1 });
  });

  it('?status=Active returns only active users', async () => {
    const r = await env.json('GET', '/api/v1/users?status=Active');
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(2);
    expect(r.body.data.map((u: any) => u.uid).sort()).toEqual(['acme-owner', 'acme-pilot']);
  });

  it('?role=pilot returns only users with that role', async () => {
    const r = await env.json('GET', '/api/v1/users?role=pilot');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [expectedUsers('acme').pilot], count: 1 });
    // a role among several roles matches too
    const admins = await env.json('GET', '/api/v1/users?role=admin');
    expect(admins.body.data.map((u: any) => u.uid)).toEqual(['acme-owner']);
  });

  it('filters combine; no match is an empty list', async () => {
    const r = await env.json('GET', '/api/v1/users?status=Pending&role=pilot');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], count: 0 });
    const r2 = await env.json('GET', '/api/v1/users?status=Active&role=owner');
    expect(r2.body.data.map((u: any) => u.uid)).toEqual(['acme-owner']);
  });

  it('?status=Bogus is 400 problem+json with an errors entry for the parameter', async () => {
    const r = await env.json('GET', '/api/v1/users?status=Bogus');
    expectProblem(r, 400, 'validation_error');
    expect(Array.isArray(r.body.errors)).toBe(true);
    const entry = r.body.errors.find((e: any) => /status/.test(e.path));
    expect(entry, JSON.stringify(r.body.errors)).toBeDefined();
    expect(typeof entry.message).toBe('string');
  });

  it("lists only the caller's company", async () => {
    const r = await env.json('GET', '/api/v1/users', { key: env.b.key });
    expect(r.status).toBe(200);
    const u = expectedUsers('globex');
    expect(byUid(r.body.data)).toEqual(byUid([u.owner, u.pilot, u.new]));
  });
});

describe('GET /api/v1/users/{uid}', () => {
  it('200 with the exact user', async () => {
    const u = expectedUsers('acme');
    for (const expected of [u.owner, u.pilot, u.new]) {
      const r = await env.json('GET', `/api/v1/users/${expected.uid}`);
      expect(r.status).toBe(200);
      expect(r.res.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(r.body).toEqual(expected);
    }
  });

  it('404 problem+json for an unknown uid', async () => {
    expectProblem(await env.json('GET', '/api/v1/users/no-such-user'), 404, 'not_found');
  });

  it("404 for the other company's user, both ways", async () => {
    const aToB = await env.json('GET', '/api/v1/users/globex-owner');
    expectProblem(aToB, 404, 'not_found');
    expect(JSON.stringify(aToB.body)).not.toContain('owner@globex.test');
    expectProblem(await env.json('GET', '/api/v1/users/acme-pilot', { key: env.b.key }), 404, 'not_found');
  });

  it('users are managed by admin keys only: POST /api/v1/users with a read_write key is 403; DELETE is 405 (no delete)', async () => {
    const r = await env.json('POST', '/api/v1/users', { body: { uid: 'x', email: 'x@x.test' } });
    expectProblem(r, 403, 'forbidden');
    const d = await env.json('DELETE', '/api/v1/users/acme-new');
    expectProblem(d, 405, 'method_not_allowed');
    expect(d.res.headers.get('allow')).toMatch(/\bGET\b/);
  });
});
