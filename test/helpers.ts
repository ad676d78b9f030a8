import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { inject } from 'vitest';
import { createApp, type App, type AppOptions } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { importData } from '../src/modules/companies/import.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { now } from '../src/lib/clock.js';
import { createTempDatabase } from '../bench/pg.js';
import { companyTables } from '../src/backup/model.js';

/**
 * Test environment: a database (embedded PGlite in memory, or the PostgreSQL of TEST_DATABASE_URL), two
 * companies with users, aircraft and an API key each, and the app answering in-process `fetch` calls.
 */
export const onPostgres = !!process.env.TEST_DATABASE_URL;

export function openTestDatabase(onQuery?: (sql: string) => void): Promise<Database> {
  return onPostgres ? openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, onQuery }) : openEmbeddedTestDatabase(onQuery);
}

/** A migrated, empty embedded database in memory, whichever store the suite runs on. */
export function openEmbeddedTestDatabase(onQuery?: (sql: string) => void): Promise<Database> {
  return openDatabase({ dataDir: 'memory://', onQuery, snapshot: pgliteSnapshot() });
}

/** The migrated snapshot test/global-setup.ts made, read once per test file (undefined outside vitest's setup). */
let snapshot: Blob | undefined;
function pgliteSnapshot(): Blob | undefined {
  if (snapshot) return snapshot;
  const file = inject('pgliteSnapshot');
  if (file && fs.existsSync(file)) snapshot = new Blob([fs.readFileSync(file)]);
  return snapshot;
}

/**
 * Fills `dir` (a DATA_DIR) with a migrated, empty embedded database, loaded from the snapshot above where
 * `fleetops` keeps it (DATA_DIR/pglite): a new cluster takes seconds. For scenarios that are not about a fresh
 * directory; without the snapshot the directory is left empty (the command then creates the cluster).
 */
export async function seedDataDir(dir: string): Promise<string> {
  const snap = pgliteSnapshot();
  if (!snap) return dir;
  const lite = new PGlite(path.join(dir, 'pglite'), { loadDataDir: snap });
  await lite.waitReady;
  await lite.close();
  return dir;
}

/**
 * Today's date (YYYY-MM-DD) in a time zone at the service's clock (src/lib/clock.ts; fixed per test file by
 * test/setup-clock.ts), worked out here with Intl rather than with the service's own date rules.
 */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now());
}

/** A calendar date `n` days after `date` (both YYYY-MM-DD). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Operations only admin keys may call (MCP lists them to admin keys only): the company's management. */
export const ADMIN_OPERATIONS = ['putIntegrationSettings'];

export const uniq = () => randomBytes(4).toString('hex');
export const newKey = () => 'fo_test_' + randomBytes(16).toString('hex');

export function companyFixture(id: string, key: string, prefix: string) {
  return {
    id,
    name: `${prefix.toUpperCase()} Aviation`,
    users: [
      { uid: `${prefix}-owner`, email: `owner@${prefix}.test`, displayName: 'Olivia Owner', firstName: 'Olivia', lastName: 'Owner', status: 'Active', roles: ['owner', 'admin'], timezone: 'Australia/Sydney' },
      { uid: `${prefix}-pilot`, email: `pilot@${prefix}.test`, displayName: 'Pat Pilot', status: 'Active', roles: ['pilot'], phone: '+61400000000' },
      { uid: `${prefix}-new`, email: `new@${prefix}.test`, displayName: 'Nina New', status: 'Pending', roles: ['driver'] },
    ],
    aircraft: [
      {
        uid: `${prefix}-ac-1`, registration: `VH-${prefix.toUpperCase().slice(0, 3)}`, type: 'B06', category: 'rotary-wing', manufacturer: 'Bell', model: '206B',
        engineType: 'turbine', engineCount: 1, status: 'active',
        maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number', precision: 0 } },
        logTrackingItems: { fuelUplift: { displayText: 'Fuel uplift', type: 'number' }, remarks: { displayText: 'Remarks', type: 'string' } },
        initialValues: { hobbs: 1200.5, landings: 3000 },
      },
      {
        uid: `${prefix}-ac-2`, registration: `VH-${prefix.toUpperCase().slice(0, 2)}Z`, type: 'C172', category: 'fixed-wing',
        engineType: 'piston', engineCount: 1, status: 'active',
        maintenanceTrackingItems: { tacho: { displayText: 'Tacho', type: 'number', precision: 2 } },
        logTrackingItems: {},
      },
    ],
    vehicles: [{ uid: `${prefix}-v-1`, make: 'Toyota', model: 'Hilux', registration: `${prefix.toUpperCase()}123`, tracking: { kilometers: true, miles: false, hours: false } }],
    apiKeys: [{ name: 'integration', key }],
  };
}

export interface TestCompany {
  id: string;
  key: string;
  prefix: string;
}

export interface TestEnv {
  app: App;
  database: Database;
  a: TestCompany;
  b: TestCompany;
  request(method: string, path: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  json<T = any>(method: string, path: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: T; res: Response }>;
  gql<T = any>(query: string, variables?: Record<string, unknown>, key?: string | null): Promise<{ status: number; body: { data?: T; errors?: any[] } }>;
  /** JSON calls under /api/v1 with company a's key (`rest.get('/vehicles')`). */
  rest: {
    get<T = any>(path: string): Promise<{ status: number; body: T; res: Response }>;
    post<T = any>(path: string, body: unknown): Promise<{ status: number; body: T; res: Response }>;
    patch<T = any>(path: string, body: unknown): Promise<{ status: number; body: T; res: Response }>;
  };
  /** Runs a typed operation generated by codegen (test/generated/graphql.ts). */
  op<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, key?: string | null): Promise<{ status: number; data?: R | null; errors?: any[] }>;
  /** PostgreSQL: the URL of this environment's database (its own when isolated); undefined on the embedded store. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * Reads with the environment's key until a request needs no key lookup, so that a test counting statements counts
 * none for the key. The first lookup is usually kept, but on a shared PostgreSQL another suite's key change (NOTIFY)
 * landing while it runs keeps it from being cached (src/auth/key-cache.ts). `queries` gives the statements seen so
 * far (the test's onQuery record).
 */
export async function keepKey(env: TestEnv, queries: () => readonly string[]): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const from = queries().length;
    await env.gql('{ __typename }');
    // its lastUsedAt write happens off the request's path
    await new Promise((r) => setTimeout(r, 50));
    if (!queries().slice(from).some((q) => q.includes('"ApiKey"'))) return;
  }
}

/**
 * More connections to an environment's database, as another server process has: on PostgreSQL a new pool on the same
 * database; on the embedded store (one connection) the environment's own.
 */
export async function openSameDatabase(env: TestEnv): Promise<{ database: Database; close(): Promise<void> }> {
  if (!env.databaseUrl) return { database: env.database, close: async () => {} };
  const database = await openDatabase({ databaseUrl: env.databaseUrl });
  return { database, close: () => database.close() };
}

export async function createTestEnv(
  opts: {
    rateLimitPerMinute?: number;
    onQuery?: (sql: string) => void;
    /** More configuration (webhooks, SMTP, public forms). */
    config?: Partial<AppOptions['config']>;
    /** Run the delivery dispatcher and the alert monitor (off by default). */
    dispatch?: boolean;
    /**
     * On PostgreSQL, a database of its own (created on TEST_DATABASE_URL's server, migrated, dropped at close) instead
     * of the suites' shared one: the default when `dispatch` is on, since a dispatcher claims every pending outbox row
     * of its database, and on a shared one it would send other suites' deliveries with its own settings (and theirs
     * would send its). Also for a test that runs dispatchers of its own (`openSameDatabase` opens more connections).
     */
    isolated?: boolean;
    /** An open database to use instead of a new one (a second app on the same data). */
    database?: Database;
    /** GraphQL over HTTP: runs of a query before it is compiled (AppOptions; default the app's). */
    graphqlCompileAfter?: number;
  } = {},
): Promise<TestEnv> {
  let temp: { url: string; drop(): Promise<void> } | null = null;
  let database = opts.database;
  if (!database) {
    if (onPostgres && (opts.isolated ?? opts.dispatch)) {
      temp = await createTempDatabase(process.env.TEST_DATABASE_URL!, 'fleetops_isolated');
      database = await openDatabase({ databaseUrl: temp.url, onQuery: opts.onQuery });
    } else database = await openTestDatabase(opts.onQuery);
  }
  const s = uniq();
  const a = { id: `acme-${s}`, key: newKey(), prefix: 'acme' };
  const b = { id: `globex-${s}`, key: newKey(), prefix: 'globex' };
  await importData(database, { companies: [companyFixture(a.id, a.key, 'acme'), companyFixture(b.id, b.key, 'globex')] });
  const app = createApp({
    database,
    config: { rateLimitPerMinute: opts.rateLimitPerMinute ?? 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1024 * 1024, logLevel: 'silent', ...opts.config },
    dispatch: opts.dispatch ?? false,
    graphqlCompileAfter: opts.graphqlCompileAfter,
  });
  await app.ready;
  const request: TestEnv['request'] = (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? a.key : o.key;
    if (key) headers.authorization ??= `Bearer ${key}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    return app.fetch(new Request(`http://fleetops.test${path}`, { method, headers, body }));
  };
  const json: TestEnv['json'] = async (method, path, o) => {
    const res = await request(method, path, o);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
  };
  return {
    app,
    database,
    a,
    b,
    request,
    json,
    rest: {
      get: (path) => json('GET', `/api/v1${path}`),
      post: (path, body) => json('POST', `/api/v1${path}`, { body }),
      patch: (path, body) => json('PATCH', `/api/v1${path}`, { body }),
    },
    async gql(query, variables, key) {
      const res = await request('POST', '/graphql', { key, body: { query, variables } });
      return { status: res.status, body: await res.json() };
    },
    async op(doc, variables, key) {
      const res = await request('POST', '/graphql', { key, body: { query: print(doc), variables } });
      const body = await res.json();
      return { status: res.status, data: body.data, errors: body.errors };
    },
    databaseUrl: temp?.url ?? (onPostgres ? process.env.TEST_DATABASE_URL : undefined),
    async close() {
      await app.close();
      if (!opts.database) await database!.close();
      await temp?.drop();
    },
  };
}

/** A valid flight-log body for company a's acme-ac-1 (VH-ACM); `over` replaces or adds fields. */
export function flightLogBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timeDate: '2026-03-01T09:30:00Z',
    pilot: 'acme-pilot',
    aircraftId: 'acme-ac-1',
    aircraftRegistration: 'VH-ACM',
    startLocation: 'YSSY',
    endLocation: 'YSBK',
    pax: 2,
    ...over,
  };
}

/** The same for acme-ac-2 (VH-ACZ). */
export function flightLogBody2(over: Record<string, unknown> = {}): Record<string, unknown> {
  return flightLogBody({ aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ', ...over });
}

/** A new admin-scope key of a company (company a by default): the management operations (gaps §12). */
export async function adminKey(env: TestEnv, companyId = env.a.id): Promise<string> {
  return (await new ApiKeyService(env.database.prisma).create({ companyId, scope: 'admin', name: 'admin' })).key;
}

/** One MCP tool call over HTTP with `key` (company a's by default): the JSON-RPC result. */
export async function mcpTool(env: TestEnv, name: string, args: Record<string, unknown>, key: string = env.a.key) {
  const res = await env.request('POST', '/mcp', { key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  return (await res.json()).result as { isError?: boolean; content: { text: string }[] };
}

/** Rows in every company table together (0: the store is empty; a table the store does not have counts none). */
export async function companyRowCount(db: Database): Promise<number> {
  let n = 0;
  for (const t of companyTables()) {
    const [{ exists }] = await db.sql.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`"${t.name}"`]);
    if (exists) n += (await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t.name}"`))[0]!.n;
  }
  return n;
}
