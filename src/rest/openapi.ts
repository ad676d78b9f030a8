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

function idOf(schema: z.ZodType): string {
  const meta = contractSchemas.get(schema);
  if (!meta) throw new Error('route schemas must be registered with named()');
  return meta.id;
}

function paramSchema(s: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(s, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

export function buildOpenApi(routes: RouteSpec[], opts: { version: string }) {
  const all = z.toJSONSchema(contractSchemas, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const schemas: Record<string, unknown> = {};
  for (const [id, s] of Object.entries(all.schemas)) {
    const { $schema: _drop, $id: _id, ...rest } = s;
    schemas[id] = rest;
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters: unknown[] = [];
    for (const [name, s] of Object.entries(r.params?.shape ?? {})) {
      const js = paramSchema(s as z.ZodType);
      parameters.push({ name, in: 'path', required: true, description: js.description, schema: js });
    }
    for (const [name, s] of Object.entries(r.query?.shape ?? {})) {
      const js = paramSchema(s as z.ZodType);
      const required = !(s as z.ZodType).safeParse(undefined).success;
      parameters.push({ name, in: 'query', required, description: js.description, schema: js });
    }
    const responses: Record<string, unknown> = {
      [String(r.status)]: {
        description: r.status === 201 ? 'Created' : r.status === 202 ? 'Accepted' : 'OK',
        content: {
          'application/json': { schema: ref(idOf(r.response)) },
          ...Object.fromEntries(
            Object.entries(r.alternates ?? {}).map(([type, a]) => [type, { schema: { type: 'string', description: a.description } }]),
          ),
        },
      },
    };
    const errorStatuses = new Set([...r.errors, 401, 429, 500]);
    if (r.body) for (const s of [400, 413, 415]) errorStatuses.add(s);
    for (const s of [...errorStatuses].sort()) {
      responses[String(s)] = {
        description: STATUS_TEXT[s] ?? 'Error',
        content: { 'application/problem+json': { schema: ref('Problem') } },
        ...(s === 401
          ? { headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer' } } }
          : s === 429
            ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } } }
            : {}),
      };
    }
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: [r.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(r.body
        ? { requestBody: { required: !r.optionalBody, content: { 'application/json': { schema: ref(idOf(r.body)) } } } }
        : {}),
      responses,
    };
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
    servers: [{ url: '/api/v1' }],
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
