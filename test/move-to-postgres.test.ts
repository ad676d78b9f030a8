// fleetops move-to-postgres URL (docs/backup.md, docs/contract/gaps.md §15): an embedded store holding the demo company
// (`fleetops demo`) and a generated company is moved to an empty PostgreSQL database; every REST GET route and every
// GraphQL query field, for both companies, answers the same before (embedded) and after (PostgreSQL). Needs a
// PostgreSQL server: runs when TEST_DATABASE_URL is set (CI's PostgreSQL pass).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getNamedType, isEnumType, isListType, isNonNullType, isObjectType, isScalarType, type GraphQLField, type GraphQLOutputType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../bench/pg.js';
import { createApp, type App } from '../src/app.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { runCli } from '../src/cli/main.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { lockPath } from '../src/db/data-dir-lock.js';
import { schema } from '../src/graphql/schema.js';
import { restRoutes } from '../src/rest/routes.js';
import { generateCompany, type GeneratedCompany } from './generated-company.js';
import { seedDataDir } from './helpers.js';

const LONG = 240_000;
const serverUrl = process.env.TEST_DATABASE_URL;

const BASE_ENV: NodeJS.ProcessEnv = (() => {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'LOG_LEVEL']) delete env[k];
  return env;
})();

function appOn(database: Database): App {
  return createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
}

/** A company as the probes see it: its key and one record of each kind. */
interface Probe {
  key: string;
  ids: Record<string, string>;
}

/** Ids of one record of each kind, read through the API (so both companies are probed alike). */
async function probeOf(app: App, key: string, extra: Record<string, string> = {}): Promise<Probe> {
  const get = async (p: string) => (await app.fetch(new Request(`http://fleetops.test/api/v1${p}`, { headers: { authorization: `Bearer ${key}` } }))).json() as Promise<any>;
  const first = async (p: string, field = 'uid') => ((await get(p)).data?.[0]?.[field] as string | undefined) ?? '';
  return {
    key,
    ids: {
      aircraft: await first('/aircraft'),
      'flight-logs': await first('/flight-logs'),
      users: await first('/users'),
      vehicles: await first('/vehicles'),
      components: await first('/components'),
      'schedule-items': await first('/schedule-items'),
      forms: await first('/forms'),
      'form-completions': await first('/form-completions'),
      ...extra,
    },
  };
}

/** Every GET route of /api/v1 with its path parameter filled (the record of its resource), plus aggregations. */
function restRequests(p: Probe): { label: string; request: () => Request }[] {
  const out: { label: string; request: () => Request }[] = [];
  const headers = { authorization: `Bearer ${p.key}` };
  for (const route of restRoutes) {
    if (route.method !== 'GET') continue;
    const resource = route.path.split('/')[1]!;
    const id = p.ids[resource];
    if (/\{(id|uid)\}/.test(route.path)) {
      if (id === undefined) throw new Error(`no record to probe ${route.path} with: add one for "${resource}"`);
      if (id === '') continue; // the company has no such record (its list is probed)
    }
    let url = route.path.replace(/\{(id|uid)\}/, id ?? '');
    if (url.endsWith('/inheritable-sources')) url += `?parentType=aircraft&parentUid=${p.ids.aircraft}`;
    out.push({ label: `GET ${url}`, request: () => new Request(`http://fleetops.test/api/v1${url}`, { headers }) });
    if (route.path === '/flight-logs') {
      out.push({ label: 'GET /flight-logs as CSV', request: () => new Request('http://fleetops.test/api/v1/flight-logs', { headers: { ...headers, accept: 'text/csv' } }) });
      out.push({ label: 'GET /flight-logs?limit=7', request: () => new Request('http://fleetops.test/api/v1/flight-logs?limit=7', { headers }) });
    }
  }
  const aggregations = [
    { collection: 'flightLogs', metric: 'hobbs', operation: 'sum', groupBy: 'aircraftId', dateField: 'timeDate', dateGroup: 'month', timezone: 'Australia/Sydney' },
    { collection: 'flightLogs', metric: '__count__', operation: 'count', groupBy: 'pilot' },
    { collection: 'flightLogs', metric: 'tacho', operation: 'avg', dateField: 'timeDate', dateGroup: 'quarter' },
    { collection: 'completedForms', metric: '__count__', operation: 'count', groupBy: 'formId' },
    { collection: 'aircraft', metric: '__count__', operation: 'count', groupBy: 'category' },
    { collection: 'schedule', metric: '__count__', operation: 'count', groupBy: 'type' },
  ];
  for (const body of aggregations) {
    out.push({
      label: `POST /aggregate ${JSON.stringify(body)}`,
      request: () => new Request('http://fleetops.test/api/v1/aggregate', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  }
  return out;
}

/** The selection of every field of `type` that takes no required argument, `depth` levels down. */
function selectAll(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (isScalarType(named) || isEnumType(named)) return '';
  if (!isObjectType(named) || depth === 0) return '{ __typename }';
  const fields = Object.values(named.getFields()).filter((f) => !f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined));
  return `{ ${fields.map((f) => `${f.name} ${selectAll(f.type, depth - 1)}`).join(' ')} }`;
}

/** Every field of Query, with its required arguments filled from the probe's records and all of its fields selected. */
function graphqlRequests(p: Probe): { label: string; request: () => Request }[] {
  // the record a field's `id` argument names: by the type it answers, or by the field where that does not say
  const byType: Record<string, string> = {
    Aircraft: 'aircraft', FlightLog: 'flight-logs', User: 'users', Vehicle: 'vehicles', Component: 'components',
    ScheduleItem: 'schedule-items', Form: 'forms', FormCompletion: 'form-completions',
  };
  const byField: Record<string, string> = { formCompletionSchema: 'forms', formDeliveries: 'forms', inheritableSources: 'components' };
  const args = (f: GraphQLField<unknown, unknown>): string => {
    const required = f.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
    return required.length
      ? `(${required
          .map((a) => {
            if (a.name === 'input') return `input: { collection: "flightLogs", metric: "hobbs", operation: "sum", groupBy: "aircraftId", dateField: "timeDate", dateGroup: "month", timezone: "Australia/Sydney" }`;
            if (a.name === 'parentType') return 'parentType: aircraft';
            if (a.name === 'parentUid') return `parentUid: ${JSON.stringify(p.ids.aircraft)}`;
            if (a.name === 'formId') return `formId: ${JSON.stringify(p.ids.forms)}`;
            const id = p.ids[byField[f.name] ?? byType[getNamedType(f.type).name] ?? ''];
            if (id === undefined) throw new Error(`no value for the argument ${f.name}(${a.name}): add one`);
            return `${a.name}: ${JSON.stringify(id)}`;
          })
          .join(', ')})`
      : '';
  };
  return Object.values(schema.getQueryType()!.getFields()).flatMap((f) => {
    const a = args(f);
    if (a.includes('""')) return []; // the company has no such record
    const query = `{ ${f.name}${a} ${selectAll(f.type, isListType(f.type) ? 3 : 4)} }`;
    return {
      label: `graphql ${f.name}`,
      request: () => new Request('http://fleetops.test/graphql', { method: 'POST', headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) }),
    };
  });
}

async function answers(app: App, probes: Probe[]): Promise<Record<string, { status: number; body: string }>> {
  const out: Record<string, { status: number; body: string }> = {};
  for (const [i, p] of probes.entries()) {
    for (const r of [...restRequests(p), ...graphqlRequests(p)]) {
      const res = await app.fetch(r.request());
      // a key's lastUsedAt is the probe's own use of it (these very requests): not part of what moved
      const body = (await res.text()).replace(/"lastUsedAt":"[^"]*"/g, '"lastUsedAt":"(used)"');
      out[`company ${i}: ${r.label}`] = { status: res.status, body };
    }
  }
  return out;
}

describe.skipIf(!serverUrl)('fleetops move-to-postgres', () => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  let dataDir: string;
  let generated: GeneratedCompany;
  let probes: Probe[];
  let before: Record<string, { status: number; body: string }>;
  // maintenance status counts days from today: the service's clock is fixed for this file (test/setup-clock.ts), so
  // both sides are read on the same day, whatever the hour

  const fleetops = (args: string[]) => runCli(args, { env: { ...BASE_ENV, LOG_LEVEL: 'silent', DATA_DIR: dataDir }, cwd: os.tmpdir() });

  beforeAll(async () => {
    dataDir = await seedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), 'fomove-')));
    dirs.push(dataDir);
    const demo = await fleetops(['demo']);
    expect(demo.code, demo.stderr).toBe(0);
    const demoKey = demo.stdout.trimEnd().split('\n').at(-1)!;
    const db = await openDatabase({ dataDir });
    const app = appOn(db);
    try {
      generated = await generateCompany(app, db, { logs: 400 });
      // the probes read everything, the company's management (admin fields) included: an admin key of each company
      const admin = (await new ApiKeyService(db.prisma).create({ companyId: generated.id, name: 'move probe', scope: 'admin' })).key;
      probes = [await probeOf(app, demoKey), await probeOf(app, admin)];
      before = await answers(app, probes);
    } finally {
      await app.close();
      await db.close();
    }
    // the probes ask real questions: each is answered (a GraphQL error would still be a 200: none is)
    const failed = Object.entries(before).filter(([, a]) => a.status !== 200 || a.body.includes('"errors"'));
    expect(failed.map(([k, a]) => `${k}: ${a.status} ${a.body.slice(0, 300)}`)).toEqual([]);
  }, LONG);

  afterAll(async () => {
    for (const d of drops) await d().catch(() => {});
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }, LONG);

  async function emptyPostgres(): Promise<string> {
    const temp = await createTempDatabase(serverUrl!, 'fleetops_move');
    drops.push(temp.drop);
    return temp.url;
  }

  it('moves the embedded store to PostgreSQL, verified, and prints the DATABASE_URL line; every REST and GraphQL answer is the same', async () => {
    const url = await emptyPostgres();
    const r = await fleetops(['move-to-postgres', url]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trimEnd().split('\n');
    expect(out[0]).toBe(`moving the embedded database in ${dataDir} to PostgreSQL`);
    expect(out[1]).toMatch(new RegExp(`^backup of 2 companies \\(demo, ${generated.id}\\): \\d+ tables, [\\d,]+ rows, kept at ${dataDir}/backups/move-to-postgres-.*\\.jsonl\\.gz$`));
    expect(out[2]).toMatch(/^restored .* into PostgreSQL: 2 companies/);
    expect(out[3]).toMatch(/^verified: all \d+ tables read back, row for row as in the backup; totals of \d+ aircraft recomputed from the flight logs; \d+ counters/);
    expect(out.at(-2)).toBe(`the embedded database in ${dataDir} is left as it was. Set this (in the environment or .env) and start \`fleetops serve\`:`);
    expect(out.at(-1)).toBe(`DATABASE_URL=${url}`);

    const db = await openDatabase({ databaseUrl: url });
    const app = appOn(db);
    try {
      const after = await answers(app, probes);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      for (const k of Object.keys(before)) expect(after[k], k).toEqual(before[k]);
    } finally {
      await app.close();
      await db.close();
    }
  }, LONG);

  it('refuses while a process holds the embedded database, and into a database that is not empty', async () => {
    const url = await emptyPostgres();
    fs.writeFileSync(lockPath(dataDir), String(process.ppid)); // a live process that is not this one
    try {
      const r = await fleetops(['move-to-postgres', url]);
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toBe(
        `fleetops: a fleetops process (pid ${process.ppid}) holds the embedded database in ${dataDir}: stop it first, so that no write made after the move stays behind in the embedded database (\`fleetops backup\` works while a server runs)\n`,
      );
    } finally {
      fs.rmSync(lockPath(dataDir), { force: true });
    }
    const first = await fleetops(['move-to-postgres', url]);
    expect(first.code, first.stderr).toBe(0);
    const again = await fleetops(['move-to-postgres', url]);
    expect(again.code).toBe(1);
    expect(again.stdout).not.toMatch(/DATABASE_URL=/);
    expect(again.stderr).toMatch(/the target store is not empty \(table Company has rows\)/);
    const bad = await fleetops(['move-to-postgres', 'mysql://localhost/x']);
    expect(bad).toMatchObject({ code: 1, stderr: 'fleetops: mysql://localhost/x is not a PostgreSQL URL (postgres://user:password@host:5432/database)\n' });
  }, LONG);
});

describe('a DATA_DIR that holds no embedded database', () => {
  it('is refused by move-to-postgres and backup (exit 1, nothing created), not read as an empty store', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'fonone-'));
    const dataDir = path.join(parent, 'wrong');
    try {
      const fleetops = (args: string[]) => runCli(args, { env: { ...BASE_ENV, LOG_LEVEL: 'silent', DATA_DIR: dataDir }, cwd: parent });
      const message = `fleetops: there is no embedded database in ${dataDir} (DATA_DIR): nothing to read. Set DATA_DIR to the directory the server uses, or DATABASE_URL for PostgreSQL\n`;
      // the URL is never reached: the check comes first
      const moved = await fleetops(['move-to-postgres', 'postgres://postgres@127.0.0.1:1/never']);
      expect(moved).toMatchObject({ code: 1, stdout: '', stderr: message });
      const backup = await fleetops(['backup', path.join(parent, 'b.jsonl')]);
      expect(backup).toMatchObject({ code: 1, stdout: '', stderr: message });
      expect(fs.existsSync(dataDir)).toBe(false);
      expect(fs.existsSync(path.join(parent, 'b.jsonl'))).toBe(false);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
