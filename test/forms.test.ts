// Form templates over REST and GraphQL (docs/contract/api-v1.md §2.8, §4.3; docs/contract/gaps.md §2, §9): the field schema, create with defaults,
// validation of sections and field objects (400 with the JSON path, nothing stored), per-company code uniqueness
// (409), update (updated / no_changes), write-only webhook secrets, UI-specific keys kept as sent, the completion
// schema, and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';

const API = '/api/v1';
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, any>;
const get = (path: string, key?: string) => env.json('GET', `${API}${path}`, { key });
const post = (path: string, body: unknown, key?: string) => env.json('POST', `${API}${path}`, { body, key });
const patch = (id: string, body: unknown, key?: string) => env.json('PATCH', `${API}/forms/${id}`, { body, key });

/** A valid daily-inspection form with a code of its own. */
export function inspectionForm(over: Body = {}): Body {
  return {
    name: 'Daily inspection',
    code: `daily-${uniq()}`,
    department: 'Ground ops',
    sections: [
      {
        name: 'Asset',
        fields: [
          { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
          { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' },
        ],
      },
      {
        name: 'Checks',
        description: 'Walk-around',
        fields: [
          { name: 'tyres', label: 'Tyres', type: 'checklist', required: true, companions: [{ name: 'comment', label: 'Comment' }] },
          { name: 'fuel', label: 'Fuel level', type: 'select', options: ['full', 'half', 'low'] },
          { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
        ],
      },
    ],
    ...over,
  };
}

async function create(body: Body, key?: string): Promise<string> {
  const r = await post('/forms', body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toEqual({ uid: expect.any(String), status: 'created' });
  return r.body.uid;
}

async function count(key?: string): Promise<number> {
  const r = await get('/forms?includeInactive=true', key);
  expect(r.status).toBe(200);
  return r.body.count;
}

describe('GET /forms/field-schema', () => {
  it('lists every field type with its properties, required flags and enumerated values', async () => {
    const r = await get('/forms/field-schema');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(expect.arrayContaining(['baseFieldProperties', 'sectionShape', 'fieldTypes']));
    const types = r.body.fieldTypes;
    for (const t of ['text', 'textarea', 'number', 'boolean', 'select', 'multiselect', 'date', 'time', 'datetime', 'signature', 'file', 'photo', 'aircraft', 'vehicle', 'user', 'odometer', 'defect']) {
      expect(types[t], t).toBeDefined();
      expect(typeof types[t].description).toBe('string');
    }
    expect(r.body.baseFieldProperties.name).toMatchObject({ type: 'string', required: true });
    expect(r.body.baseFieldProperties.label).toMatchObject({ type: 'string', required: true });
    expect(r.body.baseFieldProperties.required).toMatchObject({ type: 'boolean', required: false });
    expect(r.body.baseFieldProperties.type.enum).toContain('odometer');
    expect(types.select.properties.options).toMatchObject({ type: 'array', required: true });
    expect(types.odometer.properties.vehicleField).toMatchObject({ type: 'string', required: true });
    expect(types.defect.properties.assetField).toMatchObject({ type: 'string', required: true });
    expect(types.number.properties.min).toMatchObject({ type: 'number', required: false });
    expect(types.text.properties.maxLength.required).toBe(false);
    expect(types.photo.answerFormat).toBe('file');
    expect(r.body.sectionShape.name.required).toBe(true);
    expect(r.body.sectionShape.fields.required).toBe(true);
  });

  it('is the schema form writes are checked against: a property it marks required is required', async () => {
    const schema = (await get('/forms/field-schema')).body;
    for (const [type, def] of Object.entries<any>(schema.fieldTypes)) {
      for (const [prop, p] of Object.entries<any>(def.properties)) {
        if (!p.required) continue;
        const field: Body = { name: 'f', label: 'F', type };
        const r = await post('/forms', inspectionForm({ sections: [{ name: 'S', fields: [field] }] }));
        expectValidation(r, `/sections/0/fields/0/${prop}`);
      }
    }
  });
});

describe('POST /forms', () => {
  it('creates a form with defaults and returns it with its server fields', async () => {
    const body = inspectionForm({ revision: 3, revisionDate: '2026-11', signatories: ['Chief pilot'], toolset: 'vehicles', layout: { columns: 2 } });
    const uid = await create(body);
    const r = await get(`/forms/${uid}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      uid,
      name: body.name,
      code: body.code,
      department: 'Ground ops',
      companyId: env.a.id,
      status: 'active',
      revision: 3,
      revisionDate: '2026-11',
      signatories: ['Chief pilot'],
      dynamicFields: [],
      toolset: 'vehicles',
      publiclyAvailable: false,
      webhooks: [],
      layout: { columns: 2 },
    });
    expect(r.body.sections[0].fields[0]).toEqual({ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true });
    expect(r.body.sections[1].fields[1]).toEqual({ name: 'fuel', label: 'Fuel level', type: 'select', options: ['full', 'half', 'low'], required: false });
    expect(r.body.sections[1].fields[0].companions).toEqual([{ name: 'comment', label: 'Comment', type: 'text' }]);
    expect(r.body.createdAt).toMatch(/Z$/);
    expect('publicId' in r.body).toBe(false);
  });

  it('keeps webhook secrets write-only', async () => {
    const uid = await create(inspectionForm({ webhooks: [{ url: 'https://hooks.example.com/a', secret: 'signing-secret-a' }, { url: 'http://hooks.example.com/b' }] }));
    const r = await get(`/forms/${uid}`);
    expect(r.body.webhooks).toEqual([
      { url: 'https://hooks.example.com/a', hasSecret: true },
      { url: 'http://hooks.example.com/b', hasSecret: false },
    ]);
    expect(JSON.stringify(r.body)).not.toContain('whsec_abcdefgh');
    // sending the URL again without its secret keeps it; null removes it
    expect((await patch(uid, { webhooks: [{ url: 'https://hooks.example.com/a' }] })).body.status).toBe('updated');
    expect((await get(`/forms/${uid}`)).body.webhooks).toEqual([{ url: 'https://hooks.example.com/a', hasSecret: true }]);
    await patch(uid, { webhooks: [{ url: 'https://hooks.example.com/a', secret: null }] });
    expect((await get(`/forms/${uid}`)).body.webhooks).toEqual([{ url: 'https://hooks.example.com/a', hasSecret: false }]);
  });

  it('refuses a webhook url with a user or password in it: reads show the url to every key (the secret is the write-only credential)', async () => {
    for (const url of ['https://user:p4ss@hooks.example.com/b', 'https://token@hooks.example.com/b']) {
      const r = await post('/forms', inspectionForm({ webhooks: [{ url, secret: 'abcdefgh' }] }));
      expectValidation(r, '/webhooks/0/url');
      expect(JSON.stringify(r.body)).not.toContain('p4ss@');
    }
  });

  it('gives a public form a publicId when none is sent', async () => {
    const uid = await create(inspectionForm({ publiclyAvailable: true }));
    const r = await get(`/forms/${uid}`);
    expect(r.body.publicId).toMatch(/^[A-Za-z0-9_-]{4,64}$/);
    // clearing it on a form that stays public gives it a new one (it was left public with no id: no page served)
    const cleared = await env.json('PATCH', `${API}/forms/${uid}`, { body: { publicId: null } });
    expect(cleared.body).toEqual({ uid, status: 'updated' });
    const renewed = (await get(`/forms/${uid}`)).body.publicId;
    expect(renewed).toMatch(/^[A-Za-z0-9_-]{4,64}$/);
    expect(renewed).not.toBe(r.body.publicId);
    expect((await env.request('GET', `/forms/public/${renewed}`, { key: null })).status).toBe(200);
    expect((await env.request('GET', `/forms/public/${r.body.publicId}`, { key: null })).status).toBe(404);
  });

  const cases: [string, (b: Body) => Body, string][] = [
    ['a missing name', ({ name: _n, ...b }) => b, '/name'],
    ['a missing sections', ({ sections: _s, ...b }) => b, '/sections'],
    ['a bad code', (b) => ({ ...b, code: 'daily check!' }), '/code'],
    ['a server-controlled uid', (b) => ({ ...b, uid: 'x' }), '/uid'],
    ['a server-controlled companyId', (b) => ({ ...b, companyId: 'x' }), '/companyId'],
    ['a bad status', (b) => ({ ...b, status: 'draft' }), '/status'],
    ['a section without name', (b) => ({ ...b, sections: [{ fields: [] }] }), '/sections/0/name'],
    ['a section without fields', (b) => ({ ...b, sections: [{ name: 'S' }] }), '/sections/0/fields'],
    ['an unknown field type', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', label: 'X', type: 'colour' }] }] }), '/sections/0/fields/0/type'],
    ['a field without label', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', type: 'text' }] }] }), '/sections/0/fields/0/label'],
    ['a field name with spaces', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x y', label: 'X', type: 'text' }] }] }), '/sections/0/fields/0/name'],
    ['a wrongly typed property', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', label: 'X', type: 'number', min: 'low' }] }] }), '/sections/0/fields/0/min'],
    ['an unknown property', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', label: 'X', type: 'text', colour: 'red' }] }] }), '/sections/0/fields/0/colour'],
    ['a select without options', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', label: 'X', type: 'select' }] }] }), '/sections/0/fields/0/options'],
    ['min above max', (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', label: 'X', type: 'number', min: 5, max: 1 }] }] }), '/sections/0/fields/0/max'],
    [
      'a duplicate field name',
      (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'x', label: 'X', type: 'text' }] }, { name: 'T', fields: [{ name: 'x', label: 'X2', type: 'number' }] }] }),
      '/sections/1/fields/0/name',
    ],
    [
      'an odometer naming a missing field',
      (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'km', label: 'Km', type: 'odometer', vehicleField: 'truck' }] }] }),
      '/sections/0/fields/0/vehicleField',
    ],
    [
      'an odometer naming a field that is not a vehicle',
      (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'truck', label: 'T', type: 'text' }, { name: 'km', label: 'Km', type: 'odometer', vehicleField: 'truck' }] }] }),
      '/sections/0/fields/1/vehicleField',
    ],
    [
      'a defect naming a user field',
      (b) => ({ ...b, sections: [{ name: 'S', fields: [{ name: 'who', label: 'W', type: 'user' }, { name: 'd', label: 'D', type: 'defect', assetField: 'who' }] }] }),
      '/sections/0/fields/1/assetField',
    ],
    ['a webhook URL that is not http(s)', (b) => ({ ...b, webhooks: [{ url: 'ftp://example.com/x' }] }), '/webhooks/0/url'],
    ['a relative webhook URL', (b) => ({ ...b, webhooks: [{ url: '/hook' }] }), '/webhooks/0/url'],
    ['a webhook without url', (b) => ({ ...b, webhooks: [{ secret: 'abcdefghij' }] }), '/webhooks/0/url'],
    ['a recipient with a bad email', (b) => ({ ...b, notificationRecipients: [{ email: 'not-an-email' }] }), '/notificationRecipients/0/email'],
  ];
  for (const [what, mutate, path] of cases) {
    it(`refuses ${what} (400 at ${path}) and stores nothing`, async () => {
      const before = await count();
      expectValidation(await post('/forms', mutate(inspectionForm())), path);
      expect(await count()).toBe(before);
    });
  }

  it('refuses a body that is not an object', async () => {
    expectValidation(await post('/forms', [1, 2]));
  });

  it('refuses a code the company already uses (409), but another company may use it', async () => {
    const body = inspectionForm();
    await create(body);
    const before = await count();
    expectProblem(await post('/forms', { ...inspectionForm(), code: body.code }), 409, 'conflict');
    expect(await count()).toBe(before);
    await create({ ...inspectionForm(), code: body.code }, env.b.key);
  });
});

describe('GET /forms', () => {
  it('lists active forms unless includeInactive=true', async () => {
    const active = await create(inspectionForm());
    const inactive = await create(inspectionForm({ status: 'inactive' }));
    const list = await get('/forms');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(list.body.data.length);
    const uids = list.body.data.map((f: Body) => f.uid);
    expect(uids).toContain(active);
    expect(uids).not.toContain(inactive);
    const all = (await get('/forms?includeInactive=true')).body.data.map((f: Body) => f.uid);
    expect(all).toEqual(expect.arrayContaining([active, inactive]));
    expectValidation(await get('/forms?includeInactive=maybe'), '/query/includeInactive');
  });
});

describe('PATCH /forms/{id}', () => {
  it('updates, reports no_changes for the same values, and keeps further keys', async () => {
    const body = inspectionForm({ layout: 'grid' });
    const uid = await create(body);
    expect((await patch(uid, { name: body.name, sections: body.sections })).body).toEqual({ uid, status: 'no_changes' });
    expect((await patch(uid, { name: 'Renamed', revision: 2, theme: 'dark' })).body).toEqual({ uid, status: 'updated' });
    const r = (await get(`/forms/${uid}`)).body;
    expect(r).toMatchObject({ name: 'Renamed', revision: 2, layout: 'grid', theme: 'dark', code: body.code });
    expect((await patch(uid, { revision: null, theme: null })).body.status).toBe('updated');
    const after = (await get(`/forms/${uid}`)).body;
    expect('revision' in after).toBe(false);
    expect('theme' in after).toBe(false);
    expect(after.layout).toBe('grid');
  });

  it('refuses invalid changes with 400 and changes nothing', async () => {
    const uid = await create(inspectionForm());
    const before = (await get(`/forms/${uid}`)).body;
    expectValidation(await patch(uid, { name: null }), '/name');
    expectValidation(await patch(uid, { sections: [{ name: 'S', fields: [{ name: 'a', label: 'A', type: 'nope' }] }] }), '/sections/0/fields/0/type');
    expectValidation(await patch(uid, { code: 'no spaces allowed' }), '/code');
    expectValidation(await patch(uid, { updatedAt: '2020-01-01' }), '/updatedAt');
    expect((await get(`/forms/${uid}`)).body).toEqual(before);
  });

  it('refuses a code another form of the company has (409)', async () => {
    const a = inspectionForm();
    await create(a);
    const uid = await create(inspectionForm());
    expectProblem(await patch(uid, { code: a.code }), 409, 'conflict');
  });

  it('is 404 for an unknown form and for another company\u2019s form', async () => {
    const theirs = await create(inspectionForm(), env.b.key);
    expectProblem(await patch('nope', { name: 'x' }), 404, 'not_found');
    expectProblem(await patch(theirs, { name: 'x' }), 404, 'not_found');
    expectProblem(await get(`/forms/${theirs}`), 404, 'not_found');
    expectProblem(await get(`/forms/${theirs}/completion-schema`), 404, 'not_found');
    expect((await get(`/forms/${theirs}`, env.b.key)).body.name).toBe('Daily inspection');
    expect((await get('/forms?includeInactive=true')).body.data.map((f: Body) => f.uid)).not.toContain(theirs);
  });
});

describe('GET /forms/{id}/completion-schema', () => {
  it('lists every answerable key with its storage key, format and constraints', async () => {
    const uid = await create(
      inspectionForm({
        sections: [
          { name: 'A', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'km', label: 'Km', type: 'odometer', vehicleField: 'vehicle', max: 999999 }] },
          {
            name: 'B',
            fields: [
              { name: 'tyres', label: 'Tyres', type: 'checklist', companions: [{ name: 'comment' }] },
              { name: 'fuel', label: 'Fuel', type: 'multiselect', options: ['diesel', 'adblue'] },
              { name: 'photos', label: 'Photos', type: 'photo', multiple: true },
              { name: 'when', label: 'When', type: 'date' },
              { name: 'd', label: 'Defects', type: 'defect', assetField: 'vehicle' },
            ],
          },
        ],
      }),
    );
    const r = await get(`/forms/${uid}/completion-schema`);
    expect(r.status).toBe(200);
    expect(r.body.formId).toBe(uid);
    expect('revision' in r.body).toBe(false); // a form without one: left out, not null
    const byName = Object.fromEntries(r.body.fields.map((f: Body) => [f.name, f]));
    expect(r.body.fields.map((f: Body) => f.key)).toEqual(['__s0_f0', '__s0_f1', '__s1_f0', '__s1_f0__comment', '__s1_f1', '__s1_f2', '__s1_f3', '__s1_f4']);
    expect(byName.vehicle).toMatchObject({ key: '__s0_f0', format: 'string', required: true, references: 'vehicle' });
    expect(byName.km).toMatchObject({ format: 'number', min: 0, max: 999999, required: false });
    expect(byName.tyres).toMatchObject({ format: 'string', enum: ['pass', 'fail', 'n/a'] });
    expect(byName.tyres__comment).toMatchObject({ key: '__s1_f0__comment', format: 'string', companionOf: 'tyres' });
    expect(byName.fuel).toMatchObject({ format: 'array', enum: ['diesel', 'adblue'] });
    expect(byName.photos).toMatchObject({ format: 'file', multiple: true });
    expect(byName.d).toMatchObject({ format: 'object', assetField: 'vehicle' });
  });
});

describe('GraphQL', () => {
  it('reads and writes forms with the same rules', async () => {
    const body = inspectionForm();
    const created = await env.gql('mutation($i: JSON!) { createForm(input: $i) { uid status } }', { i: body });
    expect(created.body.errors).toBeUndefined();
    const uid = created.body.data.createForm.uid;
    const read = await env.gql(
      'query($id: ID!) { form(id: $id) { uid code status webhooks { url hasSecret } } forms { count } formFieldSchema formCompletionSchema(id: $id) }',
      { id: uid },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.form).toEqual({ uid, code: body.code, status: 'active', webhooks: [] });
    expect(read.body.data.formFieldSchema.fieldTypes.defect).toBeDefined();
    expect(read.body.data.formCompletionSchema.fields.length).toBe(6);
    const dup = await env.gql('mutation($i: JSON!) { createForm(input: $i) { uid } }', { i: { ...inspectionForm(), code: body.code } });
    expect(dup.body.errors![0].extensions.code).toBe('CONFLICT');
    const bad = await env.gql('mutation($id: ID!) { updateForm(id: $id, input: { code: "bad code" }) { uid } }', { id: uid });
    expect(bad.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors![0].extensions.errors[0].path).toBe('/code');
  });
});
