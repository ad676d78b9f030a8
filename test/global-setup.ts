import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generate } from '@graphql-codegen/cli';
import type { TestProject } from 'vitest/node';
import config from '../codegen.js';
import { openDatabase } from '../src/db/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (PGlite dumpDataDir), for test files to start from. */
    pgliteSnapshot: string;
  }
}

/**
 * Generates the typed GraphQL operations the tests import, from the committed schema.graphql, and provides one
 * migrated embedded database whose snapshot every test file opens (a new PGlite cluster takes seconds; a snapshot, a
 * fraction of one). Each file still runs the migrations on it, which finds them applied.
 *
 * Making that snapshot (a new cluster, then every migration) takes 5-10 s, and CI starts vitest five times, so it is
 * kept in node_modules/.cache/fleetops-test under a name that is the hash of what makes it: the migrations, the code
 * that applies them, and PGlite's version. Any change to those makes a new one.
 */
export default async function setup(project: TestProject) {
  await generate(config, true);
  const root = path.resolve(import.meta.dirname, '..');
  const dir = path.join(root, 'node_modules', '.cache', 'fleetops-test');
  const file = path.join(dir, `snapshot-${snapshotKey(root)}.tar`);
  if (!fs.existsSync(file)) {
    const db = await openDatabase({ dataDir: 'memory://' });
    const dump = await db.snapshot!();
    await db.close();
    fs.mkdirSync(dir, { recursive: true });
    // others may make the same file at the same time: each writes its own, then renames it over (atomic)
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
    for (const old of fs.readdirSync(dir)) if (old.startsWith('snapshot-') && old.endsWith('.tar') && path.join(dir, old) !== file) fs.rmSync(path.join(dir, old), { force: true });
  }
  project.provide('pgliteSnapshot', file);
}

/** The hash of every migration file, the code that applies them and opens the store, and PGlite's version. */
function snapshotKey(root: string): string {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'prisma', 'migrations');
  const files = fs.readdirSync(migrations, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
  for (const f of [...files, path.join(root, 'src/db/migrate.ts'), path.join(root, 'src/db/database.ts')]) {
    hash.update(path.relative(root, f)).update('\0').update(fs.readFileSync(f)).update('\0');
  }
  hash.update(JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}
