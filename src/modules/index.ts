import type { ScopedPrisma } from '../db/scoped.js';
import type { RouteSpec } from '../rest/contract.js';
// Each module's GraphQL file registers its types and fields on the one builder (src/graphql/builder.ts) ...
import './aircraft/graphql.js';
import './users/graphql.js';
import './flight-logs/graphql.js';
import './components/graphql.js';
import './vehicles/graphql.js';
import './schedule/graphql.js';
import './forms/graphql.js';
import './completions/graphql.js';
import './aggregation/graphql.js';
import './webhooks/graphql.js';
import './settings/graphql.js';
import './api-keys/graphql.js';
import './audit/graphql.js';
import './viewer/graphql.js';
import './alerts/graphql.js';
// ... and its rest.ts declares the REST routes that run those fields (src/rest/operations.ts)
import { aircraftRoutes } from './aircraft/rest.js';
import { userRoutes } from './users/rest.js';
import { flightLogRoutes } from './flight-logs/rest.js';
import { componentRoutes } from './components/rest.js';
import { vehicleRoutes } from './vehicles/rest.js';
import { scheduleRoutes } from './schedule/rest.js';
import { formRoutes } from './forms/rest.js';
import { completionRoutes } from './completions/rest.js';
import { aggregationRoutes } from './aggregation/rest.js';
import { deliveryRoutes } from './webhooks/rest.js';
import { settingsRoutes } from './settings/rest.js';
import { apiKeyRoutes } from './api-keys/rest.js';
import { auditRoutes } from './audit/rest.js';
import { alertRoutes } from './alerts/rest.js';
import { AggregationService } from './aggregation/service.js';
import { SettingsService } from './settings/service.js';
import { AuditService, type AuditActor } from './audit/service.js';

/**
 * The modules, registered in one place (docs/decisions/0007-defined-once.md, "a new resource"): a module is its
 * GraphQL file and its routes here, and its service in `moduleServices` when it needs only the company's client
 * (services wired to others are made in src/context.ts). The GraphQL schema, the REST façade, the OpenAPI document
 * and the MCP tools are all read off what is registered here.
 */

/** Every REST route of /api/v1, in the order the documents list them. */
export const restRoutes: RouteSpec[] = [
  ...aircraftRoutes,
  ...flightLogRoutes,
  ...userRoutes,
  ...componentRoutes,
  ...vehicleRoutes,
  ...scheduleRoutes,
  ...formRoutes,
  ...completionRoutes,
  ...aggregationRoutes,
  ...deliveryRoutes,
  ...settingsRoutes,
  ...alertRoutes,
  ...apiKeyRoutes,
  ...auditRoutes,
];

/** The services of a request that need nothing but the company-scoped client. */
export const moduleServices = (db: ScopedPrisma, auditActor: () => AuditActor) => ({
  aggregation: new AggregationService(db),
  settings: new SettingsService(db, auditActor),
  audit: new AuditService(db),
});
