/**
 * What a model needs beyond a route's summary and description: how the operations fit together. Keyed by the
 * route's tag (every operation of a module) and by operationId (one operation). Missing keys are fine: every
 * route still gets a tool with its own summary and description (src/mcp/tools.ts).
 */
export const TAG_GUIDANCE: Record<string, string> = {
  Aircraft:
    'Aircraft carry two tracking schemas: maintenanceTrackingItems (numbers that accumulate into the aircraft\u2019s ' +
    'running totals, e.g. hobbs hours or landings) and logTrackingItems (per-flight values that do not accumulate, ' +
    'e.g. fuel uplift). Their keys are the names to use for tracking values in flight logs.',
  'Flight logs':
    'A flight log records one flight of one aircraft. Before logging, read the aircraft (get_aircraft or the resource ' +
    'fleetops://aircraft/{id}) to learn its uid, registration and tracking item keys. Tracking values are passed as ' +
    'extra top-level arguments named by those keys (or inside trackingItems), e.g. {"hobbs": 1.3, "landings": 2}; ' +
    'maintenance values are the amounts flown in this flight, not new totals. Pilots are user uids (list_users).',
  Users: 'Users of the company (pilots, drivers, staff); a flight log\u2019s pilot and copilot are user uids.',
  Components:
    'Components are parts (engines, propellers, ...) kept in stores or installed on an aircraft, a vehicle or another ' +
    'component. Their counters either follow a parent\u2019s maintenance total while installed (bindings) or are ' +
    'set by hand. Use install_component / remove_component to change where a component is fitted.',
  Vehicles: 'Ground vehicles of the company, with odometer or hour tracking and running totals.',
  'Maintenance schedule':
    'Maintenance schedule items say when work is due on an aircraft, vehicle or component: by date, by a tracked ' +
    'total (e.g. every 100 hobbs hours) or both. Completing an item records a completion and rolls the next due ' +
    'point forward. get_maintenance_status tells what is overdue or due soon.',
};

export const OPERATION_GUIDANCE: Record<string, string> = {
  createFlightLog:
    'Required: timeDate (ISO 8601), pilot (user uid), aircraftId and aircraftRegistration (they must match the same ' +
    'aircraft), startLocation, endLocation, pax (number of passengers, may be null). The aircraft\u2019s totals move ' +
    'by the maintenance values given; read the aircraft afterwards to see the new totals.',
  batchCreateFlightLogs: 'items is an array of 1 to 50 bodies shaped like create_flight_log\u2019s arguments.',
  listFlightLogs: 'Returns data (the logs), count and nextCursor; pass nextCursor as cursor for the next page.',
  installComponent:
    'Call get_inheritable_sources first to see which parent totals the component\u2019s counters can be mapped to.',
  getMaintenanceStatus: 'For "what is due in the next 30 days", call with dueWithinDays=30.',
};
