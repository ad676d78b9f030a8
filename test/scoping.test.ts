// Tenant scoping at the data layer (src/db/scoped.ts): reads and writes get the caller's company, an operation the
// scoped client does not know is refused rather than run unscoped, and write data may not set or move companyId.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedPrisma } from '../src/db/scoped.js';
import { createTestEnv, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('the company-scoped client', () => {
  it('reads only the company\u2019s rows, whatever the where says', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const mine = await db.aircraft.findMany({});
    expect(mine.map((a) => a.uid).sort()).toEqual(['acme-ac-1', 'acme-ac-2']);
    expect(await db.aircraft.findFirst({ where: { uid: 'globex-ac-1' } })).toBeNull();
    // a where naming another company is overridden by the scope: still only this company's rows
    expect((await db.aircraft.findMany({ where: { companyId: env.b.id } as never })).every((a) => a.companyId === env.a.id)).toBe(true);
    expect(await db.aircraft.count({ where: { uid: { in: ['acme-ac-1', 'globex-ac-1'] } } })).toBe(1);
  });

  it('refuses companyId in update data (moving a record to another company), and a foreign companyId on create', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    expect(() => db.vehicle.updateMany({ where: { uid: 'acme-v-1' }, data: { companyId: env.b.id } as never })).toThrow(/must not set companyId/);
    expect(() => db.vehicle.updateMany({ where: { uid: 'acme-v-1' }, data: { companyId: env.a.id } as never })).toThrow(/must not set companyId/);
    expect(() => db.vehicle.create({ data: { uid: 'x-1', make: 'A', model: 'B', registration: 'X1', companyId: env.b.id } as never })).toThrow(/must not set companyId/);
    expect(await scopedPrisma(env.database.prisma, env.b.id).vehicle.count({ where: { uid: 'x-1' } })).toBe(0);
    // the vehicle is still the company's
    expect(await db.vehicle.count({ where: { uid: 'acme-v-1' } })).toBe(1);
  });

  it('refuses an operation it does not know instead of running it unscoped', () => {
    let called = false;
    const fake = { aircraft: { findMany: async () => [], aggregateRaw: async () => ((called = true), []) } };
    const db = scopedPrisma(fake as never, 'c1') as any;
    expect(() => db.aircraft.aggregateRaw({})).toThrow(/not supported by the company-scoped client/);
    expect(called).toBe(false);
  });
});
