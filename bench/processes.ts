// The two sides of the memory bench as their users run them, each a process of its own measured from outside (ps):
// the service as `fleetops serve` (bin/fleetops.js on the dist/ bundle, production mode, DATABASE_URL set), and the
// floor (bench/floor-server.ts) bundled by esbuild and run by plain node. Neither runs under tsx, whose loader
// alone adds tens of MB.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

export interface Side {
  url: string;
  proc: ChildProcess;
}

const ROOT = path.resolve(import.meta.dirname, '..');
// @ts-expect-error plain JavaScript module of the bin folder
const { freshBundle } = (await import('../bin/bundle.js')) as { freshBundle(root: string): string | null };

/** Resident memory of a process in bytes (ps: Linux and macOS). */
export function rssOf(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

function started(proc: ChildProcess, match: RegExp, what: string): Promise<Side> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d;
      const m = match.exec(seen);
      if (!m) return;
      proc.stdout!.off('data', onData);
      proc.stdout!.resume(); // its request log is read and dropped
      resolve({ url: m[1], proc });
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (c) => reject(new Error(`${what} exited with ${c}: ${seen}`)));
  });
}

/** `fleetops serve` on `databaseUrl`, from the bundle (built first when src/ is newer), in production mode. */
export function startService(databaseUrl: string, extraEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Side> {
  if (!freshBundle(ROOT)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAIL_LIMIT_PER_MINUTE: '0',
    REDIS_URL: '',
    NODE_OPTIONS: '',
    ...extraEnv,
  };
  const proc = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'bin/fleetops.js'), 'serve'], { cwd: os.tmpdir(), env, stdio: ['ignore', 'pipe', 'inherit'] });
  return started(proc, /fleetops listening on (\S+)/, 'fleetops serve');
}

/** The floor (bench/floor-server.ts), bundled into a temporary directory and run by node. */
export async function startFloor(databaseUrl: string): Promise<Side> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-floor-'));
  const file = path.join(dir, 'floor.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'bench/floor-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pg-native'],
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    outfile: file,
    logLevel: 'warning',
  });
  const proc = spawn(process.execPath, [file, databaseUrl], { env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'inherit'] });
  proc.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return started(proc, /^(http:\S+)/m, 'floor');
}
