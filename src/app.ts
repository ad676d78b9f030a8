import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createGraphQLError, createYoga, maskError as defaultMaskError } from 'graphql-yoga';
import pino, { type Logger } from 'pino';
import { ApiKeyService } from './auth/keys.js';
import { KEY_CHANGE_CHANNEL } from './auth/key-cache.js';
import type { Config } from './config.js';
import { createContext, type RequestContext } from './context.js';
import type { Database } from './db/database.js';
import { AppError, ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError } from './errors.js';
import { internalErrorResponse, problemResponse } from './http/problem.js';
import { createRateLimit } from './http/rate-limit.js';
import { withLimitedBody } from './http/body.js';
import { withIdempotency } from './http/idempotency.js';
import { rejectNulInUrl } from './http/json-guard.js';
import { databaseError } from './db/errors.js';
import { reportUnexpected, setUnexpectedErrorSink } from './lib/unexpected.js';
import { schema } from './graphql/schema.js';
import { graphqlLimitPlugins, operationInfo } from './graphql/limits.js';
import { createMetrics } from './http/metrics.js';
import { logMixin, requestIdFor, requestScope } from './lib/request-scope.js';
import { compileRoutes } from './rest/match.js';
import { docsHtml } from './http/docs.js';
import { createRestFacade } from './rest/facade.js';
import { buildOpenApi } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { createDispatcher, type Dispatcher } from './modules/webhooks/dispatcher.js';
import { createPublicForms } from './modules/forms/public.js';

export const API_VERSION = '0.1.0';

const EXPOSED_HEADERS = 'ratelimit, ratelimit-policy, retry-after, www-authenticate, allow, content-disposition, x-request-id, idempotent-replayed';
const CORS_PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, idempotency-key, x-request-id',
  'access-control-max-age': '600',
};
export const API_BASE = '/api/v1';

export interface AppOptions {
  database: Database;
  config: Pick<Config, 'rateLimitPerMinute' | 'redisUrl' | 'bodyLimitBytes' | 'logLevel'> &
    Partial<Pick<Config, 'webhookAllowPrivate' | 'webhookTimeoutMs' | 'smtpUrl' | 'mailFrom' | 'publicRateLimitPerMinute' | 'authFailLimitPerMinute' | 'metricsToken'>>;
  logger?: Logger;
  /** Run the delivery dispatcher in this process (default true). */
  dispatch?: boolean;
}

/** What the HTTP server knows about a request beyond the Request itself. */
export interface RequestInfo {
  /** The peer's IP address (per-address limits). */
  clientAddress?: string;
}

export interface App {
  fetch(request: Request, info?: RequestInfo): Promise<Response>;
  openapi: ReturnType<typeof buildOpenApi>;
  /** The delivery dispatcher of this process, when it runs one. */
  dispatcher: Dispatcher | null;
  /** Settles once start-up work in the background is done (on PostgreSQL: listening for API-key changes). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const DOC_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/**
 * Domain errors keep their message and carry code/status/errors to GraphQL clients; anything else is masked.
 * (Duck-typed: yoga and our modules may hold different copies of graphql's error class.)
 */
function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const e = error as { originalError?: unknown; nodes?: never; source?: never; positions?: never; path?: never };
  const original = databaseError(e?.originalError ?? error) ?? (e?.originalError ?? error);
  if (original instanceof AppError && original !== error) {
    return createGraphQLError(original.message, {
      nodes: e.nodes,
      source: e.source,
      positions: e.positions,
      path: e.path,
      originalError: original,
      extensions: {
        code: original.code.toUpperCase(),
        status: original.status,
        ...(original.errors ? { errors: original.errors } : {}),
        http: { status: original.status },
      },
    });
  }
  // a resolver that threw something unexpected (not a domain error, not a GraphQL error such as a coercion failure)
  const thrown = e?.originalError as { name?: string; extensions?: unknown } | undefined;
  if (thrown && !(thrown instanceof AppError) && (e as { path?: unknown }).path !== undefined && !('extensions' in thrown && thrown.name === 'GraphQLError')) {
    reportUnexpected(e.originalError, { channel: 'graphql', path: (e as { path?: unknown }).path });
    return createGraphQLError('Internal server error: the error has been logged; retrying will not help until it is fixed.', {
      nodes: e.nodes,
      source: e.source,
      positions: e.positions,
      path: e.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
    });
  }
  return defaultMaskError(error, message, isDev);
}

export function createApp(opts: AppOptions): App {
  const { database, config } = opts;
  const logger = opts.logger ?? pino({ level: config.logLevel, mixin: logMixin });
  const metrics = createMetrics(database);
  const restMatch = compileRoutes(restRoutes);
  /** A bounded label for a path: the route template, never the raw path. */
  const routeLabel = (method: string, p: string): string => {
    if (p === API_BASE || p.startsWith(API_BASE + '/')) {
      const m = restMatch(method, p.slice(API_BASE.length) || '/');
      return m.kind === 'route' ? API_BASE + m.spec.path : `${API_BASE}/*`;
    }
    if (p.startsWith('/forms/public/')) return p.endsWith('/submissions') ? '/forms/public/{publicId}/submissions' : '/forms/public/{publicId}';
    if (p.startsWith('/docs')) return '/docs';
    return ['/graphql', '/mcp', '/healthz', '/readyz', '/metrics'].includes(p) ? p : 'other';
  };
  setUnexpectedErrorSink((err, context) => logger.error({ err, ...context }, 'unexpected error'));
  const keys = new ApiKeyService(database.prisma, { cache: true });
  // other processes on the same PostgreSQL database announce key changes; until this process hears them, it caches nothing
  const stopListening = keys.cache && database.listen
    ? database.listen(KEY_CHANGE_CHANNEL, (hash) => keys.cache!.invalidate(hash), (listening) => {
        keys.cache!.clear();
        keys.cache!.enabled = listening;
      })
    : null;
  const rateLimit = createRateLimit({ perMinute: config.rateLimitPerMinute, redisUrl: config.redisUrl });
  const authFailures = createRateLimit({ perMinute: config.authFailLimitPerMinute ?? 30, redisUrl: config.redisUrl, prefix: 'fleetops:authfail' });
  const openapi = buildOpenApi(restRoutes, { version: API_VERSION });
  const openapiJson = JSON.stringify(openapi);
  const rest = createRestFacade({
    schema,
    routes: restRoutes,
    basePath: API_BASE,
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
  });
  const dispatcher =
    opts.dispatch === false
      ? null
      : createDispatcher({
          database,
          logger,
          allowPrivate: config.webhookAllowPrivate ?? false,
          timeoutMs: config.webhookTimeoutMs ?? 10_000,
          smtpUrl: config.smtpUrl,
          mailFrom: config.mailFrom ?? 'fleetops@localhost',
          onOutcome: (channel, status) => metrics.delivery(channel, status),
        });
  // the MCP SDK is loaded on the first /mcp request: most servers never get one, and it is a tenth of start-up
  let mcp: Promise<{ handle(request: Request, ctx: RequestContext): Promise<Response> }> | undefined;
  const mcpHandler = () =>
    (mcp ??= import('./mcp/server.js').then((m) => m.createMcpHandler({ routes: restRoutes, apiBase: API_BASE, version: API_VERSION, rest })));
  const publicForms = createPublicForms({ database, logger, perMinute: config.publicRateLimitPerMinute ?? 20, redisUrl: config.redisUrl });
  const yoga = createYoga<{ fleet: RequestContext }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    cors: false, // answered by the app for every path
    maskedErrors: { maskError },
    plugins: graphqlLimitPlugins(process.env.NODE_ENV === 'production'),
    context: ({ fleet }) => fleet,
  });

  async function authenticate(request: Request, info: RequestInfo) {
    let actor;
    try {
      actor = await keys.authenticate(request.headers.get('authorization'));
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      const address = info.clientAddress ?? 'unknown';
      logger.warn({ reason: (e as { reason?: string }).reason ?? e.message, clientAddress: address }, 'authentication failed');
      // failed attempts are limited per client address: key guessing is bounded
      try {
        await authFailures.consume(`addr:${address}`);
      } catch (limited) {
        if (limited instanceof RateLimitedError) throw Object.assign(new RateLimitedError(`too many failed authentications from this address; retry in ${limited.retryAfterSeconds} s`, limited.retryAfterSeconds), { headers: (limited as unknown as { headers: Record<string, string> }).headers });
        throw limited;
      }
      throw e;
    }
    const headers = await rateLimit.consume(actor.keyId);
    return { ctx: createContext(database, actor), headers };
  }

  async function route(request: Request, url: URL, info: RequestInfo): Promise<{ res: Response; companyId?: string }> {
    const p = url.pathname;
    if (p.startsWith('/forms/public/')) {
      const res = await publicForms.handle(request, url, info.clientAddress ?? 'unknown');
      if (res) return { res };
    }
    if (p === '/healthz') return { res: Response.json({ status: 'ok' }) };
    if (p === '/metrics') {
      if (config.metricsToken && request.headers.get('authorization') !== `Bearer ${config.metricsToken}`) {
        throw new UnauthorizedError('GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>"');
      }
      return { res: new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType } }) };
    }
    if (p === '/readyz') {
      try {
        await database.sql.query('SELECT 1');
        return { res: Response.json({ status: 'ok', database: database.kind }) };
      } catch {
        return { res: Response.json({ status: 'unavailable', database: database.kind }, { status: 503 }) };
      }
    }
    if (p === '/docs' || p === '/docs/') {
      return { res: new Response(docsHtml(), { headers: { 'content-type': 'text/html; charset=utf-8' } }) };
    }
    if (p.startsWith('/docs/assets/')) {
      const name = p.slice('/docs/assets/'.length);
      const type = DOC_ASSETS[name];
      if (!type) throw new NotFoundError('asset', name);
      const body = await fs.promises.readFile(path.join(SWAGGER_DIR, name));
      return { res: new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } }) };
    }
    if (p === `${API_BASE}/openapi.json`) {
      return { res: new Response(openapiJson, { headers: { 'content-type': 'application/json' } }) };
    }
    if (p === '/graphql') {
      const { ctx, headers } = await authenticate(request, info);
      const limited = await withLimitedBody(request, config.bodyLimitBytes);
      // each mutation past the first counts against the key's rate limit
      let mutation = false;
      if (request.method === 'POST') {
        const op = operationInfo(await limited.clone().json().catch(() => null));
        if (op.type) metrics.graphqlOperation(op.type);
        mutation = op.type === 'mutation';
        if (op.type === 'mutation' && ctx.actor.scope === 'read') throw new ForbiddenError('this API key is read-only: mutations need a read_write key');
        if (op.mutations > 1) Object.assign(headers, await rateLimit.consume(ctx.actor.keyId, op.mutations - 1));
      }
      const res = await yoga.fetch(limited, { fleet: ctx });
      if (mutation) logger.info({ audit: 'write', operation: 'graphql mutation', keyId: ctx.actor.keyId, userId: ctx.actor.userId, roles: ctx.actor.roles ?? [], status: res.status }, 'write');
      return { res: withHeaders(res, headers), companyId: ctx.companyId };
    }
    if (p === '/mcp') {
      const { ctx, headers } = await authenticate(request, info);
      const limited = await withLimitedBody(request, config.bodyLimitBytes);
      return { res: withHeaders(await (await mcpHandler()).handle(limited, ctx), headers), companyId: ctx.companyId };
    }
    if (p === API_BASE || p.startsWith(API_BASE + '/')) {
      const { ctx, headers } = await authenticate(request, info);
      const res = await withIdempotency(request, ctx, (r) => rest(r, url, ctx), config.bodyLimitBytes);
      return { res: withHeaders(res, headers), companyId: ctx.companyId };
    }
    throw new NotFoundError('route', `${request.method} ${p}`);
  }

  return {
    openapi,
    dispatcher,
    ready: Promise.resolve(stopListening).then(() => undefined, () => undefined),
    async fetch(request, info = {}) {
      const requestId = requestIdFor(request.headers.get('x-request-id'));
      return requestScope.run({ requestId }, () => handle(request, info, requestId));
    },
    async close() {
      await (await stopListening?.catch(() => null))?.();
      keys.cache?.dispose();
      await dispatcher?.stop();
      await rateLimit.close();
      await authFailures.close();
      await publicForms.close();
    },
  };

  async function handle(request: Request, info: RequestInfo, requestId: string): Promise<Response> {
      const started = performance.now();
      const url = new URL(request.url);
      let res: Response;
      let companyId: string | undefined;
      try {
        // CORS: credentials are bearer keys, never cookies, so any origin may call; preflights need no key
        if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
          res = new Response(null, { status: 204, headers: CORS_PREFLIGHT });
        } else {
          rejectNulInUrl(url);
          ({ res, companyId } = await route(request, url, info));
        }
      } catch (e) {
        const known = databaseError(e);
        if (request.signal.aborted) res = new Response(null, { status: 499 }); // the client went away: nobody reads this
        else if (e instanceof RateLimitedError) res = problemResponse(e, (e as unknown as { headers: Record<string, string> }).headers);
        else if (known) res = problemResponse(known);
        else {
          logger.error({ err: e }, 'request failed');
          res = internalErrorResponse();
        }
      }
      if (request.headers.has('origin') && !res.headers.has('access-control-allow-origin')) {
        res = withHeaders(res, { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS });
      }
      const ms = performance.now() - started;
      metrics.request(request.method, routeLabel(request.method, url.pathname), res.status, ms / 1000);
      logger.info({ method: request.method, path: url.pathname, status: res.status, ms: Math.round(ms), companyId }, 'request');
      return withHeaders(res, { 'x-request-id': requestId });
  }
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  if (!Object.keys(headers).length) return res;
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}
