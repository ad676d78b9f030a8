import { createSofaRouter, createSofa } from 'sofa-api';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import {
  AppError,
  BadRequestError,
  MethodNotAllowedError,
  NotFoundError,
  ValidationError,
  fieldErrorsFromZod,
} from '../errors.js';
import type { RequestContext } from '../context.js';
import { internalErrorResponse, problemResponse } from '../http/problem.js';
import { readJsonBody } from '../http/body.js';
import type { RouteSpec } from './contract.js';
import { compileRoutes, toSofaPath } from './match.js';

/**
 * The REST façade at /api/v1. SOFA derives each route from its GraphQL root field (method, path and status from
 * the declarations); around it this layer does what SOFA cannot express: declared-routes-only matching (404/405),
 * JSON body checks (400/413/415), parameter checks against the declared schemas, flat bodies passed as one
 * GraphQL argument, problem+json errors, and each route's `present` step on the way out.
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
      context: (serverContext: any) => serverContext[CONTEXT],
      errorHandler: ((errors: ReadonlyArray<GraphQLError>) => errorResponse(errors, opts.logger)) as never,
    }),
  );

  return async function handle(request: Request, url: URL, ctx: RequestContext): Promise<Response> {
    try {
      const path = url.pathname.slice(opts.basePath.length) || '/';
      const m = match(request.method, path);
      if (m.kind === 'none') throw new NotFoundError('route', `${request.method} ${url.pathname}`);
      if (m.kind === 'method') {
        throw new MethodNotAllowedError(`${request.method} is not allowed on ${url.pathname}`, m.allow);
      }
      const { spec, params } = m;

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

      let body: string | undefined;
      if (spec.body) {
        const json = await readJsonBody(request, opts.bodyLimitBytes);
        body = JSON.stringify(spec.bodyArg ? { [spec.bodyArg]: json } : json);
      }
      const sofaRequest = new Request(url, {
        method: request.method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body,
      });
      const res = await sofa.fetch(sofaRequest, { [CONTEXT]: ctx } as never);
      if (res.status >= 400 || !spec.present) return res;
      const data = await res.json();
      return Response.json(spec.present(data, { query: url.searchParams, params }), { status: spec.status });
    } catch (e) {
      if (e instanceof AppError) return problemResponse(e);
      opts.logger.error({ err: e }, 'REST request failed');
      return internalErrorResponse();
    }
  };
}

/** Maps GraphQL execution errors to one problem+json response: the most severe domain error wins. */
function errorResponse(errors: ReadonlyArray<GraphQLError | Error>, logger: Logger): Response {
  let chosen: AppError | undefined;
  for (const e of errors) {
    const original = (e as GraphQLError).originalError ?? e;
    if (original instanceof AppError && (!chosen || original.status > chosen.status)) chosen = original;
  }
  if (chosen) return problemResponse(chosen);
  const first = errors[0] as GraphQLError | undefined;
  const status = (first?.extensions?.http as { status?: number } | undefined)?.status;
  if (status && status < 500) return problemResponse(new BadRequestError(first!.message));
  logger.error({ errors }, 'REST operation failed');
  return internalErrorResponse();
}
