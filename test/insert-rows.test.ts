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
    // bound once for both columns, not in every row: the rows' parameter does not hold it, one other parameter does
    const texts = sql.values.filter((v): v is string => typeof v === 'string');
    const rowsParam = texts.find((v) => v.includes('"ir-1"'))!;
    expect(rowsParam).not.toContain(at.toISOString());
    expect(texts.map((v) => v.split(at.toISOString()).length - 1)).toContain(2);
    expect(texts.reduce((n, v) => n + v.split(at.toISOString()).length - 1, 0)).toBe(2);
    await db.$executeRaw`WITH ins AS (${sql} RETURNING 1) SELECT count(*) FROM ins`;
    const rows = await db.scheduleItem.findMany({ where: { uid: { in: ['ir-1', 'ir-2'] } }, orderBy: { uid: 'asc' } });
    expect(rows.map((r) => [r.uid, r.companyId, r.documentation, r.dueAtInterval?.toString(), r.lastCarriedOutValue, r.createdAt.toISOString(), r.updatedAt.toISOString()])).toEqual([
      ['ir-1', env.a.id, ['a.pdf'], '12.345678', null, at.toISOString(), at.toISOString()],
      ['ir-2', env.a.id, ['a.pdf'], '12.345678', 42.5, at.toISOString(), at.toISOString()],
    ]);
  });

  it('writes rows that hold no null sentinel as they are, nulls and JSON values included', async () => {
    const rows = [item('ir-5', { lastCarriedOutValue: { hobbs: 1.5 }, notes: null }), item('ir-6', { lastCarriedOutValue: 'a', notes: 'n' })];
    await db.$executeRaw`WITH ins AS (${insertRows('ScheduleItem', rows, Prisma.sql`true`, { updatedAt: new Date() })!} RETURNING 1) SELECT count(*) FROM ins`;
    const got = await db.scheduleItem.findMany({ where: { uid: { in: ['ir-5', 'ir-6'] } }, orderBy: { uid: 'asc' } });
    expect(got.map((r) => [r.lastCarriedOutValue, r.notes])).toEqual([[{ hobbs: 1.5 }, null], ['a', 'n']]);
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
    // a key inherited from a prototype is not the row's own: JSON would drop it
    const inherited = Object.assign(Object.create({ notes: 'inherited' }), noName, { name: 'n' });
    expect(() => insertRows('ScheduleItem', [{ ...item('x'), notes: 'own' }, inherited], t)).toThrow(/same columns/);
    expect(insertRows('ScheduleItem', [], t)).toBeNull();
  });
});
