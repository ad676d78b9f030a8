import { z } from 'zod';
import { defineRoutes, named } from '../../rest/contract.js';
import { AircraftListArgsSchema, CreateAircraftSchema, UpdateAircraftSchema } from './service.js';

const idParam = z.object({ id: z.string().min(1).describe('Aircraft uid') });

/**
 * REST routes of aircraft (docs/contract/api-v1.md §4.1): declarations only; each runs its GraphQL field, and the
 * body is the REST representation of its GraphQL type (src/rest/facade.ts, src/rest/representation.ts).
 */
export const aircraftRoutes = defineRoutes([
  {
    operationId: 'listAircraft',
    field: 'Query.aircraftList',
    method: 'GET',
    path: '/aircraft',
    tag: 'Aircraft',
    summary: 'List aircraft',
    description:
      'Aircraft of the company by registration, then uid, with their tracking schemas, running totals and initial values. ' +
      'Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: AircraftListArgsSchema,
    status: 200,
    errors: [400],
  },
  {
    operationId: 'getAircraft',
    field: 'Query.aircraft',
    method: 'GET',
    path: '/aircraft/{id}',
    tag: 'Aircraft',
    summary: 'Get an aircraft',
    params: z.object({ id: z.string().min(1).describe('Aircraft uid') }),
    status: 200,
    errors: [404],
  },
  {
    operationId: 'createAircraft',
    field: 'Mutation.createAircraft',
    method: 'POST',
    path: '/aircraft',
    tag: 'Aircraft',
    summary: 'Create an aircraft',
    description: 'The contract’s Aircraft fields minus uid, companyId and totals; totals start at initialValues. 409 when the registration is taken. Admin keys only.',
    body: named('CreateAircraftBody', CreateAircraftSchema),
    bodyArg: 'input',
    status: 201,
    errors: [400, 403, 409],
  },
  {
    operationId: 'updateAircraft',
    field: 'Mutation.updateAircraft',
    method: 'PATCH',
    path: '/aircraft/{id}',
    tag: 'Aircraft',
    summary: 'Update an aircraft',
    description:
      'Only the fields sent change. maintenanceTrackingItems, logTrackingItems and initialValues are merged key by key (JSON Merge Patch: a key with a value adds or replaces it, a key with null removes it); totals move by exactly the change of initialValues. 409 (with the count) when flight logs carry a tracking key being removed, retyped or moved between the two maps, or active schedule items track a maintenance key being removed. Admin keys only.',
    params: idParam,
    body: named('UpdateAircraftBody', UpdateAircraftSchema),
    bodyArg: 'input',
    status: 200,
    errors: [400, 403, 404, 409],
  },
  {
    operationId: 'deleteAircraft',
    field: 'Mutation.deleteAircraft',
    method: 'DELETE',
    path: '/aircraft/{id}',
    tag: 'Aircraft',
    summary: 'Delete an aircraft',
    description: 'Only an aircraft nothing refers to: 409 with the counts while it has flight logs, installed components or schedule items. Admin keys only.',
    params: idParam,
    status: 200,
    errors: [403, 404, 409],
  },
]);
