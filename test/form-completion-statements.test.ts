// A form completion with side effects is a handful of SQL statements (issue 27 "What must exist" 3): one read of
// the form and of each kind of referenced record, then the completion, its defect items, the odometer reading and
// its outbox rows written in one statement (src/modules/completions/write.ts). Counted at the driver adapter (src/db/instrument.ts): the statements that read or
// write data; the transaction's own BEGIN and COMMIT are left out (PostgreSQL's adapter reports COMMIT, PGlite's
// neither, so a count with them would differ by store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, keepKey, uniq, type TestEnv } from './helpers.js';

let env: TestEnv;
let sql: string[] = [];
let formId: string;
beforeAll(async () => {
  env = await createTestEnv({ onQuery: (q) => sql.push(q) });
  const r = await env.json('POST', '/api/v1/forms', {
    body: {
      name: 'Daily check',
      code: `daily-${uniq()}`,
      department: 'Ground ops',
      sections: [
        {
          name: 'S',
          fields: [
            { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
            { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' },
            { name: 'inspector', label: 'Inspector', type: 'user' },
            { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
          ],
        },
      ],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  formId = r.body.uid;
  await keepKey(env, () => sql); // the key's first use is looked up, then known
}, 180_000);
afterAll(() => env?.close());

async function statements(fn: () => Promise<unknown>): Promise<string[]> {
  sql = [];
  await fn();
  const out = sql.filter((q) => !/^\s*(BEGIN|COMMIT|ROLLBACK)\b/i.test(q));
  if (process.env.DEBUG_SQL) out.forEach((q, i) => console.log(i + 1, q.slice(0, 200)));
  return out;
}

const odometer = async () => (await env.json('GET', '/api/v1/vehicles/acme-v-1')).body.totals.odometer as number;

describe('a form completion with side effects', () => {
  it('with two defects and an odometer reading is at most 4 statements (form, vehicle, users, one write), and writes all of it', async () => {
    const start = await odometer();
    let r: { status: number; body: any } = { status: 0, body: null };
    const run = await statements(async () => {
      r = await env.json('POST', '/api/v1/form-completions', {
        body: {
          formId,
          answers: { vehicle: 'acme-v-1', odometer: start + 42, inspector: 'acme-pilot', defects: [{ description: 'Cracked mirror', severity: 'low' }, { description: 'Flat tyre' }] },
        },
      });
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.sideEffects).toEqual({ scheduleItemsCreated: 2, vehiclesUpdated: 1, warnings: [] });
    expect(run.length, run.join('\n')).toBeLessThanOrEqual(4);
    expect(await odometer()).toBe(start + 42);
    const items = (await env.json('GET', `/api/v1/schedule-items?relatedTo=acme-v-1&type=Defect`)).body.data.map((i: any) => i.name);
    expect(items).toEqual(expect.arrayContaining(['Defect: Cracked mirror', 'Defect: Flat tyre']));
    // the completion records the items it created and the vehicle it updated, written with it
    const stored = await env.database.prisma.formCompletion.findFirst({ where: { companyId: env.a.id, uid: r.body.uid } });
    const effects = stored!.sideEffects as { scheduleItemsCreated: string[]; vehiclesUpdated: string[] };
    expect(effects.scheduleItemsCreated).toHaveLength(2);
    expect(effects.vehiclesUpdated).toEqual(['acme-v-1']);
  });

  it('a lower reading is a warning, in as few statements', async () => {
    const start = await odometer();
    let r: { status: number; body: any } = { status: 0, body: null };
    const run = await statements(async () => {
      r = await env.json('POST', '/api/v1/form-completions', {
        body: { formId, answers: { vehicle: 'acme-v-1', odometer: start - 1, defects: [{ description: 'Dent' }] } },
      });
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.sideEffects.vehiclesUpdated).toBe(0);
    expect(r.body.sideEffects.warnings).toEqual([expect.stringContaining('below its current total')]);
    expect(run.length, run.join('\n')).toBeLessThanOrEqual(4);
    expect(await odometer()).toBe(start);
  });
});
