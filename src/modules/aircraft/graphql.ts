import { builder } from '../../graphql/builder.js';
import { pageFields, stripNulls } from '../../graphql/common.js';
import { argsFromSchema } from '../../graphql/inputs.js';
import type { Page } from '../../db/keyset.js';
import { jsonOf } from '../../rest/representation.js';
import { NumberMapSchema, TrackingMapSchema } from '../tracking/schema.js';
import { AircraftListArgsSchema, totalsOf, type Aircraft } from './service.js';

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
  aircraft: t.prismaField({
    type: 'Aircraft',
    description: 'One aircraft by uid; NOT_FOUND when the company has no such aircraft.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => ctx.services.aircraft.get(String(args.id)),
  }),
}));
