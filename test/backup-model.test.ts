// What a backup holds is read from the Prisma data model (src/backup/model.ts): every model carrying company data
// is in it, a model added later is in it without editing the backup code, and a model without company data must be
// named with its reason. Fails when a table that holds company data would be left out of backups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { writeBackup } from '../src/backup/backup.js';
import { openBackup } from '../src/backup/format.js';
import { NOT_COMPANY_DATA, companyTables, datamodel, otherModels, type Datamodel } from '../src/backup/model.js';
import { tableColumns } from '../src/backup/tables.js';
import type { Database } from '../src/db/database.js';
import { generateCompany } from './generated-company.js';
import { openEmbeddedTestDatabase } from './helpers.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let db: Database;
beforeAll(async () => {
  db = await openEmbeddedTestDatabase();
}, 180_000);
afterAll(async () => {
  await db?.close();
});

describe('the tables of a backup', () => {
  it('are every model that holds company data (Company, and every model with companyId); any other model is named with its reason', () => {
    const models = Object.keys(datamodel());
    const backedUp = companyTables().map((t) => t.name);
    expect(backedUp).toContain('Company');
    for (const name of models) {
      if (backedUp.includes(name)) continue;
      expect(NOT_COMPANY_DATA[name], `model ${name} has no companyId: back it up (give it companyId) or say in NOT_COMPANY_DATA why it holds no company data`).toMatch(/\w{10,}/);
    }
    expect(Object.keys(NOT_COMPANY_DATA).filter((m) => !models.includes(m)), 'NOT_COMPANY_DATA names a model that does not exist').toEqual([]);
    expect(backedUp.length + otherModels().length).toBe(models.length);
  });

  it('are the tables of the migrated database, all of them (a model is its table: nothing is @@map-ped away)', async () => {
    const columns = await tableColumns(db.sql);
    const tables = [...columns.keys()].filter((t) => t !== '_prisma_migrations').sort();
    expect(tables).toEqual(Object.keys(datamodel()).sort());
    for (const t of companyTables()) {
      expect(columns.get(t.name), t.name).toContain(t.companyColumn);
      // every scalar of the model is a column the backup carries
      for (const c of t.columns) expect(columns.get(t.name), `${t.name}.${c}`).toContain(c);
    }
  });

  it('a model added later is backed up without editing the backup code; one without companyId must be explained', () => {
    const field = (name: string, type = 'String') => ({ name, kind: 'scalar', type });
    const models: Datamodel = {
      ...datamodel(),
      AlertState: { fields: [field('companyId'), field('itemUid'), field('threshold')], primaryKey: { fields: ['companyId', 'itemUid', 'threshold'] } },
      Clock: { fields: [field('id'), field('tick', 'Int')], primaryKey: { fields: ['id'] } },
    };
    const tables = companyTables(models);
    expect(tables.find((t) => t.name === 'AlertState')).toMatchObject({ companyColumn: 'companyId', primaryKey: ['companyId', 'itemUid', 'threshold'], columns: ['companyId', 'itemUid', 'threshold'] });
    expect(otherModels(models)).toEqual(['Clock']);
    expect(NOT_COMPANY_DATA.Clock).toBeUndefined(); // so the first test would fail for it
  });

  it('come in restore order: a table after every table it refers to', () => {
    const order = companyTables().map((t) => t.name);
    for (const t of companyTables()) for (const parent of t.refersTo) expect(order.indexOf(parent), `${t.name} refers to ${parent}`).toBeLessThan(order.indexOf(t.name));
    expect(order[0]).toBe('Company');
  });

  it('a generated company fills every one of them, so the backup tests cover every table (extend test/generated-company.ts for a new one)', async () => {
    const app = createApp({ database: db, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fobak-model-')), 'one.jsonl');
    try {
      const g = await generateCompany(app, db, { logs: 60 });
      await writeBackup(db, file, { company: g.id });
      const backup = await openBackup(file);
      backup.close();
      const empty = backup.header.tables.filter((t) => t.rows === 0).map((t) => t.name);
      expect(empty, 'tables the generated company leaves empty').toEqual([]);
      expect(backup.header.tables.map((t) => t.name)).toEqual(companyTables().map((t) => t.name));
    } finally {
      await app.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }, 180_000);
});
