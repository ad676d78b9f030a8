import { z } from 'zod';
import { batchBody } from '../../lib/batch.js';
import { defineRoutes, named } from '../../rest/contract.js';
import { CreateVehicleBodySchema, UpdateVehicleSchema, VehicleFilterSchema } from './service.js';

/**
 * REST routes of vehicles (docs/contract/api-v1.md §2.14, docs/contract/gaps.md §3): declarations only; each runs its
 * GraphQL field, and the body is the REST representation of its GraphQL type (src/rest/facade.ts,
 * src/rest/representation.ts).
 */
// Request bodies: the service's own schemas
export const CreateVehicleBody = named('CreateVehicleBody', CreateVehicleBodySchema);
export const UpdateVehicleBody = named('UpdateVehicleBody', UpdateVehicleSchema);
export const VehicleBatchBody = named('VehicleBatchCreateBody', z.object({ items: z.array(CreateVehicleBody).min(1).max(50) }));

const idParam = z.object({ id: z.string().min(1).describe('Vehicle uid') });

export const vehicleRoutes = defineRoutes([
  {
    operationId: 'listVehicles',
    field: 'Query.vehicles',
    method: 'GET',
    path: '/vehicles',
    tag: 'Vehicles',
    summary: 'List vehicles',
    description: 'Soft-deleted vehicles are hidden unless includeDeleted=true (or status=deleted). By registration, then uid. Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: VehicleFilterSchema,
    status: 200,
    errors: [400],
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
    errors: [404],
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
    status: 201,
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
    status: 200,
    errors: [400, 404, 409],
  },
  {
    operationId: 'deleteVehicle',
    field: 'Mutation.deleteVehicle',
    method: 'DELETE',
    path: '/vehicles/{id}',
    tag: 'Vehicles',
    summary: 'Delete a vehicle (soft)',
    description: 'Status becomes deleted; the vehicle is hidden from lists and can be restored. 409 while components are fitted to it.',
    params: idParam,
    status: 200,
    errors: [404, 409],
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
    errors: [404, 409],
  },
]);
