import type { DocumentNode, ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import {
  AppError,
  BadRequestError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
  fieldErrorsFromZod,
  isPlainObject,
} from '../errors.js';
import type { RequestContext } from '../context.js';
import { forbiddenMessage, mayCall, requiredScopeOf, type RequiredScope } from '../auth/scopes.js';
import type { Executor } from '../graphql/executor.js';
import { internalErrorResponse, problemFromError, problemResponse, type Problem } from '../http/problem.js';
import { readJsonBody } from '../http/body.js';
import { NOT_UTF8, rejectUndecodableQuery } from '../http/json-guard.js';
import type { RouteSpec } from './contract.js';
import { compileRoutes } from './match.js';
import { routeOperation } from './operations.js';
import { fieldType, presenterFor } from './representation.js';
import { databaseError } from '../db/errors.js';
import { Response } from '../http/response.js';
import { OperationBug, reportUnexpected } from '../lib/unexpected.js';

/**
 * The REST façade at /api/v1 (docs/decisions/0001-rest-facade.md). Each declared route stands for one GraphQL root
 * field; the façade runs the operation SOFA would build for it (src/rest/operations.ts) through the same executor
 * and policy as every channel (src/graphql/policy.ts), so key scope, limits, rate-limit charges and idempotency are
 * the operation's. What is the façade's own is representation only: declared-routes-only matching (404/405), the
 * JSON body (415/413/400 for what is not JSON), path and query parameters to variables, the route's body mapping
 * (`accept`, the service's own check, run inside the operation), problem+json errors and the `present` step.
 */
export interface FacadeOptions {
  schema: GraphQLSchema;
  routes: RouteSpec[];
  basePath: string;
  bodyLimitBytes: number;
  logger: Logger;
  executor: Executor;
}

/** What a route call answers, before it is an HTTP response (MCP tools use this too). */
export interface RouteAnswer {
  status: number;
  body: unknown;
  /** Set when the answer is an error. */
  problem?: Problem;
  headers?: Record<string, string>;
}

/** A route call as a channel gives it: path parameters, query parameters as strings or typed values, a parsed body. */
export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
}

export function createRestFacade(opts: FacadeOptions) {
  const match = compileRoutes(opts.routes);
  const documents = new Map<RouteSpec, DocumentNode>();
  const presenters = new Map<RouteSpec, (data: unknown) => unknown>();
  /** A body whose keys are the field's arguments (a batch's `{items}`): the keys it may have, its envelope. */
  const envelopes = new Map<RouteSpec, Set<string>>();
  /** The scope each route's field needs (decided before anything of the request is read: decision 0006). */
  const required = new Map<RouteSpec, RequiredScope>();
  for (const r of opts.routes) {
    required.set(r, requiredScopeOf(opts.schema, r.field));
    documents.set(r, opts.executor.prepare(routeOperation(opts.schema, r), r.operationId));
    const [root, field] = r.field.split('.');
    const rootType = root === 'Query' ? opts.schema.getQueryType() : opts.schema.getMutationType();
    presenters.set(r, presenterFor(fieldType(rootType, field)));
    if (r.body && !r.bodyArg) {
      const fromUrl = new Set([...Object.keys(r.params?.shape ?? {}), ...Object.keys(r.query?.shape ?? {})]);
      envelopes.set(r, new Set((rootType?.getFields()[field]?.args ?? []).map((a) => a.name).filter((a) => !fromUrl.has(a))));
    }
  }

  /** Runs a route's operation for a call; domain errors come back as the answer, anything else is thrown. */
  async function invoke(spec: RouteSpec, input: RouteInput, ctx: RequestContext): Promise<RouteAnswer> {
    const variables: Record<string, unknown> = {};
    if (spec.params) {
      const p = spec.params.safeParse(input.params);
      if (!p.success) throw new ValidationError('invalid path parameter', fieldErrorsFromZod(p.error.issues, '/path'));
    }
    if (spec.query) {
      const q = spec.query.safeParse(input.query);
      if (!q.success) throw new ValidationError('invalid query parameter', fieldErrorsFromZod(q.error.issues, '/query'));
      // the checked values, typed (a page size is a number, a flag a boolean), for the field's arguments
      for (const [k, v] of Object.entries(q.data as Record<string, unknown>)) if (v !== undefined) variables[k] = v;
    }
    const accept = spec.accept ?? ((body: unknown) => body);
    let prepare: ((v: Record<string, unknown>) => Record<string, unknown>) | undefined;
    if (spec.body && input.body !== undefined) {
      if (spec.bodyArg) {
        // the body is the argument: what its input type does not take (a list for an object), GraphQL refuses and
        // the operation's policy explains in the service's words, as on every channel (src/graphql/jit-variables.ts)
        const arg = spec.bodyArg;
        variables[arg] = input.body;
        if (spec.accept) prepare = (v) => ({ ...v, [arg]: accept(v[arg]) });
      } else {
        // the body's own keys are the field's arguments: each is a variable of its own, so the operation's checks
        // see which argument a value feeds (a batch's items are checked one by one, src/graphql/policy.ts). A key
        // that is none of them is not the documented envelope: the whole request fails (docs/contract/gaps.md §11)
        if (!isPlainObject(input.body)) throw new ValidationError('the request body must be a JSON object');
        const keys = Object.keys(input.body);
        const envelope = envelopes.get(spec)!;
        const unknown = keys.filter((k) => !envelope.has(k));
        if (unknown.length) throw new ValidationError('invalid request body', unknown.map((k) => ({ path: `/${k}`, message: `unknown field: ${k}` })));
        Object.assign(variables, input.body);
        if (spec.accept) {
          prepare = (v) => {
            const mapped = accept(Object.fromEntries(keys.map((k) => [k, v[k]])));
            return isPlainObject(mapped) ? { ...v, ...mapped } : v;
          };
        }
      }
    }
    Object.assign(variables, input.params);
    // each call has its own request state (the body mapping is this call's), sharing the request's rate-limit units
    const callCtx: RequestContext = { ...ctx, request: { ...ctx.request, prepare } };
    const result = await opts.executor.run(callCtx, documents.get(spec)!, variables);
    if (result.errors?.length) {
      const err = errorOf(result.errors, ctx, ctx.request.log ?? opts.logger);
      const headers = err instanceof RateLimitedError ? err.headers : {};
      return { status: err.status, body: problemFromError(err), problem: problemFromError(err), headers };
    }
    const field = spec.field.split('.')[1];
    const data = (result as ExecutionResult<Record<string, unknown>>).data?.[field];
    const body = presenters.get(spec)!(data);
    return { status: spec.status, body: spec.fields ? projected(body, input.query.fields) : body };
  }

  async function handle(request: Request, url: URL, ctx: RequestContext): Promise<Response> {
    try {
      const path = url.pathname.slice(opts.basePath.length) || '/';
      const m = match(request.method, path);
      if (m.kind === 'none') throw new NotFoundError('route', `${request.method} ${url.pathname}`);
      if (m.kind === 'method') throw new MethodNotAllowedError(`${request.method} is not allowed on ${url.pathname}`, m.allow);
      const { spec } = m;
      // the key's scope first, as the operation decides it and MCP does: a key that may not call the route is told
      // so (403), whatever its parameters and body, which are not even read
      const need = required.get(spec)!;
      if (!mayCall(ctx.actor.scope, need)) throw new ForbiddenError(forbiddenMessage(ctx.actor.scope, need, spec.field.split('.')[1]));
      if (m.kind === 'badParam') throw new ValidationError(`invalid path parameter ${m.name}: ${NOT_UTF8}`, [{ path: `/path/${m.name}`, message: NOT_UTF8 }]);
      const { params } = m;
      rejectUndecodableQuery(url);
      const query: Record<string, string> = {};
      const declared = Object.keys(spec.query?.shape ?? {});
      for (const key of declared) {
        const v = url.searchParams.get(key);
        if (v !== null) query[key] = v;
      }
      // every parameter is read once: a second value (`limit=1&limit=2`, `aircraftId=A&aircraftId=B`) would be
      // dropped without a word, so it is a 400 (no route takes a list by repetition)
      const repeated = [...new Set(url.searchParams.keys())].filter((k) => url.searchParams.getAll(k).length > 1);
      if (repeated.length) {
        throw new ValidationError(
          `query parameter given more than once: ${repeated.join(', ')}`,
          repeated.map((k) => ({ path: `/query/${k}`, message: `${k} is given more than once; give it once` })),
        );
      }
      // a parameter the route does not take is a mistake (a misspelt filter would answer the whole list): 400, as an
      // unknown body field is (docs/contract/gaps.md §2)
      const unknown = [...new Set(url.searchParams.keys())].filter((k) => !declared.includes(k));
      if (unknown.length) {
        throw new ValidationError(
          `unknown query parameter${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`,
          unknown.map((k) => ({ path: `/query/${k}`, message: declared.length ? `unknown query parameter: ${k} (this route takes ${declared.join(', ')})` : `unknown query parameter: ${k} (this route takes none)` })),
        );
      }

      const alternate = spec.alternates && preferredAlternate(request.headers.get('accept'), Object.keys(spec.alternates));
      if (alternate) {
        if (spec.query) {
          const q = spec.query.safeParse(query);
          if (!q.success) throw new ValidationError('invalid query parameter', fieldErrorsFromZod(q.error.issues, '/query'));
        }
        return await spec.alternates![alternate].handle(ctx, url.searchParams);
      }

      const body = spec.body ? await readJsonBody(request, opts.bodyLimitBytes, { optional: spec.optionalBody }) : undefined;
      // a route without a body (restore, remove, delete) reads what it was sent all the same: malformed JSON or a
      // field is refused before anything is done, rather than ignored; nothing or `{}` is fine
      if (!spec.body && request.method !== 'GET' && request.method !== 'HEAD') {
        const sent = await readJsonBody(request, opts.bodyLimitBytes, { optional: true });
        if (sent !== undefined && !(isPlainObject(sent) && Object.keys(sent).length === 0)) {
          const fields = isPlainObject(sent) ? Object.keys(sent) : [];
          throw new ValidationError(
            `${request.method} ${url.pathname} takes no request body (send none, or {})`,
            fields.length ? fields.map((k) => ({ path: `/${k}`, message: `unknown field: ${k}` })) : [{ path: '', message: 'this route takes no request body' }],
          );
        }
      }
      const answer = await invoke(spec, { params, query, body }, ctx);
      if (answer.problem) {
        return new Response(JSON.stringify(answer.problem), {
          status: answer.status,
          headers: { 'content-type': 'application/problem+json', ...(answer.headers ?? {}) },
        });
      }
      return Response.json(answer.body, { status: answer.status });
    } catch (e) {
      const known = databaseError(e);
      if (known) return problemResponse(known);
      // a bug: logged once, here (an MCP tool's call logs its own, src/mcp/server.ts), with the request's id
      reportUnexpected(e, { channel: 'rest' }, ctx.request.log ?? opts.logger);
      return internalErrorResponse();
    }
  }

  return Object.assign(handle, { invoke, match });
}

export type RestFacade = ReturnType<typeof createRestFacade>;

/** `fields=a,b`: each record of the page keeps uid and the fields named (docs/contract/api-v1.md §4.2). */
function projected(body: unknown, fields: unknown): unknown {
  if (fields === undefined || fields === null) return body;
  const names = String(fields).split(',').map((s) => s.trim()); // checked with the query (FieldsParam)
  const keep = new Set(['uid', ...names]);
  const page = body as { data: Record<string, unknown>[] };
  return { ...page, data: page.data.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k)))) };
}


/** The alternate media type the client prefers over JSON, if any (by Accept order and q-values). */
function preferredAlternate(accept: string | null, types: string[]): string | undefined {
  if (!accept) return undefined;
  let best: { type: string; q: number } | undefined;
  let jsonQ = -1;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') jsonQ = Math.max(jsonQ, type === '*/*' ? q - 0.001 : q);
    if (types.includes(type) && q > 0 && (!best || q > best.q)) best = { type, q };
  }
  return best && best.q > jsonQ ? best.type : undefined;
}

/**
 * The one domain error an operation's errors stand for: the most severe domain error wins. Errors raised before
 * anything ran (variables GraphQL's types refuse, which a route's own check should have refused first) are a plain
 * 400. Anything else is a bug: thrown as an OperationBug for the channel to log once and answer 500, or, beside a
 * domain error that answers, reported here.
 */
function errorOf(errors: ReadonlyArray<GraphQLError>, ctx: RequestContext, log: Pick<Logger, 'error'>): AppError {
  let chosen: AppError | undefined;
  for (const e of errors) {
    const original = databaseError(e.originalError ?? e);
    if (original && (!chosen || original.status > chosen.status)) chosen = original;
  }
  const isGraphQLError = (e: unknown): e is GraphQLError => e instanceof Error && e.name === 'GraphQLError';
  const refusedBeforeExecution = (e: GraphQLError) => !e.path && (!e.originalError || isGraphQLError(e.originalError));
  const bugs = errors.filter((e) => !refusedBeforeExecution(e) && !databaseError(e.originalError ?? e));
  const bug = bugs.length ? new OperationBug(bugs[0].originalError ?? new Error(bugs[0].message), bugs.map((e) => e.path)) : undefined;
  if (chosen) {
    if (bug) reportUnexpected(bug, { channel: ctx.request.channel }, log);
    return chosen;
  }
  if (!bug) return new BadRequestError(`invalid request: ${errors[0].message}`);
  throw bug;
}
