// Fixes of the forms audit (2026-11-28), each through the public surface: duplicate notification targets and webhook
// URLs, odometer floors, user fields on public forms, reserved user uids, time answers, CSV headers and columns, and
// template error paths (docs/forms.md, docs/webhooks.md, docs/contract/gaps.md §7, §9, §13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, companyFixture, createTestEnv, newKey, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';
import { importData } from '../src/modules/companies/import.js';
import { ValidationError } from '../src/errors.js';

const API = '/api/v1';
let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv({ config: { publicRateLimitPerMinute: 0 } });
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, any>;
const get = (path: string) => env.json('GET', `${API}${path}`);
const post = (path: string, body: unknown) => env.json('POST', `${API}${path}`, { body });
const patch = (path: string, body: unknown) => env.json('PATCH', `${API}${path}`, { body });

function form(over: Body = {}): Body {
  return {
    name: 'Audit form',
    code: `audit-${uniq()}`,
    department: 'Ops',
    sections: [{ name: 'Asset', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }] }],
    ...over,
  };
}

async function formCount(): Promise<number> {
  const r = await get('/forms?includeInactive=true&limit=200');
  expect(r.status).toBe(200);
  return r.body.data.length;
}

/** `body` is refused with a 400 at `path` and no form is stored. */
async function refusedForm(body: Body, path: string) {
  const before = await formCount();
  const r = await post('/forms', body);
  expectValidation(r, path);
  expect(await formCount()).toBe(before);
  return r;
}

describe('A. one message per phone, mailbox and endpoint', () => {
  it('a phone, an email (in any case) or a webhook URL (in any spelling of scheme and host) listed twice is a 400 at the second', async () => {
    await refusedForm(form({ notification: true, notificationRecipients: [{ phone: '+61412000009' }, { email: 'a@example.com', phone: '+61412000009' }] }), '/notificationRecipients/1/phone');
    await refusedForm(form({ notification: true, notificationRecipients: [{ email: 'ops@example.com' }, { email: 'OPS@Example.com', name: 'Ops' }] }), '/notificationRecipients/1/email');
    await refusedForm(form({ webhooks: [{ url: 'https://hooks.example.com/x' }, { url: 'HTTPS://Hooks.Example.com/x' }] }), '/webhooks/1/url');
    await refusedForm(form({ webhooks: [{ url: 'https://hooks.example.com/x' }, { url: 'https://hooks.example.com:443/x' }] }), '/webhooks/1/url');
  });

  it('an update listing a recipient or URL twice is a 400 and changes nothing', async () => {
    const created = await post('/forms', form({ notification: true, notificationRecipients: [{ email: 'ops@example.com' }], webhooks: [{ url: 'https://hooks.example.com/y' }] }));
    expect(created.status).toBe(201);
    const id = created.body.uid;
    const before = (await get(`/forms/${id}`)).body;
    expectValidation(await patch(`/forms/${id}`, { notificationRecipients: [{ phone: '+61412000001' }, { phone: '+61412000001' }] }), '/notificationRecipients/1/phone');
    expectValidation(await patch(`/forms/${id}`, { webhooks: [{ url: 'https://hooks.example.com/y' }, { url: 'https://HOOKS.example.com/y' }] }), '/webhooks/1/url');
    expect((await get(`/forms/${id}`)).body).toEqual(before);
    // distinct ones are fine
    const ok = await patch(`/forms/${id}`, { notificationRecipients: [{ email: 'a@example.com', phone: '+61412000001' }, { email: 'b@example.com', phone: '+61412000002' }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe('A2. a webhook secret follows its endpoint', () => {
  it('an update giving the URL in another spelling of its scheme and host, without secret, keeps the stored secret', async () => {
    const created = await post('/forms', form({ webhooks: [{ url: 'https://Hooks.Example.com/kept', secret: 'a-long-enough-secret-1234' }] }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.uid;
    expect((await patch(`/forms/${id}`, { webhooks: [{ url: 'https://hooks.example.com/kept' }] })).status).toBe(200);
    expect((await get(`/forms/${id}`)).body.webhooks).toEqual([{ url: 'https://hooks.example.com/kept', hasSecret: true }]);
  });
});

describe('B. an odometer reading is never negative', () => {
  const odometerForm = (odo: Body) =>
    form({ sections: [{ name: 's', fields: [{ name: 'v', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'o', label: 'Odometer', type: 'odometer', vehicleField: 'v', ...odo }] }] });

  it('an odometer field with a negative min or max is a 400 at it, on create and on update', async () => {
    await refusedForm(odometerForm({ min: -100 }), '/sections/0/fields/1/min');
    await refusedForm(odometerForm({ max: -1 }), '/sections/0/fields/1/max');
    const created = await post('/forms', odometerForm({ min: 0, max: 1_000_000 }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const before = (await get(`/forms/${created.body.uid}`)).body;
    expectValidation(await patch(`/forms/${created.body.uid}`, { sections: odometerForm({ min: -100 }).sections }), '/sections/0/fields/1/min');
    expect((await get(`/forms/${created.body.uid}`)).body).toEqual(before);
    // a number field may still go below 0
    const n = await post('/forms', form({ sections: [{ name: 's', fields: [{ name: 't', label: 'Temperature', type: 'number', min: -40 }] }] }));
    expect(n.status, JSON.stringify(n.body)).toBe(201);
  });

  it('a form stored with a negative odometer min (before the rule) still refuses a negative reading: 400, nothing written', async () => {
    const created = await post('/forms', odometerForm({}));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const formId = created.body.uid;
    // as written before odometer fields refused a negative min
    const row = await env.database.prisma.form.findFirstOrThrow({ where: { uid: formId } });
    const sections = row.sections as any[];
    sections[0].fields[1].min = -100;
    await env.database.prisma.form.updateMany({ where: { uid: formId }, data: { sections } });
    const schema = await get(`/forms/${formId}/completion-schema`);
    expect(schema.body.fields.find((f: Body) => f.name === 'o').min).toBe(0);
    const r = await post('/form-completions', { formId, answers: { v: `${env.a.prefix}-v-1`, o: -5 } });
    expectValidation(r, '/answers/o');
    expect((await get(`/form-completions?formId=${formId}`)).body.data).toEqual([]);
  });
});

const submitPublic = (publicId: string, body: unknown) =>
  env.app.fetch(
    new Request(`http://fleetops.test/forms/public/${publicId}/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    { clientAddress: '203.0.113.7' },
  );

describe('C. a public form has no user field', () => {
  const withUser = (over: Body = {}) =>
    form({ sections: [{ name: 's', fields: [{ name: 'comment', label: 'Comment', type: 'text', required: true }, { name: 'staff', label: 'Who helped you?', type: 'user' }] }], ...over });

  it('a publicly available form with a user field is a 400 at the field (create), and so is making one public (update)', async () => {
    await refusedForm(withUser({ publiclyAvailable: true }), '/sections/0/fields/1/type');
    const created = await post('/forms', withUser());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.uid;
    const before = (await get(`/forms/${id}`)).body;
    expectValidation(await patch(`/forms/${id}`, { publiclyAvailable: true }), '/publiclyAvailable');
    expect((await get(`/forms/${id}`)).body).toEqual(before);
    // a public form given a user field by an update
    const pub = await post('/forms', form({ publiclyAvailable: true }));
    expect(pub.status, JSON.stringify(pub.body)).toBe(201);
    const pubBefore = (await get(`/forms/${pub.body.uid}`)).body;
    expectValidation(await patch(`/forms/${pub.body.uid}`, { sections: withUser().sections }), '/sections/0/fields/1/type');
    expect((await get(`/forms/${pub.body.uid}`)).body).toEqual(pubBefore);
    // the same sections on a form that is not public, or made private in the same update, are fine
    const ok = await patch(`/forms/${pub.body.uid}`, { sections: withUser().sections, publiclyAvailable: false });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('a public form stored with a user field (before the rule) refuses every user answer alike: a real uid and a guess get the same 400', async () => {
    const created = await post('/forms', withUser());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const formId = created.body.uid;
    await env.database.prisma.form.updateMany({ where: { uid: formId }, data: { publiclyAvailable: true, publicId: `pub-${uniq()}` } });
    const { publicId } = (await get(`/forms/${formId}`)).body;
    const real = await submitPublic(publicId, { answers: { comment: 'hi', staff: `${env.a.prefix}-owner` } });
    const guess = await submitPublic(publicId, { answers: { comment: 'hi', staff: 'no-such-user' } });
    expect(real.status).toBe(400);
    expect(guess.status).toBe(400);
    const [a, b] = [await real.json(), await guess.json()];
    expect(a.errors).toEqual([{ path: '/answers/staff', message: expect.any(String) }]);
    expect(b.errors).toEqual(a.errors);
    expect((await get(`/form-completions?formId=${formId}`)).body.data).toEqual([]);
    // without a user answer it is taken
    expect((await submitPublic(publicId, { answers: { comment: 'hi' } })).status).toBe(201);
  });
});

describe('D. the uids the service writes for no user are no user\'s', () => {
  it('POST /users with uid public or api is a 400 at /uid and makes no user', async () => {
    const admin = await adminKey(env);
    for (const uid of ['public', 'api']) {
      const r = await env.json('POST', `${API}/users`, { key: admin, body: { uid, email: `${uid}-${uniq()}@acme.test`, displayName: 'Pat Public' } });
      expectValidation(r, '/uid');
      expect((await env.json('GET', `${API}/users/${uid}`, { key: admin })).status).toBe(404);
    }
    // a uid that only contains them is a uid like any other
    const ok = await env.json('POST', `${API}/users`, { key: admin, body: { uid: `public-${uniq()}`, email: `pp-${uniq()}@acme.test`, displayName: 'Pat' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('an import file with a user whose uid is public or api is refused at that uid, and nothing is imported', async () => {
    for (const uid of ['public', 'api']) {
      const id = `res-${uniq()}`;
      const c = companyFixture(id, newKey(), id);
      c.users.push({ ...c.users[1]!, uid, email: `${uid}@${id}.test` });
      const e = await importData(env.database, { companies: [c] }).then(() => null, (x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).errors?.map((x) => x.path)).toContain(`/companies/0/users/${c.users.length - 1}/uid`);
      expect(await env.database.prisma.company.findUnique({ where: { id } })).toBeNull();
    }
  });

  it('a public submission is attributed to no user, even where a user "public" was made before the uid was reserved', async () => {
    const key = env.b.key;
    await env.database.prisma.user.create({ data: { companyId: env.b.id, uid: 'public', email: `public-${uniq()}@globex.test`, displayName: 'Pat Public', status: 'Active' } });
    const f = await env.json('POST', `${API}/forms`, { key, body: form({ publiclyAvailable: true, sections: [{ name: 's', fields: [{ name: 'comment', label: 'Comment', type: 'text' }] }] }) });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const { publicId } = (await env.json('GET', `${API}/forms/${f.body.uid}`, { key })).body;
    const anon = await submitPublic(publicId, { answers: { comment: 'from the street' } });
    expect(anon.status).toBe(201);
    const g = await env.gql(`{ formCompletion(id: "${(await anon.json()).uid}") { userId user { uid } } }`, {}, key);
    expect(g.body.data).toEqual({ formCompletion: { userId: 'public', user: null } });
  });
});

describe('E. a time answer is HH:MM or HH:MM:SS', () => {
  it('fractional seconds, 24:00, one-digit hours and zones are a 400 at the answer, nothing stored; HH:MM and HH:MM:SS are taken', async () => {
    const f = await post('/forms', form({ sections: [{ name: 's', fields: [{ name: 'at', label: 'At', type: 'time', required: true }] }] }));
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const formId = f.body.uid;
    for (const at of ['12:00:00.123456789', '12:00:00.5', '24:00', '1:00', '12:00Z', '12:00:00+10:00', '12:60', ' 12:00']) {
      expectValidation(await post('/form-completions', { formId, answers: { at } }), '/answers/at');
    }
    expect((await get(`/form-completions?formId=${formId}`)).body.data).toEqual([]);
    for (const at of ['00:00', '23:59', '12:00:59']) expect((await post('/form-completions', { formId, answers: { at } })).status).toBe(201);
  });
});

async function csvOf(query: string): Promise<string[][]> {
  const res = await env.request('GET', `${API}/form-completions?${query}`, { headers: { accept: 'text/csv' } });
  expect(res.status).toBe(200);
  // these tests' cells hold no comma, quote or line break
  return (await res.text()).trim().split(/\r?\n/).map((l) => l.split(','));
}

describe('F. CSV headers are unique', () => {
  it('an answer key that is a completion column in any case (name, Code) is headed answers.<key>, and the cells stay in their columns', async () => {
    const body = form({
        sections: [
          {
            name: 's',
            fields: [
              { name: 'name', label: 'Visitor name', type: 'text', required: true, companions: [{ name: 'note' }] },
              { name: 'Code', label: 'Badge code', type: 'text' },
              { name: 'uidx', label: 'Other', type: 'text' },
            ],
          },
        ],
    });
    const f = await post('/forms', body);
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    expect((await post('/form-completions', { formId: f.body.uid, answers: { name: 'Jo Visitor', name__note: 'late', Code: 'B-17', uidx: 'x' } })).status).toBe(201);
    const [header, row] = await csvOf(`formId=${f.body.uid}`);
    expect(header).toEqual(['uid', 'createdAt', 'formId', 'code', 'name', 'revision', 'userId', 'submitterName', 'answers.name', 'name__note', 'answers.Code', 'uidx']);
    expect(new Set(header!.map((h) => h.toLowerCase())).size).toBe(header!.length);
    const cell = (h: string) => row![header!.indexOf(h)];
    expect([cell('name'), cell('answers.name'), cell('name__note'), cell('code'), cell('answers.Code')]).toEqual(['Audit form', 'Jo Visitor', 'late', body.code, 'B-17']);
  });
});

describe('G. CSV answers of completions made under a code the form has given up', () => {
  it('a code filter exports the answers of the completions made under it, in the columns of their own form', async () => {
    const oldCode = `insp-${uniq()}`;
    const f = await post('/forms', form({ code: oldCode, sections: [{ name: 's', fields: [{ name: 'remarks', label: 'Remarks', type: 'text', required: true }] }] }));
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    expect((await post('/form-completions', { formId: f.body.uid, answers: { remarks: 'oil leak at the sump' } })).status).toBe(201);
    expect((await patch(`/forms/${f.body.uid}`, { code: `walk-${uniq()}` })).body.status).toBe('updated');
    // another form takes the code up, with other fields
    const g = await post('/forms', form({ code: oldCode, sections: [{ name: 's', fields: [{ name: 'tyres', label: 'Tyres', type: 'checklist' }] }] }));
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    expect((await post('/form-completions', { formId: g.body.uid, answers: { tyres: 'pass' } })).status).toBe(201);
    const [header, ...rows] = await csvOf(`code=${oldCode}`);
    expect(header!.slice(8)).toEqual(['remarks', 'tyres']);
    const byForm = Object.fromEntries(rows.map((r) => [r[2], r.slice(8)]));
    expect(byForm).toEqual({ [f.body.uid]: ['oil leak at the sump', ''], [g.body.uid]: ['', 'pass'] });
    // no completion under the code: the columns of the form that has it
    const hBody = form({ sections: [{ name: 's', fields: [{ name: 'fuel', label: 'Fuel', type: 'text' }] }] });
    expect((await post('/forms', hBody)).status).toBe(201);
    expect((await csvOf(`code=${hBody.code}`))[0]!.slice(8)).toEqual(['fuel']);
  });
});

describe('H. template error paths name the section they are in', () => {
  it('a bad reference in a section after one that does not parse is reported at its own section', async () => {
    const r = await refusedForm(
      form({
        sections: [
          { fields: [] }, // no name
          { name: 'Asset', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle' }] },
          'not a section',
          { name: 'Readings', fields: [{ name: 'km', label: 'Km', type: 'odometer', vehicleField: 'nope' }, { name: 'd', label: 'D', type: 'defect', assetField: 'km' }] },
        ],
      }),
      '/sections/3/fields/0/vehicleField',
    );
    expect(r.body.errors.map((e: Body) => e.path).sort()).toEqual(['/sections/0/name', '/sections/2', '/sections/3/fields/0/vehicleField', '/sections/3/fields/1/assetField']);
  });
});

describe('I. a template revision is a whole number', () => {
  it('2.1 is a 400 at /revision, and the OpenAPI document says integer wherever a revision is read or written', async () => {
    await refusedForm(form({ revision: 2.1 }), '/revision');
    const doc = await env.json('GET', `${API}/openapi.json`, { key: null });
    expect(doc.status).toBe(200);
    const schemas = doc.body.components.schemas;
    const typeOf = (s: Body): unknown => s.type ?? s.anyOf?.find((x: Body) => x.type !== 'null')?.type;
    for (const name of ['CreateFormBody', 'UpdateFormBody', 'Form', 'CompletedForm', 'FormCompletionSchema']) {
      expect(typeOf(schemas[name].properties.revision), name).toBe('integer');
    }
  });
});
