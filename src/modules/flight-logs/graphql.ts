import { builder } from '../../graphql/builder.js';
import { UserType } from '../users/graphql.js';
import { AircraftType } from '../aircraft/graphql.js';
import { BatchResultType, WriteResultType, stripNulls } from '../../graphql/common.js';
import { argsFromSchema, inputFromSchema } from '../../graphql/inputs.js';
import { INDEPENDENT_ITEMS } from '../../graphql/policy.js';
import { REST_HIDDEN, REST_NULLABLE, restSpread } from '../../rest/representation.js';
import { columnPlanner } from '../../db/selection.js';
import { COPILOT_TYPES, CreateFlightLogCheck, FlightLogFilterSchema, TrackingItemsOutSchema, UpdateFlightLogCheck, type FlightLogPage } from './service.js';

/** Every column of a log, its tracking values (JSON) included: what one log reads, and a page whose selection needs them all (REST). */
const FLIGHT_LOG_COLUMNS = {
  uid: true,
  timeDate: true,
  pilot: true,
  copilot: true,
  copilotType: true,
  aircraftId: true,
  aircraftRegistration: true,
  flightNumber: true,
  startLocation: true,
  endLocation: true,
  pax: true,
  notes: true,
  companyId: true,
  createdAt: true,
  updatedAt: true,
  tracking: true,
} as const;

/** The columns the fields of a log read that are not named for their column; a field not named here, nor a column, reads the row whole. */
const READS: Record<string, readonly (keyof typeof FLIGHT_LOG_COLUMNS)[]> = {
  trackingItems: ['tracking'],
  aircraft: ['aircraftId'],
  pilotUser: ['pilot'],
  copilotUser: ['copilot'],
  __typename: [],
};

/**
 * What a page of logs reads: the columns its selection's fields read (and the keyset's, uid and timeDate), planned
 * once per document (src/db/selection.ts `columnPlanner`), not on every request as plugin-prisma's `queryFromInfo`
 * would (130-180 µs of CPU a page of 100). A REST page selects every field, so reads every column. No field of a log
 * declares a selection of its own (the aircraft and the pilots come through loaders); one that needs a relation
 * would need `queryFromInfo` back here: test/flight-logs-n-plus-one.test.ts fails if a page's statements grow with
 * its logs, and test/flight-logs-columns.test.ts if a field's answer needs a column its page did not read.
 */
const pageQuery = columnPlanner(
  ['data'],
  (field) => READS[field] ?? (Object.hasOwn(FLIGHT_LOG_COLUMNS, field) ? [field] : null),
  { select: FLIGHT_LOG_COLUMNS },
);

/**
 * Flight logs on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the object below is
 * the one output definition of a log. It is a plugin-prisma object in select mode whose type-level `select` reads
 * the log's columns whole where plugin-prisma loads a log (`flightLog(id)`); a page reads the columns its selection
 * needs (`pageQuery` above). Its fields resolve off the row and add no selection of their own. The aircraft and the
 * pilot come through the request's loaders by uid, one read for a page (decision 0007 says why a log differs from the
 * rule there: measured on the GraphQL page).
 */
export const FlightLogType = builder.prismaObject('FlightLog', {
  description: 'A flight. Tracking values (keys of the aircraft\u2019s tracking items) are in `trackingItems` on GraphQL, and top-level keys of a REST answer.',
  select: FLIGHT_LOG_COLUMNS,
  fields: (t) => ({
    uid: t.id({ resolve: (l) => l.uid }),
    timeDate: t.field({ type: 'DateTime', description: 'Flight date/time (UTC)', resolve: (l) => l.timeDate }),
    pilot: t.string({ description: 'Pilot user id', resolve: (l) => l.pilot }),
    copilot: t.string({ nullable: true, description: 'Co-pilot user id', resolve: (l) => l.copilot }),
    copilotType: t.string({ nullable: true, description: `One of ${COPILOT_TYPES.join(', ')}`, resolve: (l) => l.copilotType }),
    aircraftId: t.string({ resolve: (l) => l.aircraftId }),
    aircraftRegistration: t.string({ resolve: (l) => l.aircraftRegistration }),
    flightNumber: t.string({ nullable: true, resolve: (l) => l.flightNumber }),
    startLocation: t.string({ resolve: (l) => l.startLocation }),
    endLocation: t.string({ resolve: (l) => l.endLocation }),
    pax: t.int({ nullable: true, description: 'Passenger count', extensions: REST_NULLABLE, resolve: (l) => l.pax }),
    notes: t.string({ nullable: true, resolve: (l) => l.notes }),
    companyId: t.string({ resolve: (l) => l.companyId }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (l) => l.updatedAt }),
    trackingItems: t.field({
      type: 'JSON',
      description: 'map<string, number | string>: the log\u2019s tracking values (top-level keys of the log on REST)',
      extensions: restSpread(TrackingItemsOutSchema),
      resolve: (l) => l.tracking ?? {},
    }),
    aircraft: t.field({
      type: AircraftType,
      extensions: REST_HIDDEN,
      resolve: (l, _a, ctx) => ctx.services.aircraft.get(l.aircraftId),
    }),
    pilotUser: t.field({
      type: UserType,
      nullable: true,
      description: 'The pilot, when the pilot id is a user of the company',
      extensions: REST_HIDDEN,
      resolve: (l, _a, ctx) => ctx.services.users.find(l.pilot),
    }),
    copilotUser: t.field({
      type: UserType,
      nullable: true,
      extensions: REST_HIDDEN,
      resolve: (l, _a, ctx) => (l.copilot ? ctx.services.users.find(l.copilot) : null),
    }),
  }),
});

export const FlightLogPageType = builder.objectRef<FlightLogPage>('FlightLogPage').implement({
  fields: (t) => ({
    data: t.field({ type: [FlightLogType], resolve: (p) => p.data }),
    count: t.exposeInt('count', { description: 'Logs in this page' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end', extensions: REST_NULLABLE }),
  }),
});

// Inputs are the service's checks (src/graphql/inputs.ts): defined once, checked once, by Pothos' validation plugin.
export const CreateFlightLogInput = inputFromSchema('CreateFlightLogInput', CreateFlightLogCheck);
export const UpdateFlightLogInput = inputFromSchema('UpdateFlightLogInput', UpdateFlightLogCheck);

builder.queryFields((t) => ({
  flightLogs: t.field({
    type: FlightLogPageType,
    description: 'Flight logs, newest first (timeDate desc, uid desc), a page at a time.',
    args: argsFromSchema(t, 'FlightLogFilter', FlightLogFilterSchema, 'flight-log'),
    resolve: (_r, filter, ctx, info) => ctx.services.flightLogs.list(stripNulls(filter), pageQuery(info)),
  }),
  flightLog: t.prismaField({
    type: 'FlightLog',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => ctx.services.flightLogs.get(String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  createFlightLog: t.field({
    type: WriteResultType,
    description: 'Creates a log; the aircraft\u2019s totals follow in the same transaction.',
    args: { input: t.arg({ type: CreateFlightLogInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.flightLogs.create(args.input),
  }),
  updateFlightLog: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateFlightLogInput, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.flightLogs.update(String(args.id), args.input),
  }),
  deleteFlightLog: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.flightLogs.delete(String(args.id)),
  }),
  createFlightLogs: t.field({
    type: BatchResultType,
    description: 'Creates 1 to 50 logs, each independently (CreateFlightLogInput-shaped objects; tracking values may also be top-level keys).',
    args: { items: t.arg({ type: 'JSON', required: true, extensions: INDEPENDENT_ITEMS }) }, // NUL checked per item (src/lib/batch.ts)
    resolve: (_r, args, ctx) => ctx.services.flightLogs.batchCreate(args.items),
  }),
  deleteFlightLogs: t.field({
    type: BatchResultType,
    description: 'Deletes 1 to 50 logs by uid, each independently.',
    args: { ids: t.arg({ type: 'JSON', required: true, extensions: INDEPENDENT_ITEMS }) },
    resolve: (_r, args, ctx) => ctx.services.flightLogs.batchDelete(args.ids),
  }),
}));
