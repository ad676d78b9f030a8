// Configuration by environment (docs/contract/gaps.md §1, README "Configuration"): a number is written in decimal
// digits within its range, or the server does not start (exit 1, the variable named); a variable set to nothing or
// to spaces is unset (its default applies, never 0); DATABASE_URL is a PostgreSQL URL; `--help` needs no valid
// configuration; a database that cannot be reached is said so, without a stack trace.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestEnv, seedDataDir } from './helpers.js';
import { runCli } from '../src/cli/main.js';

const load = (env: Record<string, string>) => loadConfig(env, { dotenv: false });
const refusal = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('configuration', () => {
  it('numbers are whole decimal numbers in range; anything else names the variable', () => {
    expect(load({ PORT: '8080', RATE_LIMIT_PER_MINUTE: ' 60 ', WEBHOOK_TIMEOUT_MS: '2500' })).toMatchObject({ port: 8080, rateLimitPerMinute: 60, webhookTimeoutMs: 2500 });
    for (const PORT of ['0x50', '1e3', '80.0', 'abc', '-1', '+80']) expect(refusal({ PORT }), PORT).toMatch(/^invalid configuration: PORT: PORT must be a whole number \(decimal digits\) from 0 to 65535$/);
    expect(refusal({ PORT: '70000' })).toBe('invalid configuration: PORT: PORT must be at most 65535');
    expect(refusal({ WEBHOOK_TIMEOUT_MS: '0' })).toBe('invalid configuration: WEBHOOK_TIMEOUT_MS: WEBHOOK_TIMEOUT_MS must be at least 1');
    expect(refusal({ WEBHOOK_TIMEOUT_MS: '0x10' })).toMatch(/WEBHOOK_TIMEOUT_MS must be a whole number/);
  });
  it('a variable set to nothing or to spaces takes its default (limits stay on)', () => {
    const c = load({ PORT: ' ', RATE_LIMIT_PER_MINUTE: '  ', AUTH_FAIL_LIMIT_PER_MINUTE: '\t', SHUTDOWN_TIMEOUT_MS: '', DATA_DIR: ' ' });
    expect(c).toMatchObject({ port: 3000, rateLimitPerMinute: 120, authFailLimitPerMinute: 30, shutdownTimeoutMs: 10000 });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });
  it('DATABASE_URL is a PostgreSQL URL', () => {
    expect(load({ DATABASE_URL: 'postgres://u@db/fleet' }).databaseUrl).toBe('postgres://u@db/fleet');
    expect(load({ DATABASE_URL: 'postgresql://u@db/fleet' }).databaseUrl).toBe('postgresql://u@db/fleet');
    expect(refusal({ DATABASE_URL: 'mysql://db.example/fleet' })).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
  });
  it('REDIS_URL is a Redis URL (a host name alone, or an http URL, was taken and every keyed request failed)', () => {
    expect(load({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
    expect(load({ REDIS_URL: 'rediss://cache.example:6380' }).redisUrl).toBe('rediss://cache.example:6380');
    for (const bad of ['foo', 'http://127.0.0.1:6379']) expect(refusal({ REDIS_URL: bad })).toMatch(/REDIS_URL must be a Redis URL/);
  });
});

describe('the rate limit store unreachable', () => {
  it('a keyed request is a 503 problem with Retry-After, not an internal error; a wrong key too', async () => {
    // nothing listens on port 1: every Redis command fails after its retries
    const env = await createTestEnv({ rateLimitPerMinute: 10, config: { redisUrl: 'redis://127.0.0.1:1', authFailLimitPerMinute: 10 } });
    try {
      for (const key of [undefined, 'fo_wrong_key']) {
        const res = await env.request('GET', '/api/v1/aircraft', key === undefined ? {} : { key });
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable', detail: expect.stringMatching(/rate limit's store cannot be reached/) });
      }
      const gql = await env.request('POST', '/graphql', { body: { query: '{ __typename }' } });
      expect(gql.status).toBe(503);
    } finally {
      await env.close();
    }
  });
});

describe('the command with a configuration it cannot use', () => {
  const base = { LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' };
  it('--help works whatever the configuration; a command that needs it exits 1 naming the variable', async () => {
    for (const args of [['--help'], ['keys', '--help']]) {
      const r = await runCli(args, { env: { ...base, PORT: 'abc' } });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^Usage: fleetops/);
    }
    const r = await runCli(['migrate'], { env: { ...base, PORT: 'abc' } });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('fleetops: invalid configuration: PORT: PORT must be a whole number (decimal digits) from 0 to 65535\n');
  });
  it('--version prints the package version; a usage error exits 2 with what was wrong', async () => {
    const version = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version as string;
    for (const args of [['--version'], ['-V']]) expect(await runCli(args, { env: { ...base, PORT: 'abc' } })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const unknown = await runCli(['launch'], { env: base });
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: unknown command 'launch'/);
    const missing = await runCli(['import'], { env: base });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^error: missing required argument 'file'/);
  });
  it('a DATA_DIR that cannot be made is said so, naming the variable, without a stack trace', async () => {
    // a path under a file: no directory can be made there, whoever runs the command
    const r = await runCli(['migrate'], { env: { ...base, DATA_DIR: '/etc/hostname/fleetops-data' } });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(/^fleetops: DATA_DIR \/etc\/hostname\/fleetops-data cannot be used: ENOTDIR: not a directory, .*\/etc\/hostname\/fleetops-data.*\n$/);
    // DATA_DIR itself a file
    const file = await runCli(['migrate'], { env: { ...base, DATA_DIR: '/etc/hostname' } });
    expect(file).toMatchObject({ code: 1, stdout: '' });
    expect(file.stderr).toMatch(/^fleetops: DATA_DIR \/etc\/hostname cannot be used: EEXIST: file already exists, .*\/etc\/hostname.*\n$/);
  });
  it('a listen address that cannot be used (HOST that does not resolve, PORT taken) is said so, not blamed on the database', async () => {
    const dir = await seedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetops-listen-')));
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const host = await runCli(['serve'], { env: { ...base, DATA_DIR: dir, HOST: 'no-such-host.invalid', PORT: '0' } });
      expect(host.code).toBe(1);
      expect(host.stderr).toMatch(/^fleetops: cannot listen: getaddrinfo (ENOTFOUND|EAI_AGAIN) no-such-host\.invalid \(HOST no-such-host\.invalid\) \(set PORT or HOST\)\n$/);
      const port = (taken.address() as net.AddressInfo).port;
      const busy = await runCli(['serve'], { env: { ...base, DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port) } });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/^fleetops: cannot listen: listen EADDRINUSE.*\(set PORT or HOST\)\n$/);
    } finally {
      taken.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('a database that cannot be reached is said so, without a stack trace', async () => {
    // nothing listens on port 1
    const r = await runCli(['migrate'], { env: { ...base, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^fleetops: cannot use the database DATABASE_URL names: .*ECONNREFUSED.*\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
