// The MCP server as an integrator would check it: the MCP Inspector's CLI mode (@modelcontextprotocol/inspector-cli)
// against a real HTTP server, listing tools and calling two of them with a bearer key.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { createServerAdapter } from '@whatwg-node/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest/routes.js';
import { isAdminRoute } from '../src/rest/openapi.js';
import { schema } from '../src/graphql/schema.js';
import { createTestEnv, type TestEnv } from './helpers.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
// inspector-cli 1.0.3 looks for its package.json relative to the working directory: run it from its build folder
const CLI_DIR = path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build');

let env: TestEnv;
let server: http.Server;
let url: string;

beforeAll(async () => {
  env = await createTestEnv();
  server = http.createServer(createServerAdapter((req: Request) => env.app.fetch(req)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await env?.close();
});

async function inspector(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['cli.js', '--cli', url, '--transport', 'http', '--header', `Authorization: Bearer ${env.a.key}`, ...args], {
    cwd: CLI_DIR,
    timeout: 60_000,
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

describe('MCP Inspector CLI', () => {
  it('lists every tool and calls a read with arguments', async () => {
    const list = await inspector('--method', 'tools/list');
    // a read_write key: every route but the company's management (admin keys) and key management (never a tool)
    expect(list.tools.map((t: { name: string }) => t.name).sort()).toEqual(restRoutes.filter((r) => r.mcp !== false && !isAdminRoute(r, schema)).map((r) => r.operationId).sort());
    const one = await inspector('--method', 'tools/call', '--tool-name', 'getAircraft', '--tool-arg', 'id=acme-ac-1');
    expect(one.structuredContent).toMatchObject({ uid: 'acme-ac-1', registration: 'VH-ACM' });
    const missing = await inspector('--method', 'tools/call', '--tool-name', 'getAircraft', '--tool-arg', 'id=globex-ac-1');
    expect(missing.isError).toBe(true);
  }, 180_000);
});
