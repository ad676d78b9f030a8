// Generates the Prisma client and Pothos types (run by `npm install`). The prisma CLI wants a native schema
// engine binary on every command although `generate` never uses it; point it at an existing executable so it
// does not try to download one (see docs/decisions/0002-migrations-without-engine.md).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const prismaCli = require.resolve('prisma/build/index.js');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
  PRISMA_GENERATE_SKIP_AUTOINSTALL: '1',
  PATH: [path.resolve('node_modules/.bin'), process.env.PATH].join(path.delimiter),
};
const r = spawnSync(process.execPath, [prismaCli, 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
