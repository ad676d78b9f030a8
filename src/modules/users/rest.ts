import { z } from 'zod';
import { defineRoutes, named } from '../../rest/contract.js';
import { CreateUserSchema, UpdateUserSchema, UserFilterSchema } from './service.js';

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
  {
    operationId: 'createUser',
    field: 'Mutation.createUser',
    method: 'POST',
    path: '/users',
    tag: 'Users',
    summary: 'Create a user',
    description: '`uid` is the user’s id at the identity provider (made by the server when left out). 409 when the uid or the email is a user already. Admin keys only.',
    body: named('CreateUserBody', CreateUserSchema),
    bodyArg: 'input',
    status: 201,
    errors: [400, 403, 409],
  },
  {
    operationId: 'updateUser',
    field: 'Mutation.updateUser',
    method: 'PATCH',
    path: '/users/{uid}',
    tag: 'Users',
    summary: 'Update a user',
    description: 'Status (Active, Pending, Inactive), roles (the list sent replaces it), names, email, phone, timezone. Users are never deleted: Inactive is how one leaves. Admin keys only.',
    params: z.object({ uid: z.string().min(1).describe('User uid') }),
    body: named('UpdateUserBody', UpdateUserSchema),
    bodyArg: 'input',
    status: 200,
    errors: [400, 403, 404, 409],
  },
]);
