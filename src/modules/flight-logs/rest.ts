import { z } from 'zod';
import { batchBody } from '../../lib/batch.js';
import { csvCell, csvResponse } from '../../lib/csv.js';
import { defineRoutes, named, type PresentInput } from '../../rest/contract.js';
import type { RequestContext } from '../../context.js';
import { ValidationError } from '../../errors.js';
import { BATCH_MAX, COPILOT_TYPES, CreateFlightLogSchema, FlightLogFilterSchema, OUTPUT_FIELDS, UpdateFlightLogSchema, flightLogInput } from './service.js';

/** REST adapter for flight logs (docs/contract/api-v1.md §4.2): declarations, the flat representation, projection and CSV. */
const TrackingValue = z.union([z.number(), z.string(), z.null()]);

export const FlightLogDoc = named(
  'FlightLog',
  z
    .object({
      uid: z.string(),
      timeDate: z.string().describe('Flight date/time, ISO 8601 UTC'),
      pilot: z.string().describe('Pilot user id'),
      copilot: z.string().optional(),
      copilotType: z.enum(COPILOT_TYPES).optional(),
      aircraftId: z.string(),
      aircraftRegistration: z.string(),
      flightNumber: z.string().optional(),
      startLocation: z.string(),
      endLocation: z.string(),
      pax: z.number().nullable(),
      notes: z.string().optional(),
      companyId: z.string(),
      createdAt: z.string().optional(),
      updatedAt: z.string().optional(),
    })
    .catchall(z.union([z.number(), z.string()]))
    .describe('The aircraft\u2019s tracking values appear as extra top-level keys. With `fields`, only those fields plus uid.'),
);

// Request bodies: the service's own schemas (CreateFlightLogSchema, UpdateFlightLogSchema), with the tracking
// values the flat REST body may also carry as top-level keys (flightLogInput moves them into trackingItems)
export const CreateFlightLogBody = named(
  'CreateFlightLogBody',
  CreateFlightLogSchema.catchall(TrackingValue).describe(
    'Tracking values may also be sent as extra top-level properties. uid, companyId, createdAt and updatedAt must not be sent.',
  ),
);
export const UpdateFlightLogBody = named(
  'UpdateFlightLogBody',
  UpdateFlightLogSchema.catchall(TrackingValue).describe('Only the fields to change. null clears an optional field or removes a tracking value.'),
);
export const WriteResultDoc = named(
  'WriteResult',
  z.object({ uid: z.string(), status: z.enum(['created', 'updated', 'deleted', 'no_changes']) }),
);
export const BatchResultDoc = named(
  'BatchResult',
  z.object({
    results: z.array(WriteResultDoc).describe('Successfully processed items'),
    errors: z.array(z.object({ index: z.number().int(), error: z.string() })).describe('Failed items with their input index'),
  }),
);
export const FlightLogPageDoc = named(
  'FlightLogPage',
  z.object({ data: z.array(FlightLogDoc), count: z.number().int(), nextCursor: z.string().nullable() }),
);
/** `?fields=a,b`: each log has uid and only the fields asked for. */
export const FlightLogProjectionPageDoc = named(
  'FlightLogProjectionPage',
  z.object({
    data: z.array(z.looseObject({ uid: z.string() }).describe('uid and the requested fields (core or tracking)')),
    count: z.number().int(),
    nextCursor: z.string().nullable(),
  }),
  'The list with `fields`: each log holds uid and the fields asked for',
);
export const FlightLogListResponseDoc = named(
  'FlightLogListResponse',
  z.union([FlightLogPageDoc, FlightLogProjectionPageDoc]),
  'FlightLogPage, or FlightLogProjectionPage when `fields` is given',
);
export const BatchCreateBody = named(
  'BatchCreateFlightLogsBody',
  z.object({ items: z.array(CreateFlightLogBody).min(1).max(BATCH_MAX) }),
);
export const BatchDeleteBody = named('BatchDeleteFlightLogsBody', z.object({ ids: z.array(z.string()).min(1).max(BATCH_MAX) }));

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `fields=a,b`: the names to keep (uid always), or undefined for all. */
export function parseFields(value: string | null): Set<string> | undefined {
  if (value === null) return undefined;
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !FIELD_NAME.test(n));
  if (!names.length || bad.length) {
    throw new ValidationError('invalid fields parameter', [
      { path: '/query/fields', message: 'fields is a comma-separated list of field names, e.g. timeDate,pilot,hobbs' },
    ]);
  }
  return new Set(['uid', ...names]);
}

/** The flat REST shape: core fields (optional ones omitted when empty, pax always), then tracking values. */
export function presentFlightLog(log: Record<string, any>, fields?: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of OUTPUT_FIELDS) {
    const v = log[key];
    if (v !== null && v !== undefined) out[key] = v instanceof Date ? v.toISOString() : v;
    else if (key === 'pax') out.pax = null;
  }
  for (const [k, v] of Object.entries((log.trackingItems ?? log.tracking ?? {}) as Record<string, unknown>)) out[k] = v;
  if (!fields) return out;
  return Object.fromEntries(Object.entries(out).filter(([k]) => fields.has(k)));
}

const presentPage = (d: any, { query }: PresentInput) => {
  const fields = parseFields(query.get('fields'));
  return { data: d.data.map((l: any) => presentFlightLog(l, fields)), count: d.count, nextCursor: d.nextCursor };
};

/**
 * `Accept: text/csv`: the same filtered rows, one column per core field and per tracking key (the service decides
 * the columns), streamed a page at a time as the client reads (the whole export is never held in memory).
 */
async function csvExport(ctx: RequestContext, query: URLSearchParams): Promise<Response> {
  const filter: Record<string, string> = {};
  for (const k of ['aircraftId', 'aircraftRegistration', 'pilotId', 'startDate', 'endDate']) {
    const v = query.get(k);
    if (v !== null) filter[k] = v;
  }
  const all = await ctx.services.flightLogs.exportColumns(filter); // a bad filter is a 400 before streaming
  // `fields` chooses and orders the columns (uid first); a name that is no column is a 400, not an empty column
  const wanted = parseFields(query.get('fields'));
  const unknown = wanted ? [...wanted].filter((f) => !all.includes(f)) : [];
  if (unknown.length) {
    throw new ValidationError(`invalid fields parameter: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a column' : 'are not columns'}`, [
      { path: '/query/fields', message: `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} (columns: ${all.join(', ')})` },
    ]);
  }
  const columns = wanted ? [...wanted] : all;
  return csvResponse(
    columns,
    ctx.services.flightLogs.iterate(filter),
    (log) => {
      const flat = presentFlightLog(log as never);
      return columns.map((c) => csvCell(flat[c])); // formula-looking text is neutralised
    },
    'flight-logs.csv',
  );
}

const idParam = z.object({ id: z.string().min(1).describe('Flight log uid') });

export const flightLogRoutes = defineRoutes([
  {
    operationId: 'listFlightLogs',
    field: 'Query.flightLogs',
    method: 'GET',
    path: '/flight-logs',
    tag: 'Flight logs',
    summary: 'List flight logs',
    description:
      'Newest first (timeDate desc, uid desc). Page with `limit` and the `nextCursor` of the previous page. ' +
      '`fields` keeps only the named fields (core or tracking) plus uid. With `Accept: text/csv` the same filtered ' +
      'rows are streamed as CSV (all pages), one column per core field and per tracking key.',
    query: FlightLogFilterSchema.extend({
      fields: z.string().optional().describe('Comma-separated field names to return (uid is always returned)'),
    }),
    status: 200,
    response: FlightLogListResponseDoc,
    errors: [400],
    present: presentPage,
    alternates: { 'text/csv': { description: 'CSV of every matching log', handle: csvExport } },
  },
  {
    operationId: 'getFlightLog',
    field: 'Query.flightLog',
    method: 'GET',
    path: '/flight-logs/{id}',
    tag: 'Flight logs',
    summary: 'Get a flight log',
    params: idParam,
    status: 200,
    response: FlightLogDoc,
    errors: [404],
    present: (d) => presentFlightLog(d),
  },
  {
    operationId: 'createFlightLog',
    field: 'Mutation.createFlightLog',
    method: 'POST',
    path: '/flight-logs',
    tag: 'Flight logs',
    summary: 'Create a flight log',
    description: 'Maintenance tracking values accumulate into the aircraft\u2019s totals in the same transaction.',
    body: CreateFlightLogBody,
    bodyArg: 'input',
    accept: flightLogInput('create'),
    status: 201,
    response: WriteResultDoc,
    errors: [400],
  },
  {
    operationId: 'updateFlightLog',
    field: 'Mutation.updateFlightLog',
    method: 'PATCH',
    path: '/flight-logs/{id}',
    tag: 'Flight logs',
    summary: 'Update a flight log',
    description: 'Changes to maintenance tracking values (or a move to another aircraft) update the totals.',
    params: idParam,
    body: UpdateFlightLogBody,
    bodyArg: 'input',
    accept: flightLogInput('update'),
    status: 200,
    response: WriteResultDoc,
    errors: [400, 404],
  },
  {
    operationId: 'deleteFlightLog',
    field: 'Mutation.deleteFlightLog',
    method: 'DELETE',
    path: '/flight-logs/{id}',
    tag: 'Flight logs',
    summary: 'Delete a flight log',
    description: 'The aircraft\u2019s maintenance totals are updated.',
    params: idParam,
    status: 200,
    response: WriteResultDoc,
    errors: [404],
  },
  {
    operationId: 'batchCreateFlightLogs',
    field: 'Mutation.createFlightLogs',
    method: 'POST',
    path: '/flight-logs/batch',
    tag: 'Flight logs',
    summary: 'Create 1 to 50 flight logs',
    description: 'Each item is processed independently; failed items are reported in `errors` with their index.',
    body: BatchCreateBody,
    accept: batchBody('items'),
    status: 200,
    response: BatchResultDoc,
    errors: [400],
  },
  {
    operationId: 'batchDeleteFlightLogs',
    field: 'Mutation.deleteFlightLogs',
    method: 'POST',
    path: '/flight-logs/batch-delete',
    tag: 'Flight logs',
    summary: 'Delete 1 to 50 flight logs',
    description: 'Each id is processed independently; unknown ids are reported in `errors` with their index.',
    body: BatchDeleteBody,
    accept: batchBody('ids'),
    status: 200,
    response: BatchResultDoc,
    errors: [400],
  },
]);
