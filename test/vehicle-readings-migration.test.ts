// The migration that keeps a vehicle's highest reading (prisma/migrations/20261128200000_vehicle_readings): a vehicle
// of an earlier release whose total differs from its initial value was set by a reading, and that total is kept as
// the reading, so a lower initial value after the upgrade does not take the total under it. On the embedded store
// (test/migrations.test.ts applies every migration on PostgreSQL too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations } from '../src/db/migrate.js';
import { writeBackup } from '../src/backup/backup.js';
import { restoreBackup } from '../src/backup/restore.js';

const BEFORE = '20261128100000_idempotency_per_company';
let db: Database;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-readings-'));
beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://', migrate: false });
  await applyMigrations(db.sql, undefined, { through: BEFORE });
  await db.sql.exec(`INSERT INTO "Company" (id, name, "updatedAt") VALUES ('c1', 'One', now())`);
  const insert = (uid: string, initialValues: unknown, totals: unknown) =>
    db.sql.query(
      `INSERT INTO "Vehicle" ("companyId", uid, make, model, registration, "maintenanceTrackingItems", "initialValues", totals, "updatedAt")
       VALUES ('c1', $1, 'Ford', 'Ranger', $1, $2::jsonb, $3::jsonb, $4::jsonb, now())`,
      [uid, JSON.stringify({ odometer: { type: 'number' }, engineHours: { type: 'number' } }), JSON.stringify(initialValues), JSON.stringify(totals)],
    );
  await insert('read', { odometer: 50000 }, { odometer: 50100, engineHours: 0 });
  await insert('unread', { odometer: 48000 }, { odometer: 48000.0, engineHours: 0 });
  await insert('no-initial', {}, { odometer: 12.5, engineHours: 0 });
  await insert('empty', {}, {});
  // a backup taken by the release before this migration (its schema has no readings column)
  await writeBackup(db, path.join(dir, 'old.jsonl'));
  await applyMigrations(db.sql);
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('vehicle readings migration', () => {
  it('keeps a total that differs from its initial value (0 when none) as the reading, and nothing else', async () => {
    const rows = await db.sql.query<{ uid: string; readings: unknown }>(`SELECT uid, readings FROM "Vehicle" ORDER BY uid`);
    const readings = Object.fromEntries(rows.map((r) => [r.uid, typeof r.readings === 'string' ? JSON.parse(r.readings) : r.readings]));
    expect(readings).toEqual({ empty: {}, 'no-initial': { odometer: 12.5 }, read: { odometer: 50100 }, unread: {} });
  });

  it('a backup of the earlier release restored into a new store is migrated after the load: the same readings', async () => {
    const target = await openDatabase({ dataDir: 'memory://', migrate: false });
    try {
      await restoreBackup(target, path.join(dir, 'old.jsonl'));
      const rows = await target.sql.query<{ uid: string; readings: unknown }>(`SELECT uid, readings FROM "Vehicle" ORDER BY uid`);
      const readings = Object.fromEntries(rows.map((r) => [r.uid, typeof r.readings === 'string' ? JSON.parse(r.readings) : r.readings]));
      expect(readings).toEqual({ empty: {}, 'no-initial': { odometer: 12.5 }, read: { odometer: 50100 }, unread: {} });
    } finally {
      await target.close();
    }
  });
});
