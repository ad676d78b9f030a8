import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createYoga } from 'graphql-yoga';
import { maskError } from './graphql/errors.js';
import pino, { type Logger } from 'pino';
import { ApiKeyService, sameSecret } from './auth/keys.js';
import { KEY_CHANGE_CHANNEL } from './auth/key-cache.js';
import { acknowledgeKeyDrop } from './auth/key-drops.js';
import type { Config } from './config.js';
import { createContext, type RequestContext, type RequestLog, type RequestState } from './context.js';
import type { Database } from './db/database.js';
import { AppError, MethodNotAllowedError, NotFoundError, RateLimitedError, UnauthorizedError, UnsupportedMediaTypeError } from './errors.js';
import { internalErrorResponse, problemResponse } from './http/problem.js';
import { createRateLimit } from './http/rate-limit.js';
import { readBodyText, withLimitedBody } from './http/body.js';
import { rejectNulInUrl, rejectUndecodableQuery } from './http/json-guard.js';
import { databaseError } from './db/errors.js';
import { appliedMigrations, readMigrations } from './db/migrate.js';
import { reportUnexpected, setUnexpectedErrorSink } from './lib/unexpected.js';
import { schema } from './graphql/schema.js';
import { operationPolicy, policyPlugins } from './graphql/policy.js';
import { createExecutor } from './graphql/executor.js';
import { useCompiledQueries } from './graphql/compiled-queries.js';
import { useReadBody, type ReadBody } from './graphql/request-body.js';
import { createMetrics } from './http/metrics.js';
import { requestIdFor } from './lib/request-scope.js';
import { compileRoutes } from './rest/match.js';
import { DOCS_CSP, docsHtml } from './http/docs.js';
import { consoleAvailable, serveConsole } from './http/console.js';
import { graphiqlResponse, homeResponse, isGraphiQLRequest, reasonPhrase } from './http/front-door.js';
import { createRestFacade } from './rest/facade.js';
import { buildOpenApi } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { createDispatcher, type Dispatcher } from './modules/webhooks/dispatcher.js';
import { createAlertMonitor, type AlertMonitor } from './modules/alerts/monitor.js';
import { createPublicForms } from './modules/forms/public.js';
import { Response } from './http/response.js';

export const API_VERSION = '0.1.0';

const EXPOSED_HEADERS = 'ratelimit, ratelimit-policy, retry-after, www-authenticate, allow, content-disposition, x-request-id, idempotent-replayed';
const CORS_PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  // mcp-protocol-version: what an MCP client in a browser sends with every request after it initializes
  'access-control-allow-headers': 'authorization, content-type, accept, idempotency-key, x-request-id, mcp-protocol-version',
  'access-control-max-age': '600',
};
export const API_BASE = '/api/v1';

export interface AppOptions {
  database: Database;
  config: Pick<Config, 'rateLimitPerMinute' | 'redisUrl' | 'bodyLimitBytes' | 'logLevel'> &
    Partial<Pick<Config, 'webhookAllowPrivate' | 'webhookTimeoutMs' | 'smtpUrl' | 'mailFrom' | 'twilioApiBase' | 'publicRateLimitPerMinute' | 'authFailLimitPerMinute' | 'metricsToken' | 'alertSweepMs'>>;
  logger?: Logger;
  /** Run the delivery dispatcher in this process (default true). */
  dispatch?: boolean;
  /**
   * Where `GET /` sends a browser (docs/contract/gaps.md §16): the operator console when it is built (`/console`),
   * else the API docs at /docs. Set to override.
   */
  consolePath?: string;
  /** GraphQL over HTTP: how often a client's query runs before it is compiled (src/graphql/compiled-queries.ts; default 10). */
  graphqlCompileAfter?: number;
  /** GET /readyz: how long the database may take to answer before the probe says it is unreachable (default 2000 ms). */
  readyTimeoutMs?: number;
}

/** What the HTTP server knows about a request beyond the Request itself. */
export interface RequestInfo {
  /** The peer's IP address (per-address limits). */
  clientAddress?: string;
}

export interface App {
  fetch(request: Request, info?: RequestInfo): Promise<Response>;
  /** The OpenAPI document, built on first read. */
  readonly openapi: ReturnType<typeof buildOpenApi>;
  /** The delivery dispatcher of this process, when it runs one. */
  dispatcher: Dispatcher | null;
  /** The maintenance alert monitor of this process (runs with the dispatcher). */
  alerts: AlertMonitor | null;
  /** Settles once start-up work in the background is done (on PostgreSQL: listening for API-key changes). */
  ready: Promise<void>;
  /** From now on /readyz answers 503 (shutdown has begun); requests are still served. */
  drain(): void;
  /**
   * Stops background work (deliveries in flight get up to `timeoutMs`, default the dispatcher's own send timeout and
   * a second) and releases what the app holds; the database is the caller's.
   */
  close(timeoutMs?: number): Promise<void>;
}

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const DOC_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export function createApp(opts: AppOptions): App {
  const { database, config } = opts;
  const logger = opts.logger ?? pino({ level: config.logLevel });
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
    if (p === '/console' || p.startsWith('/console/')) return '/console';
    return ['/', '/graphql', '/mcp', '/healthz', '/readyz', '/metrics'].includes(p) ? p : 'other';
  };
  setUnexpectedErrorSink((err, context) => logger.error({ err, ...context }, 'unexpected error'));
  const keys = new ApiKeyService(database.prisma, { cache: true });
  // other processes on the same PostgreSQL database announce key changes; until this process hears them, it caches nothing
  const stopListening = keys.cache && database.listen
    ? database.listen(KEY_CHANGE_CHANNEL, (hash) => {
        keys.cache!.invalidate(hash);
        // dropped: the revoke that is waiting may answer (src/auth/key-drops.ts)
        acknowledgeKeyDrop(database, hash).catch((err) => logger.warn({ err }, 'could not acknowledge an API key change'));
      }, (listening) => {
        keys.cache!.clear();
        keys.cache!.enabled = listening;
      })
    : null;
  const rateLimit = createRateLimit({ perMinute: config.rateLimitPerMinute, redisUrl: config.redisUrl });
  const authFailures = createRateLimit({ perMinute: config.authFailLimitPerMinute ?? 30, redisUrl: config.redisUrl, prefix: 'fleetops:authfail' });
  // built on its first use (GET /api/v1/openapi.json, MCP): 40-60 ms that start-up need not wait for
  let openapiDoc: ReturnType<typeof buildOpenApi> | undefined;
  let openapiJson: string | undefined;
  const openapi = () => (openapiDoc ??= buildOpenApi(restRoutes, { version: API_VERSION, schema }));
  // the one policy of every operation (src/graphql/policy.ts): Yoga runs it for /graphql, the executor for REST and MCP
  // maintenance alerts (src/modules/alerts/monitor.ts): evaluated after every write and in a sweep; run where deliveries are
  const alerts = opts.dispatch === false ? null : createAlertMonitor({ database, logger, sweepMs: config.alertSweepMs });
  const policy = {
    idempotency: true,
    session: database.session,
    logger,
    onOperation: (type: string) => metrics.graphqlOperation(type),
    afterWrite: alerts ? (companyId: string) => alerts.touched(companyId) : undefined,
  };
  const executor = createExecutor(schema, [operationPolicy(policy)]);
  const rest = createRestFacade({
    schema,
    routes: restRoutes,
    basePath: API_BASE,
    bodyLimitBytes: config.bodyLimitBytes,
    logger,
    executor,
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
          twilioApiBase: config.twilioApiBase,
          onOutcome: (channel, status) => metrics.delivery(channel, status),
        });
  // the MCP SDK is loaded on the first /mcp request: most servers never get one, and it is a tenth of start-up
  let mcp: Promise<{ handle(request: Request, ctx: RequestContext): Promise<Response> }> | undefined;
  const mcpHandler = () =>
    (mcp ??= import('./mcp/server.js').then((m) => m.createMcpHandler({ routes: restRoutes, apiBase: API_BASE, version: API_VERSION, rest, openapi, schema })));
  const publicForms = createPublicForms({ database, logger, perMinute: config.publicRateLimitPerMinute ?? 20, redisUrl: config.redisUrl, afterWrite: policy.afterWrite });
  const yoga = createYoga<{ fleet: RequestContext } & ReadBody>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    cors: false, // answered by the app for every path
    // the app reads the body under BODY_LIMIT_BYTES first (a 413 problem past it), and Yoga parses that text
    // (useReadBody): Yoga's own limit would pipe the request's body again, which is already read (every POST a 500)
    maxRequestBodySize: false,
    maskedErrors: { maskError },
    // first: the policy's hooks then run (and may wrap) whichever engine runs the operation
    plugins: [useCompiledQueries(schema, opts.graphqlCompileAfter), ...policyPlugins(process.env.NODE_ENV === 'production', policy), useReadBody()],
    context: ({ fleet }) => fleet,
  });

  /**
   * GET /readyz for load balancers and orchestrators (docs/deploy.md): 200 while this process should get traffic;
   * 503 with the reason while it is draining (SIGTERM received), its database cannot be reached, or a migration
   * this release needs is not applied. `/healthz` answers 200 all along: the process is alive.
   */
  const expectedMigrations = readMigrations().map((m) => m.name);
  const READY_TIMEOUT_MS = opts.readyTimeoutMs ?? 2000;
  let draining = false;
  async function readiness(): Promise<Response> {
    const body = { status: 'ok', database: database.kind, migrations: 'applied', draining };
    const unavailable = (reason: string, extra: object = {}) =>
      Response.json({ ...body, ...extra, status: 'unavailable', reason }, { status: 503, headers: { 'cache-control': 'no-store' } });
    if (draining) return unavailable('draining: the process is shutting down');
    let applied: Set<string>;
    // a database that takes the connection and never answers (a network black hole) is as unreachable as one that
    // refuses it: a probe is answered within READY_TIMEOUT_MS either way
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<'silent'>((resolve) => (timer = setTimeout(() => resolve('silent'), READY_TIMEOUT_MS)));
    try {
      const answer = await Promise.race([appliedMigrations(database.sql), silent]);
      if (answer === 'silent') return unavailable(`the database did not answer within ${READY_TIMEOUT_MS / 1000} s`);
      applied = new Set(answer);
    } catch {
      return unavailable('the database cannot be reached');
    } finally {
      clearTimeout(timer);
    }
    const pending = expectedMigrations.filter((m) => !applied.has(m));
    if (pending.length) return unavailable(`migrations not applied: ${pending.join(', ')} (run fleetops migrate)`, { migrations: 'pending', pending });
    return Response.json(body, { headers: { 'cache-control': 'no-store' } });
  }

  /**
   * Failed authentications are limited per client address (docs/contract/gaps.md §11): an address over its budget is
   * answered 429 before its credential is looked at, whatever it sends, so the answers to its guesses tell nothing
   * (a right key was answered 200 among the 429s of wrong ones). `guarded` runs the check; a failure is counted.
   */
  async function authAttempt<T>(info: RequestInfo, log: RequestLog, guarded: () => Promise<T>): Promise<T> {
    const address = `addr:${info.clientAddress ?? 'unknown'}`;
    const tooMany = (limited: unknown) =>
      limited instanceof RateLimitedError
        ? Object.assign(new RateLimitedError(`too many failed authentications from this address; retry in ${limited.retryAfterSeconds} s`, limited.retryAfterSeconds), { headers: limited.headers })
        : limited;
    await authFailures.check(address).catch((limited) => Promise.reject(tooMany(limited)));
    try {
      return await guarded();
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      log.warn({ reason: (e as { reason?: string }).reason ?? e.message, clientAddress: info.clientAddress ?? 'unknown' }, 'authentication failed');
      await authFailures.consume(address).catch((limited) => Promise.reject(tooMany(limited)));
      throw e;
    }
  }

  async function authenticate(request: Request, info: RequestInfo, channel: RequestState['channel'], log: RequestLog) {
    const actor = await authAttempt(info, log, () => keys.authenticate(request.headers.get('authorization')));
    // a request costs one unit of its key's budget; its operations may cost more (src/graphql/policy.ts)
    const headers = await rateLimit.consume(actor.keyId);
    const keyId = actor.keyId;
    const state: RequestState = {
      channel,
      clientSignal: request.signal,
      log,
      idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
      units: { charged: 1, used: 0 },
      headers,
      charge: async (points) => {
        try {
          Object.assign(state.headers, await rateLimit.consume(keyId, points));
        } catch (e) {
          // refused by an operation's charge: the request's answer says so (remaining=0, Retry-After), not what the
          // budget was when the key authenticated
          if (e instanceof RateLimitedError) Object.assign(state.headers, e.headers);
          throw e;
        }
      },
    };
    return createContext(database, actor, state);
  }

  // `headers`: the request's own (rate limit, idempotent replay), set on the response with the request id, in one copy
  async function route(request: Request, url: URL, info: RequestInfo, log: RequestLog): Promise<{ res: Response; companyId?: string; headers?: Record<string, string> }> {
    const p = url.pathname;
    if (p.startsWith('/forms/public/')) {
      const res = await publicForms.handle(request, url, info.clientAddress ?? 'unknown');
      if (res) return { res };
    }
    // the fixed pages and documents are read with GET (or HEAD); another method is a 405 naming them
    const reads = () => {
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new MethodNotAllowedError(`${request.method} is not allowed on ${p}`, ['GET', 'HEAD']);
    };
    if (p === '/' || p === '/healthz' || p === '/metrics' || p === '/readyz' || p === '/docs' || p === '/docs/' || p.startsWith('/docs/assets/') || p === `${API_BASE}/openapi.json`) reads();
    if (p === '/') {
      return { res: homeResponse(request, { consolePath: opts.consolePath ?? (consoleAvailable() ? '/console' : undefined), version: API_VERSION }) };
    }
    if (p === '/healthz') return { res: Response.json({ status: 'ok' }) };
    if (p === '/metrics') {
      const token = config.metricsToken;
      // a wrong token is a failed authentication like a wrong key: limited per address, compared in constant time
      if (token) {
        await authAttempt(info, log, async () => {
          if (!sameSecret(request.headers.get('authorization') ?? '', `Bearer ${token}`)) throw new UnauthorizedError('GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>"');
        });
      }
      return { res: new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType } }) };
    }
    if (p === '/readyz') return { res: await readiness() };
    if (p === '/docs' || p === '/docs/') {
      // no referrer, as the console, GraphiQL and the public forms send none
      return { res: new Response(docsHtml(), { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' } }) };
    }
    if (p.startsWith('/docs/assets/')) {
      const name = p.slice('/docs/assets/'.length);
      const type = DOC_ASSETS[name];
      if (!type) throw new NotFoundError('asset', name);
      const body = await fs.promises.readFile(path.join(SWAGGER_DIR, name));
      return { res: new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } }) };
    }
    // the operator console (src/http/console.ts): static files of dist/console, a client of /graphql like any other
    if (p === '/console' || p.startsWith('/console/')) {
      const res = await serveConsole(request, p);
      if (res) return { res };
    }
    if (p === `${API_BASE}/openapi.json`) {
      return { res: new Response((openapiJson ??= JSON.stringify(openapi())), { headers: { 'content-type': 'application/json' } }) };
    }
    if (p === '/graphql' && isGraphiQLRequest(request)) return { res: await graphiqlResponse() };
    if (p === '/graphql') {
      const ctx = await authenticate(request, info, 'graphql', log);
      refuseUnsupportedGraphQLBody(request);
      // a GET carries its document and variables in the query string
      if (request.method === 'GET') rejectUndecodableQuery(url);
      // read here under the limit (a 413 problem past it); Yoga parses this text (src/graphql/request-body.ts)
      const graphqlBody = request.body ? await readBodyText(request, config.bodyLimitBytes) : undefined;
      const res = await yoga.fetch(request, { fleet: ctx, graphqlBody });
      return { res, headers: ctx.request.headers, companyId: ctx.companyId };
    }
    if (p === '/mcp') {
      const ctx = await authenticate(request, info, 'mcp', log);
      const limited = await withLimitedBody(request, config.bodyLimitBytes);
      const res = await (await mcpHandler()).handle(limited, ctx);
      return { res, headers: ctx.request.headers, companyId: ctx.companyId };
    }
    if (p === API_BASE || p.startsWith(API_BASE + '/')) {
      const ctx = await authenticate(request, info, 'rest', log);
      const res = await rest(request, url, ctx);
      return { res, headers: ctx.request.headers, companyId: ctx.companyId };
    }
    throw new NotFoundError('route', `${request.method} ${p}`);
  }

  return {
    get openapi() {
      return openapi();
    },
    dispatcher,
    alerts,
    ready: Promise.resolve(stopListening).then(() => undefined, () => undefined),
    drain() {
      draining = true;
    },
    async fetch(request, info = {}) {
      const requestId = requestIdFor(request.headers.get('x-request-id'));
      return handle(request, info, requestId);
    },
    async close(timeoutMs?: number) {
      await (await stopListening?.catch(() => null))?.();
      keys.cache?.dispose();
      // side by side: deliveries in flight get their time from now, not after an alert evaluation ends
      await Promise.all([alerts?.stop(), dispatcher?.stop(timeoutMs)]);
      await rateLimit.close();
      await authFailures.close();
      await publicForms.close();
    },
  };

  async function handle(request: Request, info: RequestInfo, requestId: string): Promise<Response> {
      const started = performance.now();
      const url = new URL(request.url);
      // every line this request writes carries its id
      const log = logger.child({ requestId });
      let res: Response;
      let companyId: string | undefined;
      let headers: Record<string, string> | undefined;
      try {
        // CORS: credentials are bearer keys, never cookies, so any origin may call; preflights need no key
        if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
          res = new Response(null, { status: 204, headers: CORS_PREFLIGHT });
        } else {
          rejectNulInUrl(url);
          ({ res, companyId, headers } = await route(request, url, info, log));
        }
      } catch (e) {
        const known = databaseError(e);
        if (request.signal.aborted) res = new Response(null, { status: 499 }); // the client went away: nobody reads this
        else if (e instanceof RateLimitedError) res = problemResponse(e, e.headers);
        else if (known) res = problemResponse(known);
        else {
          log.error({ err: e }, 'request failed');
          res = internalErrorResponse();
        }
      }
      const extra: Record<string, string> = { ...headers };
      if (request.headers.has('origin') && !res.headers.has('access-control-allow-origin') && extra['access-control-allow-origin'] === undefined) {
        extra['access-control-allow-origin'] = '*';
        extra['access-control-expose-headers'] = EXPOSED_HEADERS;
      }
      extra['x-request-id'] = requestId;
      const ms = performance.now() - started;
      metrics.request(request.method, routeLabel(request.method, url.pathname), res.status, ms / 1000);
      log.info({ method: request.method, path: url.pathname, status: res.status, ms: Math.round(ms), companyId }, 'request');
      return withHeaders(res, extra);
  }
}

/**
 * GraphQL over HTTP takes JSON (GraphQL-over-HTTP: application/json is the one body every server must accept);
 * a GET carries a query in its URL. Other bodies Yoga could read (application/graphql, forms, multipart) are a
 * 415: every channel must end in the same checked operation, and a body type we do not mean to support is not one.
 */
function refuseUnsupportedGraphQLBody(request: Request): void {
  if (request.method !== 'POST') return;
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return;
  throw new UnsupportedMediaTypeError(`a GraphQL request body must be application/json (got ${type ? JSON.stringify(type) : 'no Content-Type'})`);
}

/**
 * The response with these headers set (and a reason phrase on its status line: statusText is never empty). The
 * app's own responses (src/http/response.ts) and Yoga's take them in place; any other (MCP's transport answers
 * with native responses) is rebuilt around its body.
 */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  if (res.statusText && res instanceof Response) {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  }
  const out = new Response(res.body, { status: res.status, statusText: res.statusText || reasonPhrase(res.status), headers: res.headers });
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}
