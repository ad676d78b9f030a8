import fs from 'node:fs';
import os from 'node:os';
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
 * Generates the typed GraphQL operations the tests import, from the committed schema.graphql, and migrates one
 * embedded database whose snapshot every test file opens (a new PGlite cluster takes seconds; a snapshot, a
 * fraction of one). Each file still runs the migrations on it, which finds them applied.
 */
export default async function setup(project: TestProject) {
  await generate(config, true);
  const db = await openDatabase({ dataDir: 'memory://' });
  const dump = await db.snapshot!();
  await db.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-test-')), 'snapshot.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
