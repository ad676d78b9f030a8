import { z } from 'zod';
import { defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { TrackingItemMetadataSchema } from '../tracking/schema.js';

/** REST adapter for aircraft (docs/contract/api-v1.md §4.1): declarations only; SOFA runs the GraphQL fields. */
export const TrackingItemMetadataDoc = named('TrackingItemMetadata', TrackingItemMetadataSchema);

export const AircraftDoc = named(
  'Aircraft',
  z.object({
    uid: z.string(),
    registration: z.string(),
    type: z.string().describe('Aircraft type code'),
    category: z.string().describe('Fixed-wing, rotary-wing, drone, etc.'),
    manufacturer: z.string().optional(),
    model: z.string().optional(),
    engineType: z.string(),
    engineCount: z.number(),
    status: z.string(),
    companyId: z.string(),
    maintenanceTrackingItems: z.record(z.string(), TrackingItemMetadataDoc),
    logTrackingItems: z.record(z.string(), TrackingItemMetadataDoc),
    totals: z.record(z.string(), z.number()).optional(),
    initialValues: z.record(z.string(), z.number()).optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
);

export const AircraftListDoc = named('AircraftList', z.object({ data: z.array(AircraftDoc), count: z.number().int() }));

export const presentAircraft = (a: Record<string, unknown>) => omitNulls(a);

export const aircraftRoutes = defineRoutes([
  {
    operationId: 'listAircraft',
    field: 'Query.aircraftList',
    method: 'GET',
    path: '/aircraft',
    tag: 'Aircraft',
    summary: 'List aircraft',
    description: 'All aircraft of the company, with their tracking schemas, running totals and initial values.',
    status: 200,
    response: AircraftListDoc,
    errors: [],
    present: (d) => ({ data: d.data.map(presentAircraft), count: d.count }),
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
    response: AircraftDoc,
    errors: [404],
    present: (d) => presentAircraft(d),
  },
]);
