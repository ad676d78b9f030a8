import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY } from '../../db/scoped.js';

/**
 * What each aggregation collection is made of: its table, the core columns a request may name (a whitelist: the
 * identifiers that reach SQL come from here, quoted, never from the request), and where its dynamic fields live
 * (a JSON column read with `->` and the key as a bound parameter).
 */
export const COLLECTIONS = ['flightLogs', 'completedForms', 'aircraft', 'schedule', 'vehicles'] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/**
 * text: grouped and filtered as is; number: numeric; date: an instant (timestamptz); day: a calendar date kept as
 * its midnight UTC (a schedule item's calendarDateDue), which no time zone moves; json: a JSON column holding a scalar.
 */
export type FieldKind = 'text' | 'number' | 'date' | 'day' | 'boolean' | 'json';

export const isDateKind = (kind: FieldKind) => kind === 'date' || kind === 'day';

export interface CollectionDef {
  table: string;
  core: Readonly<Record<string, FieldKind>>;
  /** Date field used for startDate/endDate when the request names none. */
  defaultDateField: string;
  /**
   * Dynamic fields: a bare key reads `column`; `<prefix>.<key>` reads the prefix's column. `keys` lists the company's
   * keys; `has` (a condition on the text expression `name`) says whether one exists, more cheaply where it can.
   */
  dynamic?: { column: string; prefixes: Readonly<Record<string, string>>; keys: () => Prisma.Sql; has?: (name: Prisma.Sql) => Prisma.Sql };
  /** Soft-deleted records (this status) are left out unless the request filters on `status`. */
  deletedStatus?: string;
}

const text = (...names: string[]) => Object.fromEntries(names.map((n) => [n, 'text' as const]));
const timestamps = { createdAt: 'date', updatedAt: 'date' } as const;

/** Keys of the maps of the company's aircraft or vehicles that hold (or declare) numbers. */
const assetKeys = (table: 'Aircraft' | 'Vehicle') => () => Prisma.sql`
  SELECT k FROM ${Prisma.raw(`"${table}"`)} a,
    LATERAL (SELECT jsonb_object_keys(a."maintenanceTrackingItems") UNION SELECT jsonb_object_keys(a."totals")
             UNION SELECT jsonb_object_keys(a."initialValues")) x(k)
  WHERE a."companyId" = ${COMPANY}`;

/** Whether a row of the company's `table` has the key in one of the JSON objects `columns`. */
const hasKeyIn =
  (table: string, columns: string[]) =>
  (name: Prisma.Sql): Prisma.Sql =>
    Prisma.sql`EXISTS (SELECT 1 FROM ${Prisma.raw(`"${table}"`)} a WHERE a."companyId" = ${COMPANY}
      AND (${Prisma.join(columns.map((c) => Prisma.sql`a.${Prisma.raw(`"${c}"`)} -> ${name} IS NOT NULL`), ' OR ')}))`;

export const COLLECTION_DEFS: Readonly<Record<CollectionName, CollectionDef>> = {
  flightLogs: {
    table: 'FlightLog',
    core: {
      ...text('uid', 'pilot', 'copilot', 'copilotType', 'aircraftId', 'aircraftRegistration', 'flightNumber', 'startLocation', 'endLocation', 'notes'),
      timeDate: 'date',
      pax: 'number',
      ...timestamps,
    },
    defaultDateField: 'timeDate',
    dynamic: {
      column: 'tracking',
      prefixes: { tracking: 'tracking', trackingItems: 'tracking' },
      // the tracking keys any aircraft of the company declares (maintenance and log items)
      keys: () => Prisma.sql`
        SELECT k FROM "Aircraft" a,
          LATERAL (SELECT jsonb_object_keys(a."maintenanceTrackingItems") UNION SELECT jsonb_object_keys(a."logTrackingItems")) x(k)
        WHERE a."companyId" = ${COMPANY}`,
      has: hasKeyIn('Aircraft', ['maintenanceTrackingItems', 'logTrackingItems']),
    },
  },
  completedForms: {
    table: 'FormCompletion',
    core: { ...text('uid', 'formId', 'code', 'name', 'userId', 'submitterName', 'revisionDate'), revision: 'number', ...timestamps },
    defaultDateField: 'createdAt',
    dynamic: {
      column: 'data',
      prefixes: { data: 'data' },
      // the field names of the company's form templates (a completion's data is keyed by field name)
      keys: () => Prisma.sql`
        SELECT DISTINCT f->>'name' AS k FROM "Form" fm,
          LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(fm.sections) = 'array' THEN fm.sections ELSE '[]'::jsonb END) s,
          LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s->'fields') = 'array' THEN s->'fields' ELSE '[]'::jsonb END) f
        WHERE fm."companyId" = ${COMPANY} AND jsonb_typeof(f->'name') = 'string'`,
    },
  },
  aircraft: {
    table: 'Aircraft',
    core: {
      ...text('uid', 'registration', 'type', 'category', 'manufacturer', 'model', 'engineType', 'status'),
      engineCount: 'number',
      ...timestamps,
    },
    defaultDateField: 'createdAt',
    dynamic: {
      column: 'totals', prefixes: { totals: 'totals', initialValues: 'initialValues' }, keys: assetKeys('Aircraft'),
      has: hasKeyIn('Aircraft', ['maintenanceTrackingItems', 'totals', 'initialValues']),
    },
  },
  vehicles: {
    table: 'Vehicle',
    core: {
      ...text('uid', 'make', 'model', 'registration', 'status', 'vin', 'serialNumber', 'color', 'description', 'registrationState',
        'engineNumber', 'previousRegistration', 'fuelType', 'transmissionType', 'location'),
      year: 'number',
      totalSeats: 'number',
      passengerCapacity: 'number',
      ...timestamps,
    },
    defaultDateField: 'createdAt',
    dynamic: {
      column: 'totals', prefixes: { totals: 'totals', initialValues: 'initialValues' }, keys: assetKeys('Vehicle'),
      has: hasKeyIn('Vehicle', ['maintenanceTrackingItems', 'totals', 'initialValues']),
    },
    deletedStatus: 'deleted',
  },
  schedule: {
    table: 'ScheduleItem',
    core: {
      ...text('uid', 'name', 'type', 'relatedTo', 'relatedToType', 'trackingItem', 'status', 'notes'),
      recurring: 'boolean',
      recurringInterval: 'number',
      dueAtInterval: 'number',
      calendarDateDue: 'day',
      calendarRecurring: 'number',
      lastCarriedOutDate: 'date',
      lastCarriedOutValue: 'json',
      ...timestamps,
    },
    defaultDateField: 'createdAt',
    deletedStatus: 'inactive',
  },
};

/** A field a request names, resolved to a core column or a key of a JSON column. */
export type ResolvedField =
  | { name: string; source: 'core'; column: string; kind: FieldKind }
  | { name: string; source: 'dynamic'; column: string; key: string };

const col = (column: string) => Prisma.raw(`t."${column}"`);

/** The field as text: group keys and equality filters (null when missing). */
export function textExpr(f: ResolvedField): Prisma.Sql {
  if (f.source === 'dynamic') return Prisma.sql`(${col(f.column)} ->> ${f.key}::text)`;
  switch (f.kind) {
    case 'text':
      return col(f.column);
    case 'date':
      return Prisma.sql`to_char(${col(f.column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'day':
      return Prisma.sql`to_char(${col(f.column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    case 'json':
      return Prisma.sql`(${col(f.column)} #>> '{}')`;
    case 'number':
      // as written (`1300.5`, `100`), not at the column's scale (`1300.500000` from a numeric(20, 6) column): the
      // same number groups under the same key whichever column holds it
      return Prisma.sql`(trim_scale((${col(f.column)})::numeric))::text`;
    default:
      return Prisma.sql`(${col(f.column)})::text`;
  }
}

/** The field as an exact numeric, null when missing or not a number; null when the field can never be numeric. */
export function numericExpr(f: ResolvedField): Prisma.Sql | null {
  if (f.source === 'dynamic') {
    const j = Prisma.sql`(${col(f.column)} -> ${f.key}::text)`;
    return Prisma.sql`(CASE WHEN jsonb_typeof(${j}) = 'number' THEN (${j})::numeric END)`;
  }
  if (f.kind === 'number') return Prisma.sql`(${col(f.column)})::numeric`;
  if (f.kind === 'json') return Prisma.sql`(CASE WHEN jsonb_typeof(${col(f.column)}) = 'number' THEN (${col(f.column)})::numeric END)`;
  return null;
}

/** True when the record has a value for the field (not missing, not null). */
export function presentExpr(f: ResolvedField): Prisma.Sql {
  if (f.source === 'dynamic') return Prisma.sql`(jsonb_typeof(${col(f.column)} -> ${f.key}::text) <> 'null')`;
  if (f.kind === 'json') return Prisma.sql`(jsonb_typeof(${col(f.column)}) <> 'null')`;
  return Prisma.sql`(${col(f.column)} IS NOT NULL)`;
}

/** The column of a core date field (the caller checked the kind). */
export function dateColumn(f: ResolvedField): Prisma.Sql {
  if (f.source !== 'core' || !isDateKind(f.kind)) throw new Error(`${f.name} is not a date field`);
  return col(f.column);
}
