// Form completions over REST and GraphQL (docs/contract/api-v1.md §2.9, §2.10, §4.3; docs/contract/gaps.md §3, §9): answers by field name or
// storage key, validation (400 with the path, nothing stored), references to the company's records, defect and
// odometer side effects committed or rolled back with the completion, the list with filters, cursor and CSV, and
// tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';
import { scopedPrisma, type ScopedPrisma, type TransactionHooks } from '../src/db/scoped.js';
import { createServices } from '../src/context.js';
import { writeSubmission, type SubmissionWrite } from '../src/modules/completions/write.js';
import { defectRows } from '../src/modules/schedule/service.js';
import { planReadings } from '../src/modules/vehicles/service.js';
import { demoForm } from '../src/modules/companies/demo.js';

const API = '/api/v1';
let env: TestEnv;

type Body = Record<string, any>;
const get = (path: string, key?: string) => env.json('GET', `${API}${path}`, { key });
const post = (path: string, body: unknown, key?: string) => env.json('POST', `${API}${path}`, { body, key });

/** Daily inspection: vehicle, odometer, checklist with a comment, fuel select, defects, plus an aircraft form. */
function formBody(over: Body = {}): Body {
  return {
    name: 'Daily inspection',
    code: `daily-${uniq()}`,
    department: 'Ground ops',
    revision: 4,
    revisionDate: '2026-10',
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
        fields: [
          { name: 'tyres', label: 'Tyres', type: 'checklist', required: true, companions: [{ name: 'comment' }] },
          { name: 'fuel', label: 'Fuel', type: 'select', options: ['full', 'half', 'low'] },
          { name: 'temp', label: 'Temperature', type: 'number', min: -40, max: 60, precision: 1 },
          { name: 'checkedOn', label: 'Checked on', type: 'date' },
          { name: 'inspector', label: 'Inspector', type: 'user' },
          { name: 'photos', label: 'Photos', type: 'photo', multiple: true },
          { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
        ],
      },
    ],
    ...over,
  };
}

let formId: string;
let formCode: string;
let aircraftFormId: string;

async function createForm(body: Body, key?: string): Promise<string> {
  const r = await post('/forms', body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid;
}

async function submit(body: Body, key?: string) {
  return post('/form-completions', body, key);
}

async function vehicleTotals(uid: string, key?: string): Promise<Record<string, number>> {
  const r = await get(`/vehicles/${uid}`, key);
  expect(r.status).toBe(200);
  return r.body.totals;
}

async function defectItems(relatedTo: string): Promise<Body[]> {
  const r = await get(`/schedule-items?relatedTo=${relatedTo}&type=Defect`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

async function completionCount(key?: string): Promise<number> {
  let n = 0;
  let cursor: string | null = null;
  do {
    const r: any = await get(`/form-completions?limit=500${cursor ? `&cursor=${cursor}` : ''}`, key);
    n += r.body.count;
    cursor = r.body.nextCursor;
  } while (cursor);
  return n;
}

beforeAll(async () => {
  env = await createTestEnv();
  const body = formBody();
  formCode = body.code;
  formId = await createForm(body);
  aircraftFormId = await createForm({
    name: 'Pre-flight',
    code: `preflight-${uniq()}`,
    department: 'Flight ops',
    sections: [
      {
        name: 'Aircraft',
        fields: [
          { name: 'aircraft', label: 'Aircraft', type: 'aircraft', required: true },
          { name: 'airworthy', label: 'Airworthy', type: 'boolean', required: true },
          { name: 'squawks', label: 'Squawks', type: 'defect', assetField: 'aircraft' },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await env?.close();
});

describe('POST /form-completions', () => {
  it('stores answers keyed by field name, with the template as it was and the acting user', async () => {
    const r = await submit({
      formId,
      answers: { vehicle: 'acme-v-1', tyres: 'pass', __s1_f0__comment: 'front left worn', fuel: 'half', temp: 21.5, checkedOn: '2026-11-20', photos: ['https://files.example.com/1.jpg'] },
      signatories: ['Pat Pilot'],
      submitterName: 'Pat',
      appBaseUrl: 'https://app.example.com',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toEqual({ uid: expect.any(String), status: 'created', sideEffects: { scheduleItemsCreated: 0, vehiclesUpdated: 0, warnings: [] } });
    const c = await get(`/form-completions/${r.body.uid}`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      uid: r.body.uid,
      formId,
      code: formCode,
      name: 'Daily inspection',
      revision: 4,
      revisionDate: '2026-10',
      userId: 'acme-owner',
      companyId: env.a.id,
      signatories: ['Pat Pilot'],
      submitterName: 'Pat',
      appBaseUrl: 'https://app.example.com',
    });
    expect(c.body.data).toEqual({
      vehicle: 'acme-v-1',
      tyres: 'pass',
      tyres__comment: 'front left worn',
      fuel: 'half',
      temp: 21.5,
      checkedOn: '2026-11-20',
      photos: ['https://files.example.com/1.jpg'],
    });
    // the template changing later does not change the completion
    await env.json('PATCH', `${API}/forms/${formId}`, { body: { revision: 5 } });
    expect((await get(`/form-completions/${r.body.uid}`)).body.revision).toBe(4);
    await env.json('PATCH', `${API}/forms/${formId}`, { body: { revision: 4 } });
  });

  it('takes storage keys and a given userId of the company', async () => {
    const r = await submit({ formId, answers: { __s0_f0: 'acme-v-1', __s1_f0: 'fail' }, userId: 'acme-pilot' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const c = (await get(`/form-completions/${r.body.uid}`)).body;
    expect(c.data).toEqual({ vehicle: 'acme-v-1', tyres: 'fail' });
    expect(c.userId).toBe('acme-pilot');
  });

  const bad: [string, Body, string][] = [
    ['an unknown key', { vehicle: 'acme-v-1', tyres: 'pass', colour: 'red' }, '/answers/colour'],
    ['a missing required answer', { vehicle: 'acme-v-1' }, '/answers/tyres'],
    ['a null required answer', { vehicle: 'acme-v-1', tyres: null }, '/answers/tyres'],
    ['a value outside the options', { vehicle: 'acme-v-1', tyres: 'maybe' }, '/answers/tyres'],
    ['a number below min', { vehicle: 'acme-v-1', tyres: 'pass', temp: -41 }, '/answers/temp'],
    ['a number above max', { vehicle: 'acme-v-1', tyres: 'pass', temp: 61 }, '/answers/temp'],
    ['too many decimal places', { vehicle: 'acme-v-1', tyres: 'pass', temp: 20.25 }, '/answers/temp'],
    ['a string for a number', { vehicle: 'acme-v-1', tyres: 'pass', temp: '20' }, '/answers/temp'],
    ['an impossible date', { vehicle: 'acme-v-1', tyres: 'pass', checkedOn: '2026-02-30' }, '/answers/checkedOn'],
    ['a single photo for a multiple field', { vehicle: 'acme-v-1', tyres: 'pass', photos: 'x.jpg' }, '/answers/photos'],
    ['a negative odometer', { vehicle: 'acme-v-1', tyres: 'pass', odometer: -5 }, '/answers/odometer'],
    ['a defect without description', { vehicle: 'acme-v-1', tyres: 'pass', defects: { severity: 'high' } }, '/answers/defects'],
    ['a vehicle of another company', { vehicle: 'globex-v-1', tyres: 'pass' }, '/answers/vehicle'],
    ['an unknown vehicle', { vehicle: 'nope', tyres: 'pass' }, '/answers/vehicle'],
    ['a user of another company', { vehicle: 'acme-v-1', tyres: 'pass', inspector: 'globex-pilot' }, '/answers/inspector'],
    ['the same field by name and storage key', { vehicle: 'acme-v-1', tyres: 'pass', __s1_f0: 'fail' }, '/answers/__s1_f0'],
    ['a companion of the wrong type', { vehicle: 'acme-v-1', tyres: 'pass', tyres__comment: 5 }, '/answers/tyres__comment'],
  ];
  for (const [what, answers, path] of bad) {
    it(`refuses ${what} (400 at ${path}) and stores nothing`, async () => {
      const before = await completionCount();
      const totals = await vehicleTotals('acme-v-1');
      expectValidation(await submit({ formId, answers }), path);
      expect(await completionCount()).toBe(before);
      expect(await vehicleTotals('acme-v-1')).toEqual(totals);
    });
  }

  it('refuses a body without formId or answers, server-controlled fields, a bad appBaseUrl, and a user of another company', async () => {
    expectValidation(await submit({ answers: {} }), '/formId');
    expectValidation(await submit({ formId }), '/answers');
    expectValidation(await submit({ formId, answers: [] }), '/answers');
    expectValidation(await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass' }, data: {} }), '/data');
    expectValidation(await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass' }, appBaseUrl: 'javascript:alert(1)' }), '/appBaseUrl');
    expectValidation(await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass' }, userId: 'globex-pilot' }), '/userId');
    expectValidation(await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass' }, extra: 1 }), '/extra');
  });

  it('refuses a form of another company or none (400 at /formId)', async () => {
    const theirs = await createForm(formBody(), env.b.key);
    expectValidation(await submit({ formId: theirs, answers: { vehicle: 'acme-v-1', tyres: 'pass' } }), '/formId');
    expectValidation(await submit({ formId: 'nope', answers: {} }), '/formId');
  });

  it('refuses to complete an inactive form (409)', async () => {
    const uid = await createForm(formBody({ status: 'inactive' }));
    const before = await completionCount();
    expectProblem(await submit({ formId: uid, answers: { vehicle: 'acme-v-1', tyres: 'pass' } }), 409, 'conflict');
    expect(await completionCount()).toBe(before);
  });
});

describe('side effects', () => {
  it('an odometer reading raises the vehicle total; a lower one is a warning and changes nothing', async () => {
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const up = await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass', odometer: start + 1234.5 } });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.sideEffects).toEqual({ scheduleItemsCreated: 0, vehiclesUpdated: 1, warnings: [] });
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 1234.5);

    const down = await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass', odometer: start + 10 } });
    expect(down.status).toBe(201);
    expect(down.body.sideEffects.vehiclesUpdated).toBe(0);
    expect(down.body.sideEffects.warnings).toHaveLength(1);
    expect(down.body.sideEffects.warnings[0]).toMatch(/below its current total/);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 1234.5);
    // stored with the completion too
    expect((await get(`/form-completions/${down.body.uid}`)).body.sideEffects.warnings).toHaveLength(1);
  });

  it('each defect creates a Defect schedule item due now, linked to the submission, visible in maintenance status', async () => {
    const before = (await defectItems('acme-v-1')).length;
    const r = await submit({
      formId,
      answers: { vehicle: 'acme-v-1', tyres: 'fail', defects: [{ description: 'Cracked mirror', severity: 'low' }, { description: 'Oil leak' }] },
      appBaseUrl: 'https://app.example.com/',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.sideEffects.scheduleItemsCreated).toBe(2);
    const items = await defectItems('acme-v-1');
    expect(items.length).toBe(before + 2);
    const mirror = items.find((i) => i.name === 'Defect: Cracked mirror')!;
    expect(mirror).toMatchObject({ type: 'Defect', relatedToType: 'vehicle', recurring: false, status: 'active' });
    expect(mirror.documentation).toEqual([`https://app.example.com/forms/completions/${r.body.uid}`]);
    expect(mirror.notes).toContain('Severity: low');
    const status = await get('/maintenance-status?relatedTo=acme-v-1');
    const s = status.body.data.find((x: Body) => x.scheduleItemUid === mirror.uid);
    expect(s.calendarDaysRemaining).toBe(0);
  });

  it('a defect reported with the longest appBaseUrl keeps its whole link (it was refused as a schedule item\u2019s too-long documentation)', async () => {
    const base = `https://app.example.com/${'a'.repeat(2048 - 'https://app.example.com/'.length)}`;
    expect(base).toHaveLength(2048);
    const r = await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'fail', defects: { description: 'Long link' } }, appBaseUrl: base });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const item = (await defectItems('acme-v-1')).find((i) => i.name === 'Defect: Long link')!;
    expect(item.documentation).toEqual([`${base}/forms/completions/${r.body.uid}`]);
  });

  it('a defect description over 200 characters names its item cut between characters, never inside an emoji', async () => {
    // cut by UTF-16 units, the 197th unit fell inside an emoji's surrogate pair: the half character was refused by
    // the database, and the whole submission with it (a 400 without a path; a 500 on the public page)
    const description = 'a'.repeat(196) + '\u{1F600}'.repeat(5);
    const r = await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'fail', defects: { description } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const item = (await defectItems('acme-v-1')).find((i) => i.name.startsWith('Defect: aaa'))!;
    expect(item.name).toBe(`Defect: ${'a'.repeat(196)}\u{1F600}...`);
    expect(item.notes.split('\n')[0]).toBe(description);
  });

  it('a defect on an aircraft form goes to the aircraft', async () => {
    const r = await submit({ formId: aircraftFormId, answers: { aircraft: 'acme-ac-2', airworthy: false, squawks: { description: 'Nav light out' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.sideEffects.scheduleItemsCreated).toBe(1);
    const items = await defectItems('acme-ac-2');
    expect(items.map((i) => i.name)).toContain('Defect: Nav light out');
    expect(items[0].relatedToType).toBe('aircraft');
  });

  it('a defect or odometer without its asset answered is a 400', async () => {
    const f = await createForm(
      formBody({
        sections: [
          { name: 'S', fields: [{ name: 'vehicle', label: 'V', type: 'vehicle' }, { name: 'km', label: 'Km', type: 'odometer', vehicleField: 'vehicle' }, { name: 'd', label: 'D', type: 'defect', assetField: 'vehicle' }] },
        ],
      }),
    );
    expectValidation(await submit({ formId: f, answers: { km: 5 } }), '/answers/vehicle');
    expectValidation(await submit({ formId: f, answers: { d: { description: 'x' } } }), '/answers/vehicle');
    expect((await submit({ formId: f, answers: { d: [] } })).status).toBe(201);
  });

  /** A submission's rows as the service builds them, for the write itself: a reading on acme-v-1 and two defects. */
  async function submissionRows(reading: number, defectUid: string): Promise<SubmissionWrite> {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const services = createServices(db, 'acme-owner');
    const uid = `fc_${uniq()}`;
    const at = new Date();
    const form = await db.form.findFirstOrThrow({ where: { uid: formId } });
    const completion = { uid, formId, code: form.code, name: form.name, userId: 'acme-owner', submitterName: null, data: { vehicle: 'acme-v-1', odometer: reading }, revision: form.revision, revisionDate: form.revisionDate, signatories: [], appBaseUrl: null, sideEffects: {} };
    const readings = planReadings(await services.vehicles.forReadings(['acme-v-1'], false), [{ uid: 'acme-v-1', reading }]);
    const defects = defectRows([{ assetType: 'vehicle', assetUid: 'acme-v-1', description: 'A', source: 'test' }, { assetType: 'vehicle', assetUid: 'acme-v-1', description: 'B', source: 'test' }], 'UTC');
    defects[1]!.uid = defectUid;
    const holds = { form: { uid: form.uid, updatedAt: form.updatedAt, revision: form.revision, publicId: null }, aircraft: [], vehicles: ['acme-v-1'] };
    return { at, completion, readings, defects, deliveries: services.deliveries.rowsFor(form, { ...completion, createdAt: at }), holds };
  }

  it('a submission is written in one statement: a failing part writes none of it', async () => {
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const before = await completionCount();
    const itemsBefore = (await defectItems('acme-v-1')).length;
    const db = scopedPrisma(env.database.prisma, env.a.id);
    // the second defect item's uid is taken: its INSERT fails after the reading and the first item were planned
    const taken = (await defectItems('acme-v-1'))[0]?.uid ?? (await db.scheduleItem.findFirstOrThrow({})).uid;
    await expect(writeSubmission(db, await submissionRows(start + 500, taken), true)).rejects.toThrow();
    expect(await completionCount()).toBe(before);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start);
    expect((await defectItems('acme-v-1')).length).toBe(itemsBefore);
    // and the same rows without the clash: all of it, the reading applied exactly
    expect(await writeSubmission(db, await submissionRows(start + 500, `si_${uniq()}`), true)).toBe('written');
    expect(await completionCount()).toBe(before + 1);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 500);
    expect((await defectItems('acme-v-1')).length).toBe(itemsBefore + 2);
  });

  it('a reading planned on a vehicle that changed since it was read: nothing written; the service plans again', async () => {
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const before = await completionCount();
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const stale = await submissionRows(start + 10, `si_${uniq()}`);
    // another submission raises the odometer after `stale` read it
    const other = await submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass', odometer: start + 20 } });
    expect(other.body.sideEffects).toEqual({ scheduleItemsCreated: 0, vehiclesUpdated: 1, warnings: [] });
    expect(await writeSubmission(db, stale, true)).toBe('vehicles-changed');
    expect(await completionCount()).toBe(before + 1);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 20);
    // under the caller's lock (no comparison) the same rows are written: what the locked path does after re-planning
    const fresh = await submissionRows(start + 30, `si_${uniq()}`);
    expect(await db.$transaction((tx) => writeSubmission(tx, fresh, false))).toBe('written');
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 30);
  });

  it('rows checked against a form or a vehicle that has changed since: nothing written, the service checks again', async () => {
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const before = await completionCount();
    const db = scopedPrisma(env.database.prisma, env.a.id);
    // the form is edited after the rows were checked against it (its webhooks, fields or recipients may differ now)
    const stale = await submissionRows(start + 10, `si_${uniq()}`);
    await db.form.updateMany({ where: { uid: formId }, data: { updatedAt: new Date(stale.holds.form.updatedAt.getTime() + 1000) } });
    expect(await writeSubmission(db, stale, true)).toBe('checks-changed');
    // a vehicle the answers name is deleted after they were checked
    const gone = await submissionRows(start + 10, `si_${uniq()}`);
    const other = await env.json('POST', `${API}/vehicles`, { body: { make: 'Ford', model: 'Ranger', registration: `DEL-${uniq()}` } });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    gone.holds.vehicles.push(other.body.uid);
    const deleted = await env.json('DELETE', `${API}/vehicles/${other.body.uid}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await writeSubmission(db, gone, true)).toBe('checks-changed');
    // and with it restored, the same rows are written
    expect(await env.json('POST', `${API}/vehicles/${other.body.uid}/restore`).then((r) => r.status)).toBe(200);
    expect(await writeSubmission(db, gone, true)).toBe('written');
    expect(await completionCount()).toBe(before + 1);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 10);
  });

  /**
   * The company's client for a submission, on which `change` runs right after the submission's first read of its
   * form (as another request's change committing at that moment would); `hooks` as a request's client has them.
   */
  function changedAfterFormRead(change: () => Promise<unknown>, hooks?: TransactionHooks): ScopedPrisma {
    const db = scopedPrisma(env.database.prisma, env.a.id, false, hooks);
    let reads = 0;
    return new Proxy(db as object, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop !== 'form') return value;
        return new Proxy(value as object, {
          get(forms, op) {
            const fn = Reflect.get(forms, op);
            if (op !== 'findFirst') return fn;
            return async (args: unknown) => {
              const row = await (fn as (a: unknown) => Promise<unknown>).call(forms, args);
              if (reads++ === 0) await change();
              return row;
            };
          },
        });
      },
    }) as ScopedPrisma;
  }

  it('a public form withdrawn after the submission read it: checked again, a 404, nothing written', async () => {
    const plain = scopedPrisma(env.database.prisma, env.a.id);
    const f = await env.json('POST', `${API}/forms`, { body: { name: 'Feedback', code: `fb-${uniq()}`, department: 'Ops', publiclyAvailable: true, sections: [{ name: 'A', fields: [{ name: 'note', label: 'Note', type: 'text' }] }] } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const { publicId } = (await env.json('GET', `${API}/forms/${f.body.uid}`)).body;
    const db = changedAfterFormRead(() => plain.form.updateMany({ where: { uid: f.body.uid }, data: { publiclyAvailable: false } }));
    const err = await createServices(db, 'public').completions.createPublic(f.body.uid, publicId, { answers: { note: 'late' } }).then(() => null, (e: unknown) => e);
    expect(String(err)).toMatch(/public form/);
    expect((err as { status?: number }).status).toBe(404);
    expect(await plain.formCompletion.count({ where: { formId: f.body.uid } })).toBe(0);
  });

  it('with an Idempotency-Key, a submission that writes nothing leaves its claim unmarked', async () => {
    // a claim marked committed without its write would answer a retry with the same key 422 (outcome lost) after a
    // crash, although nothing was written (src/db/scoped.ts commitsWithHook)
    const plain = scopedPrisma(env.database.prisma, env.a.id);
    const f = await env.json('POST', `${API}/forms`, { body: { name: 'Note', code: `note-${uniq()}`, department: 'Ops', sections: [{ name: 'A', fields: [{ name: 'note', label: 'Note', type: 'text' }] }] } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const key = `claim-${uniq()}`;
    await plain.idempotencyKey.create({ data: { key, apiKeyId: 'test', requestHash: 'h', expiresAt: new Date(Date.now() + 3_600_000) } });
    const hooks: TransactionHooks = { beforeCommit: (tx) => tx.idempotencyKey.updateMany({ where: { key, state: 'running' }, data: { state: 'committed' } }) };
    const db = changedAfterFormRead(() => plain.form.updateMany({ where: { uid: f.body.uid }, data: { status: 'inactive' } }), hooks);
    expect(db.commitsWithHook).toBe(true);
    const err = await createServices(db, 'acme-owner').completions.create({ formId: f.body.uid, answers: { note: 'x' } }).then(() => null, (e: unknown) => e);
    expect(String(err)).toMatch(/inactive/);
    expect(await plain.formCompletion.count({ where: { formId: f.body.uid } })).toBe(0);
    expect((await plain.idempotencyKey.findFirst({ where: { key } }))?.state).toBe('running');
  });

  it('with an Idempotency-Key: written once under the vehicle lock, the same answer replayed, the reading applied once', async () => {
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const before = await completionCount();
    const itemsBefore = (await defectItems('acme-v-1')).length;
    const body = { formId, answers: { vehicle: 'acme-v-1', tyres: 'pass', odometer: start + 9, defects: [{ description: 'Chipped windscreen' }] } };
    const headers = { 'idempotency-key': `fc-${uniq()}` };
    const first = await env.json('POST', `${API}/form-completions`, { body, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.sideEffects).toEqual({ scheduleItemsCreated: 1, vehiclesUpdated: 1, warnings: [] });
    const again = await env.json('POST', `${API}/form-completions`, { body, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await completionCount()).toBe(before + 1);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(start + 9);
    expect((await defectItems('acme-v-1')).length).toBe(itemsBefore + 1);
  });

  it('concurrent readings of one vehicle: each applied on the total as it was, the highest wins, none lost', async () => {
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const readings = Array.from({ length: 12 }, (_, i) => start + 1 + ((i * 7) % 12));
    const results = await Promise.all(readings.map((r) => submit({ formId, answers: { vehicle: 'acme-v-1', tyres: 'pass', odometer: r } })));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect((await vehicleTotals('acme-v-1')).odometer).toBe(Math.max(...readings));
    // a reading is applied only over a lower total, so at least the highest one was applied, and every reading is
    // either applied, equal to the total then (no change) or a warning below it
    const applied = results.filter((r) => r.body.sideEffects.vehiclesUpdated === 1).length;
    const warned = results.filter((r) => r.body.sideEffects.warnings.length === 1).length;
    expect(applied).toBeGreaterThanOrEqual(1);
    expect(applied + warned).toBeLessThanOrEqual(readings.length);
    for (const r of results) expect(r.body.sideEffects.warnings.length + r.body.sideEffects.vehiclesUpdated).toBeLessThanOrEqual(1);
  });
});

describe('GET /form-completions', () => {
  it('filters by form, code and user, newest first, with a cursor', async () => {
    const f = await createForm(formBody());
    const uids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await submit({ formId: f, answers: { vehicle: 'acme-v-1', tyres: 'pass' }, userId: i === 1 ? 'acme-pilot' : 'acme-owner' });
      uids.push(r.body.uid);
    }
    const all = await get(`/form-completions?formId=${f}`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((c: Body) => c.uid)).toEqual([...uids].reverse());
    expect(all.body).toMatchObject({ count: 3, nextCursor: null });
    const p1 = await get(`/form-completions?formId=${f}&limit=2`);
    expect(p1.body.count).toBe(2);
    expect(p1.body.nextCursor).toEqual(expect.any(String));
    const p2 = await get(`/form-completions?formId=${f}&limit=2&cursor=${p1.body.nextCursor}`);
    expect([...p1.body.data, ...p2.body.data].map((c: Body) => c.uid)).toEqual([...uids].reverse());
    expect(p2.body.nextCursor).toBeNull();
    const code = (await get(`/forms/${f}`)).body.code;
    expect((await get(`/form-completions?code=${code}`)).body.count).toBe(3);
    expect((await get(`/form-completions?formId=${f}&userId=acme-pilot`)).body.data.map((c: Body) => c.uid)).toEqual([uids[1]]);
    expect((await get(`/form-completions?formId=${f}&startDate=2000-01-01&endDate=2000-12-31`)).body.count).toBe(0);
    // the days the completions were written on (UTC dates of their createdAt: two when they straddle midnight)
    const days = all.body.data.map((c: Body) => String(c.createdAt).slice(0, 10)).sort();
    expect((await get(`/form-completions?formId=${f}&startDate=${days[0]}&endDate=${days[2]}`)).body.count).toBe(3);
  });

  it('refuses bad filters (400)', async () => {
    expectValidation(await get('/form-completions?limit=0'), '/query/limit');
    expectValidation(await get('/form-completions?startDate=yesterday'), '/query/startDate');
    expectValidation(await get('/form-completions?cursor=bogus'), '/query/cursor');
  });

  it('never shows another company\u2019s completions', async () => {
    const theirForm = await createForm(formBody(), env.b.key);
    const r = await submit({ formId: theirForm, answers: { vehicle: 'globex-v-1', tyres: 'pass' } }, env.b.key);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expectProblem(await get(`/form-completions/${r.body.uid}`), 404, 'not_found');
    expect((await get(`/form-completions?formId=${theirForm}`)).body.count).toBe(0);
    expect((await get(`/form-completions/${r.body.uid}`, env.b.key)).status).toBe(200);
  });

  it('exports CSV with one column per answer key of the form, formula cells neutralised', async () => {
    const f = await createForm(formBody());
    await submit({ formId: f, answers: { vehicle: 'acme-v-1', tyres: 'fail', tyres__comment: '=HYPERLINK("http://evil")', fuel: 'low', temp: -3 } });
    const res = await env.request('GET', `${API}/form-completions?formId=${f}`, { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('uid,createdAt,formId,code,name,revision,userId,submitterName,vehicle,odometer,tyres,tyres__comment,fuel,temp,checkedOn,inspector,photos,defects');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,acme-v-1,,fail,"'=HYPERLINK(""http://evil"")",low,-3,,,,`);
    const bad = await env.json('GET', `${API}/form-completions?startDate=nope`, { headers: { accept: 'text/csv' } });
    expectValidation(bad, '/query/startDate');
  });

  it('CSV is the JSON answer\u2019s page, the next in a Link header, with the same columns on every page (it gave every completion, limit ignored)', async () => {
    const f = await createForm(formBody());
    for (const fuel of ['low', 'half', 'full']) await submit({ formId: f, answers: { vehicle: 'acme-v-1', tyres: 'pass', fuel } });
    const json = await get(`/form-completions?formId=${f}`);
    expect(json.body.count).toBe(3);
    const seen: string[] = [];
    let header: string | undefined;
    let url: string | null = `${API}/form-completions?formId=${f}&limit=2`;
    for (let pages = 0; url; pages++) {
      expect(pages).toBeLessThan(2);
      const res = await env.request('GET', url, { headers: { accept: 'text/csv' } });
      expect(res.status).toBe(200);
      const [h, ...rows] = (await res.text()).trim().split('\n');
      if (header) expect(h).toBe(header);
      header = h;
      expect(rows.length).toBe(pages ? 1 : 2);
      seen.push(...rows.map((r) => r.split(',')[0]!));
      url = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen).toEqual(json.body.data.map((c: Body) => c.uid));
    // the cursor is checked as the JSON list checks it
    const forged = await env.json('GET', `${API}/form-completions?cursor=bogus`, { headers: { accept: 'text/csv' } });
    expectValidation(forged, '/query/cursor');
  });
});

describe('GraphQL', () => {
  it('submits and reads completions with their form, user and created schedule items', async () => {
    const r = await env.gql('mutation($i: CreateFormCompletionInput!) { createFormCompletion(input: $i) { uid status sideEffects { scheduleItemsCreated vehiclesUpdated warnings } } }', {
      i: { formId, answers: { vehicle: 'acme-v-1', tyres: 'fail', defects: { description: 'Wiper torn' } } },
    });
    expect(r.body.errors).toBeUndefined();
    const uid = r.body.data.createFormCompletion.uid;
    expect(r.body.data.createFormCompletion.sideEffects.scheduleItemsCreated).toBe(1);
    const q = await env.gql(
      'query($id: ID!) { formCompletion(id: $id) { uid data form { code } user { uid } scheduleItems { name type relatedTo } } formCompletions(limit: 2) { count nextCursor data { uid form { uid } } } }',
      { id: uid },
    );
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.formCompletion).toMatchObject({ uid, form: { code: formCode }, user: { uid: 'acme-owner' }, scheduleItems: [{ name: 'Defect: Wiper torn', type: 'Defect', relatedTo: 'acme-v-1' }] });
    expect(q.body.data.formCompletions.count).toBe(2);
    const bad = await env.gql('mutation($i: CreateFormCompletionInput!) { createFormCompletion(input: $i) { uid } }', { i: { formId, answers: { vehicle: 'acme-v-1' } } });
    expect(bad.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors![0].extensions.errors[0].path).toBe('/answers/tyres');
  });
});

describe('the demo daily-inspection form', () => {
  it('is a valid template that a driver can complete, raising the odometer and logging a defect', async () => {
    const { uid: _uid, ...template } = demoForm;
    const id = await createForm({ ...template, code: `demo-${uniq()}` });
    const schema = (await get(`/forms/${id}/completion-schema`)).body;
    expect(schema.fields.filter((f: Body) => f.companionOf).length).toBe(6);
    const start = (await vehicleTotals('acme-v-1')).odometer;
    const answers: Body = { vehicle: 'acme-v-1', odometer: Math.ceil(start) + 87, fuelLevel: '1/2', fitForService: true, signature: 'sig-123' };
    for (const f of schema.fields) if (f.type === 'checklist') answers[f.name] = 'pass';
    answers.brakes = 'fail';
    answers.brakes__comment = 'Soft pedal';
    answers.defects = { description: 'Brake pedal soft', severity: 'high' };
    const r = await submit({ formId: id, answers });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.sideEffects).toEqual({ scheduleItemsCreated: 1, vehiclesUpdated: 1, warnings: [] });
  });
});
