import { z } from 'zod';
import { batchBody } from '../../lib/batch.js';
import { csvCell, csvPagedResponse, csvPages } from '../../lib/csv.js';
import { defineRoutes, named } from '../../rest/contract.js';
import type { RequestContext } from '../../context.js';
import { BATCH_MAX, CreateFlightLogSchema, FlightLogFilterSchema, OUTPUT_FIELDS, TrackingValueSchema, UpdateFlightLogSchema, fromFlatBody, type FlightLog } from './service.js';
import { FieldsParam } from '../../lib/params.js';

/** REST adapter for flight logs (docs/contract/api-v1.md §4.2): declarations, the flat representation, projection and CSV. */
// Request bodies: the service's own schemas (CreateFlightLogSchema, UpdateFlightLogSchema), with the tracking
// values the flat REST body may also carry as top-level keys (fromFlatBody moves them into trackingItems)
export const CreateFlightLogBody = named(
  'CreateFlightLogBody',
  CreateFlightLogSchema.catchall(TrackingValueSchema).describe(
    'Tracking values may also be sent as extra top-level properties. uid, companyId, createdAt and updatedAt must not be sent.',
  ),
);
export const UpdateFlightLogBody = named(
  'UpdateFlightLogBody',
  UpdateFlightLogSchema.catchall(TrackingValueSchema).describe('Only the fields to change. null clears an optional field or removes a tracking value.'),
);
export const BatchCreateBody = named(
  'BatchCreateFlightLogsBody',
  z.object({ items: z.array(CreateFlightLogBody).min(1).max(BATCH_MAX) }),
);
export const BatchDeleteBody = named('BatchDeleteFlightLogsBody', z.object({ ids: z.array(z.string()).min(1).max(BATCH_MAX) }));

/** A stored log as one CSV row's values: the core fields (dates in ISO 8601), then its tracking values. */
function flat(log: FlightLog): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of OUTPUT_FIELDS) {
    const v = log[key];
    out[key] = v instanceof Date ? v.toISOString() : v;
  }
  return { ...out, ...(log.tracking as Record<string, unknown>) };
}

/**
 * `Accept: text/csv`: the page the JSON answer would hold (limit, default 100, and cursor), one column per core field
 * and per tracking key of every log the filter matches (the service decides the columns, so each page of an export
 * has the same ones), and the next page in a `Link` header (csvPages).
 */
async function csvExport(ctx: RequestContext, query: URLSearchParams): Promise<Response> {
  const filter: Record<string, string> = {};
  for (const k of ['aircraftId', 'aircraftRegistration', 'pilotId', 'startDate', 'endDate']) {
    const v = query.get(k);
    if (v !== null) filter[k] = v;
  }
  const all = await ctx.services.flightLogs.exportColumns(filter); // a bad filter is a 400 before streaming
  // `fields` chooses and orders the columns (uid first); a name that is no column is left out, as the JSON answer
  // leaves it out (docs/api-notes.md)
  const wanted = query.get('fields') === null ? undefined : new Set(['uid', ...query.get('fields')!.split(',').map((f) => f.trim()).filter(Boolean)]);
  const columns = wanted ? [...wanted].filter((f) => all.includes(f)) : all;
  const paged = await csvPages(query, '/api/v1/flight-logs', (p) => ctx.services.flightLogs.list({ ...filter, ...p } as never));
  return csvPagedResponse(
    columns,
    paged,
    (log) => {
      const row = flat(log);
      return columns.map((c) => csvCell(row[c])); // formula-looking text is neutralised
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
      'rows as CSV, one column per core field and per tracking key: the page the JSON answer would hold (`limit`, `cursor`), ' +
      'the next one in a `Link: <...>; rel="next"` header.',
    query: FlightLogFilterSchema.safeExtend({
      fields: FieldsParam.optional(),
    }),
    status: 200,
    fields: true,
    errors: [400],
    alternates: { 'text/csv': { description: 'CSV of the page of matching logs (the next page in the Link header)', handle: csvExport } },
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
    errors: [404],
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
    accept: fromFlatBody,
    status: 201,
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
    accept: fromFlatBody,
    status: 200,
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
    errors: [400],
  },
]);
