import { z } from 'zod';
import { defineRoutes, named, omitNulls } from '../../rest/contract.js';
import { UserFilterSchema } from './service.js';

/** REST adapter for users (docs/contract/api-v1.md §4.4, docs/contract/gaps.md §3): declarations only; SOFA runs the GraphQL fields. */
export const UserDoc = named(
  'User',
  z.object({
    uid: z.string().describe('Identity-provider user id'),
    email: z.string(),
    displayName: z.string(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    status: z.string().describe('Active, Pending or Inactive'),
    roles: z.array(z.string()),
    phone: z.string().optional().describe('E.164'),
    timezone: z.string().optional(),
  }),
);

export const UserListDoc = named('UserList', z.object({ data: z.array(UserDoc), count: z.number().int() }));

const presentUser = (u: Record<string, unknown>) => omitNulls(u);

export const userRoutes = defineRoutes([
  {
    operationId: 'listUsers',
    field: 'Query.users',
    method: 'GET',
    path: '/users',
    tag: 'Users',
    summary: 'List users',
    query: UserFilterSchema,
    status: 200,
    response: UserListDoc,
    errors: [400],
    present: (d) => ({ data: d.data.map(presentUser), count: d.count }),
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
    response: UserDoc,
    errors: [404],
    present: (d) => presentUser(d),
  },
]);
