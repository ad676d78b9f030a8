import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { seedDataDir } from './helpers.js';
import { freePort } from './cluster-harness.js';

/**
 * Each describe block is one scenario with its own DATA_DIR; blocks and their steps run one after another
 * (a step may start a server process; running scenarios side by side overloads a 2-core CI machine).
 */
const step = test.sequential;

/**
 * The `fleetops` command (docs/contract/gaps.md §1). Commands run in this process through `runCli` (what bin/fleetops.js
 * calls), each with its own environment and working directory, opening the scenario's DATA_DIR as a separate
 * process would. Real processes are kept where the behaviour is between processes: `fleetops serve` (started as
 * `node bin/fleetops.js serve`, answering real HTTP on 127.0.0.1, and the admin socket that commands run
 * through while it holds the embedded database), a second `fleetops serve` refused by the lock (also checks the
 * bin's exit code and streams), and a live process holding the lock of a busy data directory.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'fleetops.js');
const KEY_RE = /^fo_live_[0-9A-Za-z]{32}$/;
const LONG = 120_000; // one command, or a server's start
const STEP = 180_000; // a step of several commands (the machine may be shared with other test runs)

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const tempDirs: string[] = [];
const servers = new Set<Server>();

function tempDir(label: string): string {
  // short paths: the admin socket DATA_DIR/fleetops.sock must stay under the Unix socket path limit
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `focli-${label}-`));
  tempDirs.push(dir);
  return dir;
}

/** A data directory holding a migrated, empty database (only the migrate scenario needs a fresh one). */
const migratedDataDir = (label: string) => seedDataDir(tempDir(label));

const BASE_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'PORT', 'HOST', 'DATA_DIR', 'REDIS_URL', 'LOG_LEVEL', 'RATE_LIMIT_PER_MINUTE']) delete env[k];
  return env;
})();

/** Runs `fleetops ARGS` to completion in this process. cwd defaults to a scratch dir. */
function fleetops(args: string[], opts: { env: Record<string, string>; cwd?: string }): Promise<RunResult> {
  return runCli(args, { env: { ...BASE_ENV, LOG_LEVEL: 'silent', ...opts.env }, cwd: opts.cwd ?? os.tmpdir() });
}

/** Runs `node bin/fleetops.js ARGS` as a child process to completion. cwd defaults to a scratch dir so no stray .env is read. */
function fleetopsProcess(args: string[], opts: { env: Record<string, string>; cwd?: string; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? os.tmpdir(),
      env: { ...BASE_ENV, LOG_LEVEL: 'silent', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fleetops ${args.join(' ')} did not finish in ${opts.timeoutMs ?? LONG} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? LONG);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');
const lastLine = (s: string) => {
  // the last line of stdout, exactly as printed (stdout ends with one newline)
  const parts = s.replace(/\n$/, '').split('\n');
  return parts[parts.length - 1];
};


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  proc: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `fleetops serve` and waits until GET /healthz answers 200. */
async function serve(env: Record<string, string>, cwd?: string): Promise<Server> {
  const port = await freePort();
  const proc = spawn(process.execPath, [BIN, 'serve'], {
    cwd: cwd ?? os.tmpdir(),
    env: { ...BASE_ENV, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (c) => (out += c));
  proc.stderr!.setEncoding('utf8').on('data', (c) => (out += c));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    proc.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const server: Server = {
    proc,
    url,
    output: () => out,
    async stop() {
      servers.delete(server);
      if (exited === undefined) {
        proc.kill('SIGTERM');
        const done = await Promise.race([exit.then(() => true), sleep(30_000).then(() => false)]);
        if (!done) {
          proc.kill('SIGKILL');
          await exit;
        }
      }
    },
  };
  servers.add(server);
  const deadline = Date.now() + LONG;
  for (;;) {
    if (exited !== undefined) throw new Error(`fleetops serve exited with ${exited} before answering:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`fleetops serve did not answer /healthz within ${LONG} ms:\n${out}`);
    }
    await sleep(200);
  }
  return server;
}

async function api(server: Server, route: string, key: string) {
  const res = await fetch(`${server.url}/api/v1${route}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

/** A plaintext key in the product's own format: `fo_live_` + 32 base62 characters. */
function liveKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let s = '';
  for (const b of randomBytes(64)) if (b < 248 && s.length < 32) s += alphabet[b % 62];
  return 'fo_live_' + s;
}

/** One company following the import format of docs/contract/gaps.md §1. */
function company(id: string, tag: string, key: string) {
  const up = tag.toUpperCase();
  return {
    id,
    name: `${up} Aviation`,
    users: [
      { uid: `${tag}-owner`, email: `owner@${tag}.test`, displayName: 'Olivia Owner', firstName: 'Olivia', lastName: 'Owner', status: 'Active', roles: ['owner', 'admin'], timezone: 'Australia/Sydney' },
      { uid: `${tag}-pilot`, email: `pilot@${tag}.test`, displayName: 'Pat Pilot', firstName: 'Pat', lastName: 'Pilot', status: 'Active', roles: ['pilot'], phone: '+61400000000', timezone: 'Australia/Sydney' },
    ],
    aircraft: [
      {
        uid: `${tag}-ac-1`, registration: `VH-${up.slice(0, 3)}`, type: 'B06', category: 'rotary-wing', manufacturer: 'Bell', model: '206B',
        engineType: 'turbine', engineCount: 1, status: 'active',
        maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number', precision: 0 } },
        logTrackingItems: { fuelUplift: { displayText: 'Fuel uplift', type: 'number' }, remarks: { displayText: 'Remarks', type: 'string' } },
        initialValues: { hobbs: 1200.5, landings: 3000 },
      },
      {
        uid: `${tag}-ac-2`, registration: `VH-${up.slice(0, 2)}Z`, type: 'C172', category: 'fixed-wing', manufacturer: 'Cessna', model: '172S',
        engineType: 'piston', engineCount: 1, status: 'active',
        maintenanceTrackingItems: { tacho: { displayText: 'Tacho', type: 'number', precision: 2 } },
        logTrackingItems: {},
        initialValues: { tacho: 4321.25 },
      },
    ],
    vehicles: [{ uid: `${tag}-v-1`, make: 'Toyota', model: 'Hilux', registration: `${up.slice(0, 3)}123`, tracking: { kilometers: true, miles: false, hours: false } }],
    apiKeys: [{ name: 'integration', key }],
  };
}

function writeJson(dir: string, name: string, data: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
  return file;
}

/** Checks the aircraft listing of an imported company (2 aircraft, totals = initialValues). */
function expectImportedAircraft(body: any, tag: string) {
  expect(body.count).toBe(2);
  expect(body.data).toHaveLength(2);
  const byUid = Object.fromEntries(body.data.map((a: any) => [a.uid, a]));
  expect(Object.keys(byUid).sort()).toEqual([`${tag}-ac-1`, `${tag}-ac-2`]);
  expect(byUid[`${tag}-ac-1`].totals).toEqual({ hobbs: 1200.5, landings: 3000 });
  expect(byUid[`${tag}-ac-1`].initialValues).toEqual({ hobbs: 1200.5, landings: 3000 });
  expect(byUid[`${tag}-ac-2`].totals).toEqual({ tacho: 4321.25 });
}

afterAll(async () => {
  for (const s of [...servers]) await s.stop();
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
}, LONG);

describe('README journey: fleetops serve, then demo and keys while it runs', () => {
  let dataDir: string;
  let server: Server;
  let demoKey: string;
  let demoKeyId: string;

  beforeAll(async () => {
    dataDir = await migratedDataDir('srv');
    server = await serve({ DATA_DIR: dataDir });
  }, STEP);
  afterAll(async () => {
    await server?.stop();
    // a stopped server leaves neither its lock nor its admin socket behind
    if (dataDir) {
      expect(fs.existsSync(path.join(dataDir, 'fleetops.sock'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'fleetops.lock'))).toBe(false);
    }
  }, STEP);

  step('serve prints where it listens', () => {
    expect(server.output()).toContain(`listening on ${server.url}`);
  });

  step('fleetops demo while the server runs prints a working key as the last line', async () => {
    const r = await fleetops(['demo'], { env: { DATA_DIR: dataDir } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    demoKey = lastLine(r.stdout);
    expect(demoKey).toMatch(KEY_RE);
    const res = await api(server, '/aircraft', demoKey);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3); // two in service, a glider in storage
    expect(res.body.data).toHaveLength(3);
    // an admin key: it manages the company too
    expect(r.stdout).toContain('admin API key');
    expect((await api(server, '/api-keys', demoKey)).status).toBe(200);
  }, STEP);

  step('keys list shows the demo key by prefix; keys revoke makes it answer 401', async () => {
    expect(demoKey).toMatch(KEY_RE);
    const list = await fleetops(['keys', 'list', '--company', 'demo'], { env: { DATA_DIR: dataDir } });
    expect(list.code).toBe(0);
    const row = lines(list.stdout).find((l) => l.includes(demoKey.slice(0, 12)));
    expect(row, list.stdout).toBeDefined();
    expect(list.stdout).not.toContain(demoKey); // only the prefix is ever shown again
    demoKeyId = row!.split('\t')[0];
    expect(demoKeyId).toMatch(/\S/);

    const revoke = await fleetops(['keys', 'revoke', demoKeyId], { env: { DATA_DIR: dataDir } });
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain(demoKeyId);
    expect((await api(server, '/aircraft', demoKey)).status).toBe(401);
  }, STEP);

  step('keys create --company demo --name ci prints the new key alone as the last line, and it works', async () => {
    const r = await fleetops(['keys', 'create', '--company', 'demo', '--name', 'ci'], { env: { DATA_DIR: dataDir } });
    expect(r.code).toBe(0);
    const key = lastLine(r.stdout);
    expect(key).toMatch(KEY_RE);
    // printed once: no other line carries it
    expect(r.stdout.split(key).length - 1).toBe(1);
    const res = await api(server, '/aircraft', key);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect((await api(server, '/api-keys', key)).status).toBe(403); // read_write by default
    // --scope admin: a key that manages the company; both key events are in the audit log, made by the CLI
    const a = await fleetops(['keys', 'create', '--company', 'demo', '--name', 'ci-admin', '--scope', 'admin'], { env: { DATA_DIR: dataDir } });
    expect(a.code).toBe(0);
    const admin = lastLine(a.stdout);
    expect(a.stdout).toContain('created admin API key');
    const keys = await api(server, '/api-keys', admin);
    expect(keys.status).toBe(200);
    expect(keys.body.data.find((k: any) => k.name === 'ci-admin')).toMatchObject({ scope: 'admin', revokedAt: null });
    const audit = await api(server, '/audit-log?entity=api_key', admin);
    expect(audit.body.data.slice(0, 2).map((e: any) => [e.channel, e.action, e.changes.name.after])).toEqual([
      ['cli', 'created', 'ci-admin'],
      ['cli', 'created', 'ci'],
    ]);
  }, STEP);

  step('import with a relative path from another working directory, while the server runs', async () => {
    const work = tempDir('cwd');
    const key = liveKey();
    // the key's scope comes with it (admin here: it may read the company's API keys)
    const entry = company('relco', 'rel', key);
    (entry.apiKeys[0] as { scope?: string }).scope = 'admin';
    writeJson(work, 'companies.json', { companies: [entry] });
    const r = await fleetops(['import', 'companies.json'], { env: { DATA_DIR: dataDir }, cwd: work });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toHaveLength(1);
    expect(r.stdout).toMatch(/relco/);
    const res = await api(server, '/aircraft', key);
    expect(res.status).toBe(200);
    expectImportedAircraft(res.body, 'rel');
    expect((await api(server, '/api-keys', key)).body.data).toMatchObject([{ name: 'integration', scope: 'admin' }]);
    expect((await api(server, '/audit-log?entity=api_key', key)).body.data).toMatchObject([{ channel: 'import', action: 'created', keyId: null }]);
  }, STEP);

  step('an invalid import file sent to the running server exits 1 and names the entry', async () => {
    const work = tempDir('bad');
    const file = writeJson(work, 'bad-shape.json', { companies: [{ id: 'bad id!', name: 'X' }] });
    const r = await fleetops(['import', file], { env: { DATA_DIR: dataDir } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('/companies/0/id');
  }, STEP);

  step('a second serve on the same data directory says the database is in use and exits 1', async () => {
    const port = await freePort();
    const r = await fleetopsProcess(['serve'], { env: { DATA_DIR: dataDir, PORT: String(port) } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/in use|already running/i);
    // the running server is unharmed
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, STEP);
});

describe('without a server: migrate, import, keys', () => {
  let dataDir: string;
  let work: string;
  const acmeKey = liveKey();
  const globexKey = liveKey();
  const goodFile = () => ({ companies: [company('acme', 'acme', acmeKey), company('globex', 'globex', globexKey)] });
  const rejectedKeys = [liveKey(), liveKey()];

  beforeAll(() => {
    dataDir = tempDir('db');
    work = tempDir('files');
  });

  step('migrate applies the migrations on a fresh data directory, then says it is up to date', async () => {
    const first = await fleetops(['migrate'], { env: { DATA_DIR: dataDir } });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ migration/);
    const second = await fleetops(['migrate'], { env: { DATA_DIR: dataDir } });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/up to date/);
  }, STEP);

  step('import prints one line per company and is idempotent', async () => {
    const file = writeJson(work, 'good.json', goodFile());
    const first = await fleetops(['import', file], { env: { DATA_DIR: dataDir } });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const out1 = lines(first.stdout);
    expect(out1).toHaveLength(2);
    expect(out1[0]).toMatch(/^acme\b.*created/);
    expect(out1[1]).toMatch(/^globex\b.*created/);
    expect(out1[0]).toMatch(/aircraft 2 created, 0 updated, 0 unchanged/);
    expect(out1[0]).toMatch(/users 2 created, 0 updated, 0 unchanged/);

    const again = await fleetops(['import', file], { env: { DATA_DIR: dataDir } });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const out2 = lines(again.stdout);
    expect(out2).toHaveLength(2);
    for (const l of out2) {
      expect(l).toMatch(/company unchanged/);
      expect(l).toMatch(/users 0 created, 0 updated, 2 unchanged/);
      expect(l).toMatch(/aircraft 0 created, 0 updated, 2 unchanged/);
      expect(l).toMatch(/vehicles 0 created, 0 updated, 1 unchanged/);
      expect(l).toMatch(/keys 0 created, 0 updated, 1 unchanged/i);
    }
  }, STEP);

  step('an invalid file exits 1, names the bad entry by JSON Pointer, and writes nothing', async () => {
    // 1) the first company is new and valid; the second one's second aircraft has an unknown tracking key
    const bad1: { companies: any[] } = goodFile();
    bad1.companies[0] = company('newco', 'newco', rejectedKeys[0]);
    bad1.companies[1].aircraft[1].initialValues = { tacho: 1, bogus: 5 };
    const f1 = writeJson(work, 'bad-aircraft.json', bad1);
    const r1 = await fleetops(['import', f1], { env: { DATA_DIR: dataDir } });
    expect(r1.code).toBe(1);
    expect(r1.stdout).toBe('');
    expect(r1.stderr).toContain('/companies/1/aircraft/1/initialValues/bogus');

    // 2) the first company is the existing acme, changed and with a new key; the second has a user with a bad email
    const bad2 = goodFile();
    bad2.companies[0].name = 'Acme Renamed';
    bad2.companies[0].aircraft[0].registration = 'VH-CHG';
    bad2.companies[0].apiKeys.push({ name: 'extra', key: rejectedKeys[1] });
    bad2.companies[1] = company('newco2', 'newco2', liveKey());
    bad2.companies[1].users[1].email = 'not-an-email';
    const f2 = writeJson(work, 'bad-user.json', bad2);
    const r2 = await fleetops(['import', f2], { env: { DATA_DIR: dataDir } });
    expect(r2.code).toBe(1);
    expect(r2.stdout).toBe('');
    expect(r2.stderr).toContain('/companies/1/users/1/email');

    // 3) an initial value beyond the tracking bounds (gaps.md §11: below 1e9, at most 6 decimal places)
    const bad3 = goodFile();
    bad3.companies[1].aircraft[1].initialValues = { tacho: 1e25 };
    const r3 = await fleetops(['import', writeJson(work, 'bad-figure.json', bad3)], { env: { DATA_DIR: dataDir } });
    expect(r3.code).toBe(1);
    expect(r3.stdout).toBe('');
    expect(r3.stderr).toContain('/companies/1/aircraft/1/initialValues/tacho');
    expect(r3.stderr).toContain('1e9');

    // that nothing of these files was written is checked by the last step, with a server on this data directory
  }, STEP);

  step('keys create for an unknown company and keys revoke of an unknown id exit 1', async () => {
    const c = await fleetops(['keys', 'create', '--company', 'nope'], { env: { DATA_DIR: dataDir } });
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/company "?nope"? not found/);
    expect(c.stdout).not.toMatch(/fo_live_/);

    const r = await fleetops(['keys', 'revoke', '00000000-0000-4000-8000-000000000000'], { env: { DATA_DIR: dataDir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not found/);

    // a key's name follows the API's rule (trimmed, 1 to 100 characters) here too
    for (const name of ['   ', 'n'.repeat(101)]) {
      const k = await fleetops(['keys', 'create', '--company', 'acme', '--name', name], { env: { DATA_DIR: dataDir } });
      expect(k.code, k.stdout).toBe(1);
      expect(k.stderr).toMatch(/name/);
      expect(k.stdout).not.toMatch(/fo_live_/);
    }
  }, STEP);

  step('a server on that data directory serves exactly the imported data', async () => {
    const server = await serve({ DATA_DIR: dataDir });
    try {
      for (const [tag, key] of [['acme', acmeKey], ['globex', globexKey]] as const) {
        const res = await api(server, '/aircraft', key);
        expect(res.status).toBe(200);
        expectImportedAircraft(res.body, tag); // imported twice, still 2 aircraft; the rejected rename did not land
        expect(res.body.data.map((a: any) => a.registration)).not.toContain('VH-CHG');
        const users = await api(server, '/users', key);
        expect(users.status).toBe(200);
        expect(users.body.count).toBe(2);
      }
      for (const k of rejectedKeys) expect((await api(server, '/aircraft', k)).status).toBe(401);
      // keys list runs inside the server now (admin socket): the rejected files' first companies do not exist
      for (const id of ['newco', 'newco2']) {
        const l = await fleetops(['keys', 'list', '--company', id], { env: { DATA_DIR: dataDir } });
        expect(l.code, `company ${id}: ${l.stdout}`).toBe(1);
        expect(l.stderr).toMatch(/company "?\w+"? not found/);
      }
      // and acme still has exactly its imported key
      const acme = await fleetops(['keys', 'list', '--company', 'acme'], { env: { DATA_DIR: dataDir } });
      expect(acme.code).toBe(0);
      expect(acme.stdout).toContain(acmeKey.slice(0, 12));
      expect(acme.stdout).not.toContain(rejectedKeys[1].slice(0, 12));
      expect(lines(acme.stdout).filter((l) => l.includes('fo_live_'))).toHaveLength(1);
    } finally {
      await server.stop();
    }
  }, STEP);
});

describe('import files that cannot be read', () => {
  let dataDir: string;
  let work: string;
  beforeAll(() => {
    dataDir = tempDir('nofile');
    work = tempDir('nofiles');
  });

  step('a file that is not JSON, or is missing, exits 1 with a clear message', async () => {
    const notJson = writeJson(work, 'broken.json', '{"companies": [ {"id": "x", ');
    const a = await fleetops(['import', notJson], { env: { DATA_DIR: dataDir } });
    expect(a.code).toBe(1);
    expect(a.stdout).toBe('');
    expect(a.stderr).toContain('broken.json');
    expect(a.stderr).toMatch(/JSON/i);

    const missing = path.join(work, 'no-such-file.json');
    const b = await fleetops(['import', missing], { env: { DATA_DIR: dataDir } });
    expect(b.code).toBe(1);
    expect(b.stdout).toBe('');
    expect(b.stderr).toContain('no-such-file.json');
    expect(b.stderr).toMatch(/no such file|not found|ENOENT|cannot read/i);
    // neither opened (let alone created) a database
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  }, STEP);

  // Found by the CLI audit (twenty-first session): a JSON file saved with a byte order mark (as Windows editors do) was
  // "Unexpected token", and a Latin-1 file was imported with its accented letters replaced by U+FFFD for good.
  step('a JSON file with a byte order mark is read; a file that is not UTF-8 (JSON or CSV) exits 1, names its line, imports nothing', async () => {
    const NOT_UTF8 = (line: number) => `the file is not UTF-8 text (line ${line} holds bytes that are not)`;
    const latin1 = company('latin', 'lat', liveKey());
    latin1.users[0]!.displayName = 'Jos\u00e9 Mu\u00f1oz';
    const bad = path.join(work, 'latin1.json');
    fs.writeFileSync(bad, Buffer.from(JSON.stringify(latin1, null, 2), 'latin1'));
    const a = await fleetops(['import', bad], { env: { DATA_DIR: dataDir } });
    expect(a.code, a.stderr).toBe(1);
    expect(a.stderr).toContain(`fleetops import: cannot read ${bad}: ${NOT_UTF8(8)}`); // the owner's displayName
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);

    const key = liveKey();
    const bom = path.join(work, 'bom.json');
    fs.writeFileSync(bom, '\uFEFF' + JSON.stringify({ companies: [company('bom', 'bom', key)] }, null, 2));
    const b = await fleetops(['import', bom], { env: { DATA_DIR: dataDir } });
    expect(b.code, b.stderr).toBe(0);

    const csv = path.join(work, 'latin1.csv');
    const rows = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,notes', '2026-04-06T08:00:00Z,bom-pilot,bom-ac-1,VH-BOM,YSSY,YSBK,ok', '2026-04-07T08:00:00Z,bom-pilot,bom-ac-1,VH-BOM,YSSY,YSBK,ok', '2026-04-08T08:00:00Z,bom-pilot,bom-ac-1,VH-BOM,YSSY,YSBK,caf\u00e9'];
    fs.writeFileSync(csv, Buffer.from(rows.join('\r\n') + '\r\n', 'latin1'));
    const c = await fleetops(['import-logs', '--company', 'bom', csv], { env: { DATA_DIR: dataDir } });
    expect(c.code, c.stderr).toBe(1);
    expect(c.stderr).toContain(`fleetops import-logs: ${NOT_UTF8(4)}`);
    expect(c.stdout).toBe(''); // refused whole: no "imported N" (the two good rows before it are not imported either)
  }, STEP);
});

describe('busy embedded database', () => {
  let holder: ChildProcess | undefined;
  afterAll(async () => {
    if (holder && holder.exitCode === null && holder.signalCode === null) {
      const gone = new Promise((r) => holder!.once('exit', r));
      holder.kill('SIGTERM');
      await gone;
    }
  });

  step('migrate on a data directory held by a live process without an admin socket says so and exits 1', async () => {
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await new Promise((r) => holder!.once('spawn', r));
    const dataDir = tempDir('busy');
    fs.writeFileSync(path.join(dataDir, 'fleetops.lock'), String(holder.pid));

    const r = await fleetops(['migrate'], { env: { DATA_DIR: dataDir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/in use/);
    expect(r.stderr).toContain(String(holder.pid));
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false); // it did not open the database anyway

    // a leftover socket file nobody answers on is no way in either
    fs.writeFileSync(path.join(dataDir, 'fleetops.sock'), '');
    const r2 = await fleetops(['keys', 'list', '--company', 'demo'], { env: { DATA_DIR: dataDir } });
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/in use/);
  }, STEP);

  step('a command the server took and then stopped answering (killed mid-command) is exit 1 saying it may be partly done, not "in use"', async () => {
    // the holder from the step above is the live lock holder; a stand-in for its admin socket takes the command,
    // writes some progress and dies before the exit code (as a server killed hard during an import would)
    const dataDir = tempDir('cut');
    fs.writeFileSync(path.join(dataDir, 'fleetops.lock'), String(holder!.pid));
    const socket = path.join(dataDir, 'fleetops.sock');
    const seen: unknown[] = [];
    const standIn = http.createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push(JSON.parse(body).argv);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(JSON.stringify({ out: 'imported 100 of 500 rows\n' }) + '\n', () => res.socket?.destroy());
    });
    await new Promise<void>((r) => standIn.listen(socket, r));
    try {
      fs.writeFileSync(path.join(dataDir, 'logs.csv'), 'timeDate,pilot,aircraftId\n');
      const r = await fleetops(['import-logs', '--company', 'demo', 'logs.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
      expect(seen).toEqual([['import-logs', '--company', 'demo', 'logs.csv']]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('imported 100 of 500 rows\n');
      expect(r.stderr).toBe(
        'fleetops: the server holding the embedded database stopped before `fleetops import-logs` finished: it may have done part of its work; look at what it writes before running it again\n',
      );
      expect(r.stderr).not.toMatch(/in use/);
    } finally {
      await new Promise((r) => standIn.close(r));
    }
  }, STEP);
});

describe('fleetops import-logs: flight logs from CSV through the flight-log rules', () => {
  let dataDir: string;
  let key: string;
  beforeAll(async () => {
    dataDir = await migratedDataDir('csv');
    const r = await fleetops(['demo'], { env: { DATA_DIR: dataDir } });
    expect(r.code).toBe(0);
    key = lastLine(r.stdout);
  }, STEP);

  step('valid rows are imported, bad rows are reported by line, exit 1; totals follow exactly', async () => {
    const csv = [
      'timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,hobbs,landings,remarks,uid',
      '2020-02-01T08:00:00Z,demo-pilot,demo-vh-abc,VH-ABC,YSSY,YSBK,2,1.1,2,"fine, thanks",x-1',
      '2020-02-02T08:00:00Z,demo-pilot,demo-vh-abc,VH-ABC,YSSY,YSBK,,0.2,1,,x-2',
      '2020-02-03T08:00:00Z,demo-pilot,demo-vh-abc,VH-XXX,YSSY,YSBK,1,0.5,1,,x-3',
      '2020-02-04T08:00:00Z,demo-pilot,demo-vh-abc,VH-ABC,YSSY,YSBK,1,abc,1,,x-4',
      // a tracking figure is below 1e9 with at most 6 decimal places (gaps.md §11): not a total of 1.2e+25
      '2020-02-05T08:00:00Z,demo-pilot,demo-vh-abc,VH-ABC,YSSY,YSBK,1,1e25,1,,x-5',
      '2020-02-06T08:00:00Z,demo-pilot,demo-vh-abc,VH-ABC,YSSY,YSBK,1,0.1,0.0000001,,x-6',
    ].join('\n');
    fs.writeFileSync(path.join(dataDir, 'logs.csv'), csv);
    const r = await fleetops(['import-logs', '--company', 'demo', 'logs.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('imported 2 flight log(s) into demo; rejected 4');
    expect(r.stdout).toContain('ignored server-controlled columns: uid');
    expect(r.stderr).toMatch(/^line 4: .*aircraftRegistration/m);
    expect(r.stderr).toMatch(/^line 5: .*hobbs must be a number/m);
    expect(r.stderr).toMatch(/^line 6: .*\/hobbs: hobbs must be less than 1000000000 \(1e9\)/m);
    expect(r.stderr).toMatch(/^line 7: .*\/landings: landings must have at most 6 decimal places/m);

    const server = await serve({ DATA_DIR: dataDir });
    try {
      // the demo's own year of flights plus the two imported ones (dated 2020, before the demo's year)
      const a = await api(server, '/aircraft/demo-vh-abc', key);
      const logs = await api(server, '/flight-logs?aircraftId=demo-vh-abc&startDate=2020-01-01&endDate=2020-12-31', key);
      expect(logs.body.count).toBe(2);
      expect(logs.body.data.find((l: any) => l.hobbs === 1.1)).toMatchObject({ pax: 2, remarks: 'fine, thanks' });
      expect(logs.body.data.find((l: any) => l.hobbs === 0.2)).toMatchObject({ pax: null });
      // while the server runs, import-logs runs inside it and reads the file from the caller's directory
      const again = await fleetops(['import-logs', '--company', 'demo', 'logs.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
      expect(again.code).toBe(1);
      expect(again.stdout).toContain('imported 2 flight log(s)');
      const b = await api(server, '/aircraft/demo-vh-abc', key);
      // each import adds exactly its rows' values: hobbs 1.1 + 0.2, landings 2 + 1
      expect(Math.round((b.body.totals.hobbs - a.body.totals.hobbs) * 10)).toBe(13);
      expect(b.body.totals.landings - a.body.totals.landings).toBe(3);
    } finally {
      await server.stop();
    }
  }, STEP * 2);

  step('relayed through a running server, import-logs streams its progress bar and each rejected row as it happens', async () => {
    const rows = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,hobbs,landings'];
    const bad = new Set([5, 250]); // data rows 5 and 250: lines 7 and 252
    for (let i = 0; i < 300; i++) {
      const at = new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();
      rows.push(`${at},demo-pilot,demo-vh-abc,${bad.has(i) ? 'VH-XXX' : 'VH-ABC'},YSSY,YSBK,1,0.1,1`);
    }
    fs.writeFileSync(path.join(dataDir, 'many.csv'), rows.join('\n'));
    const server = await serve({ DATA_DIR: dataDir });
    const count = async () => (await (await fetch(`${server.url}/api/v1/aggregate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ collection: 'flightLogs', metric: '__count__', filters: { aircraftId: 'demo-vh-abc' } }),
    })).json()).totalCount as number;
    try {
      const before = await count();
      const events: { stream: 'out' | 'err'; chunk: string }[] = [];
      let whenFirstRejected: Promise<number> | undefined;
      const r = await runCli(['import-logs', '--company', 'demo', 'many.csv'], {
        env: { ...BASE_ENV, LOG_LEVEL: 'silent', DATA_DIR: dataDir },
        cwd: dataDir,
        tty: true,
        columns: 100,
        stdout: (chunk) => events.push({ stream: 'out', chunk }),
        stderr: (chunk) => {
          events.push({ stream: 'err', chunk });
          // the first rejected row reaches the caller while the import is still running on the server
          if (chunk.includes('line 7:')) whenFirstRejected ??= count();
        },
      });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toBe(''); // everything went to the writers, as it came
      const at = (re: RegExp) => events.findIndex((e) => re.test(e.chunk));
      expect(at(/^line 7: .*aircraftRegistration/m)).toBeGreaterThanOrEqual(0);
      expect(at(/^line 252: /m)).toBeGreaterThan(at(/^line 7: /m));
      expect(at(/imported 298 flight log\(s\) into demo; rejected 2/)).toBeGreaterThan(at(/^line 252: /m));
      // the bar was drawn on the caller's terminal as rows went in: values rising, some between the two rejections
      const values = events.flatMap((e) => [...e.chunk.matchAll(/importing .*?(\d+)\/300 rows/g)].map((m) => Number(m[1])));
      expect(new Set(values).size).toBeGreaterThan(3);
      expect(values[values.length - 1]).toBe(300);
      expect(events.slice(at(/^line 7: /m), at(/^line 252: /m)).some((e) => /\/300 rows/.test(e.chunk))).toBe(true);
      expect(whenFirstRejected).toBeDefined();
      const midway = await whenFirstRejected!;
      expect(midway - before).toBeLessThan(298);
      expect(await count()).toBe(before + 298);
    } finally {
      await server.stop();
    }
  }, STEP * 2);

  step('a CSV without a required column, an unknown company and a missing file exit 1 and import nothing', async () => {
    fs.writeFileSync(path.join(dataDir, 'bad.csv'), 'pilot,aircraftId\ndemo-pilot,demo-vh-abc\n');
    const r = await fleetops(['import-logs', '--company', 'demo', 'bad.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no timeDate column');
    const unknown = await fleetops(['import-logs', '--company', 'nope', 'bad.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('company "nope" not found');
    const missing = await fleetops(['import-logs', '--company', 'demo', 'missing.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read missing.csv');
  }, STEP);
});

const PG_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG_URL)('on PostgreSQL (DATABASE_URL)', () => {
  const dbName = `fleetops_cli_${randomBytes(5).toString('hex')}`;
  let databaseUrl: string;
  let dataDir: string;
  let server: Server | undefined;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${dbName}"`);
    } finally {
      await admin.end();
    }
    const u = new URL(PG_URL!);
    u.pathname = '/' + dbName;
    databaseUrl = u.toString();
    dataDir = tempDir('pg');
  }, LONG);

  afterAll(async () => {
    await server?.stop();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }, STEP);

  step('import, keys create and serve share the PostgreSQL database', async () => {
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir };
    const work = tempDir('pgfiles');
    const acmeKey = liveKey();
    const globexKey = liveKey();
    const file = writeJson(work, 'good.json', { companies: [company('acme', 'acme', acmeKey), company('globex', 'globex', globexKey)] });

    const imp = await fleetops(['import', file], { env });
    expect(imp.stderr).toBe('');
    expect(imp.code).toBe(0);
    expect(lines(imp.stdout)).toHaveLength(2);
    expect(imp.stdout).toMatch(/^acme\b.*company created/m);

    const again = await fleetops(['import', file], { env });
    expect(again.code).toBe(0);
    expect(lines(again.stdout).every((l) => /company unchanged; users 0 created, 0 updated, 2 unchanged; aircraft 0 created, 0 updated, 2 unchanged/.test(l))).toBe(true);

    const created = await fleetops(['keys', 'create', '--company', 'globex', '--name', 'ci'], { env });
    expect(created.code).toBe(0);
    const ciKey = lastLine(created.stdout);
    expect(ciKey).toMatch(KEY_RE);

    // the embedded database was never touched
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);

    server = await serve(env);
    const a = await api(server, '/aircraft', acmeKey);
    expect(a.status).toBe(200);
    expectImportedAircraft(a.body, 'acme');
    const g = await api(server, '/aircraft', ciKey);
    expect(g.status).toBe(200);
    expectImportedAircraft(g.body, 'globex');

    // on PostgreSQL other commands run beside the server on their own connection
    const list = await fleetops(['keys', 'list', '--company', 'globex'], { env });
    expect(list.code).toBe(0);
    const row = lines(list.stdout).find((l) => l.includes(ciKey.slice(0, 12)));
    expect(row).toBeDefined();
    const revoke = await fleetops(['keys', 'revoke', row!.split('\t')[0]], { env });
    expect(revoke.code).toBe(0);
    expect((await api(server, '/aircraft', ciKey)).status).toBe(401);
    expect((await api(server, '/aircraft', globexKey)).status).toBe(200);
  }, 2 * STEP);

  // SIGTERM with a database that stopped answering (a network partition, a hung server): the process closes what it
  // can within SHUTDOWN_TIMEOUT_MS and exits. Before, closing the pool waited for a query that never came back, and
  // the process never exited (until the service manager's SIGKILL).
  step('SIGTERM with a database that stopped answering: the process still exits', async () => {
    await server?.stop();
    server = undefined;
    const pgUrl = new URL(databaseUrl);
    let frozen = false;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(pgUrl.port || 5432), pgUrl.hostname);
      sockets.add(client).add(upstream);
      // once frozen, what either side sends is dropped: the connection stays open and nothing ever answers
      client.on('data', (d) => void (frozen || upstream.write(d)));
      upstream.on('data', (d) => void (frozen || client.write(d)));
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const via = new URL(databaseUrl);
    via.port = String((proxy.address() as net.AddressInfo).port);
    via.hostname = '127.0.0.1';
    try {
      const s = await serve({ DATABASE_URL: via.toString(), DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '500', DRAIN_DELAY_MS: '0' });
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
      frozen = true;
      // a check that never gets its answer holds a connection of the pool
      const ready = await fetch(`${s.url}/readyz`);
      expect(ready.status).toBe(503);
      const exit = new Promise<number | null>((resolve) => s.proc.on('exit', (code) => resolve(code)));
      s.proc.kill('SIGTERM');
      // a bound against a hang, not a measure: the process needs about 2 x 0.5 s and 1 s more
      const code = await Promise.race([exit, sleep(60_000).then(() => 'still running' as const)]);
      expect(code, s.output()).toBe(0);
      await s.stop();
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }, STEP);
});

describe('fleetops backup and restore while fleetops serve runs (docs/backup.md)', () => {
  let dataDir: string;
  let server: Server;
  let key: string;
  let file: string;
  const flight = (i: number) => ({
    timeDate: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(), pilot: 'demo-pilot', aircraftId: 'demo-vh-abc', aircraftRegistration: 'VH-ABC',
    startLocation: 'YSSY', endLocation: 'YSBK', pax: 1, hobbs: 0.3, landings: 1,
  });
  beforeAll(async () => {
    dataDir = await migratedDataDir('bak');
    server = await serve({ DATA_DIR: dataDir });
    const demo = await fleetops(['demo'], { env: { DATA_DIR: dataDir } });
    expect(demo.code, demo.stderr).toBe(0);
    key = lastLine(demo.stdout);
    // enough rows for progress lines: 1,000 flight logs (and their daily rollup)
    const csv = ['timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation,pax,hobbs,landings'];
    for (let i = 0; i < 1000; i++) {
      const f = flight(i);
      csv.push([f.timeDate, f.pilot, f.aircraftId, f.aircraftRegistration, f.startLocation, f.endLocation, f.pax, f.hobbs, f.landings].join(','));
    }
    fs.writeFileSync(path.join(dataDir, 'logs.csv'), csv.join('\n'));
    const imported = await fleetops(['import-logs', '--company', 'demo', 'logs.csv'], { env: { DATA_DIR: dataDir }, cwd: dataDir });
    expect(imported.code, imported.stderr).toBe(0);
  }, STEP);
  afterAll(async () => {
    await server?.stop();
  }, STEP);

  step('backup runs inside the server, which keeps answering writes over HTTP meanwhile', async () => {
    const work = tempDir('bakout');
    let stop = false;
    let written = 0;
    const writer = (async () => {
      for (let i = 5000; !stop; i++) {
        const res = await fetch(`${server.url}/api/v1/flight-logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(flight(i)),
        });
        expect(res.status).toBe(201);
        written++;
      }
    })();
    while (written < 3) await sleep(20);
    const before = written;
    const r = await fleetops(['backup', 'fleet.jsonl.gz'], { env: { DATA_DIR: dataDir }, cwd: work });
    const during = written - before;
    stop = true;
    await writer;
    expect(r.code, r.stderr).toBe(0);
    // written by the server, relative to the directory the command was started in
    file = path.join(work, 'fleet.jsonl.gz');
    expect(fs.existsSync(file)).toBe(true);
    expect(r.stdout).toMatch(/^backup of 1 company \(demo\) from the embedded database written to fleet\.jsonl\.gz: \d+ tables, [\d,]+ rows, .* format version 1\n$/);
    expect(r.stderr).toMatch(/^backup: [\d,]+\/[\d,]+ rows \(0%\), Company$/m);
    expect(r.stderr).toMatch(/^backup: ([\d,]+)\/\1 rows \(100%\)/m);
    expect(during, 'flight logs written over HTTP while the backup ran').toBeGreaterThan(0);
  }, STEP);

  step('restore runs inside a server on an empty data directory; the restored company answers as it did', async () => {
    const other = await migratedDataDir('rst');
    const second = await serve({ DATA_DIR: other });
    try {
      const r = await fleetops(['restore', file], { env: { DATA_DIR: other } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^restored .* into the embedded database: 1 company \(demo\)/);
      const [a, b] = [await api(server, '/aircraft/demo-vh-abc', key), await api(second, '/aircraft/demo-vh-abc', key)];
      expect(b.status).toBe(200);
      // the backup is one instant: the restored totals are those of its own logs, at most what the first server has now
      const logs = (await api(second, '/flight-logs?aircraftId=demo-vh-abc&limit=1', key)).body;
      expect(logs.data).toHaveLength(1);
      expect(b.body.totals.hobbs).toBeLessThanOrEqual(a.body.totals.hobbs);
      expect(b.body.totals.hobbs).toBeGreaterThanOrEqual(1200.5 + 1000 * 0.3);
      const again = await fleetops(['restore', file], { env: { DATA_DIR: other } });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/the target store is not empty/);
      const move = await fleetops(['move-to-postgres', 'postgres://127.0.0.1:1/none'], { env: { DATA_DIR: other } });
      expect(move.code).toBe(1);
      expect(move.stderr).toMatch(/^fleetops: a fleetops process \(pid \d+\) holds the embedded database in .*: stop it first/);
    } finally {
      await second.stop();
    }
  }, STEP * 2);

  step('SIGTERM while a backup runs through the socket: the backup runs to its end (SHUTDOWN_TIMEOUT_MS cuts HTTP requests, not it), then the server exits 0', async () => {
    await server.stop();
    // a limit far shorter than the backup: were the command cut at it, the client would get no exit code
    server = await serve({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '1' });
    const work = tempDir('bakterm');
    let signalled = false;
    let stderr = '';
    const r = await runCli(['backup', 'fleet.jsonl.gz'], {
      env: { ...BASE_ENV, LOG_LEVEL: 'silent', DATA_DIR: dataDir },
      cwd: work,
      stderr: (chunk) => {
        stderr += chunk;
        // the server has taken the command and reported its first table: stop it now
        if (!signalled && /^backup: /m.test(stderr)) {
          signalled = true;
          server.proc.kill('SIGTERM');
        }
      },
    });
    expect(signalled).toBe(true);
    expect(r.code, stderr).toBe(0);
    expect(stderr).toMatch(/^backup: ([\d,]+)\/\1 rows \(100%\)/m);
    expect(r.stdout).toMatch(/^backup of 1 company \(demo\) from the embedded database written to fleet\.jsonl\.gz/);
    const exitCode = await new Promise<number | null>((resolve) =>
      server.proc.exitCode !== null ? resolve(server.proc.exitCode) : server.proc.once('exit', (c) => resolve(c)),
    );
    expect(exitCode, server.output()).toBe(0);
    // the whole backup restores: the company answers from it as it did
    const other = await migratedDataDir('rst2');
    const restored = await fleetops(['restore', path.join(work, 'fleet.jsonl.gz')], { env: { DATA_DIR: other } });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/1 company \(demo\)/);
  }, STEP * 2);
});

describe('bin/fleetops.js runs the bundle only while it is newer than the sources', () => {
  test('a bundle newer than every file under src/ is used; an edited source, or no bundle, means the sources', async () => {
    // @ts-expect-error plain JavaScript module of the bin folder
    const { freshBundle } = (await import('../bin/bundle.js')) as { freshBundle(root: string): string | null };
    const root = tempDir('bundle');
    fs.mkdirSync(path.join(root, 'src', 'modules'), { recursive: true });
    fs.mkdirSync(path.join(root, 'dist'));
    const source = path.join(root, 'src', 'modules', 'a.ts');
    const bundle = path.join(root, 'dist', 'fleetops.mjs');
    fs.writeFileSync(source, 'export {};');
    expect(freshBundle(root)).toBeNull(); // not built
    fs.writeFileSync(bundle, 'export {};');
    const t = Date.now() / 1000;
    fs.utimesSync(source, t - 60, t - 60);
    fs.utimesSync(bundle, t - 30, t - 30);
    expect(freshBundle(root)).toBe(bundle);
    fs.utimesSync(source, t, t); // edited after the build, in a nested folder
    expect(freshBundle(root)).toBeNull();
  });
});
