/**
 * What a model that has never seen this API needs beyond a route's summary and description: how the operations
 * fit together. What concerns every tool of a module is said once, in the server's instructions (INSTRUCTIONS);
 * what concerns one operation is appended to its tool's description (OPERATION_GUIDANCE, tools.ts).
 */
export const TAG_GUIDANCE: Record<string, string> = {
  Aircraft:
    'Aircraft have maintenanceTrackingItems (numbers that accumulate into the aircraft\u2019s running totals, e.g. ' +
    'hobbs hours or landings) and logTrackingItems (per-flight values that do not accumulate, e.g. fuel uplift); ' +
    'their keys are the names of tracking values in flight logs.',
  'Flight logs': 'A flight log is one flight of one aircraft. Pilots are user uids (listUsers).',
  Users: 'The company\u2019s people (pilots, drivers, staff); a flight log\u2019s pilot and copilot are user uids.',
  Components:
    'Components are parts (engines, propellers, ...) in stores or installed on an aircraft, a vehicle or another ' +
    'component. While installed, counters mapped to a parent\u2019s total follow it. Change where a part is fitted ' +
    'only with installComponent and removeComponent.',
  Vehicles: 'Ground vehicles, with odometer or hour tracking and running totals.',
  'Maintenance schedule':
    'Schedule items say when work is due on an aircraft, vehicle, component or other equipment: by date, by a ' +
    'tracked total (e.g. every 100 hobbs hours) or both. completeScheduleItem records a completion and rolls a ' +
    'recurring item forward; getMaintenanceStatus tells what is overdue or due soon. Maintenance alerts ' +
    '(getAlertSettings, listAlertDeliveries) tell people by email, SMS or webhook when an item becomes due soon or overdue.',
  Forms:
    'Forms are inspection or checklist templates (sections of typed fields). Read getFormFieldSchema (or the resource ' +
    'fleetops://forms/field-schema) before creating or changing one.',
  'Form completions':
    'A completion is one submitted form; read getFormCompletionSchema of the form first for the keys `answers` takes.',
};

export const OPERATION_GUIDANCE: Record<string, string> = {
  createFlightLog:
    'Read the aircraft first (resource fleetops://aircraft/{id} or getAircraft) for its registration and tracking item ' +
    'keys. Tracking values are extra keys of body named by those keys, e.g. {"hobbs": 1.3, "landings": 2}: the amounts ' +
    'of this flight, not new totals.',
  aggregate:
    'For "hours flown per aircraft per month": collection flightLogs, metric hobbs (a maintenance tracking key), ' +
    'operation sum, groupBy aircraftId, dateField timeDate, dateGroup month.',
  batchCreateFlightLogs: 'body.items is an array of 1 to 50 bodies shaped like createFlightLog\u2019s.',
  installComponent: 'getInheritableSources lists what the component\u2019s counters can be mapped to under the parent.',
  getMaintenanceStatus: 'For "what is due in the next 30 days", pass dueWithinDays 30.',
};

/** The server's instructions (MCP `initialize`): what every tool shares, said once instead of on each tool. */
export const INSTRUCTIONS = [
  'Fleet Ops: one company\u2019s aircraft, flight logs (hours and landings accumulate into airworthiness totals), ' +
    'vehicles, components, the maintenance schedule, inspection forms and aggregation. Exact figures matter: never ' +
    'guess hours or counts. Read fleetops://aircraft/{id} before logging a flight.',
  'Tools: each is one REST operation of /api/v1 (the same rules and answers), and none reaches anything outside this service; arguments are the path and query ' +
    'parameters at the top level and the JSON body under `body` (an update tool\u2019s body is the fields of the create tool\u2019s ' +
    'body to change, updateX of createX; null clears an optional field). A ' +
    'result is the REST answer; a refusal is a tool ' +
    'error with the problem detail and each bad field\u2019s path (descriptions do not list the 400, 404 and 409 cases: the error says which). ' +
    'Fields the server sets (uid, companyId, createdAt, updatedAt, a component\u2019s place in its tree) are refused in a body. ' +
    'startDate and endDate filters take ISO 8601 and are inclusive (a date alone is that whole day, UTC). Lists page with limit (1 to 500) and the nextCursor of the ' +
    'previous answer; without limit a list answers at most 1,000 records, with a nextCursor when there are more. Write tools need a key that may write, and managing the company (aircraft, users, settings) an admin key; the list shows only the tools this key may call. The ' +
    'full shapes of bodies and answers are in the resource fleetops://openapi.',
  ...Object.entries(TAG_GUIDANCE).map(([tag, text]) => `${tag}: ${text}`),
].join('\n\n');
