import { z } from 'zod';
import { defineRoutes } from '../../rest/contract.js';
import { UserFilterSchema } from './service.js';

/**
 * REST routes of users (docs/contract/api-v1.md §4.4, docs/contract/gaps.md §3): declarations only; each runs its
 * GraphQL field, and the body is the REST representation of its GraphQL type (src/rest/facade.ts).
 */
export const userRoutes = defineRoutes([
  {
    operationId: 'listUsers',
    field: 'Query.users',
    method: 'GET',
    path: '/users',
    tag: 'Users',
    summary: 'List users',
    description: 'By displayName, then uid. Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: UserFilterSchema,
    status: 200,
    errors: [400],
  },
  {
    operationId: 'getUser',
    field: 'Query.user',
    method: 'GET',
    path: '/users/{uid}',
    tag: 'Users',
    summary: 'Get a user',
    params: z.object({ uid: z.string().min(1).describe('User uid') }),
    status: 200,
    errors: [404],
  },
]);
