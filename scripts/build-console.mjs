// Builds the operator console (console/src, Preact) into dist/console with esbuild: one JavaScript and one CSS file
// with content hashes in their names (served as immutable assets) and the index.html that names them. Run by
// scripts/build.mjs (so by `npm install` and `npm run build`) after graphql-codegen has written the typed operations
// (console/generated/graphql.ts); the browser test runs it too, so it never tests a stale bundle. Built aside and
// moved in file by file, index.html last (a rename over the old one), so a running server never serves half a
// build and never finds the console missing: `GET /` reads index.html's presence (src/http/console.ts), and another
// test file may be loading the console while the browser test rebuilds it.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the console into `outdir` (default dist/console); returns the names of the files written. */
export async function buildConsole({ outdir = path.join(ROOT, 'dist/console') } = {}) {
  const tmp = `${outdir}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { console: 'console/src/main.tsx' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: 'linked',
    outdir: path.join(tmp, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  const template = fs.readFileSync(path.join(ROOT, 'console/index.html'), 'utf8');
  fs.writeFileSync(
    path.join(tmp, 'index.html'),
    template.replace('%SCRIPT%', `/console/assets/${js}`).replace('%STYLE%', `/console/assets/${css}`),
  );
  // hashed assets first (the same content keeps its name: a rename over it), then the index that names them, then
  // the assets no index names any more
  fs.mkdirSync(path.join(outdir, 'assets'), { recursive: true });
  for (const f of outputs) fs.renameSync(path.join(tmp, 'assets', f), path.join(outdir, 'assets', f));
  fs.renameSync(path.join(tmp, 'index.html'), path.join(outdir, 'index.html'));
  const kept = new Set(outputs);
  for (const f of fs.readdirSync(path.join(outdir, 'assets'))) if (!kept.has(f)) fs.rmSync(path.join(outdir, 'assets', f), { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
  return outputs;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildConsole();
