import { builder } from '../../graphql/builder.js';
import { argsFromZod } from '../../graphql/zod-input.js';
import { USER_STATUSES, UserFilterSchema } from './service.js';

/** GraphQL adapter for users: types and queries over UserService. */
export const UserStatusEnum = builder.enumType('UserStatus', { values: USER_STATUSES });

export const UserType = builder.prismaObject('User', {
  description: 'A user of the company (identity-provider user id as uid).',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    email: t.exposeString('email'),
    displayName: t.exposeString('displayName'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    status: t.exposeString('status', { description: 'Active, Pending or Inactive' }),
    roles: t.exposeStringList('roles'),
    phone: t.exposeString('phone', { nullable: true, description: 'E.164' }),
    timezone: t.exposeString('timezone', { nullable: true }),
  }),
});

export const UserListType = builder.objectRef<{ data: unknown[]; count: number }>('UserList').implement({
  fields: (t) => ({
    data: t.field({ type: [UserType], resolve: (p) => p.data as never }),
    count: t.exposeInt('count'),
  }),
});

builder.queryFields((t) => ({
  users: t.field({
    type: UserListType,
    description: 'Users of the company, optionally filtered by status and role.',
    args: argsFromZod(t, 'UserFilter', UserFilterSchema, { enums: [UserStatusEnum] }),
    resolve: async (_root, args, ctx) => {
      const data = await ctx.services.users.list({ status: args.status ?? undefined, role: args.role ?? undefined });
      return { data, count: data.length };
    },
  }),
  user: t.prismaField({
    type: 'User',
    description: 'One user by uid; NOT_FOUND when the company has no such user.',
    args: { uid: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => ctx.services.users.get(String(args.uid)),
  }),
}));
