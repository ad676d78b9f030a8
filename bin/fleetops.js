#!/usr/bin/env node
// The `fleetops` command. It runs dist/fleetops.mjs, the bundle `npm install` builds (scripts/build.mjs), while that
// is newer than every source file; otherwise (no bundle, or src/ edited since) the TypeScript sources through tsx's
// loader, so a checkout needs no build step and never runs stale code.
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundle } from './bundle.js';

// The service runs in production mode unless told otherwise: graphql-js then skips its development-only checks
// (a tenth of a request's time over a page of logs) and GraphQL errors suggest no field names.
if (process.argv[2] === 'serve' && process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
// V8 lets the old generation grow to up to four times what survived the last full collection before it collects
// again; under load the service's heap (under 50 MB live) grew to 170 MB, mostly garbage. The server's grows to twice
// (read at every collection, so setting it here works): RSS after three rounds of bench/memory.ts 357 -> 266 MB at
// the same throughput (docs/benchmarks.md, 2026-11-27).
// WebAssembly (Prisma's query compiler) stays on V8's baseline compiler, Liftoff: optimizing its hot functions in
// the background cost 45 MB resident and no measurable throughput, since Prisma caches the plans the compiler makes.
// Idle 181-197 -> 134-139 MB, after load 234-268 -> 187-194 MB, requests/s 150 -> 172 (means of alternated runs).
// Only on PostgreSQL: the embedded database is PostgreSQL compiled to WebAssembly, which Liftoff alone runs about a
// third slower (a list of 100 logs from PGlite 5.9 -> 8.0 ms, same run). A DATABASE_URL given only in .env is not
// seen here: that server keeps the optimizing compiler, and a few more megabytes.
if (process.argv[2] === 'serve') {
  v8.setFlagsFromString('--heap-growing-percent=100');
  if (process.env.DATABASE_URL) v8.setFlagsFromString('--liftoff-only');
}

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
// A server that stopped (SIGTERM, SIGINT) has closed what it could within SHUTDOWN_TIMEOUT_MS; a database connection
// that never answered may still hold the event loop. Leave it a moment to flush, then exit.
if (process.argv[2] === 'serve') setTimeout(() => process.exit(), 1000).unref();
