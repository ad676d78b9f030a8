import { builder } from '../../graphql/builder.js';
import { pageFields, stripNulls } from '../../graphql/common.js';
import { argsFromSchema } from '../../graphql/inputs.js';
import type { Page } from '../../db/keyset.js';
import { jsonOf } from '../../rest/representation.js';
import { NumberMapSchema, TrackingMapSchema } from '../tracking/schema.js';
import { WriteResultType } from '../../graphql/common.js';
import { inputFromSchema } from '../../graphql/inputs.js';
import { adminOnly } from '../../auth/scopes.js';
import { AircraftListArgsSchema, CreateAircraftCheck, UpdateAircraftCheck, totalsOf, type Aircraft } from './service.js';

/**
 * Aircraft on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the object below is the
 * one output definition of an aircraft (docs/contract/api-v1.md §2.2).
 */
export const AircraftType = builder.prismaObject('Aircraft', {
  description: 'An aircraft; its tracking items declare the dynamic fields flight logs carry.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    registration: t.exposeString('registration'),
    type: t.exposeString('type', { description: 'Aircraft type code' }),
    category: t.exposeString('category', { description: 'Fixed-wing, rotary-wing, drone, ...' }),
    manufacturer: t.exposeString('manufacturer', { nullable: true }),
    model: t.exposeString('model', { nullable: true }),
    engineType: t.exposeString('engineType'),
    engineCount: t.exposeInt('engineCount'),
    status: t.exposeString('status'),
    companyId: t.exposeString('companyId'),
    maintenanceTrackingItems: t.field({
      type: 'JSON',
      description: 'map<string, TrackingItemMetadata>: fields on flight logs that accumulate into totals',
      extensions: jsonOf(TrackingMapSchema),
      resolve: (a) => a.maintenanceTrackingItems ?? {},
    }),
    logTrackingItems: t.field({
      type: 'JSON',
      description: 'map<string, TrackingItemMetadata>: fields on flight logs that do not accumulate',
      extensions: jsonOf(TrackingMapSchema),
      resolve: (a) => a.logTrackingItems ?? {},
    }),
    totals: t.field({
      type: 'JSON',
      description: 'map<string, number>: initialValues plus the sum over live flight logs, per maintenance item',
      extensions: jsonOf(NumberMapSchema),
      resolve: (a) => totalsOf(a),
    }),
    initialValues: t.field({
      type: 'JSON',
      description: 'map<string, number>: starting value per maintenance tracking item',
      extensions: jsonOf(NumberMapSchema),
      resolve: (a) => a.initialValues ?? {},
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const AircraftListType = builder.objectRef<Page<Aircraft>>('AircraftList').implement({
  fields: (t) => ({
    data: t.field({ type: [AircraftType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

builder.queryFields((t) => ({
  aircraftList: t.field({
    type: AircraftListType,
    description: 'Aircraft of the company by registration, with their tracking schemas and totals, a page at a time.',
    args: argsFromSchema(t, 'AircraftListArgs', AircraftListArgsSchema, 'aircraft'),
    resolve: (_root, args, ctx) => ctx.services.aircraft.list(stripNulls(args)),
  }),
  // a plain field: the aircraft comes whole from the request's loader, so there is no selection for plugin-prisma to plan
  aircraft: t.field({
    type: AircraftType,
    description: 'One aircraft by uid; NOT_FOUND when the company has no such aircraft.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.aircraft.get(String(args.id)),
  }),
}));

// Management (docs/contract/gaps.md §12): admin keys only, on every channel (the scope is the field's).
const CreateAircraftInput = inputFromSchema('CreateAircraftInput', CreateAircraftCheck);
const UpdateAircraftInput = inputFromSchema('UpdateAircraftInput', UpdateAircraftCheck);

builder.mutationFields((t) => ({
  createAircraft: t.field({
    type: WriteResultType,
    description: 'Adds an aircraft; its totals start at its initial values. Admin keys only.',
    args: { input: t.arg({ type: CreateAircraftInput, required: true }) },
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.aircraft.create(args.input),
  }),
  updateAircraft: t.field({
    type: WriteResultType,
    description:
      'Changes an aircraft: the tracking maps and initialValues are merged key by key (null removes a key); totals stay initialValues plus the flight logs. 409 when a tracking key that flight logs carry would be removed, retyped or moved. Admin keys only.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateAircraftInput, required: true }) },
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.aircraft.update(String(args.id), args.input),
  }),
  deleteAircraft: t.field({
    type: WriteResultType,
    description: 'Deletes an aircraft nothing refers to; 409 with the counts while it has flight logs, installed components or schedule items. Admin keys only.',
    args: { id: t.arg.id({ required: true }) },
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.aircraft.delete(String(args.id)),
  }),
}));
