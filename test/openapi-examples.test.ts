// The OpenAPI document a client can trust and try (docs/contract/gaps.md §16): every operation's example request,
// as the document shows it (path and query parameter examples, body example), succeeds against a server holding
// the demo company (what "Try it out" in /docs sends); every response example validates against its schema; each
// operation declares the statuses and headers the layers it goes through can answer.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { loadDemo } from '../src/modules/companies/demo.js';
import { isReadRoute } from '../src/rest/contract.js';
import { examples } from '../src/rest/examples.js';
import { restRoutes } from '../src/rest/routes.js';
import { isAdminRoute } from '../src/rest/openapi.js';
import { schema } from '../src/graphql/schema.js';
import { openTestDatabase, uniq } from './helpers.js';

let database: Database;
let app: App;
let key: string;
let companyId: string;
let doc: any;
beforeAll(async () => {
  database = await openTestDatabase();
  ({ key, companyId } = await loadDemo(database, `demo-${uniq()}`));
  // Try it out with an admin key: every operation, the company's management (integration settings) included
  key = (await new ApiKeyService(database.prisma).create({ companyId, scope: 'admin', name: 'examples' })).key;
  app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
  doc = await (await app.fetch(new Request('http://fleetops.test/api/v1/openapi.json'))).json();
}, 180_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([path, ops]) => Object.entries<any>(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));

describe('examples', () => {
  it('every operation has its example in its module’s examples.json, and the table names no other', () => {
    expect(Object.keys(examples).sort()).toEqual(restRoutes.map((r) => r.operationId).sort());
  });

  it('every documented request example succeeds (2xx) against the demo company, as Try it out sends it', async () => {
    const failures: string[] = [];
    // reads first, then writes: each write's example names its own demo record, so none depends on another
    const ordered = operations().sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
    expect(ordered.length).toBe(restRoutes.length);
    for (const { path, method, op } of ordered) {
      const params: any[] = op.parameters ?? [];
      let url = path.replace(/\{(\w+)\}/g, (_: string, name: string) => {
        const p = params.find((x) => x.in === 'path' && x.name === name);
        expect(p?.example, `${op.operationId}: example of path parameter ${name}`).toBeDefined();
        // API key ids are unique across companies: the demo names its old key after its company (src/modules/companies/demo.ts)
        const example = name === 'id' && String(p.example).startsWith('key_demo_') ? String(p.example).replace('key_demo_', `key_${companyId}_`) : p.example;
        return encodeURIComponent(example);
      });
      const query = new URLSearchParams(params.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => [p.name, String(p.example)]));
      if ([...query].length) url += `?${query}`;
      const body = op.requestBody?.content['application/json'];
      if (op.requestBody?.required) expect(body?.example, `${op.operationId}: request body example`).toBeDefined();
      const res = await app.fetch(
        new Request(`http://fleetops.test/api/v1${url}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body?.example !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body?.example !== undefined ? JSON.stringify(body.example) : undefined,
        }),
      );
      const text = await res.text();
      if (res.status < 200 || res.status > 299) failures.push(`${op.operationId} ${method} ${url}: ${res.status} ${text}`);
      const documented = Object.keys(op.responses).find((s) => s.startsWith('2'));
      if (res.ok) expect(String(res.status), op.operationId).toBe(documented);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('every example (request bodies, parameters, responses) validates against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)) });
    ajv.addSchema({ $id: 'urn:fleetops:examples', components: { schemas: doc.components.schemas } });
    const resolve = (schema: any) => (schema.$ref ? { $ref: `urn:fleetops:examples${schema.$ref}` } : { ...schema, $id: undefined });
    const errors: string[] = [];
    const check = (schema: any, value: unknown, where: string) => {
      const validate = ajv.compile(resolve(schema));
      if (!validate(value)) errors.push(`${where}: ${JSON.stringify(validate.errors)}`);
    };
    for (const { op } of operations()) {
      const ok = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))![1].content['application/json'];
      expect(ok.example, `${op.operationId} response example`).toBeDefined();
      check(ok.schema, ok.example, `${op.operationId} response`);
      const body = op.requestBody?.content['application/json'];
      if (body) check(body.schema, body.example, `${op.operationId} request body`);
      for (const p of op.parameters ?? []) if (p.example !== undefined) check(p.schema, p.example, `${op.operationId} parameter ${p.name}`);
    }
    expect(errors).toEqual([]);
    // and the check can fail: an aircraft count as a string is refused
    const list = doc.paths['/aircraft'].get.responses['200'].content['application/json'];
    check(list.schema, { ...list.example, count: '2' }, 'tampered');
    expect(errors).toHaveLength(1);
  });
});

describe('statuses and headers', () => {
  it('each operation declares 400, 401, 429 and 500; writes 403; every method but GET 413 and 415; a path id 404', () => {
    for (const r of restRoutes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      const statuses = Object.keys(op.responses).map(Number);
      expect(statuses, r.operationId).toEqual(expect.arrayContaining([400, 401, 429, 500]));
      if (!isReadRoute(r) || isAdminRoute(r, schema)) expect(statuses, r.operationId).toContain(403);
      else expect(statuses, r.operationId).not.toContain(403);
      if (r.method !== 'GET') expect(statuses, r.operationId).toEqual(expect.arrayContaining([413, 415]));
      if (r.path.includes('{')) expect(statuses, r.operationId).toContain(404);
    }
  });

  it('every route answers a query parameter it does not take with 400, and every route but GET a text body with 415: both declared', async () => {
    for (const r of restRoutes) {
      const path = r.path.replace(/\{[^}]+\}/g, 'doc-probe');
      const declared = Object.keys(doc.paths[r.path][r.method.toLowerCase()].responses).map(Number);
      const auth = { authorization: `Bearer ${key}` };
      const unknown = await app.fetch(new Request(`http://fleetops.test/api/v1${path}?zzUnknown=1`, { method: r.method, headers: auth }));
      expect(unknown.status, `${r.operationId} ?zzUnknown`).toBe(400);
      expect(declared, r.operationId).toContain(400);
      if (r.method === 'GET') continue;
      const text = await app.fetch(new Request(`http://fleetops.test/api/v1${path}`, { method: r.method, headers: { ...auth, 'content-type': 'text/plain' }, body: 'hello' }));
      expect(text.status, `${r.operationId} text/plain`).toBe(415);
      expect(declared, r.operationId).toContain(415);
    }
  });

  it('routes that run a mutation take an Idempotency-Key header and declare its 409 and 422, and Idempotent-Replayed; reads do not', () => {
    for (const r of restRoutes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      const header = (op.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
      // createApiKey's answer holds a secret, never stored: it refuses the header (docs/api-notes.md "Administration")
      if (r.field.startsWith('Mutation.') && r.operationId !== 'createApiKey') {
        expect(header, r.operationId).toMatchObject({ required: false, schema: { type: 'string', maxLength: 255 } });
        expect(Object.keys(op.responses), r.operationId).toEqual(expect.arrayContaining(['409', '422']));
        expect(op.responses['409'].description).toMatch(/Idempotency-Key/);
        const ok = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))![1];
        expect(Object.keys(ok.headers)).toContain('Idempotent-Replayed');
      } else expect(header, r.operationId).toBeUndefined();
    }
  });

  it('every response declares X-Request-Id, RateLimit and RateLimit-Policy; 401 WWW-Authenticate; 429 Retry-After', () => {
    for (const { op } of operations()) {
      for (const [status, res] of Object.entries<any>(op.responses)) {
        expect(Object.keys(res.headers ?? {}), `${op.operationId} ${status}`).toEqual(expect.arrayContaining(['X-Request-Id', 'RateLimit', 'RateLimit-Policy']));
      }
      expect(Object.keys(op.responses['401'].headers)).toContain('WWW-Authenticate');
      expect(Object.keys(op.responses['429'].headers)).toContain('Retry-After');
    }
  });

  it('the declared statuses are answered: 403 for a read key on a write, a replay, 422 for a reused Idempotency-Key', async () => {
    const { ApiKeyService } = await import('../src/auth/keys.js');
    const read = (await new ApiKeyService(database.prisma).create({ companyId, name: 'read', scope: 'read' })).key;
    const send = (k: string, body: unknown, idem?: string) =>
      app.fetch(
        new Request('http://fleetops.test/api/v1/schedule-items', {
          method: 'POST',
          headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json', ...(idem ? { 'idempotency-key': idem } : {}) },
          body: JSON.stringify(body),
        }),
      );
    const body = examples.createScheduleItem.body as Record<string, unknown>;
    expect((await send(read, body)).status).toBe(403);
    const first = await send(key, body, 'doc-example-1');
    expect(first.status).toBe(201);
    const replay = await send(key, body, 'doc-example-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('x-request-id')).toMatch(/\S/);
    expect((await send(key, { ...body, name: 'Another' }, 'doc-example-1')).status).toBe(422);
    // a DELETE runs a mutation: the key used by another request is a 422 there too, as the document declares
    const del = await app.fetch(
      new Request('http://fleetops.test/api/v1/flight-logs/no-such-log', { method: 'DELETE', headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'doc-example-1' } }),
    );
    expect(del.status).toBe(422);
    expect(Object.keys(doc.paths['/flight-logs/{id}'].delete.responses)).toContain('422');
  });
});
