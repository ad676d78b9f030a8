// Bundles the service's TypeScript sources (src/) into dist/ with esbuild (run by `npm install` after the
// generated clients): `fleetops` then starts without compiling TypeScript or routing every import through tsx's
// loader, which was most of the time from `fleetops serve` to ready (docs/benchmarks.md). Packages stay external
// (loaded from node_modules as usual); modules the CLI imports on demand become chunks loaded on demand.
// bin/fleetops.js uses the bundle only while it is newer than every file under src/; otherwise it runs the sources
// through tsx, so an edit never runs stale code.
import { build } from 'esbuild';
import fs from 'node:fs';

const tmp = `dist.${process.pid}.tmp`;
fs.rmSync(tmp, { recursive: true, force: true });
await build({
  entryPoints: { fleetops: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  outdir: tmp,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
// built aside and swapped in, so a running `fleetops` never loads half a bundle
const old = `dist.old.${process.pid}`;
if (fs.existsSync('dist')) fs.renameSync('dist', old);
fs.renameSync(tmp, 'dist');
fs.rmSync(old, { recursive: true, force: true });
