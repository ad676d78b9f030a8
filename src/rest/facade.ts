import { createSofaRouter, createSofa } from 'sofa-api';
import {
  TypeInfo,
  execute as graphqlExecute,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
} from 'graphql';
import type { Logger } from 'pino';
import {
  AppError,
  BadRequestError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  ValidationError,
  fieldErrorsFromZod,
} from '../errors.js';
import type { RequestContext } from '../context.js';
import { internalErrorResponse, problemResponse } from '../http/problem.js';
import { readJsonBody } from '../http/body.js';
import { isReadRoute, type RouteSpec } from './contract.js';
import { compileRoutes, toSofaPath } from './match.js';
import { databaseError } from '../db/errors.js';

/**
 * The REST façade at /api/v1. SOFA derives each route from its GraphQL root field (method, path and status from
 * the declarations) and runs it; around it this layer does what SOFA cannot express: declared-routes-only matching
 * (404/405), JSON body reading (400/413/415), parameter checks against the declared schemas, the service's own
 * body check (so REST answers the service's ValidationError, never a GraphQL coercion message), problem+json
 * errors, and each route's `present` step on the way out. docs/decisions/0001-rest-facade.md has the split.
 */
export interface FacadeOptions {
  schema: GraphQLSchema;
  routes: RouteSpec[];
  basePath: string;
  bodyLimitBytes: number;
  logger: Logger;
}

const CONTEXT = Symbol('fleetops.context');

export function createRestFacade(opts: FacadeOptions) {
  /** Per façade call (its own context object): where execute leaves the result the façade presents. */
  const slots = new WeakMap<object, { result?: Awaited<ReturnType<typeof graphqlExecute>> }>();
  const match = compileRoutes(opts.routes);
  const sofaRoutes = Object.fromEntries(
    opts.routes.map((r) => [r.field, { method: r.method, path: toSofaPath(r.path), responseStatus: r.status }]),
  );
  const sofa = createSofaRouter(
    createSofa({
      basePath: opts.basePath,
      schema: opts.schema,
      routes: sofaRoutes as never,
      depthLimit: 1,
      execute: (async (args: Parameters<typeof graphqlExecute>[0]) => {
        const result = await graphqlExecute({ ...args, document: restSelection(opts.schema, args.document) });
        const slot = args.contextValue && typeof args.contextValue === 'object' ? slots.get(args.contextValue) : undefined;
        if (!slot || result.errors || !result.data) return result;
        // The façade presents this result itself (docs/decisions/0001-rest-facade.md): SOFA gets the root field as
        // null, so it serialises nothing that would be parsed again and thrown away.
        slot.result = result;
        return { data: Object.fromEntries(Object.keys(result.data).map((k) => [k, null])) };
      }) as never,
      context: (serverContext: any) => serverContext[CONTEXT],
      errorHandler: ((errors: ReadonlyArray<GraphQLError>) => errorResponse(errors, opts.logger)) as never,
    }),
  );

  // SOFA's own handler per route (it builds the operation from the GraphQL field and executes it). The façade
  // calls it with the variables it has already checked, so the body is parsed once, no Request is rebuilt and
  // nothing is read from a query string (docs/decisions/0001-rest-facade.md).
  const handlers = new Map<string, SofaHandler>();
  for (const r of (sofa as unknown as { __routes: { method: string; path: string; handler: SofaHandler }[] }).__routes) {
    handlers.set(`${r.method.toUpperCase()} ${r.path}`, r.handler);
  }
  const handlerOf = new Map<RouteSpec, SofaHandler>();
  for (const r of opts.routes) {
    const h = handlers.get(`${r.method} ${toSofaPath(r.path)}`);
    if (!h) throw new Error(`route ${r.operationId}: SOFA has no handler for ${r.method} ${r.path}`);
    if (r.body && !r.accept) throw new Error(`route ${r.operationId}: a body needs the service's check (accept)`);
    handlerOf.set(r, h);
  }

  return async function handle(request: Request, url: URL, ctx: RequestContext): Promise<Response> {
    try {
      const path = url.pathname.slice(opts.basePath.length) || '/';
      const m = match(request.method, path);
      if (m.kind === 'none') throw new NotFoundError('route', `${request.method} ${url.pathname}`);
      if (m.kind === 'method') {
        throw new MethodNotAllowedError(`${request.method} is not allowed on ${url.pathname}`, m.allow);
      }
      const { spec, params } = m;
      if (ctx.actor.scope === 'read' && !isReadRoute(spec)) {
        throw new ForbiddenError(`this API key is read-only: ${spec.method} ${spec.path} writes (create a read_write key to write)`);
      }

      if (spec.params) {
        const p = spec.params.safeParse(params);
        if (!p.success) throw new ValidationError('invalid path parameter', fieldErrorsFromZod(p.error.issues, '/path'));
      }
      if (spec.query) {
        const raw: Record<string, string> = {};
        for (const key of Object.keys(spec.query.shape)) {
          const v = url.searchParams.get(key);
          if (v !== null) raw[key] = v;
        }
        const q = spec.query.safeParse(raw);
        if (!q.success) throw new ValidationError('invalid query parameter', fieldErrorsFromZod(q.error.issues, '/query'));
      }

      const alternate = spec.alternates && preferredAlternate(request.headers.get('accept'), Object.keys(spec.alternates));
      if (alternate) return await spec.alternates![alternate].handle(ctx, url.searchParams);

      // GraphQL variables: the body (as one argument, or its keys), then query parameters, then path parameters
      const variables: Record<string, unknown> = {};
      if (spec.body) {
        const json = await readJsonBody(request, opts.bodyLimitBytes, { optional: spec.optionalBody });
        if (json !== undefined) {
          // the service's own check, before GraphQL sees the body: a bad body gets the service's ValidationError
          const arg = spec.accept ? spec.accept(json) : json;
          if (spec.bodyArg) variables[spec.bodyArg] = arg;
          else if (arg && typeof arg === 'object' && !Array.isArray(arg)) Object.assign(variables, arg);
        }
      }
      for (const key of Object.keys(spec.query?.shape ?? {})) {
        const v = url.searchParams.get(key); // the single (first) value that was checked
        if (v !== null) variables[key] = v;
      }
      Object.assign(variables, params);
      const callCtx = { ...ctx };
      const slot: { result?: Awaited<ReturnType<typeof graphqlExecute>> } = {};
      if (spec.present) slots.set(callCtx, slot);
      const res = await handlerOf.get(spec)!(sofaRequest(variables), { [CONTEXT]: callCtx });
      if (!isReadRoute(spec) && res.status < 400) {
        // who wrote what: the key, its user and that user's roles (no key material)
        opts.logger.info({ audit: 'write', operation: spec.operationId, keyId: ctx.actor.keyId, userId: ctx.actor.userId, roles: ctx.actor.roles ?? [], status: res.status }, 'write');
      }
      if (res.status >= 400 || !spec.present) return res;
      const field = spec.field.split('.')[1];
      const data = slot.result?.data?.[field];
      return Response.json(spec.present(data, { query: url.searchParams, params }), { status: spec.status });
    } catch (e) {
      const known = databaseError(e);
      if (known) return problemResponse(known);
      opts.logger.error({ err: e }, 'REST request failed');
      return internalErrorResponse();
    }
  };
}

type SofaHandler = (request: unknown, serverContext: object) => Promise<Response>;

/**
 * What SOFA's route handler reads of a request: it takes every variable from `params` first (docs/decisions/0001),
 * so the checked values are handed over as they are, with no body to parse and no query string to read.
 */
function sofaRequest(variables: Record<string, unknown>) {
  return { url: 'http://fleetops.internal/', method: 'POST', headers: new Headers(), body: null, params: variables };
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
 * REST bodies carry a resource's own fields: fields marked `extensions: { rest: false }` (relations such as a
 * log's aircraft, for GraphQL clients) are dropped from SOFA's generated selection. Cached per document.
 */
const pruned = new WeakMap<DocumentNode, DocumentNode>();
function restSelection(schema: GraphQLSchema, doc: DocumentNode): DocumentNode {
  let out = pruned.get(doc);
  if (!out) {
    const typeInfo = new TypeInfo(schema);
    out = visit(
      doc,
      visitWithTypeInfo(typeInfo, {
        Field() {
          return typeInfo.getFieldDef()?.extensions?.rest === false ? null : undefined;
        },
      }),
    );
    pruned.set(doc, out);
  }
  return out;
}

/** Maps GraphQL execution errors to one problem+json response: the most severe domain error wins. */
function errorResponse(errors: ReadonlyArray<GraphQLError | Error>, logger: Logger): Response {
  let chosen: AppError | undefined;
  for (const e of errors) {
    const original = databaseError((e as GraphQLError).originalError ?? e);
    if (original && (!chosen || original.status > chosen.status)) chosen = original;
  }
  if (chosen) return problemResponse(chosen);
  const first = errors[0] as GraphQLError | undefined;
  const status = (first?.extensions?.http as { status?: number } | undefined)?.status;
  if (status && status < 500) return problemResponse(new BadRequestError(first!.message));
  // refused before anything ran: variables GraphQL's types do not take (graphql-js reports each with the inner
  // coercion error as its originalError). Only a service check that lets through what its GraphQL type refuses
  // can get here; a plain Error from anywhere else stays a logged 500.
  const isGraphQLError = (e: unknown): e is GraphQLError => e instanceof Error && e.name === 'GraphQLError';
  const refusedBeforeExecution = (e: GraphQLError | Error) =>
    isGraphQLError(e) && !e.path && (!e.originalError || isGraphQLError(e.originalError));
  if (first && errors.every(refusedBeforeExecution)) {
    return problemResponse(new BadRequestError(`invalid request: ${first.message}`));
  }
  logger.error({ errors }, 'REST operation failed');
  return internalErrorResponse();
}
