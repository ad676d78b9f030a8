import type { Logger } from 'pino';
import type { Actor } from './auth/keys.js';
import type { Database } from './db/database.js';
import { scopedPrisma, type ScopedPrisma, type TransactionHooks } from './db/scoped.js';
import { AircraftService, createAircraftLoader } from './modules/aircraft/service.js';
import { UserService, createUserLoader } from './modules/users/service.js';
import { VehicleService, createVehicleLoader } from './modules/vehicles/service.js';
import { AssetReader } from './modules/assets/live.js';
import { TotalsMoves } from './modules/assets/totals-moves.js';
import { FormService } from './modules/forms/service.js';
import { FlightLogService } from './modules/flight-logs/service.js';
import { ComponentService } from './modules/components/service.js';
import { ScheduleService } from './modules/schedule/service.js';
import { CompletionService } from './modules/completions/service.js';
import { uidLoader } from './db/loaders.js';
import { moduleServices } from './modules/index.js';
import { DeliveryService } from './modules/webhooks/service.js';
import type { AuditActor } from './modules/audit/service.js';
import { ApiKeyAdmin } from './modules/api-keys/service.js';
import { keyDropWatcher } from './auth/key-drops.js';
import { ViewerService } from './modules/viewer/service.js';
import { AlertService } from './modules/alerts/service.js';

/**
 * Everything a request works with: who is acting, the company-scoped Prisma client, per-request dataloaders
 * (batching and caching by uid within the request), and the domain services bound to them.
 * GraphQL resolvers, REST routes and CLI commands all go through `services`.
 */
export interface RequestContext {
  actor: Actor;
  companyId: string;
  db: ScopedPrisma;
  /** Added to every transaction `db` opens (src/db/scoped.ts). */
  transactionHooks: TransactionHooks;
  services: Services;
  /** What the operation policy needs of the request, whatever the channel (src/graphql/policy.ts). */
  request: RequestState;
}

/** What a request logs with (a pino child logger bound to its request id). */
export type RequestLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/** The request as the operation policy sees it (docs/decisions/0006-policy-at-the-operation.md). */
export interface RequestState {
  channel: 'rest' | 'graphql' | 'mcp' | 'internal';
  /** Aborted when the client goes away: a GraphQL query then stops (src/graphql/compiled-queries.ts `useQueryCancellation`). */
  clientSignal?: AbortSignal;
  /** The request's logger: every line it writes carries the request's X-Request-Id. None for internal work. */
  log?: RequestLog;
  /** The Idempotency-Key header, when sent. */
  idempotencyKey?: string;
  /** Rate-limit units charged to the key for this request (1 when it authenticated) and used by its operations. */
  units: { charged: number; used: number };
  /** Consumes more units of the key's budget (throws RateLimitedError, with the headers to send). */
  charge(points: number): Promise<void>;
  /** Headers the policy adds to the response (RateLimit after a charge, Idempotent-Replayed). */
  headers: Record<string, string>;
  /**
   * A channel's own representation mapped to the operation's variables (a REST body to the input it stands for),
   * run by the policy inside the operation; throws the service's ValidationError.
   */
  prepare?: (variables: Record<string, unknown>) => Record<string, unknown>;
}

/** For work that is not an HTTP request (CLI commands, public forms, tests): nothing to charge, nothing to replay. */
export const internalRequest = (): RequestState => ({ channel: 'internal', units: { charged: Infinity, used: 0 }, charge: async () => {}, headers: {} });

/**
 * `actorUserId`: the acting user (a request's `actor.userId`); commands without one act as `api`. `auditActor`: who
 * the audit log names for management writes (a request's key, user and channel; by default no key, `internal`).
 */
export function createServices(
  db: ScopedPrisma,
  actorUserId = 'api',
  auditActor: () => AuditActor = () => ({ keyId: null, userId: actorUserId === 'api' ? null : actorUserId, channel: 'internal' }),
  /** The database of a request's services: key revocations wait for every process (src/auth/key-drops.ts). */
  database?: Database,
) {
  const loaders = {
    aircraft: createAircraftLoader(db),
    user: createUserLoader(db),
    vehicle: createVehicleLoader(db),
    form: uidLoader((args) => db.form.findMany(args)),
    scheduleItem: uidLoader((args) => db.scheduleItem.findMany(args)),
  };
  // the request's writes of totals: component counters read before one are read again after it
  const moves = new TotalsMoves();
  const aircraft = new AircraftService(db, loaders.aircraft, auditActor, moves);
  const vehicles = new VehicleService(db, loaders.vehicle, moves);
  const assets = new AssetReader(aircraft, vehicles, undefined, moves);
  const users = new UserService(db, loaders.user, auditActor);
  const components = new ComponentService(db, assets);
  const deliveries = new DeliveryService(db);
  assets.setComponents(components);
  const schedule = new ScheduleService(db, assets, users, actorUserId);
  // the module services are spread last: a literal that starts with a spread and then adds properties is built
  // property by property by V8, some 100 times slower than one whose own properties come first (20-30 µs a request)
  return {
    loaders,
    aircraft,
    users,
    vehicles,
    assets,
    forms: new FormService(db),
    flightLogs: new FlightLogService(db, aircraft),
    components,
    schedule,
    alerts: new AlertService(db, schedule, assets, auditActor),
    deliveries,
    apiKeys: new ApiKeyAdmin(db, auditActor, database && keyDropWatcher(database)),
    viewer: new ViewerService(db, auditActor),
    completions: new CompletionService(db, actorUserId, vehicles, deliveries),
    ...moduleServices(db, auditActor),
  };
}
export type Services = ReturnType<typeof createServices>;

export function createContext(database: Database, actor: Actor, request: RequestState = internalRequest()): RequestContext {
  const transactionHooks: TransactionHooks = {};
  const db = scopedPrisma(database.prisma, actor.companyId, false, transactionHooks);
  // read when a write is audited (after ctx is made): the request's key, user and channel as they are then
  const services = createServices(db, actor.userId, () => ({ keyId: ctx.actor.keyId || null, userId: ctx.actor.userId || null, channel: ctx.request.channel }), database);
  const ctx: RequestContext = { actor, companyId: actor.companyId, db, transactionHooks, services, request };
  return ctx;
}
