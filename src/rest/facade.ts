import { createSofaRouter, createSofa } from 'sofa-api';
import {
  TypeInfo,
  execute as graphqlExecute,
  getNamedType,
  isInputObjectType,
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

  // input field names per route with `extraKeysInto`: the other body keys move into that field
  const inputFields = new Map<RouteSpec, Set<string>>();
  for (const r of opts.routes) {
    if (!r.bodyArg || !r.extraKeysInto) continue;
    const [root, name] = r.field.split('.');
    const type = root === 'Query' ? opts.schema.getQueryType() : opts.schema.getMutationType();
    const arg = type?.getFields()[name]?.args.find((a) => a.name === r.bodyArg);
    const input = arg && getNamedType(arg.type);
    if (!input || !isInputObjectType(input)) throw new Error(`route ${r.operationId}: ${r.bodyArg} is not an input object`);
    inputFields.set(r, new Set(Object.keys(input.getFields())));
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

      let body: string | undefined;
      if (spec.body) {
        let json = await readJsonBody(request, opts.bodyLimitBytes, { optional: spec.optionalBody });
        const known = inputFields.get(spec);
        if (known && json && typeof json === 'object' && !Array.isArray(json)) {
          json = moveExtraKeys(json as Record<string, unknown>, known, spec.extraKeysInto!);
        }
        if (json !== undefined) body = JSON.stringify(spec.bodyArg ? { [spec.bodyArg]: json } : json);
      }
      // SOFA reads variables from the query string before the body: hand it only the declared query parameters,
      // with the single (first) value that was checked, so nothing can override the body or the checks
      const sofaUrl = new URL(url.origin + (url.pathname.replace(/\/+$/, '') || '/')); // SOFA's routes have no trailing slash
      for (const key of Object.keys(spec.query?.shape ?? {})) {
        const v = url.searchParams.get(key);
        if (v !== null) sofaUrl.searchParams.set(key, v);
      }
      const sofaRequest = new Request(sofaUrl, {
        method: request.method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body,
      });
      // each call executes with its own context object (the same services and loaders), so calls that share a
      // request context (MCP tools) never see each other's results
      const callCtx = { ...ctx };
      const slot: { result?: Awaited<ReturnType<typeof graphqlExecute>> } = {};
      if (spec.present) slots.set(callCtx, slot);
      const res = await sofa.fetch(sofaRequest, { [CONTEXT]: callCtx } as never);
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

/** Flat body → input: keys that are not input fields go into `into` (the JSON field of the input for them). */
function moveExtraKeys(body: Record<string, unknown>, known: Set<string>, into: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) (known.has(k) ? out : extra)[k] = v;
  if (!Object.keys(extra).length) return out;
  const nested = out[into];
  if (nested !== undefined && nested !== null && (typeof nested !== 'object' || Array.isArray(nested))) return out; // service reports it
  const merged: Record<string, unknown> = { ...((nested as Record<string, unknown>) ?? {}) };
  for (const [k, v] of Object.entries(extra)) {
    if (k in merged) {
      throw new ValidationError(`invalid request: ${k} is given twice`, [
        { path: `/${k}`, message: `${k} is given twice (top level and in ${into})` },
      ]);
    }
    merged[k] = v;
  }
  out[into] = merged;
  return out;
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
  const fieldErrors = errors.map((e) => coercionError(e.message)).filter((f) => f !== null);
  if (fieldErrors.length && fieldErrors.length === errors.length) {
    return problemResponse(new ValidationError(fieldErrors.length === 1 ? `invalid request: ${fieldErrors[0].path}: ${fieldErrors[0].message}` : `invalid request: ${fieldErrors.length} invalid fields`, fieldErrors));
  }
  const first = errors[0] as GraphQLError | undefined;
  const status = (first?.extensions?.http as { status?: number } | undefined)?.status;
  if (status && status < 500) return problemResponse(new BadRequestError(first!.message));
  logger.error({ errors }, 'REST operation failed');
  return internalErrorResponse();
}

/**
 * graphql-js variable coercion messages, e.g. `Variable "$input" got invalid value "x" at "input.pax"; Int cannot
 * represent non-integer value: "x"` or `Field "pilot" of required type "String!" was not provided.`, as field errors.
 */
function coercionError(message: string): { path: string; message: string } | null {
  const absent = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\.?$/.exec(message);
  if (absent) return { path: `/${absent[1]}`, message: `${absent[1]} is required` };
  const m = /^Variable "\$(\w+)" got invalid value (?:.*?)(?: at "([^"]+)")?; (.*)$/s.exec(message);
  if (!m) return null;
  const [, variable, at, reason] = m;
  // `input.counters[0].unit` -> /counters/0/unit (a JSON Pointer into the body)
  const segments = (at ?? variable).replace(/\[(\d+)\]/g, '.$1').split('.').slice(1);
  const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\.?$/.exec(reason);
  if (missing) return { path: [...segments, missing[1]].map((x) => '/' + x).join(''), message: `${missing[1]} is required` };
  const unknown = /^Field "(\w+)" is not defined by type "[^"]+"\.?/.exec(reason);
  if (unknown) return { path: [...segments, unknown[1]].map((x) => '/' + x).join(''), message: `${unknown[1]} is not a field of this body` };
  const path = segments.length ? segments.map((x) => '/' + x).join('') : '/' + variable;
  const last = segments[segments.length - 1] ?? variable;
  const typed = /^(Int|Float|String|Boolean|ID) cannot represent (.*)$/.exec(reason);
  const want = typed ? { Int: 'a whole number', Float: 'a number', String: 'a string', Boolean: 'a boolean', ID: 'a string' }[typed[1]] : undefined;
  return { path, message: want ? `${last} must be ${want}` : reason.replace(/\.$/, '') };
}
