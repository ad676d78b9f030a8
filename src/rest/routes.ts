import { aircraftRoutes } from '../modules/aircraft/rest.js';
import { userRoutes } from '../modules/users/rest.js';
import { flightLogRoutes } from '../modules/flight-logs/rest.js';
import { componentRoutes } from '../modules/components/rest.js';
import { vehicleRoutes } from '../modules/vehicles/rest.js';
import { scheduleRoutes } from '../modules/schedule/rest.js';
import { formRoutes } from '../modules/forms/rest.js';
import { completionRoutes } from '../modules/completions/rest.js';
import { aggregationRoutes } from '../modules/aggregation/rest.js';
import { deliveryRoutes } from '../modules/webhooks/rest.js';
import { auditRoutes } from '../modules/audit/rest.js';
import { apiKeyRoutes } from '../modules/api-keys/rest.js';
import type { RouteSpec } from './contract.js';

/** Every REST route of /api/v1, as the modules declare them. */
export const restRoutes: RouteSpec[] = [...aircraftRoutes, ...flightLogRoutes, ...userRoutes, ...componentRoutes, ...vehicleRoutes, ...scheduleRoutes, ...formRoutes, ...completionRoutes, ...aggregationRoutes, ...deliveryRoutes, ...apiKeyRoutes, ...auditRoutes];
