/**
 * The fields of a flight log, in contract order (docs/contract/api-v1.md §2.3). Browser-safe, with no import: the
 * server's schema (./schema.ts) and the console's CSV import and export (console/src/csv.ts) read them from here.
 */
export const SERVER_CONTROLLED = ['uid', 'companyId', 'createdAt', 'updatedAt'] as const;
export const CORE_FIELDS = [
  'timeDate',
  'pilot',
  'copilot',
  'copilotType',
  'aircraftId',
  'aircraftRegistration',
  'flightNumber',
  'startLocation',
  'endLocation',
  'pax',
  'notes',
] as const;
/** Fields a log has in responses, in contract order (tracking values follow as top-level keys). */
export const OUTPUT_FIELDS = ['uid', ...CORE_FIELDS, 'companyId', 'createdAt', 'updatedAt'] as const;
