// Bundles the service's TypeScript sources (src/) into dist/ with esbuild (run by `npm install` after the
// generated clients and typed operations), then the operator console into dist/console (scripts/build-console.mjs).
// `fleetops` then starts without compiling TypeScript or routing every import through tsx's
// loader, which was most of the time from `fleetops serve` to ready (docs/benchmarks.md). Its dependencies are in the
// bundle as well (below); modules the CLI imports on demand become chunks loaded on demand.
// bin/fleetops.js uses the bundle only while it is newer than every file under src/; otherwise it runs the sources
// through tsx, so an edit never runs stale code.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { buildConsole } from './build-console.mjs';
import fs from 'node:fs';
import path from 'node:path';

const tmp = `dist.${process.pid}.tmp`;
fs.rmSync(tmp, { recursive: true, force: true });

// Prisma's query compiler (WebAssembly) ships as a module with the binary in one base64 string. Bundled as is, the
// process holds that 4.4 MB string twice for its whole life (the chunk's source and the string), besides the
// compiled module; the bundle reads the binary from a file beside the chunks instead (the generated client's loader,
// replaced below; from source it stays as Prisma generated it).
const { wasm: wasmBase64 } = await import('@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs');
const wasmBytes = Buffer.from(wasmBase64, 'base64');
const wasmName = `query_compiler_fast_bg.postgresql-${createHash('sha256').update(wasmBytes).digest('hex').slice(0, 8).toUpperCase()}.wasm`;
const LOAD_BASE64 = /const \{ wasm \} = await import\("@prisma\/client\/runtime\/query_compiler_fast_bg\.postgresql\.wasm-base64\.mjs"\)\s*return await decodeBase64AsWasm\(wasm\)/;
const compilerFromFile = {
  name: 'prisma-compiler-from-file',
  setup(b) {
    b.onLoad({ filter: /generated[\\/]prisma[\\/]internal[\\/]class\.ts$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!LOAD_BASE64.test(text)) throw new Error(`${args.path}: Prisma's query compiler loader changed; update scripts/build.mjs`);
      const file = `new URL((import.meta.url.includes('/chunks/') ? './' : './chunks/') + ${JSON.stringify(wasmName)}, import.meta.url)`;
      return { contents: text.replace(LOAD_BASE64, `return new WebAssembly.Module(await (await import('node:fs/promises')).readFile(${file}))`), loader: 'ts' };
    });
  },
};
await build({
  entryPoints: { fleetops: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies are bundled too: loading hundreds of files from node_modules was most of the start-up. Left
  // outside: packages that read their own files at run time (PGlite's wasm and data, Swagger UI's assets, Prisma's
  // schema engine, found by require.resolve) and optional native ones.
  // ioredis too: its CommonJS exports, imported on demand, lose their names in the bundle (`Redis is not a constructor`)
  external: ['@electric-sql/pglite', '@electric-sql/pglite/*', 'swagger-ui-dist', '@prisma/schema-engine-wasm', 'pg-native', 'esbuild', 'tsx', 'ioredis'],
  // CommonJS dependencies call `require`, which an ES module does not have
  banner: { js: "import { createRequire as __fleetopsRequire } from 'node:module'; const require = __fleetopsRequire(import.meta.url);" },
  sourcemap: 'linked',
  outdir: tmp,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  charset: 'ascii',
  plugins: [compilerFromFile],
});
fs.writeFileSync(path.join(tmp, 'chunks', wasmName), wasmBytes);
// esbuild writes strings ASCII-only (charset) but keeps the comments it preserves as they are; one non-ASCII
// character in a chunk makes V8 hold that chunk's whole source as two bytes per character (3.4 MB instead of 1.8
// for the GraphQL chunk). Outside strings they are comments only: each UTF-16 unit becomes '?', so columns (the
// source maps) stay.
for (const dir of [tmp, path.join(tmp, 'chunks')]) {
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.mjs'))) {
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, 'utf8');
    if (/[^\x00-\x7f]/.test(text)) fs.writeFileSync(file, text.replace(/[^\x00-\x7f]/g, '?'));
  }
}
// Built aside, then moved in so that a running `fleetops` keeps working: the chunks it has yet to load on demand
// (the MCP channel, import, demo ...) stay where it expects them. Chunk names carry a content hash, so new ones are
// added beside the old; the entry is replaced by a rename (never half a file). Chunks no build has produced for a
// week are removed.
fs.mkdirSync('dist/chunks', { recursive: true });
const fresh = new Set();
for (const name of fs.readdirSync(path.join(tmp, 'chunks'))) {
  fresh.add(name);
  fs.renameSync(path.join(tmp, 'chunks', name), path.join('dist/chunks', name));
}
const now = Date.now();
for (const name of fs.readdirSync('dist/chunks')) {
  const file = path.join('dist/chunks', name);
  if (fresh.has(name)) fs.utimesSync(file, new Date(now), new Date(now));
  else if (now - fs.statSync(file).mtimeMs > 7 * 24 * 3600 * 1000) fs.rmSync(file);
}
for (const name of ['fleetops.mjs.map', 'fleetops.mjs']) fs.renameSync(path.join(tmp, name), path.join('dist', name));
fs.rmSync(tmp, { recursive: true, force: true });

// the operator console (console/src) into dist/console
await buildConsole();
