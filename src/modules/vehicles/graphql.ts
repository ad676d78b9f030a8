import type { z } from 'zod';
import { builder } from '../../graphql/builder.js';
import { INDEPENDENT_ITEMS } from '../../graphql/policy.js';
import { BatchResultType, WriteResultType, stripNulls } from '../../graphql/common.js';
import { argsFromZod, inputFromZod } from '../../graphql/zod-input.js';
import {
  CreateVehicleBodySchema,
  FUEL_TYPES,
  TRANSMISSION_TYPES,
  TrackingDeviceSchema,
  UpdateVehicleSchema,
  VehicleFilterSchema,
  VehicleTrackingSchema,
} from './service.js';

/** GraphQL adapter for vehicles: types, queries and mutations over VehicleService. */
export const VehicleType = builder.prismaObject('Vehicle', {
  description: 'A vehicle. Its maintenance tracking items (e.g. odometer) accumulate into totals.',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    make: t.exposeString('make'),
    model: t.exposeString('model'),
    registration: t.exposeString('registration'),
    status: t.exposeString('status', { description: 'Server-controlled: active, or deleted after a soft delete' }),
    companyId: t.exposeString('companyId'),
    vin: t.exposeString('vin', { nullable: true }),
    serialNumber: t.exposeString('serialNumber', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    registrationState: t.exposeString('registrationState', { nullable: true }),
    engineNumber: t.exposeString('engineNumber', { nullable: true }),
    previousRegistration: t.exposeString('previousRegistration', { nullable: true }),
    year: t.exposeInt('year', { nullable: true }),
    fuelType: t.exposeString('fuelType', { nullable: true, description: FUEL_TYPES.join(', ') }),
    transmissionType: t.exposeString('transmissionType', { nullable: true, description: TRANSMISSION_TYPES.join(', ') }),
    totalSeats: t.exposeInt('totalSeats', { nullable: true }),
    passengerCapacity: t.exposeInt('passengerCapacity', { nullable: true }),
    tracking: t.field({ type: 'JSON', description: '{kilometers, miles, hours}: the primary unit is true', resolve: (v) => v.tracking }),
    trackingDevice: t.field({ type: 'JSON', nullable: true, resolve: (v) => v.trackingDevice ?? null }),
    maintenanceTrackingItems: t.field({ type: 'JSON', resolve: (v) => v.maintenanceTrackingItems ?? {} }),
    logTrackingItems: t.field({ type: 'JSON', resolve: (v) => v.logTrackingItems ?? {} }),
    totals: t.field({ type: 'JSON', resolve: (v) => v.totals ?? {} }),
    initialValues: t.field({ type: 'JSON', resolve: (v) => v.initialValues ?? {} }),
    location: t.exposeString('location', { nullable: true }),
    thirdPartyUser: t.field({ type: 'JSON', nullable: true, resolve: (v) => v.thirdPartyUser ?? null }),
    photos: t.field({ type: 'JSON', nullable: true, resolve: (v) => v.photos ?? null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

export const VehicleListType = builder.objectRef<{ data: unknown[]; count: number }>('VehicleList').implement({
  fields: (t) => ({
    data: t.field({ type: [VehicleType], resolve: (p) => p.data as never }),
    count: t.exposeInt('count'),
  }),
});

builder.queryFields((t) => ({
  vehicles: t.field({
    type: VehicleListType,
    description: 'Vehicles of the company; soft-deleted ones only with includeDeleted (or status: "deleted").',
    args: argsFromZod(t, 'VehicleFilter', VehicleFilterSchema),
    resolve: async (_r, args, ctx) => {
      const data = await ctx.services.vehicles.list(stripNulls(args));
      return { data, count: data.length };
    },
  }),
  vehicle: t.prismaField({
    type: 'Vehicle',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_q, _r, args, ctx) => ctx.services.vehicles.get(String(args.id)),
  }),
}));

/** Input types derived from the service's schemas (src/graphql/zod-input.ts); the service still checks every value. */
const VEHICLE_INPUT_NAMES = new Map<z.ZodType, string>([
  [VehicleTrackingSchema, 'VehicleTrackingInput'],
  [TrackingDeviceSchema, 'VehicleTrackingDeviceInput'],
]);
export const CreateVehicleInputType = inputFromZod('CreateVehicleInput', CreateVehicleBodySchema, {
  description: 'A new vehicle (CreateVehicleBody): make, model and registration required; tracking defaults to miles.',
  names: VEHICLE_INPUT_NAMES,
});
export const UpdateVehicleInputType = inputFromZod('UpdateVehicleInput', UpdateVehicleSchema, {
  description: 'Changes to a vehicle (UpdateVehicleBody): only the fields given change.',
  names: VEHICLE_INPUT_NAMES,
});

builder.mutationFields((t) => ({
  createVehicle: t.field({
    type: WriteResultType,
    description: 'Creates a vehicle: make, model, registration required; tracking defaults to miles.',
    args: { input: t.arg({ type: CreateVehicleInputType, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.vehicles.create(args.input),
  }),
  createVehicles: t.field({
    type: BatchResultType,
    description: '1 to 50 vehicles, each validated and created independently.',
    args: { items: t.arg({ type: 'JSON', required: true, extensions: INDEPENDENT_ITEMS }) }, // NUL checked per item (src/lib/batch.ts)
    resolve: (_r, args, ctx) => ctx.services.vehicles.batchCreate(args.items),
  }),
  updateVehicle: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateVehicleInputType, required: true }) },
    resolve: (_r, args, ctx) => ctx.services.vehicles.update(String(args.id), args.input),
  }),
  deleteVehicle: t.field({
    type: WriteResultType,
    description: 'Soft delete: status becomes deleted and the vehicle is hidden from lists.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.vehicles.delete(String(args.id)),
  }),
  restoreVehicle: t.field({
    type: WriteResultType,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.vehicles.restore(String(args.id)),
  }),
}));
