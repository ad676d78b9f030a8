// Components over REST (docs/contract/api-v1.md §2.15, §3; docs/contract/gaps.md §2 problem+json, §3 "Components"): every route, every 4xx, the tree
// (ancestorUids, rootAsset, childCount when whole subtrees move), soft delete/restore, tenant isolation, bodies
// validated against the OpenAPI document, and the GraphQL tree fields.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../src/lib/clock.js';
import { createTestEnv, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

const API = '/api/v1';
let env: TestEnv;
let schemaOf: (name: string) => ValidateFunction;

beforeAll(async () => {
  env = await createTestEnv();
  const doc = (await env.json('GET', `${API}/openapi.json`, { key: null })).body;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // the document's formats, checked for real (as test/openapi-docs.test.ts does)
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s) });
  ajv.addSchema({ $id: 'urn:fleetops:openapi', components: { schemas: doc.components.schemas } });
  schemaOf = (name) => ajv.compile({ $ref: `urn:fleetops:openapi#/components/schemas/${name}` });
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;

const get = (path: string, key?: string) => env.json('GET', `${API}${path}`, { key });
const post = (path: string, body?: unknown, key?: string) => env.json('POST', `${API}${path}`, { body, key });
const patch = (id: string, body: unknown, key?: string) => env.json('PATCH', `${API}/components/${id}`, { body, key });
const del = (id: string, key?: string) => env.json('DELETE', `${API}/components/${id}`, { key });
const install = (id: string, body: unknown, key?: string) => post(`/components/${id}/install`, body, key);
const remove = (id: string, body?: unknown, key?: string) => post(`/components/${id}/remove`, body, key);

let serial = 0;
function part(over: Body = {}): Body {
  serial += 1;
  return { name: 'Engine', type: 'Engine', partNumber: 'PN-250-C20', serialNumber: `SN-${serial}`, ...over };
}

async function create(body: Body = part(), key?: string): Promise<string> {
  const r = await post('/components', body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toEqual({ uid: expect.stringMatching(/^cmp_/), status: 'created' });
  expect(schemaOf('WriteResult')(r.body)).toBe(true);
  return r.body.uid;
}

async function component(id: string, key?: string): Promise<any> {
  const r = await get(`/components/${id}`, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const validate = schemaOf('Component');
  expect(validate(r.body), JSON.stringify(validate.errors)).toBe(true);
  return r.body;
}

/** Everything a company's components are (including deleted ones), to show that a rejected request changed nothing. */
async function snapshot(key?: string): Promise<unknown> {
  const r = await get('/components?includeDeleted=true', key);
  expect(r.status).toBe(200);
  return r.body;
}

function expectProblem(r: { status: number; body: any; res: Response }, status: number, path?: string | RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
  if (path !== undefined) {
    const paths = (r.body.errors ?? []).map((e: any) => e.path);
    if (typeof path === 'string') expect(paths, JSON.stringify(r.body)).toContain(path);
    else expect(paths.some((p: string) => path.test(p)), JSON.stringify(r.body)).toBe(true);
  }
}

/** Runs a request that must be refused and checks that no component of either company changed. */
async function refused(fn: () => Promise<{ status: number; body: any; res: Response }>, status: number, path?: string | RegExp) {
  const before = [await snapshot(), await snapshot(env.b.key)];
  const r = await fn();
  expectProblem(r, status, path);
  expect([await snapshot(), await snapshot(env.b.key)]).toEqual(before);
  return r;
}

describe('POST /components', () => {
  it('creates with defaults: inStores, active, no parent, no counters; optional empty fields are omitted', async () => {
    const id = await create(part({ name: 'Starter generator', type: 'Starter', partNumber: 'SG-1' }));
    const c = await component(id);
    expect(c).toMatchObject({
      uid: id,
      companyId: env.a.id,
      name: 'Starter generator',
      type: 'Starter',
      partNumber: 'SG-1',
      status: 'active',
      state: 'inStores',
      ancestorUids: [],
      childCount: 0,
      canHaveChildren: true,
      counters: [],
      totals: {},
    });
    for (const k of ['location', 'parent', 'rootAsset', 'installedAt', 'manufacturer', 'parentType', 'grn']) expect(c).not.toHaveProperty(k);
  });

  it('keeps every optional field', async () => {
    const id = await create(
      part({
        manufacturer: 'Rolls-Royce',
        description: 'Turboshaft',
        alternatePartNumbers: ['23065818', '23070000'],
        state: 'inRepair',
        location: 'Vendor: Heli Engines Pty',
        condition: 'Serviceable',
        grn: 'GRN-1001',
        notes: 'ex VH-XYZ',
        canHaveChildren: false,
        parentType: 'aircraft',
      }),
    );
    expect(await component(id)).toMatchObject({
      manufacturer: 'Rolls-Royce',
      description: 'Turboshaft',
      alternatePartNumbers: ['23065818', '23070000'],
      state: 'inRepair',
      location: 'Vendor: Heli Engines Pty',
      condition: 'Serviceable',
      grn: 'GRN-1001',
      notes: 'ex VH-XYZ',
      canHaveChildren: false,
      parentType: 'aircraft',
    });
  });

  it('derives camelCase counter keys from displayText, unique within the component; defaults basis, value and precision', async () => {
    const id = await create(
      part({
        counters: [
          { displayText: 'Hours since new', unit: 'hours', initialValue: 1520.4 },
          { displayText: 'TSO (hrs)', unit: 'hours', basis: 'sinceEvent', initialValue: 12.25, precision: 2 },
          { displayText: 'Hours since new', unit: 'hours' },
          { displayText: 'Starts', unit: 'cycles', initialValue: 830 },
          { displayText: '100 hourly', unit: 'hours', basis: 'sinceEvent' },
        ],
      }),
    );
    const c = await component(id);
    expect(c.counters).toEqual([
      { key: 'hoursSinceNew', displayText: 'Hours since new', unit: 'hours', precision: 1, basis: 'sinceNew', binding: null },
      { key: 'tsoHrs', displayText: 'TSO (hrs)', unit: 'hours', precision: 2, basis: 'sinceEvent', binding: null },
      { key: 'hoursSinceNew2', displayText: 'Hours since new', unit: 'hours', precision: 1, basis: 'sinceNew', binding: null },
      { key: 'starts', displayText: 'Starts', unit: 'cycles', precision: 0, basis: 'sinceNew', binding: null },
      { key: 'counter100Hourly', displayText: '100 hourly', unit: 'hours', precision: 1, basis: 'sinceEvent', binding: null },
    ]);
    expect(c.totals).toEqual({ hoursSinceNew: 1520.4, tsoHrs: 12.25, hoursSinceNew2: 0, starts: 830, counter100Hourly: 0 });
  });

  it.each([
    ['name', (b: Body) => delete b.name, '/name'],
    ['type', (b: Body) => delete b.type, '/type'],
    ['partNumber', (b: Body) => delete b.partNumber, '/partNumber'],
    ['serialNumber (a part without one is a stock item)', (b: Body) => delete b.serialNumber, '/serialNumber'],
    ['an empty name', (b: Body) => (b.name = '  '), '/name'],
    ['a number as name', (b: Body) => (b.name = 42), '/name'],
    ['state installed (install is the route)', (b: Body) => (b.state = 'installed'), '/state'],
    ['an unknown state', (b: Body) => (b.state = 'lost'), '/state'],
    ['uid', (b: Body) => (b.uid = 'cmp_mine'), '/uid'],
    ['companyId', (b: Body) => (b.companyId = 'x'), '/companyId'],
    ['status', (b: Body) => (b.status = 'active'), '/status'],
    ['parent', (b: Body) => (b.parent = { type: 'aircraft', uid: 'acme-ac-1' }), '/parent'],
    ['parentUid', (b: Body) => (b.parentUid = 'acme-ac-1'), '/parentUid'],
    ['ancestorUids', (b: Body) => (b.ancestorUids = []), '/ancestorUids'],
    ['childCount', (b: Body) => (b.childCount = 0), '/childCount'],
    ['createdAt', (b: Body) => (b.createdAt = '2026-01-01T00:00:00Z'), '/createdAt'],
    ['updatedAt', (b: Body) => (b.updatedAt = '2026-01-01T00:00:00Z'), '/updatedAt'],
    ['rootAsset', (b: Body) => (b.rootAsset = { type: 'aircraft', uid: 'acme-ac-1' }), '/rootAsset'],
    ['installedAt', (b: Body) => (b.installedAt = '2026-01-01T00:00:00Z'), '/installedAt'],
    ['an unknown field', (b: Body) => (b.colour = 'red'), '/colour'],
    ['canHaveChildren as a string', (b: Body) => (b.canHaveChildren = 'yes'), '/canHaveChildren'],
    ['alternatePartNumbers with a number', (b: Body) => (b.alternatePartNumbers = ['A-1', 7]), '/alternatePartNumbers/1'],
    ['a counter without unit', (b: Body) => (b.counters = [{ displayText: 'Hours' }]), '/counters/0/unit'],
    ['a counter without displayText', (b: Body) => (b.counters = [{ unit: 'hours' }]), '/counters/0/displayText'],
    ['a counter with an unknown unit', (b: Body) => (b.counters = [{ displayText: 'Hours', unit: 'minutes' }]), '/counters/0/unit'],
    ['a counter with an unknown basis', (b: Body) => (b.counters = [{ displayText: 'Hours', unit: 'hours', basis: 'sinceEver' }]), '/counters/0/basis'],
    ['a counter with a key', (b: Body) => (b.counters = [{ key: 'hrs', displayText: 'Hours', unit: 'hours' }]), '/counters/0/key'],
    ['a negative initialValue', (b: Body) => (b.counters = [{ displayText: 'Hours', unit: 'hours', initialValue: -1 }]), '/counters/0/initialValue'],
    ['a string initialValue', (b: Body) => (b.counters = [{ displayText: 'Hours', unit: 'hours', initialValue: '5' }]), '/counters/0/initialValue'],
    ['a precision over 10', (b: Body) => (b.counters = [{ displayText: 'Hours', unit: 'hours', precision: 11 }]), '/counters/0/precision'],
    ['a counter value', (b: Body) => (b.counters = [{ displayText: 'Hours', unit: 'hours', value: 5 }]), '/counters/0/value'],
  ])('400 for %s, and nothing is created', async (_what, mutate, path) => {
    const body = part();
    mutate(body);
    await refused(() => post('/components', body), 400, path);
  });

  it('400 for malformed JSON and for a body that is not an object; 415 for a body that is not JSON', async () => {
    await refused(() => env.json('POST', `${API}/components`, { body: '{"name": ' }), 400);
    await refused(() => post('/components', [part()]), 400);
    await refused(() => env.json('POST', `${API}/components`, { body: 'name=x', headers: { 'content-type': 'text/plain' } }), 415);
  });
});

describe('GET /components and /components/{id}', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    const pn = `PN-LIST-${Date.now()}`;
    ids = {
      blade: await create(part({ name: 'Blade', type: 'Rotor blade', partNumber: pn, serialNumber: 'LB-1' })),
      blade2: await create(part({ name: 'Blade', type: 'Rotor blade', partNumber: pn, serialNumber: 'LB-2', state: 'inQuarantine' })),
      box: await create(part({ name: 'Gearbox', type: 'Gearbox', partNumber: `${pn}-GB`, serialNumber: 'LG-1' })),
    };
  });

  it('filters by state, type, partNumber and serialNumber; answers {data, count}', async () => {
    const r = await get('/components?type=Rotor%20blade');
    expect(r.status).toBe(200);
    expect(schemaOf('ComponentList')(r.body)).toBe(true);
    expect(r.body.count).toBe(r.body.data.length);
    expect(r.body.data.map((c: any) => c.uid).sort()).toEqual([ids.blade, ids.blade2].sort());

    const q = await get('/components?state=inQuarantine&type=Rotor%20blade');
    expect(q.body.data.map((c: any) => c.uid)).toEqual([ids.blade2]);
    const s = await get('/components?serialNumber=LB-1');
    expect(s.body.data.map((c: any) => c.uid)).toEqual([ids.blade]);
    const p = await get(`/components?partNumber=${encodeURIComponent((await component(ids.box)).partNumber)}`);
    expect(p.body.data.map((c: any) => c.uid)).toEqual([ids.box]);
  });

  it('400 for an unknown state or an empty filter value', async () => {
    expectProblem(await get('/components?state=lost'), 400, '/query/state');
    expectProblem(await get('/components?type='), 400, '/query/type');
    expectProblem(await get('/components?includeDeleted=yes'), 400, '/query/includeDeleted');
  });

  it('404 for an unknown uid', async () => {
    expectProblem(await get('/components/cmp_nope'), 404);
  });
});

describe('PATCH /components/{id}', () => {
  it('updates fields (null clears an optional one) and answers no_changes when nothing changes', async () => {
    const id = await create(part({ notes: 'old', location: 'Shelf A1' }));
    const r = await patch(id, { name: 'Engine #1', notes: null, location: 'Shelf B2', alternatePartNumbers: ['ALT-9'] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid: id, status: 'updated' });
    const c = await component(id);
    expect(c).toMatchObject({ name: 'Engine #1', location: 'Shelf B2', alternatePartNumbers: ['ALT-9'] });
    expect(c).not.toHaveProperty('notes');
    expect((await patch(id, { name: 'Engine #1', location: 'Shelf B2' })).body).toEqual({ uid: id, status: 'no_changes' });
    expect((await patch(id, {})).body).toEqual({ uid: id, status: 'no_changes' });
    expect((await patch(id, { state: 'onLoan' })).body).toEqual({ uid: id, status: 'updated' });
    expect((await component(id)).state).toBe('onLoan');
  });

  it('changes displayText/unit/precision of a counter by key and adds counters without a key; never values', async () => {
    const id = await create(part({ counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 10 }] }));
    const r = await patch(id, {
      counters: [
        { key: 'hours', displayText: 'Engine hours', precision: 2 },
        { displayText: 'Hours', unit: 'hours', basis: 'sinceEvent', initialValue: 3 },
      ],
    });
    expect(r.body).toEqual({ uid: id, status: 'updated' });
    const c = await component(id);
    expect(c.counters).toEqual([
      { key: 'hours', displayText: 'Engine hours', unit: 'hours', precision: 2, basis: 'sinceNew', binding: null },
      { key: 'hours2', displayText: 'Hours', unit: 'hours', precision: 1, basis: 'sinceEvent', binding: null },
    ]);
    expect(c.totals).toEqual({ hours: 10, hours2: 3 });
    expect((await patch(id, { counters: [{ key: 'hours', displayText: 'Engine hours' }] })).body.status).toBe('no_changes');
  });

  it.each([
    ['a null name', { name: null }, '/name'],
    ['parentUid (install/remove only)', { parentUid: 'acme-ac-1' }, '/parentUid'],
    ['parent', { parent: { type: 'aircraft', uid: 'acme-ac-1' } }, '/parent'],
    ['status', { status: 'deleted' }, '/status'],
    ['uid', { uid: 'cmp_x' }, '/uid'],
    ['state installed', { state: 'installed' }, '/state'],
    ['an unknown counter key', { counters: [{ key: 'nope', displayText: 'X' }] }, '/counters/0/key'],
    ['a value change of an existing counter', { counters: [{ key: 'hours', initialValue: 99 }] }, '/counters/0/initialValue'],
    ['a basis change', { counters: [{ key: 'hours', basis: 'sinceEvent' }] }, '/counters/0/basis'],
    ['a new counter without unit', { counters: [{ displayText: 'Cycles' }] }, '/counters/0/unit'],
    ['the same counter twice', { counters: [{ key: 'hours', precision: 1 }, { key: 'hours', precision: 2 }] }, '/counters/1/key'],
  ])('400 for %s, and nothing changes', async (_what, body, path) => {
    const id = await create(part({ counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 10 }] }));
    await refused(() => patch(id, body), 400, path);
  });

  it('404 for an unknown component', async () => {
    await refused(() => patch('cmp_nope', { name: 'x' }), 404);
  });

  it('409 for a state change or a location while installed, and for canHaveChildren false with children', async () => {
    const id = await create(part());
    expect((await install(id, { parentType: 'aircraft', parentUid: 'acme-ac-2' })).status).toBe(200);
    await refused(() => patch(id, { state: 'inStores' }), 409);
    await refused(() => patch(id, { location: 'Shelf 1' }), 409);
    // sending the current state back is no change
    expect((await patch(id, { state: 'installed', notes: 'fitted' })).body.status).toBe('updated');

    const child = await create(part({ name: 'Module' }));
    expect((await install(child, { parentType: 'component', parentUid: id })).status).toBe(200);
    await refused(() => patch(id, { canHaveChildren: false }), 409);
  });
});

describe('DELETE /components/{id} and POST /components/{id}/restore', () => {
  it('soft-deletes (hidden from lists, still readable) and restores', async () => {
    const id = await create(part({ serialNumber: 'DEL-1' }));
    expect((await del(id)).body).toEqual({ uid: id, status: 'deleted' });
    expect((await get('/components?serialNumber=DEL-1')).body.data).toEqual([]);
    expect((await get('/components?serialNumber=DEL-1&includeDeleted=true')).body.data.map((c: any) => c.uid)).toEqual([id]);
    expect((await component(id)).status).toBe('deleted');
    await refused(() => del(id), 404);
    await refused(() => install(id, { parentType: 'aircraft', parentUid: 'acme-ac-1' }), 409);

    const r = await post(`/components/${id}/restore`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid: id, status: 'restored' });
    expect((await component(id)).status).toBe('active');
    expect((await get('/components?serialNumber=DEL-1')).body.data.map((c: any) => c.uid)).toEqual([id]);
  });

  it('409 for restoring a component that is not deleted', async () => {
    const id = await create(part());
    await refused(() => post(`/components/${id}/restore`), 409);
  });

  it('409 while installed and while it has children', async () => {
    const engine = await create(part());
    const module = await create(part({ name: 'Module' }));
    expect((await install(module, { parentType: 'component', parentUid: engine })).status).toBe(200);
    await refused(() => del(module), 409);
    await refused(() => del(engine), 409);
    expect((await remove(module)).status).toBe(200);
    expect((await del(engine)).body.status).toBe('deleted');
  });

  it('a vehicle with a component fitted cannot be deleted (409, as an aircraft); once it is removed, it can', async () => {
    const vehicle = (await post('/vehicles', { make: 'Toyota', model: 'Coaster', registration: 'DEL-V1' })).body.uid as string;
    const pump = await create(part({ name: 'Pump' }));
    const seal = await create(part({ name: 'Seal' }));
    expect((await install(pump, { parentType: 'vehicle', parentUid: vehicle })).status).toBe(200);
    expect((await install(seal, { parentType: 'component', parentUid: pump })).status).toBe(200);
    const refusedDelete = await refused(() => env.json('DELETE', `/api/v1/vehicles/${vehicle}`), 409);
    expect(refusedDelete.body.detail).toBe(`vehicle ${vehicle} has 2 installed components; remove them before deleting it`);
    expect((await remove(pump)).status).toBe(200);
    expect((await env.json('DELETE', `/api/v1/vehicles/${vehicle}`)).body).toEqual({ uid: vehicle, status: 'deleted' });
  });

  it('404 for unknown components', async () => {
    await refused(() => del('cmp_nope'), 404);
    await refused(() => post('/components/cmp_nope/restore'), 404);
  });
});

describe('POST /components/{id}/install and /remove: the tree', () => {
  it('installs on an aircraft: parent, rootAsset, ancestorUids, installedAt; location cleared', async () => {
    const id = await create(part({ location: 'Shelf C3' }));
    const r = await install(id, { parentType: 'aircraft', parentUid: 'acme-ac-1' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid: id, status: 'installed' });
    const c = await component(id);
    expect(c).toMatchObject({
      state: 'installed',
      parent: { type: 'aircraft', uid: 'acme-ac-1', name: 'VH-ACM' },
      rootAsset: { type: 'aircraft', uid: 'acme-ac-1', name: 'VH-ACM' },
      ancestorUids: ['acme-ac-1'],
    });
    expect(c.installedAt).toBe(now().toISOString()); // the service's clock, which the test fixed
    expect(c).not.toHaveProperty('location');
    const list = await get('/components?parentUid=acme-ac-1');
    expect(list.body.data.map((x: any) => x.uid)).toContain(id);
    expect((await get('/components?rootAssetUid=acme-ac-1')).body.data.map((x: any) => x.uid)).toContain(id);
  });

  it('installs on a vehicle', async () => {
    const id = await create(part({ name: 'Alternator' }));
    expect((await install(id, { parentType: 'vehicle', parentUid: 'acme-v-1' })).status).toBe(200);
    expect(await component(id)).toMatchObject({
      parent: { type: 'vehicle', uid: 'acme-v-1', name: 'ACME123' },
      rootAsset: { type: 'vehicle', uid: 'acme-v-1', name: 'ACME123' },
      ancestorUids: ['acme-v-1'],
    });
  });

  it('moves whole subtrees: ancestorUids, rootAsset and childCount stay exact', async () => {
    const engine = await create(part({ name: 'Engine' }));
    const module = await create(part({ name: 'Compressor module' }));
    const blade = await create(part({ name: 'Impeller' }));
    // build the subassembly in stores
    expect((await install(module, { parentType: 'component', parentUid: engine })).status).toBe(200);
    expect((await install(blade, { parentType: 'component', parentUid: module })).status).toBe(200);
    expect(await component(engine)).toMatchObject({ childCount: 1, ancestorUids: [], state: 'inStores' });
    expect(await component(module)).toMatchObject({ childCount: 1, ancestorUids: [engine], parent: { type: 'component', uid: engine, name: 'Engine' } });
    expect(await component(blade)).toMatchObject({ childCount: 0, ancestorUids: [engine, module], state: 'installed' });
    expect(await component(blade)).not.toHaveProperty('rootAsset');

    // fit the engine: the subtree follows
    expect((await install(engine, { parentType: 'aircraft', parentUid: 'acme-ac-2' })).status).toBe(200);
    const ac2 = { type: 'aircraft', uid: 'acme-ac-2', name: 'VH-ACZ' };
    expect(await component(engine)).toMatchObject({ ancestorUids: ['acme-ac-2'], rootAsset: ac2 });
    expect(await component(module)).toMatchObject({ ancestorUids: ['acme-ac-2', engine], rootAsset: ac2 });
    expect(await component(blade)).toMatchObject({ ancestorUids: ['acme-ac-2', engine, module], rootAsset: ac2 });
    const under = (await get('/components?rootAssetUid=acme-ac-2')).body.data.map((x: any) => x.uid);
    expect(under).toEqual(expect.arrayContaining([engine, module, blade]));

    // take the engine off: the subtree stays together, off the aircraft
    expect((await remove(engine, { state: 'inRepair', location: 'Vendor: Heli Engines', condition: 'Unserviceable' })).body).toEqual({
      uid: engine,
      status: 'removed',
    });
    const e = await component(engine);
    expect(e).toMatchObject({ state: 'inRepair', location: 'Vendor: Heli Engines', condition: 'Unserviceable', ancestorUids: [], childCount: 1 });
    for (const k of ['parent', 'rootAsset', 'installedAt']) expect(e).not.toHaveProperty(k);
    expect(await component(module)).toMatchObject({ ancestorUids: [engine], state: 'installed' });
    expect(await component(blade)).toMatchObject({ ancestorUids: [engine, module] });
    expect(await component(blade)).not.toHaveProperty('rootAsset');

    // onto a vehicle
    expect((await install(engine, { parentType: 'vehicle', parentUid: 'acme-v-1' })).status).toBe(200);
    expect(await component(blade)).toMatchObject({ ancestorUids: ['acme-v-1', engine, module], rootAsset: { type: 'vehicle', uid: 'acme-v-1' } });

    // the module off the engine: childCount down, the blade comes along
    expect((await remove(module)).status).toBe(200);
    expect(await component(engine)).toMatchObject({ childCount: 0 });
    expect(await component(module)).toMatchObject({ state: 'inStores', ancestorUids: [], childCount: 1 });
    expect(await component(blade)).toMatchObject({ ancestorUids: [module] });
    expect(await component(blade)).not.toHaveProperty('rootAsset');

    // and the module under another installed component: 3 levels below the aircraft
    const gearbox = await create(part({ name: 'Gearbox' }));
    expect((await install(gearbox, { parentType: 'aircraft', parentUid: 'acme-ac-1' })).status).toBe(200);
    expect((await install(module, { parentType: 'component', parentUid: gearbox })).status).toBe(200);
    expect(await component(gearbox)).toMatchObject({ childCount: 1 });
    expect(await component(blade)).toMatchObject({ ancestorUids: ['acme-ac-1', gearbox, module], rootAsset: { type: 'aircraft', uid: 'acme-ac-1', name: 'VH-ACM' } });
    expect((await get(`/components?parentUid=${gearbox}`)).body.data.map((x: any) => x.uid)).toEqual([module]);
  });

  it('409 when already installed', async () => {
    const id = await create(part());
    expect((await install(id, { parentType: 'aircraft', parentUid: 'acme-ac-1' })).status).toBe(200);
    await refused(() => install(id, { parentType: 'aircraft', parentUid: 'acme-ac-2' }), 409);
  });

  it('409 for a cycle: under itself or under one of its descendants', async () => {
    const a = await create(part({ name: 'A' }));
    const b = await create(part({ name: 'B' }));
    const c = await create(part({ name: 'C' }));
    expect((await install(b, { parentType: 'component', parentUid: a })).status).toBe(200);
    expect((await install(c, { parentType: 'component', parentUid: b })).status).toBe(200);
    await refused(() => install(a, { parentType: 'component', parentUid: a }), 409);
    await refused(() => install(a, { parentType: 'component', parentUid: b }), 409);
    await refused(() => install(a, { parentType: 'component', parentUid: c }), 409);
  });

  it('409 under a component with canHaveChildren false', async () => {
    const leaf = await create(part({ name: 'Igniter', canHaveChildren: false }));
    const id = await create(part());
    await refused(() => install(id, { parentType: 'component', parentUid: leaf }), 409);
  });

  it.each([
    ['a missing parentType', { parentUid: 'acme-ac-1' }, '/parentType'],
    ['an unknown parentType', { parentType: 'boat', parentUid: 'acme-ac-1' }, '/parentType'],
    ['a missing parentUid', { parentType: 'aircraft' }, '/parentUid'],
    ['an unknown aircraft', { parentType: 'aircraft', parentUid: 'nope' }, '/parentUid'],
    ['another company\u2019s aircraft', { parentType: 'aircraft', parentUid: 'globex-ac-1' }, '/parentUid'],
    ['an unknown vehicle', { parentType: 'vehicle', parentUid: 'acme-ac-1' }, '/parentUid'],
    ['an unknown component', { parentType: 'component', parentUid: 'cmp_nope' }, '/parentUid'],
    ['an unknown counterKey', { parentType: 'aircraft', parentUid: 'acme-ac-1', mappings: [{ counterKey: 'nope', sourceKey: 'hobbs' }] }, '/mappings/0/counterKey'],
    ['a sourceKey that is not a source', { parentType: 'aircraft', parentUid: 'acme-ac-1', mappings: [{ counterKey: 'hours', sourceKey: 'fuelUplift' }] }, '/mappings/0/sourceKey'],
    ['a counter mapped twice', { parentType: 'aircraft', parentUid: 'acme-ac-1', mappings: [{ counterKey: 'hours', sourceKey: 'hobbs' }, { counterKey: 'hours', sourceKey: null }] }, '/mappings/1/counterKey'],
    ['a mapping without counterKey', { parentType: 'aircraft', parentUid: 'acme-ac-1', mappings: [{ sourceKey: 'hobbs' }] }, '/mappings/0/counterKey'],
    ['an unknown field', { parentType: 'aircraft', parentUid: 'acme-ac-1', at: 'now' }, '/at'],
  ])('400 for %s, and nothing changes', async (_what, body, path) => {
    const id = await create(part({ counters: [{ displayText: 'Hours', unit: 'hours' }] }));
    await refused(() => install(id, body), 400, path);
  });

  it('400 for a deleted parent component or vehicle; 404 for an unknown component; 415 without a JSON body', async () => {
    const parent = await create(part({ name: 'Deleted parent' }));
    expect((await del(parent)).status).toBe(200);
    const id = await create(part());
    await refused(() => install(id, { parentType: 'component', parentUid: parent }), 400, '/parentUid');
    const vehicle = await post('/vehicles', { make: 'Isuzu', model: 'NPR', registration: 'DEL-V1' });
    expect(vehicle.status, JSON.stringify(vehicle.body)).toBe(201);
    expect((await env.json('DELETE', `${API}/vehicles/${vehicle.body.uid}`)).status).toBe(200);
    await refused(() => install(id, { parentType: 'vehicle', parentUid: vehicle.body.uid }), 400, '/parentUid');
    expectProblem(await get(`/components/${id}/inheritable-sources?parentType=vehicle&parentUid=${vehicle.body.uid}`), 404);
    await refused(() => install('cmp_nope', { parentType: 'aircraft', parentUid: 'acme-ac-1' }), 404);
    await refused(() => env.json('POST', `${API}/components/${id}/install`), 415);
  });

  it('remove: the body may be left out (inStores); 409 when not installed; 400 for a bad body; 404 for unknown', async () => {
    const id = await create(part());
    await refused(() => remove(id), 409);
    expect((await install(id, { parentType: 'aircraft', parentUid: 'acme-ac-1' })).status).toBe(200);
    await refused(() => remove(id, { state: 'installed' }), 400, '/state');
    await refused(() => remove(id, { state: 'lost' }), 400, '/state');
    await refused(() => remove(id, { parentUid: 'x' }), 400, '/parentUid');
    await refused(() => remove(id, { location: 5 }), 400, '/location');
    await refused(() => env.json('POST', `${API}/components/${id}/remove`, { body: '{', headers: { 'content-type': 'application/json' } }), 400);
    const r = await env.json('POST', `${API}/components/${id}/remove`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid: id, status: 'removed' });
    expect((await component(id)).state).toBe('inStores');
    await refused(() => remove('cmp_nope'), 404);
    // an empty JSON body and {} are accepted as well
    expect((await install(id, { parentType: 'aircraft', parentUid: 'acme-ac-1' })).status).toBe(200);
    expect((await remove(id, {})).status).toBe(200);
  });
});

describe('concurrent writers', () => {
  it('parallel installs under one parent keep childCount exact; crossing installs never make a cycle', async () => {
    const parent = await create(part({ name: 'Busy parent' }));
    const kids = await Promise.all(Array.from({ length: 8 }, (_, i) => create(part({ name: `Kid ${i}` }))));
    const results = await Promise.all(kids.map((k) => install(k, { parentType: 'component', parentUid: parent })));
    expect(results.map((r) => r.status)).toEqual(kids.map(() => 200));
    expect((await component(parent)).childCount).toBe(8);
    const removed = await Promise.all(kids.slice(0, 5).map((k) => remove(k)));
    expect(removed.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await component(parent)).childCount).toBe(3);

    for (let round = 0; round < 4; round++) {
      const a = await create(part({ name: `X${round}` }));
      const b = await create(part({ name: `Y${round}` }));
      const [ra, rb] = await Promise.all([
        install(a, { parentType: 'component', parentUid: b }),
        install(b, { parentType: 'component', parentUid: a }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const [ca, cb] = [await component(a), await component(b)];
      expect(ca.ancestorUids.includes(a) || cb.ancestorUids.includes(b)).toBe(false);
      expect(ca.childCount + cb.childCount).toBe(1);
    }
  });
});

describe('GET /components/{id}/inheritable-sources', () => {
  it('lists an aircraft\u2019s number maintenance items with guessed units and current totals', async () => {
    const id = await create(part());
    const r = await get(`/components/${id}/inheritable-sources?parentType=aircraft&parentUid=acme-ac-1`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(schemaOf('InheritableSources')(r.body)).toBe(true);
    expect(r.body.parentName).toBe('VH-ACM');
    expect(r.body.sources).toEqual([
      { key: 'hobbs', displayText: 'Hobbs', unit: 'hours', precision: 1, basis: 'sinceNew', currentValue: expect.any(Number) },
      { key: 'landings', displayText: 'Landings', unit: 'landings', precision: 0, basis: 'sinceNew', currentValue: expect.any(Number) },
    ]);
  });

  it('lists a vehicle\u2019s odometer as distance', async () => {
    const id = await create(part());
    const r = await get(`/components/${id}/inheritable-sources?parentType=vehicle&parentUid=acme-v-1`);
    expect(r.body).toEqual({
      parentName: 'ACME123',
      sources: [{ key: 'odometer', displayText: 'Odometer (km)', unit: 'distance', precision: 0, basis: 'sinceNew', currentValue: 0 }],
    });
  });

  it('lists a component parent\u2019s sinceNew counters only', async () => {
    const parent = await create(
      part({
        name: 'Engine',
        counters: [
          { displayText: 'Hours since new', unit: 'hours', initialValue: 100.5 },
          { displayText: 'Hours since overhaul', unit: 'hours', basis: 'sinceEvent' },
          { displayText: 'Cycles', unit: 'cycles', initialValue: 40 },
        ],
      }),
    );
    const id = await create(part());
    const r = await get(`/components/${id}/inheritable-sources?parentType=component&parentUid=${parent}`);
    expect(r.body).toEqual({
      parentName: 'Engine',
      sources: [
        { key: 'hoursSinceNew', displayText: 'Hours since new', unit: 'hours', precision: 1, basis: 'sinceNew', currentValue: 100.5 },
        { key: 'cycles', displayText: 'Cycles', unit: 'cycles', precision: 0, basis: 'sinceNew', currentValue: 40 },
      ],
    });
  });

  it('400 for missing or bad query parameters; 404 for an unknown component or parent', async () => {
    const id = await create(part());
    expectProblem(await get(`/components/${id}/inheritable-sources?parentUid=acme-ac-1`), 400, '/query/parentType');
    expectProblem(await get(`/components/${id}/inheritable-sources?parentType=boat&parentUid=acme-ac-1`), 400, '/query/parentType');
    expectProblem(await get(`/components/${id}/inheritable-sources?parentType=aircraft`), 400, '/query/parentUid');
    expectProblem(await get(`/components/${id}/inheritable-sources?parentType=aircraft&parentUid=nope`), 404);
    expectProblem(await get(`/components/${id}/inheritable-sources?parentType=aircraft&parentUid=globex-ac-1`), 404);
    expectProblem(await get(`/components/cmp_nope/inheritable-sources?parentType=aircraft&parentUid=acme-ac-1`), 404);
  });
});

describe('POST /components/{id}/counters/reset', () => {
  it('resets a sinceEvent counter', async () => {
    const id = await create(part({ counters: [{ displayText: 'Hours since overhaul', unit: 'hours', basis: 'sinceEvent', initialValue: 1800.7 }] }));
    const r = await post(`/components/${id}/counters/reset`, { counterKey: 'hoursSinceOverhaul', newValue: 0 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ uid: id, status: 'updated' });
    expect((await component(id)).totals).toEqual({ hoursSinceOverhaul: 0 });
  });

  it('409 for a sinceNew counter (never reset); 400 for an unknown key or a bad value; 404 for an unknown component', async () => {
    const id = await create(part({ counters: [{ displayText: 'Hours since new', unit: 'hours', initialValue: 5 }] }));
    await refused(() => post(`/components/${id}/counters/reset`, { counterKey: 'hoursSinceNew', newValue: 0 }), 409);
    await refused(() => post(`/components/${id}/counters/reset`, { counterKey: 'nope', newValue: 0 }), 400, '/counterKey');
    await refused(() => post(`/components/${id}/counters/reset`, { counterKey: 'hoursSinceNew' }), 400, '/newValue');
    await refused(() => post(`/components/${id}/counters/reset`, { counterKey: 'hoursSinceNew', newValue: -1 }), 400, '/newValue');
    await refused(() => post(`/components/${id}/counters/reset`, { counterKey: 'hoursSinceNew', newValue: 'zero' }), 400, '/newValue');
    await refused(() => post(`/components/cmp_nope/counters/reset`, { counterKey: 'x', newValue: 0 }), 404);
  });
});

describe('tenant isolation', () => {
  it('another company\u2019s component is a 404 on every route and absent from its lists', async () => {
    const id = await create(part({ serialNumber: 'ISO-1', counters: [{ displayText: 'Hours', unit: 'hours', basis: 'sinceEvent' }] }));
    const b = env.b.key;
    expectProblem(await get(`/components/${id}`, b), 404);
    expect((await get('/components?serialNumber=ISO-1', b)).body).toEqual({ data: [], count: 0 });
    expect((await get('/components?includeDeleted=true', b)).body.data.map((c: any) => c.uid)).not.toContain(id);
    await refused(() => patch(id, { name: 'mine' }, b), 404);
    await refused(() => del(id, b), 404);
    await refused(() => post(`/components/${id}/restore`, undefined, b), 404);
    await refused(() => install(id, { parentType: 'aircraft', parentUid: 'globex-ac-1' }, b), 404);
    await refused(() => remove(id, undefined, b), 404);
    await refused(() => post(`/components/${id}/counters/reset`, { counterKey: 'hours', newValue: 0 }, b), 404);
    expectProblem(await get(`/components/${id}/inheritable-sources?parentType=aircraft&parentUid=globex-ac-1`, b), 404);
  });

  it('a company cannot fit its component under another company\u2019s component or aircraft', async () => {
    const theirs = await create(part({ name: 'Globex engine' }), env.b.key);
    const mine = await create(part());
    await refused(() => install(mine, { parentType: 'component', parentUid: theirs }), 400, '/parentUid');
    await refused(() => install(mine, { parentType: 'aircraft', parentUid: 'globex-ac-1' }), 400, '/parentUid');
    expect((await install(theirs, { parentType: 'aircraft', parentUid: 'globex-ac-1' }, env.b.key)).status).toBe(200);
    expect((await component(theirs, env.b.key)).parent).toEqual({ type: 'aircraft', uid: 'globex-ac-1', name: 'VH-GLO' });
  });

  it('401 without a key', async () => {
    const r = await env.json('GET', `${API}/components`, { key: null });
    expect(r.status).toBe(401);
  });
});

describe('GraphQL', () => {
  it('resolves children, parentComponent, counters and totals through the tree', async () => {
    const engine = await create(part({ name: 'GQL engine', counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 10 }] }));
    const module = await create(part({ name: 'GQL module', counters: [{ displayText: 'Hours', unit: 'hours', initialValue: 2 }] }));
    expect((await install(engine, { parentType: 'aircraft', parentUid: 'acme-ac-1', mappings: [{ counterKey: 'hours', sourceKey: 'hobbs' }] })).status).toBe(200);
    expect((await install(module, { parentType: 'component', parentUid: engine, mappings: [{ counterKey: 'hours', sourceKey: 'hours' }] })).status).toBe(200);
    const r = await env.gql(
      `query($id: ID!) { component(id: $id) { name totals rootAsset { type uid name }
          counters { key value binding { parentType parentUid sourceKey sourcePrecision } }
          childrenPage { count nextCursor data { name parentComponent { name } counters { key value binding { parentType sourceKey } } } }
          children { name } } }`,
      { id: engine },
    );
    expect(r.body.errors).toBeUndefined();
    const c = r.body.data.component;
    expect(c.name).toBe('GQL engine');
    expect(c.rootAsset).toEqual({ type: 'aircraft', uid: 'acme-ac-1', name: 'VH-ACM' });
    expect(c.counters).toEqual([{ key: 'hours', value: 10, binding: { parentType: 'aircraft', parentUid: 'acme-ac-1', sourceKey: 'hobbs', sourcePrecision: 1 } }]);
    expect(c.children).toEqual([{ name: 'GQL module' }]); // the deprecated list, the first 1,000
    expect(c.childrenPage).toEqual({
      count: 1,
      nextCursor: null,
      data: [{ name: 'GQL module', parentComponent: { name: 'GQL engine' }, counters: [{ key: 'hours', value: 2, binding: { parentType: 'component', sourceKey: 'hours' } }] }],
    });
  });

  it('childrenPage is a bounded page (gaps §17): limit and cursor walk every child once, in the list order, for each parent', async () => {
    const parents = [await create(part({ name: 'Gearbox A', canHaveChildren: true })), await create(part({ name: 'Gearbox B', canHaveChildren: true }))];
    const fitted: Record<string, string[]> = {};
    for (const [p, n] of [[parents[0], 5], [parents[1], 3]] as const) {
      fitted[p] = [];
      for (let i = 0; i < n; i++) {
        const uid = await create(part({ name: `Bearing ${i % 2}`, serialNumber: `B-${p}-${i}` }));
        expect((await install(uid, { parentType: 'component', parentUid: p })).status).toBe(200);
        fitted[p].push(uid);
      }
    }
    // both parents' first pages in one request, each bounded by the limit
    const first = await env.gql(
      `query($a: ID!, $b: ID!) { a: component(id: $a) { childrenPage(limit: 2) { count nextCursor data { uid name serialNumber } } }
        b: component(id: $b) { childrenPage(limit: 2) { count nextCursor data { uid } } } }`,
      { a: parents[0], b: parents[1] },
    );
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.a.childrenPage.count).toBe(2);
    expect(first.body.data.b.childrenPage.count).toBe(2);
    expect(first.body.data.a.childrenPage.nextCursor).toEqual(expect.any(String));
    // walking A's cursor returns each child once, in name, serial number, uid order
    const seen = [...first.body.data.a.childrenPage.data];
    let cursor: string | null = first.body.data.a.childrenPage.nextCursor;
    while (cursor) {
      const r = await env.gql(`query($a: ID!, $c: String) { component(id: $a) { childrenPage(limit: 2, cursor: $c) { nextCursor data { uid name serialNumber } } } }`, { a: parents[0], c: cursor });
      expect(r.body.errors).toBeUndefined();
      seen.push(...r.body.data.component.childrenPage.data);
      cursor = r.body.data.component.childrenPage.nextCursor;
    }
    expect(seen.map((c: { uid: string }) => c.uid).sort()).toEqual([...fitted[parents[0]]].sort());
    const order = [...seen].sort((x: { name: string; serialNumber: string }, y: { name: string; serialNumber: string }) => (x.name === y.name ? (x.serialNumber < y.serialNumber ? -1 : 1) : x.name < y.name ? -1 : 1));
    expect(seen).toEqual(order);
    // without a limit: all of B's (at most 1,000), no cursor
    const all = await env.gql(`query($b: ID!) { component(id: $b) { childrenPage { count nextCursor } } }`, { b: parents[1] });
    expect(all.body.data.component.childrenPage).toEqual({ count: 3, nextCursor: null });
    // a limit out of range and a cursor this service did not issue are refused like the list's
    const bad = await env.gql(`query($b: ID!) { component(id: $b) { childrenPage(limit: 0) { count } } }`, { b: parents[1] });
    expect(bad.body.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    const badCursor = await env.gql(`query($b: ID!) { component(id: $b) { childrenPage(cursor: "nope") { count } } }`, { b: parents[1] });
    expect(badCursor.body.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('a children cursor names its list and its parent: another parent\u2019s, the components list\u2019s and vice versa are a 400 at cursor (each was read as a position and answered a page)', async () => {
    const parents = [await create(part({ name: 'Hub A', canHaveChildren: true })), await create(part({ name: 'Hub B', canHaveChildren: true }))];
    for (const [p, n] of [[parents[0], 3], [parents[1], 3]] as const) {
      for (let i = 0; i < n; i++) {
        const uid = await create(part({ name: `Blade ${i}`, serialNumber: `BL-${p}-${i}` }));
        expect((await install(uid, { parentType: 'component', parentUid: p })).status).toBe(200);
      }
    }
    const page = (p: string, cursor?: string) =>
      env.gql(`query($p: ID!, $c: String) { component(id: $p) { childrenPage(limit: 1, cursor: $c) { count nextCursor data { name } } } }`, { p, c: cursor });
    const aCursor = (await page(parents[0])).body.data.component.childrenPage.nextCursor;
    const bCursor = (await page(parents[1])).body.data.component.childrenPage.nextCursor;
    // one issued for the parent continues it (the first page read by the window over parents, the next alone)
    const next = await page(parents[0], aCursor);
    expect(next.body.errors).toBeUndefined();
    expect(next.body.data.component.childrenPage.data).toEqual([{ name: 'Blade 1' }]);
    expect((await page(parents[1], bCursor)).body.data.component.childrenPage.data).toEqual([{ name: 'Blade 1' }]);
    const refused = (r: { body: any }) => {
      expect(r.body.errors?.[0]?.extensions?.code, JSON.stringify(r.body)).toBe('VALIDATION_ERROR');
      expect(r.body.errors[0].extensions.errors).toEqual([{ path: '/cursor', message: 'cursor is not a nextCursor this service issued' }]);
      expect(r.body.errors[0].message).toBe('invalid component query: /cursor: cursor is not a nextCursor this service issued');
    };
    refused(await page(parents[1], aCursor)); // another parent's
    refused(await page(parents[1], next.body.data.component.childrenPage.nextCursor)); // another parent's, read alone
    const listCursor = (await env.json('GET', `${API}/components?limit=1`)).body.nextCursor;
    expect(listCursor).toEqual(expect.any(String));
    refused(await page(parents[0], listCursor)); // the components list's
    // and a children cursor is no cursor of the components list, on REST and GraphQL
    expectValidation(await env.json('GET', `${API}/components?cursor=${aCursor}`), '/query/cursor');
    refused(await env.gql(`query($c: String) { components(cursor: $c) { count } }`, { c: aCursor }));
  });

  it('mutations answer WriteResult; domain errors carry their code', async () => {
    const r = await env.gql(`mutation($input: CreateComponentInput!) { createComponent(input: $input) { uid status } }`, {
      input: { name: 'Via GraphQL', type: 'Pump', partNumber: 'P-1', serialNumber: 'G-1' },
    });
    expect(r.body.data.createComponent.status).toBe('created');
    const uid = r.body.data.createComponent.uid;
    const bad = await env.gql(`mutation($id: ID!) { restoreComponent(id: $id) { uid status } }`, { id: uid });
    expect(bad.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const list = await env.gql(`{ components(type: "Pump") { count data { uid state } } }`);
    expect(list.body.data.components.data).toContainEqual({ uid, state: 'inStores' });
  });
});
