import type DataLoader from 'dataloader';
import { parseFilter } from '../../lib/params.js';
import { uidLoader } from '../../db/loaders.js';
import { pageArgs, readPage, type Page } from '../../db/keyset.js';
import { z } from 'zod';
import { graphqlType } from '../../lib/graphql-hint.js';
import type { User } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { NotFoundError, ValidationError, fieldErrorsFromZod } from '../../errors.js';
import { isTimeZone } from '../schedule/rules.js';

export type { User };

export const USER_STATUSES = ['Active', 'Pending', 'Inactive'] as const;
/** A user's status: the GraphQL enum UserStatus too. */
export const UserStatusSchema = graphqlType(z.enum(USER_STATUSES), 'UserStatus');

/** A user as an import file describes it (docs/contract/api-v1.md §2.12; users are read-only over the API). */
/** docs/api-notes.md "Authentication": roles are recorded and shown, never checked. */
export const USER_ROLES = 'Roles in the company, e.g. owner, admin, pilot, driver: information about the user, not permissions (what a key may do is its scope)';

export const UserInputSchema = z
  .object({
    uid: z.string().min(1).max(128),
    email: z.email(),
    displayName: z.string().min(1),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    status: z.enum(USER_STATUSES).default('Active'),
    roles: z.array(z.string().min(1)).default([]).describe(USER_ROLES),
    phone: z
      .string()
      .regex(/^\+[1-9]\d{1,14}$/, 'phone must be in E.164 format, e.g. +61400000000')
      .optional(),
    timezone: z
      .string()
      .refine((tz) => isTimeZone(tz), 'timezone must be an IANA time zone such as Australia/Sydney')
      .optional(),
  })
  .strict();
export type UserInput = z.input<typeof UserInputSchema>;

/** The order of the user list; its cursor continues it. */
const USER_ORDER = ['displayName', 'uid'];

export const UserFilterSchema = z.object({
  status: UserStatusSchema.optional().describe('Only users with this status'),
  role: z.string().min(1).optional().describe('Only users that have this role'),
  ...pageArgs(USER_ORDER),
});
export type UserFilter = z.infer<typeof UserFilterSchema>;

export function createUserLoader(db: ScopedPrisma) {
  return uidLoader((args) => db.user.findMany(args));
}

export class UserService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, User | null>,
  ) {}

  /** A page of users by displayName, then uid (docs/api-notes.md, lists). */
  async list(filter: UserFilter = {}): Promise<Page<User>> {
    const { status, role, ...page } = parseFilter(UserFilterSchema, filter, 'invalid user query');
    const where = { ...(status ? { status } : {}), ...(role ? { roles: { has: role } } : {}) };
    const out = await readPage(page, USER_ORDER, 'user', where, (q) => this.db.user.findMany(q));
    for (const r of out.data) this.loader.prime(r.uid, r);
    return out;
  }

  async get(uid: string): Promise<User> {
    const row = await this.loader.load(uid);
    if (!row) throw new NotFoundError('user', uid);
    return row;
  }

  find(uid: string): Promise<User | null> {
    return this.loader.load(uid);
  }

  /** `input` is a UserInput, or an import file's entry as it came: checked here, as a request body is. */
  async upsert(input: unknown, pathPrefix = ''): Promise<'created' | 'updated'> {
    const parsed = UserInputSchema.safeParse(input);
    if (!parsed.success) throw new ValidationError('invalid user', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    const u = parsed.data;
    const data = {
      email: u.email,
      displayName: u.displayName,
      firstName: u.firstName ?? null,
      lastName: u.lastName ?? null,
      status: u.status,
      roles: u.roles,
      phone: u.phone ?? null,
      timezone: u.timezone ?? null,
    };
    const n = await this.db.user.updateMany({ where: { uid: u.uid }, data });
    if (n.count === 0) await this.db.user.create({ data: { uid: u.uid, ...data } });
    this.loader.clear(u.uid);
    return n.count === 0 ? 'created' : 'updated';
  }
}
