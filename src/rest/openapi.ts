import { z } from 'zod';
import { contractSchemas, type RouteSpec } from './contract.js';

/** Builds the OpenAPI 3.1 document from the declared routes and the named contract schemas. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (problem+json lists each bad field)',
  401: 'Missing, malformed, unknown or revoked API key',
  404: 'No such record in the caller\u2019s company',
  405: 'Method not allowed on this path',
  409: 'Uniqueness or state conflict',
  413: 'Request body over the size limit',
  415: 'Request body is not application/json',
  429: 'Rate limit exceeded (see Retry-After)',
  500: 'Unexpected server error',
};

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

/** Headers every response declares: rate-limit state (IETF draft) and CORS. */
const COMMON_HEADERS = {
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

export function buildOpenApi(routes: RouteSpec[], opts: { version: string }) {
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

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    for (const [name, s] of Object.entries(r.params?.shape ?? {})) {
      const js = paramSchema(s as z.ZodType);
      bound(js, 'param');
      parameters.push({ name, in: 'path', required: true, description: js.description, schema: js });
    }
    for (const [name, s] of Object.entries(r.query?.shape ?? {})) {
      const js = paramSchema(s as z.ZodType);
      bound(js, 'param');
      const required = !(s as z.ZodType).safeParse(undefined).success;
      parameters.push({ name, in: 'query', required, description: js.description, schema: js });
    }
    const responses: Record<string, unknown> = {
      [String(r.status)]: {
        description: r.status === 201 ? 'Created' : r.status === 202 ? 'Accepted' : 'OK',
        headers: COMMON_HEADERS,
        content: {
          'application/json': { schema: ref(idOf(r.response)) },
          ...Object.fromEntries(
            Object.entries(r.alternates ?? {}).map(([type, a]) => [type, { schema: { type: 'string', maxLength: 1e12, description: `${a.description} (streamed)` } }]),
          ),
        },
      },
    };
    const errorStatuses = new Set([...r.errors, 401, 405, 429, 500]);
    if (r.body) for (const s of [400, 413, 415]) errorStatuses.add(s);
    for (const s of [...errorStatuses].sort()) {
      responses[String(s)] = {
        description: STATUS_TEXT[s] ?? 'Error',
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
              content: { 'application/json': { schema: ref(idOf(r.body)), example: sample(ref(idOf(r.body)), schemas) } },
            },
          }
        : {}),
      responses,
    };
    const ok = (responses[String(r.status)] as { content: Record<string, Record<string, unknown>> }).content['application/json'];
    ok.example = sample(ok.schema, schemas);
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
