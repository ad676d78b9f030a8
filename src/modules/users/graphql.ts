import { builder } from '../../graphql/builder.js';
import { pageFields, stripNulls } from '../../graphql/common.js';
import type { Page } from '../../db/keyset.js';
import { argsFromSchema, enumOf, inputFromSchema } from '../../graphql/inputs.js';
import { WriteResultType } from '../../graphql/common.js';
import { adminOnly } from '../../auth/scopes.js';
import { CreateUserCheck, USER_ROLES, UpdateUserCheck, UserFilterSchema, UserStatusSchema, type User } from './service.js';

/**
 * Users on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md): the object below is the one
 * output definition of a user (docs/contract/api-v1.md §2.12).
 */
export const UserStatusEnum = enumOf(UserStatusSchema);

export const UserType = builder.prismaObject('User', {
  description: 'A user of the company (identity-provider user id as uid).',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    email: t.exposeString('email'),
    displayName: t.exposeString('displayName'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    status: t.exposeString('status', { description: 'Active, Pending or Inactive' }),
    roles: t.exposeStringList('roles', { description: USER_ROLES }),
    phone: t.exposeString('phone', { nullable: true, description: 'E.164' }),
    timezone: t.exposeString('timezone', { nullable: true }),
  }),
});

export const UserListType = builder.objectRef<Page<User>>('UserList').implement({
  fields: (t) => ({
    data: t.field({ type: [UserType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

builder.queryFields((t) => ({
  users: t.field({
    type: UserListType,
    description: 'Users of the company by displayName, optionally filtered by status and role, a page at a time.',
    args: argsFromSchema(t, 'UserFilter', UserFilterSchema, 'user'),
    resolve: (_root, args, ctx) => ctx.services.users.list(stripNulls(args)),
  }),
  // a plain field: the user is read whole, so there is no selection for plugin-prisma to plan
  user: t.field({
    type: UserType,
    description: 'One user by uid; NOT_FOUND when the company has no such user.',
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.users.get(String(args.uid)),
  }),
}));

// Management (docs/contract/gaps.md §12): admin keys only, on every channel. Users are never deleted.
const CreateUserInput = inputFromSchema('CreateUserInput', CreateUserCheck);
const UpdateUserInput = inputFromSchema('UpdateUserInput', UpdateUserCheck);

builder.mutationFields((t) => ({
  createUser: t.field({
    type: WriteResultType,
    description: 'Adds a user (uid: the identity provider’s id, or made by the server); 409 when the uid or email is taken. Admin keys only.',
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.users.create(args.input),
  }),
  updateUser: t.field({
    type: WriteResultType,
    description: 'Changes a user’s status, roles, names, email, phone or timezone; null clears an optional field. Users are not deleted: set status Inactive. Admin keys only.',
    args: { uid: t.arg.id({ required: true }), input: t.arg({ type: UpdateUserInput, required: true }) },
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.users.update(String(args.uid), args.input),
  }),
}));
