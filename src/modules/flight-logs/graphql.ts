import { builder } from '../../graphql/builder.js';
import { AircraftType } from '../aircraft/graphql.js';
import { UserType } from '../users/graphql.js';
import { BatchResultType, WriteResultType, stripNulls } from '../../graphql/common.js';
import { COPILOT_TYPES, CreateFlightLogSchema, FlightLogFilterSchema, UpdateFlightLogSchema, type FlightLogPage } from './service.js';
import { argsFromZod, inputFromZod } from '../../graphql/zod-input.js';

/** GraphQL adapter for flight logs: types, queries and mutations over FlightLogService. */
export const FlightLogType = builder.prismaObject('FlightLog', {
  description: 'A flight. Tracking values (keys of the aircraft\u2019s tracking items) are in `trackingItems`.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    timeDate: t.expose('timeDate', { type: 'DateTime', description: 'Flight date/time (UTC)' }),
    pilot: t.exposeString('pilot', { description: 'Pilot user id' }),
    copilot: t.exposeString('copilot', { nullable: true, description: 'Co-pilot user id' }),
    copilotType: t.exposeString('copilotType', { nullable: true, description: `One of ${COPILOT_TYPES.join(', ')}` }),
    aircraftId: t.exposeString('aircraftId'),
    aircraftRegistration: t.exposeString('aircraftRegistration'),
    flightNumber: t.exposeString('flightNumber', { nullable: true }),
    startLocation: t.exposeString('startLocation'),
    endLocation: t.exposeString('endLocation'),
    pax: t.exposeInt('pax', { nullable: true, description: 'Passenger count' }),
    notes: t.exposeString('notes', { nullable: true }),
    companyId: t.exposeString('companyId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    trackingItems: t.field({
      type: 'JSON',
      description: 'map<string, number | string>: the log\u2019s tracking values',
      resolve: (l) => l.tracking ?? {},
    }),
    aircraft: t.field({
      type: AircraftType,
      extensions: { rest: false },
      resolve: (l, _a, ctx) => ctx.services.aircraft.get(l.aircraftId),
    }),
    pilotUser: t.field({
      type: UserType,
      nullable: true,
      description: 'The pilot, when the pilot id is a user of the company',
      extensions: { rest: false },
      resolve: (l, _a, ctx) => ctx.services.users.find(l.pilot),
    }),
    copilotUser: t.field({
      type: UserType,
      nullable: true,
      extensions: { rest: false },
      resolve: (l, _a, ctx) => (l.copilot ? ctx.services.users.find(l.copilot) : null),
    }),
  }),
});

export const FlightLogPageType = builder.objectRef<FlightLogPage>('FlightLogPage').implement({
  fields: (t) => ({
    data: t.field({ type: [FlightLogType], resolve: (p) => p.data }),
    count: t.exposeInt('count', { description: 'Logs in this page' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end' }),
  }),
});

// Inputs are derived from the service's zod schemas (src/graphql/zod-input.ts): defined once, checked there.
export const CreateFlightLogInput = inputFromZod('CreateFlightLogInput', CreateFlightLogSchema);
export const UpdateFlightLogInput = inputFromZod('UpdateFlightLogInput', UpdateFlightLogSchema);

builder.queryFields((t) => ({
  flightLogs: t.field({
    type: FlightLogPageType,
    description: 'Flight logs, newest first (timeDate desc, uid desc), a page at a time.',
    args: argsFromZod(t, 'FlightLogFilter', FlightLogFilterSchema),
    resolve: (_r, args, ctx) => ctx.services.flightLogs.list(stripNulls(args)),
  }),
  flightLog: t.prismaField({
    type: 'FlightLog',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_q, _r, args, ctx) => ctx.services.flightLogs.get(String(args.id)),
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
    args: { items: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => ctx.services.flightLogs.batchCreate(args.items),
  }),
  deleteFlightLogs: t.field({
    type: BatchResultType,
    description: 'Deletes 1 to 50 logs by uid, each independently.',
    args: { ids: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => ctx.services.flightLogs.batchDelete(args.ids),
  }),
}));
