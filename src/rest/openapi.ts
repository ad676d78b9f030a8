import { z } from 'zod';
import type { GraphQLSchema } from 'graphql';
import { contractSchemas, isReadRoute, type RouteSpec } from './contract.js';
import { examples as EXAMPLES, type OperationExample } from './examples.js';
import { fieldType, schemaFor } from './representation.js';

/** Builds the OpenAPI 3.1 document from the declared routes and the named contract schemas. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (problem+json lists each bad field)',
  401: 'Missing, malformed, unknown or revoked API key',
  403: 'The API key\u2019s scope does not reach this operation (a `read` key writes nothing; managing the company needs an `admin` key)',
  404: 'No such record in the caller\u2019s company',
  405: 'Method not allowed on this path',
  409: 'Uniqueness or state conflict',
  413: 'Request body over the size limit',
  415: 'Request body is not application/json',
  422: 'The Idempotency-Key was used before with another request (method, path or body)',
  429: 'Rate limit exceeded (see Retry-After)',
  500: 'Unexpected server error',
};
/** What a 409 also means on a POST or PATCH sent with an Idempotency-Key. */
const IDEMPOTENCY_409 = '; or a request with the same Idempotency-Key is still running (retry later)';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/**
 * Explicit bounds on every string, integer and array of the document (OWASP API4: unrestricted resource
 * consumption), where the schema itself sets none. They are the bounds the service really has: a request body is
 * at most BODY_LIMIT bytes (so no string or array in it can be longer), a URL at most 16 KB; integers are JSON-safe.
 * Responses: strings as bodies, lists at most MAX_LIST records.
 */
const BODY_LIMIT = 1_048_576;
const URL_LIMIT = 16_384;
const MAX_LIST = 100_000;
const SAFE = 9_007_199_254_740_991;
const INT32 = 2_147_483_647;

function bound(node: unknown, where: 'request' | 'response' | 'param'): void {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop();
    if (Array.isArray(n)) {
      stack.push(...n);
      continue;
    }
    if (!n || typeof n !== 'object') continue;
    const o = n as Record<string, unknown>;
    const types = Array.isArray(o.type) ? o.type : [o.type];
    if (types.includes('string') && o.maxLength === undefined && o.enum === undefined && o.const === undefined) {
      o.maxLength = where === 'param' ? URL_LIMIT : BODY_LIMIT;
    }
    if (types.includes('integer')) {
      o.minimum ??= -SAFE;
      o.maximum ??= SAFE;
      o.format ??= (o.minimum as number) >= -INT32 - 1 && (o.maximum as number) <= INT32 ? 'int32' : 'int64';
    }
    if (types.includes('array') && o.maxItems === undefined) o.maxItems = where === 'response' ? MAX_LIST : BODY_LIMIT / 2;
    for (const [k, v] of Object.entries(o)) {
      if (k === 'properties' && v && typeof v === 'object') stack.push(...Object.values(v)); // property names are not keywords
      else if (k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') stack.push(v);
    }
  }
}

/**
 * An example value for a schema, built from the schema itself (its examples, enum, const, default or format, else
 * a typical value of its type), so every operation shows the shape it takes and returns; a test validates each
 * example against its schema.
 */
function sample(schema: unknown, schemas: Record<string, unknown>, depth = 0): unknown {
  const s = (schema ?? {}) as Record<string, any>;
  if (depth > 8) return null;
  if (typeof s.$ref === 'string') return sample(schemas[s.$ref.split('/').pop()!], schemas, depth + 1);
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('default' in s) return s.default;
  for (const key of ['anyOf', 'oneOf']) if (Array.isArray(s[key])) return sample(s[key].find((x: any) => x.type !== 'null') ?? s[key][0], schemas, depth + 1);
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((x: unknown) => sample(x, schemas, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [k, v] of Object.entries<any>(s.properties ?? {})) if (required.has(k) || depth === 0) out[k] = sample(v, schemas, depth + 1);
      return out;
    }
    case 'array':
      return s.minItems > 0 || depth <= 2 ? Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items, schemas, depth + 1)) : [];
    case 'integer':
      return Math.max(s.minimum ?? 1, Math.min(1, s.maximum ?? 1));
    case 'number':
      return Math.max(s.minimum ?? 1.5, Math.min(1.5, s.maximum ?? 1.5));
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      const formats: Record<string, string> = { 'date-time': '2026-03-01T09:30:00.000Z', date: '2026-03-01', time: '09:30:00', email: 'ops@example.com', uri: 'https://example.com', url: 'https://example.com' };
      if (s.format && formats[s.format]) return formats[s.format];
      if (s.pattern === '^[a-zA-Z0-9-]+$') return 'daily-check';
      const text = 'example';
      return text.slice(0, s.maxLength ?? text.length).padEnd(s.minLength ?? 0, 'x');
    }
    default:
      return {};
  }
}

/** Headers every response declares: the request id, rate-limit state (IETF draft) and CORS. */
const COMMON_HEADERS = {
  'X-Request-Id': {
    description: 'The request\u2019s id (the client\u2019s own when it sent a well-formed one), also in every log line of the request',
    schema: { type: 'string', maxLength: 128 },
  },
  RateLimit: { description: 'Remaining requests of the key in the current window (when rate limiting is on)', schema: { type: 'string', maxLength: 100 } },
  'RateLimit-Policy': { description: 'The key\u2019s rate-limit policy, e.g. `120;w=60`', schema: { type: 'string', maxLength: 100 } },
  'Access-Control-Allow-Origin': { description: '`*` when the request has an Origin: keys are bearer tokens, never cookies', schema: { type: 'string', maxLength: 1 } },
};

function idOf(schema: z.ZodType): string {
  const meta = contractSchemas.get(schema);
  if (!meta) throw new Error('route schemas must be registered with named()');
  return meta.id;
}

function paramSchema(s: z.ZodType): Record<string, unknown> {
  // parameters arrive as strings and are documented as what they mean: the typed (output) side (limit an integer)
  const json = z.toJSONSchema(s, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

/** A JSON field's zod schema as JSON Schema, inside the document (output side). */
function zodJson(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/**
 * The success body schema of each route: the route's declared document, or the REST representation of its GraphQL
 * field's type (src/rest/representation.ts), whose object types become components of their GraphQL names.
 */
export function responseSchemas(routes: RouteSpec[], schema: GraphQLSchema, components: Record<string, Record<string, unknown>>) {
  const out = new Map<RouteSpec, Record<string, unknown>>();
  for (const r of routes) {
    if (r.response) {
      out.set(r, ref(idOf(r.response)));
      continue;
    }
    const [root, field] = r.field.split('.');
    const derived = schemaFor(fieldType(root === 'Query' ? schema.getQueryType() : schema.getMutationType(), field), components, zodJson);
    out.set(r, r.fields ? projectedList(derived, components) : derived);
  }
  return out;
}

/** The answer of a list that takes `fields=`: the page, or the page as `fields` chose its records (`<Item>ListResponse`). */
function projectedList(page: Record<string, unknown>, components: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const base = components[String(page.$ref).split('/').pop()!] as { properties: Record<string, { items?: { $ref?: string } }> };
  const itemName = String(base.properties.data?.items?.$ref).split('/').pop()!;
  const id = `${itemName}ListResponse`;
  components[id] ??= {
    description: `A page of ${itemName} records; with \`fields\`, each record holds uid and the fields asked for`,
    anyOf: [page, projection(page, components)],
  };
  return ref(id);
}

/** A page whose records keep uid and the fields named by `fields=` (any of the record's own or dynamic keys). */
function projection(page: Record<string, unknown>, components: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const name = String(page.$ref).split('/').pop()!;
  const id = `${name}Projection`;
  if (!components[id]) {
    const base = components[name] as { properties: Record<string, { items?: { $ref?: string } }> };
    const itemName = String(base.properties.data?.items?.$ref).split('/').pop()!;
    const item = components[itemName] as { properties: Record<string, unknown>; additionalProperties?: unknown };
    components[id] = {
      ...base,
      description: `A page of ${itemName} records as \`fields\` chose them: uid and the fields named`,
      properties: {
        ...base.properties,
        data: { type: 'array', items: { type: 'object', properties: item.properties, required: ['uid'], additionalProperties: item.additionalProperties ?? true } },
      },
    };
  }
  return ref(id);
}

/**
 * A route that runs a mutation takes an Idempotency-Key (POST, PATCH, PUT and DELETE alike: the operation's policy
 * keeps it for mutations, src/graphql/policy.ts), except one whose answer holds a secret (a new API key: the field
 * says `secretResult`), which is never stored and so refuses the header. A read (POST /aggregate included) has
 * nothing to keep: the header does nothing there, so it is not declared.
 */
const takesIdempotencyKey = (r: RouteSpec, schema?: GraphQLSchema) => r.field.startsWith('Mutation.') && rootField(schema, r)?.extensions?.secretResult !== true;

/** The GraphQL root field a route runs. */
function rootField(schema: GraphQLSchema | undefined, r: RouteSpec) {
  if (!schema) return undefined;
  const [root, name] = r.field.split('.');
  return (root === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name];
}

/** Whether the route's field needs an admin key (`adminOnly()`, src/auth/scopes.ts). */
export const isAdminRoute = (r: RouteSpec, schema: GraphQLSchema) => rootField(schema, r)?.extensions?.requiredScope === 'admin';
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first response to a key is kept for 24 h (per company) and answered again to the same ' +
    'request, with `Idempotent-Replayed: true`; the same key with another request is a 422, one still running a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  example: 'b6c1e0a4-2f7d-4b9e-9a51-3f0c2d7e8a10',
};

/**
 * Every status an operation can answer (docs/contract/gaps.md §16): its own errors, and those of the layers it goes
 * through: the key (401), its scope (403 on writes), the rate limit (429), the request's form (400 on every route: a
 * query parameter it does not take, a path parameter failing its check), a body (413, 415 on every route but GET and
 * HEAD: a route without a body still reads what is sent, src/rest/facade.ts), an Idempotency-Key (409, 422 on
 * mutations), path parameters naming a record (404), the method (405), 500.
 */
export function operationStatuses(r: RouteSpec, schema?: GraphQLSchema): number[] {
  const s = new Set([...r.errors, 400, 401, 405, 429, 500]);
  if (!isReadRoute(r) || (schema && isAdminRoute(r, schema))) s.add(403);
  if (r.method !== 'GET') for (const x of [413, 415]) s.add(x);
  if (r.params && Object.keys(r.params.shape).length) s.add(404);
  if (takesIdempotencyKey(r, schema)) for (const x of [400, 409, 422]) s.add(x); // 400: a malformed key
  return [...s].sort((a, b) => a - b);
}

/** The example of an operation (src/rest/examples.ts), or undefined for one that has none yet. */
const exampleOf = (r: RouteSpec): OperationExample | undefined => EXAMPLES[r.operationId];

export function buildOpenApi(routes: RouteSpec[], opts: { version: string; schema: GraphQLSchema }) {
  // request bodies are the services' input schemas: documented as they are taken (zod's input side, before any
  // transform); everything else as it is sent
  const convert = (io: 'input' | 'output') =>
    z.toJSONSchema(contractSchemas, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
    }) as { schemas: Record<string, Record<string, unknown>> };
  const output = convert('output');
  const input = convert('input');
  const schemas: Record<string, unknown> = {};
  const requestIds = new Set(routes.flatMap((r) => (r.body ? [idOf(r.body)] : [])));
  const referenced = (id: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(id)) return seen;
    seen.add(id);
    for (const m of JSON.stringify(input.schemas[id] ?? {}).matchAll(/#\/components\/schemas\/([\w.-]+)/g)) referenced(m[1], seen);
    return seen;
  };
  const requestSide = new Set([...requestIds].flatMap((id) => [...referenced(id)]));
  for (const id of Object.keys(output.schemas)) {
    const s = (requestSide.has(id) ? input : output).schemas[id];
    const { $schema: _drop, $id: _id, ...rest } = s;
    bound(rest, requestSide.has(id) ? 'request' : 'response');
    schemas[id] = rest;
  }

  const derived: Record<string, Record<string, unknown>> = {};
  const responseOf = responseSchemas(routes, opts.schema, derived);
  for (const [id, s] of Object.entries(derived)) {
    if (schemas[id]) throw new Error(`OpenAPI component ${id} is both a GraphQL type and a declared document`);
    bound(s, 'response');
    schemas[id] = s;
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const example = exampleOf(r);
    const parameters: unknown[] = [];
    for (const [name, s] of Object.entries(r.params?.shape ?? {})) {
      const js = paramSchema(s as z.ZodType);
      bound(js, 'param');
      const ex = example?.params?.[name];
      parameters.push({ name, in: 'path', required: true, description: js.description, schema: js, ...(ex !== undefined ? { example: ex } : {}) });
    }
    for (const [name, s] of Object.entries(r.query?.shape ?? {})) {
      const js = paramSchema(s as z.ZodType);
      bound(js, 'param');
      const required = !(s as z.ZodType).safeParse(undefined).success;
      const ex = example?.query?.[name];
      parameters.push({ name, in: 'query', required, description: js.description, schema: js, ...(ex !== undefined ? { example: typedExample(js, ex) } : {}) });
    }
    if (takesIdempotencyKey(r, opts.schema)) parameters.push(IDEMPOTENCY_KEY);
    const responses: Record<string, unknown> = {
      [String(r.status)]: {
        description: r.status === 201 ? 'Created' : r.status === 202 ? 'Accepted' : 'OK',
        headers: {
          ...COMMON_HEADERS,
          ...(takesIdempotencyKey(r, opts.schema)
            ? { 'Idempotent-Replayed': { description: '`true` when this is the stored response to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } } }
            : {}),
          // an export answered in another media type (CSV) pages as the JSON list does: its next page is a header
          ...(r.alternates
            ? { Link: { description: 'With another media type than JSON (`Accept: text/csv`): `<URL of the next page>; rel="next"`, when there is one', schema: { type: 'string', maxLength: 32768 } } }
            : {}),
        },
        content: {
          'application/json': { schema: responseOf.get(r) },
          ...Object.fromEntries(
            Object.entries(r.alternates ?? {}).map(([type, a]) => [type, { schema: { type: 'string', maxLength: 1e12, description: `${a.description} (streamed)` } }]),
          ),
        },
      },
    };
    for (const s of operationStatuses(r, opts.schema)) {
      responses[String(s)] = {
        description: (STATUS_TEXT[s] ?? 'Error') + (s === 409 && takesIdempotencyKey(r, opts.schema) ? IDEMPOTENCY_409 : ''),
        content: { 'application/problem+json': { schema: ref('Problem') } },
        headers: {
          ...COMMON_HEADERS,
          ...(s === 401 ? { 'WWW-Authenticate': { schema: { type: 'string', maxLength: 100 }, description: 'Bearer' } } : {}),
          ...(s === 405 ? { Allow: { schema: { type: 'string', maxLength: 100 }, description: 'The methods the path takes' } } : {}),
          ...(s === 429 ? { 'Retry-After': { schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60 }, description: 'Seconds to wait' } } : {}),
        },
      };
    }
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.summary,
      description: r.description ?? `${r.summary}.`,
      tags: [r.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(r.body
        ? {
            requestBody: {
              required: !r.optionalBody,
              content: { 'application/json': { schema: ref(idOf(r.body)), example: example && 'body' in example ? example.body : sample(ref(idOf(r.body)), schemas) } },
            },
          }
        : {}),
      responses,
    };
    const ok = (responses[String(r.status)] as { content: Record<string, Record<string, unknown>> }).content['application/json'];
    ok.example = example ? example.response : sample(ok.schema, schemas);
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Fleet Ops API',
      version: opts.version,
      description:
        'Company-scoped operations data for aircraft and vehicle fleets. Every request carries ' +
        '`Authorization: Bearer <API key>`; errors are RFC 9457 problem+json. The same data is served over ' +
        'GraphQL at /graphql.',
    },
    servers: [{ url: '/api/v1', description: 'This service (production, or a local instance: the server that serves this document)', 'x-internal': false }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key created with `fleetops keys create`' },
      },
      schemas,
    },
  };
}


/** A query parameter's example as its schema types it (`limit` 2, not "2"), from the string the URL carries. */
function typedExample(schema: Record<string, unknown>, value: string): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
