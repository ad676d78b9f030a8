import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createGraphQLError, createYoga, maskError as defaultMaskError } from 'graphql-yoga';
import pino, { type Logger } from 'pino';
import { ApiKeyService } from './auth/keys.js';
import type { Config } from './config.js';
import { createContext, type RequestContext } from './context.js';
import type { Database } from './db/database.js';
import { AppError, NotFoundError, RateLimitedError } from './errors.js';
import { internalErrorResponse, problemResponse } from './http/problem.js';
import { createRateLimit } from './http/rate-limit.js';
import { withLimitedBody } from './http/body.js';
import { schema } from './graphql/schema.js';
import { docsHtml } from './http/docs.js';
import { createRestFacade } from './rest/facade.js';
import { buildOpenApi } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { createMcpHandler } from './mcp/server.js';

export const API_VERSION = '0.1.0';

const EXPOSED_HEADERS = 'ratelimit, ratelimit-policy, retry-after, www-authenticate, allow, content-disposition';
const CORS_PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-max-age': '600',
};
export const API_BASE = '/api/v1';

export interface AppOptions {
  database: Database;
  config: Pick<Config, 'rateLimitPerMinute' | 'redisUrl' | 'bodyLimitBytes' | 'logLevel'>;
  logger?: Logger;
}

export interface App {
  fetch(request: Request): Promise<Response>;
  openapi: ReturnType<typeof buildOpenApi>;
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
  const original = e?.originalError ?? error;
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
  return defaultMaskError(error, message, isDev);
}

export function createApp(opts: AppOptions): App {
  const { database, config } = opts;
  const logger = opts.logger ?? pino({ level: config.logLevel });
  const keys = new ApiKeyService(database.prisma);
  const rateLimit = createRateLimit({ perMinute: config.rateLimitPerMinute, redisUrl: config.redisUrl });
  const openapi = buildOpenApi(restRoutes, { version: API_VERSION });
  const openapiJson = JSON.stringify(openapi);
  const rest = createRestFacade({
    schema,
    routes: restRoutes,
    basePath: API_BASE,
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
  });
  const mcp = createMcpHandler({
    routes: restRoutes,
    dispatch: rest,
    basePath: API_BASE,
    version: API_VERSION,
    bodyLimitBytes: config.bodyLimitBytes,
  });
  const yoga = createYoga<{ fleet: RequestContext }>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    cors: false, // answered by the app for every path
    maskedErrors: { maskError },
    context: ({ fleet }) => fleet,
  });

  async function authenticate(request: Request) {
    const actor = await keys.authenticate(request.headers.get('authorization'));
    const headers = await rateLimit.consume(actor.keyId);
    return { ctx: createContext(database, actor), headers };
  }

  async function route(request: Request, url: URL): Promise<{ res: Response; companyId?: string }> {
    const p = url.pathname;
    if (p === '/healthz') return { res: Response.json({ status: 'ok' }) };
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
      const { ctx, headers } = await authenticate(request);
      const limited = await withLimitedBody(request, config.bodyLimitBytes);
      const res = await yoga.fetch(limited, { fleet: ctx });
      return { res: withHeaders(res, headers), companyId: ctx.companyId };
    }
    if (p === '/mcp' || p === '/mcp/') {
      const { ctx, headers } = await authenticate(request);
      const limited = await withLimitedBody(request, config.bodyLimitBytes);
      return { res: withHeaders(await mcp(limited, ctx), headers), companyId: ctx.companyId };
    }
    if (p === API_BASE || p.startsWith(API_BASE + '/')) {
      const { ctx, headers } = await authenticate(request);
      return { res: withHeaders(await rest(request, url, ctx), headers), companyId: ctx.companyId };
    }
    throw new NotFoundError('route', `${request.method} ${p}`);
  }

  return {
    openapi,
    async fetch(request) {
      const started = performance.now();
      const url = new URL(request.url);
      let res: Response;
      let companyId: string | undefined;
      try {
        // CORS: credentials are bearer keys, never cookies, so any origin may call; preflights need no key
        if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
          res = new Response(null, { status: 204, headers: CORS_PREFLIGHT });
        } else ({ res, companyId } = await route(request, url));
      } catch (e) {
        if (e instanceof RateLimitedError) res = problemResponse(e, (e as unknown as { headers: Record<string, string> }).headers);
        else if (e instanceof AppError) res = problemResponse(e);
        else {
          logger.error({ err: e }, 'request failed');
          res = internalErrorResponse();
        }
      }
      if (request.headers.has('origin') && !res.headers.has('access-control-allow-origin')) {
        res = withHeaders(res, { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS });
      }
      logger.info(
        { method: request.method, path: url.pathname, status: res.status, ms: Math.round(performance.now() - started), companyId },
        'request',
      );
      return res;
    },
    async close() {
      await rateLimit.close();
    },
  };
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  if (!Object.keys(headers).length) return res;
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}
