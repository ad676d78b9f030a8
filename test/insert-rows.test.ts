// insertRows (src/db/insert-rows.ts), the set-based insert the flight-log and submission writes are composed from:
// values typed by their columns, values shared by every row bound once, Prisma.DbNull as SQL NULL, and rows that do
// not all name the same columns refused before any SQL runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRows } from '../src/db/insert-rows.js';
import { scopedPrisma, type ScopedPrisma } from '../src/db/scoped.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestEnv, type TestEnv } from './helpers.js';

let env: TestEnv;
let db: ScopedPrisma;
beforeAll(async () => {
  env = await createTestEnv();
  db = scopedPrisma(env.database.prisma, env.a.id);
});
afterAll(() => env.close());

const item = (uid: string, over: Record<string, unknown> = {}) => ({
  uid, name: `Check ${uid}`, type: 'inspection', documentation: ['a.pdf'], archivedDocumentation: [], relatedTo: 'ac-1', relatedToType: 'aircraft',
  recurring: false, dueAtInterval: new Prisma.Decimal('12.345678'), lastCarriedOutValue: Prisma.DbNull, ...over,
});

describe('insertRows', () => {
  it('writes every row with its values typed by their columns and the shared values bound once', async () => {
    const at = new Date('2026-03-04T05:06:07.890Z');
    const sql = insertRows('ScheduleItem', [item('ir-1'), item('ir-2', { lastCarriedOutValue: 42.5 })], Prisma.sql`true`, { createdAt: at, updatedAt: at })!;
    expect(sql.values.filter((v) => typeof v === 'string' && v.includes('2026-03-04'))).toHaveLength(1); // once, not per row
    await db.$executeRaw`WITH ins AS (${sql} RETURNING 1) SELECT count(*) FROM ins`;
    const rows = await db.scheduleItem.findMany({ where: { uid: { in: ['ir-1', 'ir-2'] } }, orderBy: { uid: 'asc' } });
    expect(rows.map((r) => [r.uid, r.companyId, r.documentation, r.dueAtInterval?.toString(), r.lastCarriedOutValue, r.createdAt.toISOString(), r.updatedAt.toISOString()])).toEqual([
      ['ir-1', env.a.id, ['a.pdf'], '12.345678', null, at.toISOString(), at.toISOString()],
      ['ir-2', env.a.id, ['a.pdf'], '12.345678', 42.5, at.toISOString(), at.toISOString()],
    ]);
  });

  it('writes nothing when its condition is false, and a column left out takes its default', async () => {
    await db.$executeRaw`WITH ins AS (${insertRows('ScheduleItem', [item('ir-3')], Prisma.sql`false`)!} RETURNING 1) SELECT count(*) FROM ins`;
    expect(await db.scheduleItem.count({ where: { uid: 'ir-3' } })).toBe(0);
    await db.$executeRaw`WITH ins AS (${insertRows('ScheduleItem', [item('ir-4', { updatedAt: new Date() })], Prisma.sql`true`)!} RETURNING 1) SELECT count(*) FROM ins`;
    expect((await db.scheduleItem.findFirstOrThrow({ where: { uid: 'ir-4' } })).status).toBe('active');
  });

  it('refuses rows that do not name the same columns, the company column, a JSON null and a column given twice', () => {
    const t = Prisma.sql`true`;
    expect(() => insertRows('ScheduleItem', [item('x'), { ...item('y'), notes: 'extra' }], t)).toThrow(/same columns/);
    const { name: _name, ...noName } = item('z');
    expect(() => insertRows('ScheduleItem', [item('x'), { ...noName, notes: 'instead' }], t)).toThrow(/same columns/);
    expect(() => insertRows('ScheduleItem', [{ ...item('x'), companyId: 'other' }], t)).toThrow(/no writable column "companyId"/);
    expect(() => insertRows('ScheduleItem', [item('x', { lastCarriedOutValue: Prisma.JsonNull })], t)).toThrow(/JSON null/);
    expect(() => insertRows('ScheduleItem', [item('x')], t, { uid: 'again' })).toThrow(/given per row and for every row/);
    expect(insertRows('ScheduleItem', [], t)).toBeNull();
  });
});
