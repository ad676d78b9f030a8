import { z } from 'zod';
import { batchBody } from '../../lib/batch.js';
import { defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { TrackingItemMetadataSchema } from '../tracking/schema.js';
import { CreateVehicleBodySchema, UpdateVehicleSchema, VehicleFieldsSchema, VehicleFilterSchema, vehicleInput } from './service.js';

const TrackingItemMetadataDoc = named('TrackingItemMetadata', TrackingItemMetadataSchema);

/** REST adapter for vehicles (docs/contract/api-v1.md §2.14, docs/contract/gaps.md §3): declarations only; each route runs its GraphQL field (src/rest/facade.ts). */
const fields = {
  ...VehicleFieldsSchema.shape,
  maintenanceTrackingItems: z.record(z.string(), TrackingItemMetadataDoc).optional(),
  logTrackingItems: z.record(z.string(), TrackingItemMetadataDoc).optional(),
};

export const VehicleDoc = named(
  'Vehicle',
  z.object({
    uid: z.string(),
    ...fields,
    status: z.string().describe('Server-controlled: active, or deleted after a soft delete'),
    companyId: z.string(),
    maintenanceTrackingItems: z.record(z.string(), TrackingItemMetadataDoc),
    logTrackingItems: z.record(z.string(), TrackingItemMetadataDoc),
    totals: z.record(z.string(), z.number()).optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
);
export const VehicleListDoc = named('VehicleList', z.object({ data: z.array(VehicleDoc), count: z.number().int() }));
// Request bodies: the service's own schemas
export const CreateVehicleBody = named('CreateVehicleBody', CreateVehicleBodySchema);
export const UpdateVehicleBody = named('UpdateVehicleBody', UpdateVehicleSchema);
export const VehicleWriteResultDoc = named(
  'VehicleWriteResult',
  z.object({ uid: z.string(), status: z.enum(['created', 'updated', 'deleted', 'restored', 'no_changes']) }),
);
export const VehicleBatchBody = named('VehicleBatchCreateBody', z.object({ items: z.array(CreateVehicleBody).min(1).max(50) }));
export const VehicleBatchResultDoc = named(
  'VehicleBatchResult',
  z.object({
    results: z.array(VehicleWriteResultDoc),
    errors: z.array(z.object({ index: z.number().int(), error: z.string() })),
  }),
);

const present = (v: Record<string, unknown>) => omitNulls(v);
const idParam = z.object({ id: z.string().min(1).describe('Vehicle uid') });

export const vehicleRoutes = defineRoutes([
  {
    operationId: 'listVehicles',
    field: 'Query.vehicles',
    method: 'GET',
    path: '/vehicles',
    tag: 'Vehicles',
    summary: 'List vehicles',
    description: 'Soft-deleted vehicles are hidden unless includeDeleted=true (or status=deleted).',
    query: VehicleFilterSchema,
    status: 200,
    response: VehicleListDoc,
    errors: [400],
    present: (d) => ({ data: d.data.map(present), count: d.count }),
  },
  {
    operationId: 'getVehicle',
    field: 'Query.vehicle',
    method: 'GET',
    path: '/vehicles/{id}',
    tag: 'Vehicles',
    summary: 'Get a vehicle',
    params: idParam,
    status: 200,
    response: VehicleDoc,
    errors: [404],
    present,
  },
  {
    operationId: 'createVehicle',
    field: 'Mutation.createVehicle',
    method: 'POST',
    path: '/vehicles',
    tag: 'Vehicles',
    summary: 'Create a vehicle',
    body: CreateVehicleBody,
    bodyArg: 'input',
    accept: vehicleInput('create'),
    status: 201,
    response: VehicleWriteResultDoc,
    errors: [400],
  },
  {
    operationId: 'batchCreateVehicles',
    field: 'Mutation.createVehicles',
    method: 'POST',
    path: '/vehicles/batch',
    tag: 'Vehicles',
    summary: 'Create 1 to 50 vehicles',
    description: 'Each item is validated and created independently; failures are reported with their index.',
    body: VehicleBatchBody,
    accept: batchBody('items'),
    status: 200,
    response: VehicleBatchResultDoc,
    errors: [400],
  },
  {
    operationId: 'updateVehicle',
    field: 'Mutation.updateVehicle',
    method: 'PATCH',
    path: '/vehicles/{id}',
    tag: 'Vehicles',
    summary: 'Update a vehicle',
    params: idParam,
    body: UpdateVehicleBody,
    bodyArg: 'input',
    accept: vehicleInput('update'),
    status: 200,
    response: VehicleWriteResultDoc,
    errors: [400, 404, 409],
  },
  {
    operationId: 'deleteVehicle',
    field: 'Mutation.deleteVehicle',
    method: 'DELETE',
    path: '/vehicles/{id}',
    tag: 'Vehicles',
    summary: 'Delete a vehicle (soft)',
    description: 'Status becomes deleted; the vehicle is hidden from lists and can be restored.',
    params: idParam,
    status: 200,
    response: VehicleWriteResultDoc,
    errors: [404],
  },
  {
    operationId: 'restoreVehicle',
    field: 'Mutation.restoreVehicle',
    method: 'POST',
    path: '/vehicles/{id}/restore',
    tag: 'Vehicles',
    summary: 'Restore a deleted vehicle',
    params: idParam,
    status: 200,
    response: VehicleWriteResultDoc,
    errors: [404, 409],
  },
]);
