import { z } from 'zod';
import type { RequestContext } from '../context.js';

/**
 * The declarative REST contract layer. Each module declares its routes here-shaped: which GraphQL root field the
 * route runs (as the operation SOFA would build for it: src/rest/operations.ts), the HTTP method/path/status, zod schemas for parameters, body and response (used for request checks
 * and for the OpenAPI 3.1 document), and an optional `present` step for what GraphQL cannot express (dynamic
 * top-level keys, `fields` projection, omitted optional fields). No business rule lives in a route.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  operationId: string;
  /** The GraphQL root field this route runs, e.g. `Query.aircraft`. */
  field: `Query.${string}` | `Mutation.${string}`;
  method: HttpMethod;
  /** OpenAPI-style path relative to /api/v1, e.g. `/aircraft/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Path parameters (names must match the GraphQL field's arguments). */
  params?: z.ZodObject;
  /** Query parameters (names must match the GraphQL field's arguments). */
  query?: z.ZodObject;
  /** JSON request body: a registered schema. */
  body?: z.ZodType;
  /**
   * The body may be left out (an empty body, with or without a JSON Content-Type): the GraphQL field then runs
   * without `bodyArg`. A body that is sent is checked as usual (415, 413, 400).
   */
  optionalBody?: boolean;
  /** The GraphQL argument a flat JSON body is passed as (e.g. `input`); without it the body's keys are the arguments. */
  bodyArg?: string;
  /**
   * The service's own check of a body (no database), run by the operation policy inside the route's operation,
   * before GraphQL coerces the variables: it throws the service's ValidationError, so a bad body gets the same
   * message and path as on GraphQL, never a coercion message, and a refusal is the operation's result (replayed for
   * an Idempotency-Key like any). It returns the value handed to GraphQL (the body as sent, or, for flight logs,
   * the flat body in the input's shape).
   */
  accept?: (body: unknown) => unknown;
  /** Success status. */
  status: 200 | 201 | 202;
  /**
   * The success body's document, where the route's GraphQL type does not say it (a union of shapes, say); by
   * default the REST representation of the field's GraphQL type (src/rest/representation.ts).
   */
  response?: z.ZodType;
  /**
   * `fields=a,b` (docs/contract/api-v1.md §4.2): each record of the list's `data` keeps `uid` and the fields named.
   * The value is the list of names the records can have beyond the GraphQL type's own fields (dynamic tracking
   * keys), checked at the request.
   */
  fields?: boolean;
  /**
   * `false`: not an MCP tool (API key management, docs/contract/gaps.md §12: an assistant never handles keys).
   */
  mcp?: false;
  /** Error statuses this route can answer besides 401/413/415/429/500. */
  errors: number[];
  /** Extra response media types (e.g. text/csv), chosen by the Accept header and answered by `handle`. */
  alternates?: Record<string, { description: string; handle: (ctx: RequestContext, query: URLSearchParams) => Promise<Response> }>;
}

/** Named schemas of the REST contract: become `#/components/schemas/<id>` in the OpenAPI document. */
export const contractSchemas = z.registry<{ id: string; description?: string }>();

export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  contractSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

export const FieldErrorSchema = z.object({ path: z.string(), message: z.string() });

export const ProblemSchema = named(
  'Problem',
  z.object({
    type: z.string().describe('URI reference of the problem type'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().describe('validation_error, bad_request, unauthorized, not_found, conflict, ...'),
    errors: z.array(FieldErrorSchema).optional(),
  }),
  'RFC 9457 problem details',
);

/** A route that only reads: every GET, and queries run by POST (aggregate). Read-scoped keys may call only these. */
export function isReadRoute(r: Pick<RouteSpec, 'method' | 'field'>): boolean {
  return r.method === 'GET' || r.field.startsWith('Query.');
}

/** `accept` for a body GraphQL takes as sent: the service's check runs, the body goes on unchanged. */
export function checkedBy(check: (body: unknown) => unknown): (body: unknown) => unknown {
  return (body) => {
    check(body);
    return body;
  };
}

export function defineRoutes(routes: RouteSpec[]): RouteSpec[] {
  return routes;
}

