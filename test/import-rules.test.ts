// An import file's entries obey the rules every channel obeys (docs/import.md; docs/api-notes.md, aircraft and users):
// an aircraft's maintenance key that flight logs carry is not removed or retyped (the import is refused, naming the
// entry, and nothing is written); a new registration follows the aircraft onto its logs; a registration or an email
// (case-insensitive) another record of the company has is refused by JSON Pointer, not by a database error; and
// importing the same file twice changes nothing the second time (no write, `updatedAt` kept, "unchanged" counted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData, formatSummary } from '../src/modules/companies/import.js';
import { ValidationError } from '../src/errors.js';
import { adminKey, companyFixture, createTestEnv, flightLogBody, newKey, uniq, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => env?.close());

/** A company of its own per test, as an import file. */
function file(id: string, key: string, change: (c: ReturnType<typeof companyFixture>) => void = () => {}) {
  const c = companyFixture(id, key, id);
  change(c);
  return { companies: [c] };
}

async function refused(raw: unknown): Promise<ValidationError> {
  const e = await importData(env.database, raw).then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(ValidationError);
  return e as ValidationError;
}

/** A company imported from its file, with one flight log of its first aircraft: the key and the log as created. */
async function importedWithLog(prefix: string, hobbs: number, landings: number) {
  const id = `${prefix}-${uniq()}`;
  const key = newKey();
  await importData(env.database, file(id, key));
  const body = flightLogBody({ aircraftId: `${id}-ac-1`, aircraftRegistration: `VH-${id.toUpperCase().slice(0, 3)}`, pilot: `${id}-pilot`, hobbs, landings });
  const log = await env.json('POST', '/api/v1/flight-logs', { key, body });
  expect(log.status, JSON.stringify(log.body)).toBe(201);
  return { id, key, as: { key }, log: log.body as { uid: string } };
}

describe('import', () => {
  it('refuses to drop or retype a maintenance key that flight logs carry, names the entry, and writes nothing', async () => {
    const { id, key, as } = await importedWithLog('imp', 1.5, 2);
    const before = (await env.json('GET', `/api/v1/aircraft/${id}-ac-1`, as)).body;
    expect(before.totals).toEqual({ hobbs: 1202, landings: 3002 });

    const dropped = file(id, key, (c) => {
      c.name = 'Renamed in a refused file';
      delete (c.aircraft[0].maintenanceTrackingItems as Record<string, unknown>).landings;
      (c.aircraft[0].logTrackingItems as Record<string, unknown>).landings = { displayText: 'Landings', type: 'string' };
      delete (c.aircraft[0].initialValues as Record<string, unknown>).landings;
    });
    const e = await refused(dropped);
    expect(e.errors).toEqual([{ path: `/companies/0/aircraft/0/maintenanceTrackingItems/landings`, message: expect.stringMatching(/1 flight log of this aircraft carry landings: it cannot be changed in type or kind/) }]);
    expect((await env.json('GET', `/api/v1/aircraft/${id}-ac-1`, as)).body).toEqual(before);
    expect((await env.json('GET', `/api/v1/users/${id}-pilot`, as)).status).toBe(200);
  });

  it('a new registration is written to the aircraft\u2019s logs; a registration another aircraft has is refused by JSON Pointer', async () => {
    const { id, key, as, log } = await importedWithLog('reg', 0.5, 1);
    await importData(env.database, file(id, key, (c) => (c.aircraft[0].registration = 'VH-NEW')));
    expect((await env.json('GET', `/api/v1/flight-logs/${log.uid}`, as)).body.aircraftRegistration).toBe('VH-NEW');

    const clash = await refused(file(id, key, (c) => (c.aircraft[0].registration = c.aircraft[1].registration = 'VH-NEW')));
    expect(clash.errors).toEqual([{ path: '/companies/0/aircraft/1/registration', message: expect.stringMatching(/registration VH-NEW is already aircraft/) }]);
    const twice = await refused(file(`two-${uniq()}`, newKey(), (c) => (c.aircraft[1].registration = c.aircraft[0].registration)));
    expect(twice.errors?.[0].path).toBe('/companies/0/aircraft/1/registration');
  });

  it('refuses a user whose email is another user\u2019s in another case', async () => {
    const e = await refused(file(`mail-${uniq()}`, newKey(), (c) => (c.users[1].email = c.users[0].email.toUpperCase())));
    expect(e.errors).toEqual([{ path: '/companies/0/users/1/email', message: expect.stringMatching(/is already user/) }]);
  });

  it('an entry without a uid is told so, not "listed twice"', async () => {
    const e = await refused(file(`nouid-${uniq()}`, newKey(), (c) => c.aircraft.forEach((a) => delete (a as { uid?: string }).uid)));
    expect(e.errors?.[0]).toEqual({ path: '/companies/0/aircraft/0/uid', message: expect.stringMatching(/required|expected string/i) });
  });

  it('a uid no URL path can name (. or ..) is refused for aircraft, vehicles and users, and nothing is written', async () => {
    for (const [kind, set] of [
      ['aircraft', (c: ReturnType<typeof companyFixture>) => (c.aircraft[0].uid = '..')],
      ['vehicles', (c: ReturnType<typeof companyFixture>) => (c.vehicles[0].uid = '.')],
      ['users', (c: ReturnType<typeof companyFixture>) => (c.users[0].uid = '..')],
    ] as const) {
      const id = `dots-${uniq()}`;
      const e = await refused(file(id, newKey(), set));
      expect(e.errors, kind).toContainEqual({ path: `/companies/0/${kind}/0/uid`, message: 'uid must not be . or .. (no URL path can name it)' });
      expect(await env.database.prisma.company.findUnique({ where: { id } })).toBeNull();
    }
  });

  it('a new key naming a user the company does not have is refused at its userId', async () => {
    const e = await refused(file(`kuser-${uniq()}`, newKey(), (c) => Object.assign(c.apiKeys[0], { userId: 'nobody' })));
    expect(e.errors).toEqual([{ path: '/companies/0/apiKeys/0/userId', message: 'nobody is not a user of the company' }]);
  });

  it('a key name follows the API\u2019s rule (trimmed, 1 to 100 characters): a blank or long one is refused at its field', async () => {
    for (const name of ['   ', 'n'.repeat(101)]) {
      const id = `kname-${uniq()}`;
      const e = await refused(file(id, newKey(), (c) => (c.apiKeys[0].name = name)));
      expect(e.errors).toContainEqual({ path: '/companies/0/apiKeys/0/name', message: expect.any(String) });
      expect(await env.database.prisma.company.findUnique({ where: { id } })).toBeNull();
    }
  });

  it('an aircraft entry imported again without initialValues (or another optional field) keeps the stored one: the starting hours stay', async () => {
    const id = `keep-${uniq()}`;
    const key = newKey();
    await importData(env.database, file(id, key));
    const hobbs = async () => (await env.json('GET', `/api/v1/aircraft/${id}-ac-1`, { key })).body;
    expect((await hobbs()).totals.hobbs).toBe(1200.5);
    const { initialValues: _i, manufacturer: _m, status: _s, ...bare } = companyFixture(id, key, id).aircraft[0];
    const again = await importData(env.database, file(id, key, (c) => (c.aircraft[0] = bare as (typeof c.aircraft)[0])));
    expect(formatSummary(again[0])).toContain('aircraft 0 created, 0 updated, 2 unchanged');
    expect(await hobbs()).toMatchObject({ totals: { hobbs: 1200.5, landings: 3000 }, initialValues: { hobbs: 1200.5, landings: 3000 }, manufacturer: 'Bell' });
    // the maps left out are kept, so initial values alone are checked against the stored items
    const { maintenanceTrackingItems: _mt, logTrackingItems: _lt, ...noMaps } = bare;
    await importData(env.database, file(id, key, (c) => (c.aircraft[0] = { ...noMaps, initialValues: { hobbs: 1300, landings: 3000 } } as (typeof c.aircraft)[0])));
    expect((await hobbs()).totals).toEqual({ hobbs: 1300, landings: 3000 });
    // given, it is what the entry says: {} takes the starting figures away
    await importData(env.database, file(id, key, (c) => (c.aircraft[0].initialValues = {} as (typeof c.aircraft)[0]['initialValues'])));
    expect((await hobbs()).totals).toEqual({ hobbs: 0, landings: 0 });
    // a kept value must still fit what the entry gives: the initial value of an item the entry takes away is refused
    await importData(env.database, file(id, key));
    const e = await refused(file(id, key, (c) => (c.aircraft[0] = { ...bare, maintenanceTrackingItems: { landings: bare.maintenanceTrackingItems.landings } } as (typeof c.aircraft)[0])));
    expect(e.errors).toEqual([{ path: '/companies/0/aircraft/0/initialValues/hobbs', message: 'hobbs is not a maintenance tracking item' }]);
    expect((await hobbs()).totals).toEqual({ hobbs: 1200.5, landings: 3000 });
  });

  it('the same file imported again writes nothing: every entry unchanged, updatedAt kept, no audit entry', async () => {
    const id = `same-${uniq()}`;
    const key = newKey();
    const f = file(id, key);
    const [first] = await importData(env.database, f);
    expect(formatSummary(first)).toBe(`${id}: company created; users 3 created, 0 updated, 0 unchanged; aircraft 2 created, 0 updated, 0 unchanged; vehicles 1 created, 0 updated, 0 unchanged; API keys 1 created, 0 updated, 0 unchanged`);
    const as = { key };
    const read = async () => ({
      aircraft: (await env.json('GET', '/api/v1/aircraft', as)).body,
      vehicles: (await env.json('GET', '/api/v1/vehicles', as)).body,
      users: (await env.json('GET', '/api/v1/users', as)).body,
    });
    const before = await read();
    const audit = await env.database.prisma.auditEntry.count({ where: { companyId: id } });
    const [again] = await importData(env.database, f);
    expect(formatSummary(again)).toBe(`${id}: company unchanged; users 0 created, 0 updated, 3 unchanged; aircraft 0 created, 0 updated, 2 unchanged; vehicles 0 created, 0 updated, 1 unchanged; API keys 0 created, 0 updated, 1 unchanged`);
    expect(await read()).toEqual(before);
    expect(await env.database.prisma.auditEntry.count({ where: { companyId: id } })).toBe(audit);
    const rows = await env.database.prisma.vehicle.findMany({ where: { companyId: id } });
    expect(rows.map((v) => v.updatedAt)).toEqual(before.vehicles.data.map((v: { updatedAt: string }) => new Date(v.updatedAt)));
  });
  it('a key revoked since the file was imported stays revoked when it is imported again', async () => {
    const id = `rev-${uniq()}`;
    const key = newKey();
    const f = file(id, key);
    await importData(env.database, f);
    expect((await env.json('GET', '/api/v1/aircraft', { key })).status).toBe(200);
    const admin = await adminKey(env, id);
    const listed = (await env.json('GET', '/api/v1/api-keys', { key: admin })).body.data as { id: string; name: string }[];
    const imported = listed.find((k) => k.name === 'integration')!;
    expect((await env.json('DELETE', `/api/v1/api-keys/${imported.id}`, { key: admin })).status).toBe(200);
    expect((await env.json('GET', '/api/v1/aircraft', { key })).status).toBe(401);
    const [again] = await importData(env.database, f);
    expect(again.apiKeys).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect((await env.json('GET', '/api/v1/aircraft', { key })).status).toBe(401);
  });
});
