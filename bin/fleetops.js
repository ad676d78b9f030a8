#!/usr/bin/env node
// The `fleetops` command. It runs dist/fleetops.mjs, the bundle `npm install` builds (scripts/build.mjs), while that
// is newer than every source file; otherwise (no bundle, or src/ edited since) the TypeScript sources through tsx's
// loader, so a checkout needs no build step and never runs stale code.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundle } from './bundle.js';

// The service runs in production mode unless told otherwise: graphql-js then skips its development-only checks
// (a tenth of a request's time over a page of logs) and GraphQL errors suggest no field names.
if (process.argv[2] === 'serve' && process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';

const bundle = process.env.FLEETOPS_FROM_SOURCE === '1' ? null : freshBundle(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
let runCli;
if (bundle) ({ runCli } = await import(pathToFileURL(bundle).href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../src/cli/main.ts'));
}
const result = await runCli(process.argv.slice(2), {
  stdout: (chunk) => void process.stdout.write(chunk),
  stderr: (chunk) => void process.stderr.write(chunk),
  tty: !!process.stderr.isTTY,
  columns: process.stderr.columns,
});
process.exitCode = result.code;
