// Vehicle starting figures and initial values (docs/api-notes.md "Vehicles"; docs/contract/gaps.md §3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env.close();
});

const vehicle = (registration: string, over: Record<string, unknown> = {}) => ({
  make: 'Ford',
  model: 'Ranger',
  registration,
  tracking: { kilometers: true, miles: false, hours: false },
  ...over,
});

describe('a create\u2019s starting totals', () => {
  it('totals that differ from initialValues: the path once in the batch item\u2019s error and in the detail', async () => {
    const differs = 'totals.odometer differs from initialValues.odometer; on create they are the same figure';
    const b = await env.rest.post('/vehicles/batch', {
      items: [
        vehicle('BATCH-OK', { totals: { odometer: 10 } }),
        vehicle('BATCH-DIFF', { totals: { odometer: 10 }, initialValues: { odometer: 11 } }),
        vehicle('BATCH-TEXT', { totals: { odometer: 'ten' } }),
      ],
    });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.results).toHaveLength(1);
    expect(b.body.errors).toEqual([
      { index: 1, error: `invalid vehicle: /totals/odometer: ${differs}` },
      { index: 2, error: 'invalid vehicle: /totals/odometer: a tracking value must be a number' },
    ]);
    const one = await env.rest.post('/vehicles', vehicle('ONE-DIFF', { totals: { odometer: 10 }, initialValues: { odometer: 11 } }));
    expectValidation(one, '/totals/odometer');
    expect(one.body.detail).toBe(`invalid vehicle: /totals/odometer: ${differs}`);
    expect(one.body.errors).toEqual([{ path: '/totals/odometer', message: differs }]);
  });
});
