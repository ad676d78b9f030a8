// The machine-readable contract and the human docs (docs/contract/api-v1.md §9, docs/contract/gaps.md §8): GET /api/v1/openapi.json (OpenAPI 3.1,
// info.version 0.1.0, bearer auth, every route's success and problem responses, resolvable $refs), live bodies
// validated against it (JSON Schema 2020-12), GET /docs from local assets only, /healthz and /readyz.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, onPostgres, type TestEnv } from './helpers.js';

let env: TestEnv;
let doc: any;
beforeAll(async () => {
  env = await createTestEnv();
  const r = await env.json('GET', '/api/v1/openapi.json', { key: null });
  doc = r.body;
});
afterAll(() => env?.close());

const ROUTES: { method: string; path: string; example: string; status: number; schema: string; errors: number[] }[] = [
  { method: 'get', path: '/aircraft', example: '/aircraft', status: 200, schema: 'AircraftList', errors: [401] },
  { method: 'get', path: '/aircraft/{id}', example: '/aircraft/acme-ac-1', status: 200, schema: 'Aircraft', errors: [401, 404] },
  { method: 'get', path: '/users', example: '/users', status: 200, schema: 'UserList', errors: [400, 401] },
  { method: 'get', path: '/users/{uid}', example: '/users/acme-owner', status: 200, schema: 'User', errors: [401, 404] },
];

/** Resolves a local JSON Pointer reference (`#/a/b~1c`) in the document; undefined when it does not resolve. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: any = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function collectRefs(node: unknown, at = '#', out: { at: string; ref: unknown }[] = []) {
  if (Array.isArray(node)) node.forEach((x, i) => collectRefs(x, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref') out.push({ at, ref: v });
      else collectRefs(v, `${at}/${k}`, out);
    }
  }
  return out;
}

/** JSON Schema 2020-12 validators over the document's components, resolving `#/components/schemas/...` refs. */
function validators(openapi: any) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // OpenAPI's integer formats, checked for real
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)) });
  // OpenAPI's refs point into the document; give the components a home whose pointers are the same.
  ajv.addKeyword({ keyword: 'components', schemaType: 'object' });
  ajv.addSchema({ $id: 'urn:fleetops:openapi', components: { schemas: openapi.components.schemas } });
  const cache = new Map<string, ValidateFunction>();
  return (name: string) => {
    let v = cache.get(name);
    if (!v) {
      v = ajv.compile({ $ref: `urn:fleetops:openapi#/components/schemas/${name}` });
      cache.set(name, v);
    }
    return v;
  };
}

function check(validate: ValidateFunction, body: unknown) {
  const ok = validate(body);
  return { ok, errors: JSON.stringify(validate.errors, null, 1) };
}

describe('GET /api/v1/openapi.json', () => {
  it('is served without a key as JSON: OpenAPI 3.1, info.version 0.1.0', async () => {
    const r = await env.json('GET', '/api/v1/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.res.headers.get('content-type')).toMatch(/^application\/(vnd\.oai\.openapi\+)?json\b/);
    expect(typeof r.body.openapi).toBe('string');
    expect(r.body.openapi.startsWith('3.1')).toBe(true);
    expect(r.body.info.version).toBe('0.1.0');
    expect(typeof r.body.info.title).toBe('string');
  });

  it('is also served with a key (same document)', async () => {
    const r = await env.json('GET', '/api/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(doc);
  });

  it('declares bearer authentication, applied to the operations', () => {
    const schemes = doc.components?.securitySchemes ?? {};
    const bearer = Object.entries<any>(schemes).filter(([, s]) => s.type === 'http' && /^bearer$/i.test(s.scheme));
    expect(bearer.length, JSON.stringify(schemes)).toBeGreaterThan(0);
    const names = bearer.map(([n]) => n);
    for (const r of ROUTES) {
      const op = doc.paths[r.path][r.method];
      const security: Record<string, unknown>[] = op.security ?? doc.security ?? [];
      expect(security.some((req) => Object.keys(req).some((n) => names.includes(n))), `${r.method} ${r.path}`).toBe(true);
    }
  });

  it('servers put the paths under /api/v1', () => {
    expect(doc.servers.map((s: any) => s.url)).toContain('/api/v1');
  });

  for (const r of ROUTES) {
    it(`${r.method.toUpperCase()} ${r.path}: success schema and problem responses`, () => {
      const op = doc.paths?.[r.path]?.[r.method];
      expect(op, `${r.method} ${r.path} is documented`).toBeDefined();
      expect(typeof op.operationId).toBe('string');
      const ok = op.responses[String(r.status)];
      expect(ok).toBeDefined();
      const schema = ok.content['application/json'].schema;
      expect(schema.$ref).toBe(`#/components/schemas/${r.schema}`);
      expect(resolvePointer(doc, schema.$ref)).toMatchObject({ type: 'object' });
      for (const status of r.errors) {
        const err = op.responses[String(status)];
        expect(err, `${r.path} ${status}`).toBeDefined();
        const ps = err.content['application/problem+json'].schema;
        expect(resolvePointer(doc, ps.$ref) ?? ps).toMatchObject({
          type: 'object',
          required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
        });
      }
      expect(Object.keys(op.responses['401'].headers ?? {}).map((h) => h.toLowerCase())).toContain('www-authenticate');
      const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const name of pathParams) {
        const p = (op.parameters ?? []).find((x: any) => x.name === name && x.in === 'path');
        expect(p, `path parameter ${name}`).toMatchObject({ required: true });
      }
    });
  }

  it('GET /users documents the status and role query parameters', () => {
    const params = doc.paths['/users'].get.parameters ?? [];
    const status = params.find((p: any) => p.name === 'status' && p.in === 'query');
    const role = params.find((p: any) => p.name === 'role' && p.in === 'query');
    expect(status?.schema?.enum?.slice().sort()).toEqual(['Active', 'Inactive', 'Pending']);
    expect(status.required).toBe(false);
    expect(role?.schema?.type).toBe('string');
  });

  it('every $ref resolves inside the document', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThanOrEqual(ROUTES.length * 2);
    const broken = refs.filter(({ ref }) => typeof ref !== 'string' || resolvePointer(doc, ref) === undefined);
    expect(broken).toEqual([]);
    // the checker itself rejects a dangling reference
    expect(resolvePointer(doc, '#/components/schemas/NoSuchSchema')).toBeUndefined();
  });

  it('every documented route answers its documented success status', async () => {
    for (const r of ROUTES) {
      const res = await env.request(r.method.toUpperCase(), `/api/v1${r.example}`);
      expect(res.status, r.example).toBe(r.status);
      await res.arrayBuffer();
    }
  });
});

describe('live responses validate against the document (JSON Schema 2020-12)', () => {
  let schemaFor: ReturnType<typeof validators>;
  beforeAll(() => {
    schemaFor = validators(doc);
  });

  it('GET /aircraft body matches AircraftList', async () => {
    const r = await env.json('GET', '/api/v1/aircraft');
    expect(r.status).toBe(200);
    const res = check(schemaFor('AircraftList'), r.body);
    expect(res.ok, res.errors).toBe(true);
  });

  it('GET /aircraft/{id} bodies match Aircraft', async () => {
    for (const id of ['acme-ac-1', 'acme-ac-2']) {
      const r = await env.json('GET', `/api/v1/aircraft/${id}`);
      const res = check(schemaFor('Aircraft'), r.body);
      expect(res.ok, `${id}: ${res.errors}`).toBe(true);
    }
  });

  it('GET /users/{uid} body matches User', async () => {
    for (const uid of ['acme-owner', 'acme-pilot', 'acme-new']) {
      const r = await env.json('GET', `/api/v1/users/${uid}`);
      expect(r.status).toBe(200);
      const res = check(schemaFor('User'), r.body);
      expect(res.ok, `${uid}: ${res.errors}`).toBe(true);
    }
  });

  it('GET /users body matches UserList', async () => {
    const r = await env.json('GET', '/api/v1/users');
    const res = check(schemaFor('UserList'), r.body);
    expect(res.ok, res.errors).toBe(true);
  });

  it('problem bodies (401, 404, 400) match Problem', async () => {
    const bodies = [
      (await env.json('GET', '/api/v1/aircraft', { key: null })).body,
      (await env.json('GET', '/api/v1/aircraft/no-such-aircraft')).body,
      (await env.json('GET', '/api/v1/users/no-such-user')).body,
      (await env.json('GET', '/api/v1/users?status=Bogus')).body,
    ];
    for (const b of bodies) {
      const res = check(schemaFor('Problem'), b);
      expect(res.ok, `${JSON.stringify(b)}: ${res.errors}`).toBe(true);
    }
  });

  it('forms, field schema, completion schema and completions match their schemas', async () => {
    const form = await env.json('POST', '/api/v1/forms', {
      body: {
        name: 'Check',
        code: 'openapi-check',
        department: 'Ops',
        layout: 'grid',
        webhooks: [{ url: 'https://hooks.example.com/x', secret: 'abcdefghij' }],
        sections: [{ name: 'S', fields: [{ name: 'vehicle', label: 'V', type: 'vehicle', required: true }, { name: 'km', label: 'Km', type: 'odometer', vehicleField: 'vehicle' }] }],
      },
    });
    expect(form.status).toBe(201);
    expect(check(schemaFor('FormWriteResult'), form.body).ok).toBe(true);
    const done = await env.json('POST', '/api/v1/form-completions', { body: { formId: form.body.uid, answers: { vehicle: 'acme-v-1', km: 10 } } });
    expect(done.status).toBe(201);
    const pairs: [string, string][] = [
      ['/forms', 'FormList'],
      [`/forms/${form.body.uid}`, 'Form'],
      ['/forms/field-schema', 'FormFieldSchema'],
      [`/forms/${form.body.uid}/completion-schema`, 'FormCompletionSchema'],
      ['/form-completions', 'CompletedFormPage'],
      [`/form-completions/${done.body.uid}`, 'CompletedForm'],
    ];
    for (const [path, name] of pairs) {
      const r = await env.json('GET', `/api/v1${path}`);
      expect(r.status, path).toBe(200);
      const res = check(schemaFor(name), r.body);
      expect(res.ok, `${path}: ${res.errors}`).toBe(true);
    }
    const res = check(schemaFor('FormCompletionWriteResult'), done.body);
    expect(res.ok, res.errors).toBe(true);
  });

  it('the validator rejects bodies that break the contract (it can fail)', async () => {
    const { body } = await env.json('GET', '/api/v1/aircraft/acme-ac-2');
    const aircraft = schemaFor('Aircraft');
    expect(aircraft(body)).toBe(true);
    expect(aircraft({ ...body, manufacturer: null })).toBe(false); // optional fields are omitted, never null
    const { uid: _uid, ...noUid } = body;
    expect(aircraft(noUid)).toBe(false);
    expect(aircraft({ ...body, engineCount: '1' })).toBe(false);
    expect(aircraft({ ...body, totals: { tacho: 'zero' } })).toBe(false);
    expect(aircraft({ ...body, maintenanceTrackingItems: { tacho: { displayText: 'Tacho', type: 'date' } } })).toBe(false);
    const user = schemaFor('User');
    const u = (await env.json('GET', '/api/v1/users/acme-pilot')).body;
    expect(user(u)).toBe(true);
    expect(user({ ...u, roles: 'pilot' })).toBe(false);
    expect(user({ ...u, phone: null })).toBe(false);
    expect(schemaFor('AircraftList')({ data: [{ ...body, uid: 7 }], count: 1 })).toBe(false);
  });
});

describe('GET /docs', () => {
  let html: string;
  beforeAll(async () => {
    const res = await env.request('GET', '/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html\b/);
    html = await res.text();
  });

  const attrs = (tag: string, attr: string) =>
    [...html.matchAll(new RegExp(`<${tag}\\b[^>]*\\b${attr}\\s*=\\s*["']([^"']+)["']`, 'gi'))].map((m) => m[1]);

  it('is an HTML page that loads the OpenAPI document', () => {
    expect(html).toMatch(/<!doctype html>/i);
    expect(html).toContain('/api/v1/openapi.json');
  });

  it('keeps no key beyond the page and sends no referrer (a key typed into Authorize was kept in localStorage)', async () => {
    expect(html).toContain('persistAuthorization: false');
    expect(html).not.toContain('persistAuthorization: true');
    const res = await env.request('GET', '/docs', { key: null });
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('references only local scripts and styles (no CDN)', () => {
    const scripts = attrs('script', 'src');
    const styles = attrs('link', 'href');
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    for (const url of [...scripts, ...styles]) expect(url, url).not.toMatch(/^(https?:)?\/\//i);
    // nor anywhere else in the page: no remote @import or url(), no other remote src
    expect(html).not.toMatch(/(src|href)\s*=\s*["'](https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
  });

  it('its asset URLs answer 200 without a key, with the right content type', async () => {
    const assets = [
      ...attrs('script', 'src').map((u) => [u, /^(text|application)\/javascript\b/] as const),
      ...attrs('link', 'href').map((u) => [u, /^text\/css\b/] as const),
    ];
    for (const [url, type] of assets) {
      const res = await env.request('GET', new URL(url, 'http://fleetops.test/docs').pathname, { key: null });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(type);
      expect((await res.arrayBuffer()).byteLength, url).toBeGreaterThan(1000);
    }
  });

  it('the Errors table shows code spans as code, never raw Markdown backticks', () => {
    const table = html.slice(html.indexOf('<section class="problems">'), html.indexOf('</section>'));
    expect(table).toContain('<tr id="problem-forbidden">');
    expect(table).not.toContain('`');
    expect(table).toContain('<code>Retry-After</code>');
  });

  it('is served under a CSP that loads nothing from another host', async () => {
    const res = await env.request('GET', '/docs', { key: null });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/https?:|\*/);
    await res.arrayBuffer();
  });

  it('an unknown asset is 404', async () => {
    const res = await env.request('GET', '/docs/assets/no-such-file.js', { key: null });
    expect(res.status).toBe(404);
  });

  it("problem `type` URIs lead to the docs page's entry for their code", async () => {
    for (const [path, key] of [
      ['/api/v1/aircraft', null],
      ['/api/v1/aircraft/no-such-aircraft', env.a.key],
      ['/api/v1/users?status=Bogus', env.a.key],
    ] as const) {
      const { body } = await env.json('GET', path, { key });
      const url = new URL(body.type, 'http://fleetops.test/api/v1/');
      expect(url.pathname, body.type).toBe('/docs');
      expect(url.hash.length).toBeGreaterThan(1);
      expect(html).toContain(`id="${url.hash.slice(1)}"`);
      expect(html).toContain(`<code>${body.code}</code>`);
    }
  });
});

describe('health', () => {
  it('/healthz is 200 without a key', async () => {
    const r = await env.json('GET', '/healthz', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
  });

  it('/readyz is 200 without a key (database reachable)', async () => {
    const r = await env.json('GET', '/readyz', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.database).toBe(onPostgres ? 'postgres' : 'pglite');
  });
});
