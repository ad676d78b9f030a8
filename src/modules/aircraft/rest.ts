import { z } from 'zod';
import { defineRoutes } from '../../rest/contract.js';
import { AircraftListArgsSchema } from './service.js';

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
]);
