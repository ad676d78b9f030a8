// Tenant scoping at the data layer (src/db/scoped.ts): reads and writes get the caller's company, an operation the
// scoped client does not know is refused rather than run unscoped, and write data may not set or move companyId.
// Every model and every delegate method is gone through, so a model or an operation Prisma adds cannot slip by.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY, scopedPrisma, type ScopedPrisma } from '../src/db/scoped.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { createTestEnv, type TestCompany, type TestEnv } from './helpers.js';

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
    expect((await db.aircraft.findMany({ where: { companyId: env.b.id } })).every((a) => a.companyId === env.a.id)).toBe(true);
    expect(await db.aircraft.count({ where: { uid: { in: ['acme-ac-1', 'globex-ac-1'] } } })).toBe(1);
  });

  it('refuses companyId in update data (moving a record to another company), and a foreign companyId on create', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    // the types refuse them too: these are the calls an untyped caller could still make
    // @ts-expect-error update data cannot set companyId
    expect(() => db.vehicle.updateMany({ where: { uid: 'acme-v-1' }, data: { companyId: env.b.id } })).toThrow(/must not set companyId/);
    // @ts-expect-error not even to the company it is
    expect(() => db.vehicle.updateMany({ where: { uid: 'acme-v-1' }, data: { companyId: env.a.id } })).toThrow(/must not set companyId/);
    // @ts-expect-error create data has no companyId
    expect(() => db.vehicle.create({ data: { uid: 'x-1', make: 'A', model: 'B', registration: 'X1', companyId: env.b.id } })).toThrow(/must not set companyId/);
    expect(await scopedPrisma(env.database.prisma, env.b.id).vehicle.count({ where: { uid: 'x-1' } })).toBe(0);
    // the vehicle is still the company's
    expect(await db.vehicle.count({ where: { uid: 'acme-v-1' } })).toBe(1);
  });

  it('scopes or refuses every method of every model, under each name the client answers to', () => {
    const shape = delegatesOf(env.database.prisma);
    // one more that no version of Prisma has: an operation the scoped client does not know must be refused
    for (const ops of shape.values()) ops.push('anOperationPrismaAddsLater');
    for (const model of Object.values(Prisma.ModelName)) {
      expect(shape.has(camel(model)), `delegate of ${model}`).toBe(true);
    }
    // a stand-in of the same shape records what would reach Prisma
    let calls: Record<string, any>[] = [];
    const fake = Object.fromEntries(
      [...shape].map(([key, ops]) => [key, Object.fromEntries(ops.map((op) => [op, (args: Record<string, any>) => (calls.push(args), Promise.resolve(null))]))]),
    );
    const db = scopedPrisma(fake as never, 'c1') as unknown as Record<string, Record<string, (args: unknown) => unknown>>;
    const run = (key: string, op: string, args: Record<string, unknown>) => {
      calls = [];
      try {
        db[key][op](args);
      } catch (e) {
        expect(calls, `${key}.${op} refused before it reached Prisma`).toHaveLength(0);
        return e as Error;
      }
      expect(calls, `${key}.${op}`).toHaveLength(1);
      return calls[0];
    };
    const scoped: string[] = [];
    for (const [key, ops] of shape) {
      const model = key.charAt(0).toUpperCase() + key.slice(1);
      const k = model === 'Company' ? 'id' : 'companyId';
      for (const op of ops) {
        const args = run(key, op, { where: { uid: 'u' }, data: { uid: 'u' }, create: { uid: 'u' }, update: { notes: 'n' } });
        if (args instanceof Error) {
          expect(args.message).toMatch(/not supported by the company-scoped client|cannot be created through a company-scoped client/);
          continue;
        }
        scoped.push(`${key}.${op}`);
        const rows = (d: unknown) => (Array.isArray(d) ? d : [d]) as Record<string, unknown>[];
        if (op.startsWith('create')) {
          expect(rows(args.data).every((r) => r[k] === 'c1'), `${key}.${op} data`).toBe(true);
          expect(run(key, op, { data: [{ uid: 'u' }, { uid: 'v', [k]: 'c2' }] }), `${key}.${op} with another company`).toBeInstanceOf(Error);
        } else if (op === 'upsert') {
          expect([args.where[k], args.create[k]], `${key}.${op}`).toEqual(['c1', 'c1']);
          expect(run(key, op, { where: {}, create: { [k]: 'c2' }, update: {} }), `${key}.${op} creating in another company`).toBeInstanceOf(Error);
          expect(run(key, op, { where: {}, create: {}, update: { [k]: 'c1' } }), `${key}.${op} setting the company`).toBeInstanceOf(Error);
        } else {
          expect(args.where[k], `${key}.${op} where`).toBe('c1');
          if (op.startsWith('update')) {
            expect(run(key, op, { where: {}, data: { [k]: 'c1' } }), `${key}.${op} setting the company`).toBeInstanceOf(Error);
          }
        }
      }
    }
    expect(scoped.filter((s) => s.endsWith('.anOperationPrismaAddsLater'))).toEqual([]);
    // not vacuous: what the services use is scoped, under both names of a model
    for (const model of Object.values(Prisma.ModelName)) {
      for (const key of [camel(model), model]) {
        for (const op of ['findFirst', 'findMany', 'count', 'updateMany', 'deleteMany', ...(model === 'Company' ? [] : ['create'])]) {
          expect(scoped).toContain(`${key}.${op}`);
        }
      }
    }
  });

  it('finds no row of another company, for every model, not even by its unique key', async () => {
    const mine = scopedPrisma(env.database.prisma, env.a.id);
    const theirs = scopedPrisma(env.database.prisma, env.b.id);
    for (const model of Object.values(Prisma.ModelName)) {
      const { where, unique, data } = await OTHER_COMPANY_ROW[model](theirs, env.b);
      const d = (db: ScopedPrisma) => (db as unknown as Record<string, Record<string, (args: unknown) => Promise<any>>>)[camel(model)];
      expect(await d(theirs).count({ where }), `${model}: the other company has the row`).toBe(1);
      expect(await d(mine).findFirst({ where }), model).toBeNull();
      // the scope's company replaces the one a where names: a company's own id leads back to itself
      expect(await d(mine).findUnique({ where: unique }), model).toEqual(model === 'Company' ? expect.objectContaining({ id: env.a.id }) : null);
      expect(await d(mine).findMany({ where }), model).toEqual([]);
      expect(await d(mine).count({ where }), model).toBe(0);
      expect((await d(mine).updateMany({ where, data })).count, model).toBe(0);
      expect((await d(mine).deleteMany({ where })).count, model).toBe(0);
      expect(await d(theirs).count({ where: { ...where, ...data } }), `${model}: the other company's row is as it was`).toBe(0);
      expect(await d(theirs).count({ where }), `${model}: the other company's row is still there`).toBe(1);
    }
  });

  it('binds COMPANY in raw SQL to the client\u2019s company, and only a scoped client binds it', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    expect(await db.$queryRaw<{ c: string }[]>`SELECT ${COMPANY}::text AS c`).toEqual([{ c: env.a.id }]);
    const mine = Prisma.sql`SELECT uid FROM "Aircraft" WHERE "companyId" = ${COMPANY} ORDER BY uid`;
    expect(await db.$queryRaw(mine)).toEqual([{ uid: 'acme-ac-1' }, { uid: 'acme-ac-2' }]);
    expect(await db.$queryRaw`SELECT count(*)::int AS n FROM (${mine}) m`).toEqual([{ n: 2 }]);
    expect(await db.$executeRaw`UPDATE "Aircraft" SET "updatedAt" = "updatedAt" WHERE "companyId" = ${COMPANY}`).toBe(2);
    await expect(env.database.prisma.$queryRaw`SELECT ${COMPANY}::text AS c`).rejects.toThrow(/COMPANY is bound only by/);
  });

  it('refuses raw SQL that does not name the company, in and out of a transaction, and runs none of it', async () => {
    const db = scopedPrisma(env.database.prisma, env.a.id);
    const statuses = async () => (await env.database.prisma.aircraft.findMany({ where: { companyId: { in: [env.a.id, env.b.id] } }, select: { status: true } })).map((a) => a.status);
    const before = await statuses();
    const refused = /must name the company with \$\{COMPANY\}/;
    expect(() => db.$queryRaw`SELECT uid FROM "Aircraft"`).toThrow(refused);
    expect(() => db.$queryRaw(Prisma.sql`SELECT uid FROM "Aircraft" WHERE "companyId" = ${env.b.id}`)).toThrow(refused);
    expect(() => db.$executeRaw`UPDATE "Aircraft" SET status = 'moved'`).toThrow(refused);
    await db.$transaction(async (tx) => {
      expect(() => tx.$executeRaw`UPDATE "Aircraft" SET status = 'moved'`).toThrow(refused);
      // @ts-expect-error not on the scoped client's type either
      expect(() => tx.$executeRawUnsafe(`UPDATE "Aircraft" SET status = 'moved'`)).toThrow(/not supported by the company-scoped client/);
    });
    expect(await statuses()).toEqual(before);
    expect(before.length).toBe(4);
  });

  it('refuses every client-level operation that would run unscoped; a delegate leads back to the scoped client', () => {
    const db = scopedPrisma(env.database.prisma, env.a.id) as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const op of ['$queryRawUnsafe', '$executeRawUnsafe', '$queryRawTyped', '$runCommandRaw', '$queryRawInternal', '$executeRawInternal', '$extends', '$on', '$connect', '$disconnect', '$parent', '$somethingPrismaAddsLater']) {
      expect(() => db[op]('SELECT 1'), op).toThrow(/not supported by the company-scoped client/);
    }
    const scoped = scopedPrisma(env.database.prisma, env.a.id);
    expect((scoped.aircraft as unknown as { $parent: unknown }).$parent).toBe(scoped);
  });
});

const camel = (model: string) => model.charAt(0).toLowerCase() + model.slice(1);

/** The client's model delegates by every key it answers to, with their methods. */
function delegatesOf(client: object): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const key of Reflect.ownKeys(client)) {
    const d = typeof key === 'string' ? (client as Record<string, unknown>)[key] : undefined;
    if (d && typeof d === 'object' && typeof (d as { findMany?: unknown }).findMany === 'function') {
      out.set(key as string, Object.keys(d).filter((op) => typeof (d as Record<string, unknown>)[op] === 'function'));
    }
  }
  return out;
}

/**
 * A row of company `b` per model, written through b's scoped client, with a `where` naming it (and b's company
 * where the model has one, which the scope must override), its unique key and an update that would change it.
 */
const OTHER_COMPANY_ROW: {
  [M in Prisma.ModelName]: (db: ScopedPrisma, b: TestCompany) => Promise<{ where: object; unique: object; data: object }>;
} = {
  Company: async (_db, b) => ({ where: { id: b.id, name: 'GLOBEX Aviation' }, unique: { id: b.id }, data: { name: 'moved' } }),
  CompanySettings: async (db, b) => {
    await db.companySettings.create({ data: { sms: { provider: 'twilio', accountSid: 'AC' + '0'.repeat(32), authToken: 'scoping-token-123456', from: '+61400000000' } } });
    return { where: { companyId: b.id }, unique: { companyId: b.id }, data: { createdAt: new Date('2000-01-01T00:00:00Z') } };
  },
  ApiKey: async (db) => {
    const id = randomBytes(8).toString('hex');
    await db.apiKey.create({ data: { id, name: 'scoping', prefix: 'fo_x', hash: randomBytes(16).toString('hex') } });
    return { where: { id }, unique: { id }, data: { name: 'moved' } };
  },
  IdempotencyKey: async (db, b) => {
    await db.idempotencyKey.create({ data: { key: 'scoping', apiKeyId: 'k', requestHash: 'h', expiresAt: new Date(Date.now() + 60_000) } });
    return { where: { key: 'scoping' }, unique: { companyId_key: { companyId: b.id, key: 'scoping' } }, data: { state: 'moved' } };
  },
  MaintenanceAlert: async (db, b) => {
    await db.maintenanceAlert.create({ data: { uid: 'scoping-alert', scheduleItemId: 'si', event: 'maintenance.due_soon', cycle: '-|-', payload: {} } });
    return { where: { uid: 'scoping-alert' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-alert' } }, data: { cycle: 'moved' } };
  },
  AuditEntry: async (db, b) => {
    await db.auditEntry.create({ data: { uid: 'scoping-audit', at: new Date('2026-01-02T03:04:05Z'), channel: 'cli', entity: 'user', entityId: 'u', action: 'updated' } });
    return { where: { uid: 'scoping-audit' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-audit' } }, data: { action: 'moved' } };
  },
  User: async (_db, b) => ({ where: { companyId: b.id, uid: 'globex-owner' }, unique: { companyId_uid: { companyId: b.id, uid: 'globex-owner' } }, data: { status: 'moved' } }),
  Aircraft: async (_db, b) => ({ where: { uid: 'globex-ac-1' }, unique: { companyId_uid: { companyId: b.id, uid: 'globex-ac-1' } }, data: { status: 'moved' } }),
  FlightLog: async (db, b) => {
    await db.flightLog.create({
      data: { uid: 'scoping-log', aircraftId: 'globex-ac-1', aircraftRegistration: 'VH-GLO', timeDate: new Date('2026-01-02T03:04:05Z'), pilot: 'p', startLocation: 'A', endLocation: 'B' },
    });
    return { where: { uid: 'scoping-log' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-log' } }, data: { pilot: 'moved' } };
  },
  // written by the trigger on the flight log above
  FlightLogDaily: async (_db, b) => {
    const key = { companyId: b.id, key: '', day: new Date('2026-01-02'), aircraftId: 'globex-ac-1' };
    return { where: { key: '', aircraftId: 'globex-ac-1' }, unique: { companyId_key_day_aircraftId: key }, data: { present: 99 } };
  },
  Form: async (db, b) => {
    await db.form.create({ data: { uid: 'scoping-form', name: 'F', code: 'scoping', department: 'D', sections: [] } });
    return { where: { uid: 'scoping-form' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-form' } }, data: { name: 'moved' } };
  },
  FormCompletion: async (db, b) => {
    await db.formCompletion.create({ data: { uid: 'scoping-fc', formId: 'scoping-form', code: 'scoping', name: 'F', userId: 'globex-owner', data: {} } });
    return { where: { uid: 'scoping-fc' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-fc' } }, data: { name: 'moved' } };
  },
  WebhookDelivery: async (db, b) => {
    // skipped, so no dispatcher on a shared database picks it up
    await db.webhookDelivery.create({
      data: { uid: 'scoping-dl', formId: 'scoping-form', completionId: 'scoping-fc', target: 'https://example.test/hook', messageId: 'scoping-dl', payload: {}, status: 'skipped' },
    });
    return { where: { uid: 'scoping-dl' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-dl' } }, data: { target: 'moved' } };
  },
  Vehicle: async (_db, b) => ({ where: { uid: 'globex-v-1' }, unique: { companyId_uid: { companyId: b.id, uid: 'globex-v-1' } }, data: { status: 'moved' } }),
  Component: async (db, b) => {
    await db.component.create({ data: { uid: 'scoping-cmp', name: 'C', type: 'T', partNumber: 'P', serialNumber: 'S' } });
    return { where: { uid: 'scoping-cmp' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-cmp' } }, data: { name: 'moved' } };
  },
  ScheduleItem: async (db, b) => {
    await db.scheduleItem.create({ data: { uid: 'scoping-si', name: 'S', type: 'T', relatedTo: 'globex-ac-1', relatedToType: 'aircraft', recurring: false } });
    return { where: { uid: 'scoping-si' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-si' } }, data: { name: 'moved' } };
  },
  CompletedScheduleItem: async (db, b) => {
    await db.completedScheduleItem.create({
      data: { uid: 'scoping-csi', scheduleItemId: 'scoping-si', userId: 'globex-owner', userDisplayName: 'O', completedAt: new Date() },
    });
    return { where: { uid: 'scoping-csi' }, unique: { companyId_uid: { companyId: b.id, uid: 'scoping-csi' } }, data: { notes: 'moved' } };
  },
};
