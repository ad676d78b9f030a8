import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.js';
import { INDEPENDENT_ITEMS } from '../../graphql/policy.js';
import { BatchResultType, WriteResultType, pageFields, stripNulls } from '../../graphql/common.js';
import type { Page } from '../../db/keyset.js';
import { argsFromSchema, inputFromSchema } from '../../graphql/inputs.js';
import { jsonOf } from '../../rest/representation.js';
import { NumberMapSchema, TrackingMapSchema } from '../tracking/schema.js';
import {
  CreateVehicleCheck,
  FUEL_TYPES,
  TRANSMISSION_TYPES,
  TrackingDeviceSchema,
  UpdateVehicleCheck,
  VehicleFieldsSchema,
  VehicleFilterSchema,
  VehicleTrackingSchema,
  type Vehicle,
} from './service.js';

/** Every column of a vehicle its output shows but the JSON ones: read whole, with every vehicle a request reads. */
const VEHICLE_SCALARS = {
  uid: true,
  make: true,
  model: true,
  registration: true,
  status: true,
  companyId: true,
  vin: true,
  serialNumber: true,
  color: true,
  description: true,
  registrationState: true,
  engineNumber: true,
  previousRegistration: true,
  year: true,
  fuelType: true,
  transmissionType: true,
  totalSeats: true,
  passengerCapacity: true,
  location: true,
  createdAt: true,
  updatedAt: true,
} as const;

/**
 * Vehicles on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the object below is the
 * one output definition of a vehicle (docs/contract/api-v1.md §2.14). It is a plugin-prisma object in select mode
 * whose type-level `select` reads the vehicle's scalar columns whole; its scalar fields resolve off that row and add
 * no selection of their own (decision 0007, "scalars whole"). Each JSON column is read only when its field is
 * selected.
 */
const fields = VehicleFieldsSchema.shape;

export const VehicleType = builder.prismaObject('Vehicle', {
  description: 'A vehicle. Its maintenance tracking items (e.g. odometer) accumulate into totals.',
  select: VEHICLE_SCALARS,
  fields: (t) => ({
    uid: t.id({ resolve: (v) => v.uid }),
    make: t.string({ resolve: (v) => v.make }),
    model: t.string({ resolve: (v) => v.model }),
    registration: t.string({ resolve: (v) => v.registration }),
    status: t.string({ description: 'Server-controlled: active, or deleted after a soft delete', resolve: (v) => v.status }),
    companyId: t.string({ resolve: (v) => v.companyId }),
    vin: t.string({ nullable: true, resolve: (v) => v.vin }),
    serialNumber: t.string({ nullable: true, resolve: (v) => v.serialNumber }),
    color: t.string({ nullable: true, resolve: (v) => v.color }),
    description: t.string({ nullable: true, resolve: (v) => v.description }),
    registrationState: t.string({ nullable: true, resolve: (v) => v.registrationState }),
    engineNumber: t.string({ nullable: true, resolve: (v) => v.engineNumber }),
    previousRegistration: t.string({ nullable: true, resolve: (v) => v.previousRegistration }),
    year: t.int({ nullable: true, resolve: (v) => v.year }),
    fuelType: t.string({ nullable: true, description: FUEL_TYPES.join(', '), extensions: jsonOf(fields.fuelType), resolve: (v) => v.fuelType }),
    transmissionType: t.string({
      nullable: true,
      description: TRANSMISSION_TYPES.join(', '),
      extensions: jsonOf(fields.transmissionType),
      resolve: (v) => v.transmissionType,
    }),
    totalSeats: t.int({ nullable: true, resolve: (v) => v.totalSeats }),
    passengerCapacity: t.int({ nullable: true, resolve: (v) => v.passengerCapacity }),
    tracking: t.field({
      type: 'JSON',
      description: '{kilometers, miles, hours}: the primary unit is true',
      select: { tracking: true },
      extensions: jsonOf(VehicleTrackingSchema),
      resolve: (v) => v.tracking,
    }),
    trackingDevice: t.field({
      type: 'JSON',
      nullable: true,
      select: { trackingDevice: true },
      extensions: jsonOf(TrackingDeviceSchema),
      resolve: (v) => v.trackingDevice ?? null,
    }),
    maintenanceTrackingItems: t.field({
      type: 'JSON',
      select: { maintenanceTrackingItems: true },
      extensions: jsonOf(TrackingMapSchema),
      resolve: (v) => v.maintenanceTrackingItems ?? {},
    }),
    logTrackingItems: t.field({
      type: 'JSON',
      select: { logTrackingItems: true },
      extensions: jsonOf(TrackingMapSchema),
      resolve: (v) => v.logTrackingItems ?? {},
    }),
    totals: t.field({ type: 'JSON', select: { totals: true }, extensions: jsonOf(NumberMapSchema), resolve: (v) => v.totals ?? {} }),
    initialValues: t.field({
      type: 'JSON',
      select: { initialValues: true },
      extensions: jsonOf(NumberMapSchema),
      resolve: (v) => v.initialValues ?? {},
    }),
    location: t.string({ nullable: true, resolve: (v) => v.location }),
    thirdPartyUser: t.field({
      type: 'JSON',
      nullable: true,
      select: { thirdPartyUser: true },
      extensions: jsonOf(fields.thirdPartyUser),
      resolve: (v) => v.thirdPartyUser ?? null,
    }),
    photos: t.field({ type: 'JSON', nullable: true, select: { photos: true }, extensions: jsonOf(fields.photos), resolve: (v) => v.photos ?? null }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.updatedAt }),
  }),
});

export const VehicleListType = builder.objectRef<Page<Vehicle>>('VehicleList').implement({
  fields: (t) => ({
    data: t.field({ type: [VehicleType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

// Inputs are the service's checks (src/graphql/inputs.ts): defined once, checked once, by Pothos' validation plugin.
export const CreateVehicleInput = inputFromSchema(
  'CreateVehicleInput',
  CreateVehicleCheck,
  'A new vehicle (CreateVehicleBody): make, model and registration required; tracking defaults to miles.',
);
export const UpdateVehicleInput = inputFromSchema('UpdateVehicleInput', UpdateVehicleCheck, 'Changes to a vehicle (UpdateVehicleBody): only the fields given change.');

builder.queryFields((t) => ({
  vehicles: t.field({
    type: VehicleListType,
    description: 'Vehicles of the company; soft-deleted ones only with includeDeleted (or status: "deleted").',
    args: argsFromSchema(t, 'VehicleFilter', VehicleFilterSchema, 'vehicle'),
    resolve: (_r, filter, ctx, info) => ctx.services.vehicles.list(stripNulls(filter), queryFromInfo({ context: ctx, info, path: ['data'] })),
  }),
  vehicle: t.prismaField({
    type: 'Vehicle',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) => ctx.services.vehicles.get(String(args.id), query),
  }),
}));

builder.mutationFields((t) => ({
  createVehicle: t.field({
    type: WriteResultType,
    description: 'Creates a vehicle: make, model, registration required; tracking defaults to miles.',
    args: { input: t.arg({ type: CreateVehicleInput, required: true }) },
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
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateVehicleInput, required: true }) },
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
