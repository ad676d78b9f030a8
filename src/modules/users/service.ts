import type DataLoader from 'dataloader';
import { GivenUid, notDotSegment, parseFilter } from '../../lib/params.js';
import { uidLoader } from '../../db/loaders.js';
import { pageArgs, readPage, type Page } from '../../db/keyset.js';
import { z } from 'zod';
import { graphqlType } from '../../lib/graphql-hint.js';
import type { User } from '../../generated/prisma/client.js';
import { COMPANY, type ScopedPrisma } from '../../db/scoped.js';
import { NotFoundError, takenError, ValidationError, fieldErrorsFromZod, invalid, type FieldError } from '../../errors.js';
import { serviceCheck } from '../../graphql/validation.js';
import { PhoneSchema } from '../settings/service.js';
import { lockRows } from '../../db/row-locks.js';
import { retrying } from '../../db/retry.js';
import { newUid } from '../../lib/ids.js';
import { rowFields } from '../../lib/keys.js';
import type { UpsertStatus, WriteResult } from '../../lib/write-result.js';
import { changesBetween, recordAudit, type AuditActor } from '../audit/service.js';
import { TIME_ZONE_MESSAGE, isTimeZone, zoneSpelling } from '../schedule/rules.js';

export type { User };

export const USER_STATUSES = ['Active', 'Pending', 'Inactive'] as const;
/** A user's status: the GraphQL enum UserStatus too. */
export const UserStatusSchema = graphqlType(z.enum(USER_STATUSES), 'UserStatus');

/** A user as an import file describes it (docs/contract/api-v1.md §2.12; users are read-only over the API). */
/** docs/api-notes.md "Authentication": roles are recorded and shown, never checked. */
export const USER_ROLES = 'Roles in the company, e.g. owner, pilot, driver: information, not permissions (a key\u2019s scope decides)';

// the one E.164 rule of every phone the service takes (alert and notification recipients, the SMS sender): a user's
// phone took `+12`, which an SMS to it would then refuse
const Phone = PhoneSchema('phone');
const TimeZone = z
  .string()
  .refine((tz) => isTimeZone(tz), TIME_ZONE_MESSAGE)
  .overwrite(zoneSpelling);
const Roles = z.array(z.string().trim().min(1).max(64)).max(50).describe(USER_ROLES);

const UserFields = z.object({
  email: z.email().max(320),
  displayName: z.string().trim().min(1).max(200),
  firstName: z.string().max(200).optional(),
  lastName: z.string().max(200).optional(),
  status: UserStatusSchema.default('Active'),
  roles: Roles.default([]),
  phone: Phone.optional(),
  timezone: TimeZone.optional(),
});

/**
 * User ids the service writes for who acted when no user did: `public` (a public-form submission's userId and its
 * webhook's submittedBy) and `api` (the acting user of a key with no user, in a company without an owner or admin,
 * and of commands). A real user with one of them would be taken for that actor, and it for the user.
 */
export const RESERVED_USER_UIDS = ['public', 'api'] as const;
const notReserved = <S extends z.ZodType<string>>(s: S) =>
  s.refine((u) => !(RESERVED_USER_UIDS as readonly string[]).includes(u), {
    message: `uid must not be ${RESERVED_USER_UIDS.join(' or ')}: the service uses them for submissions and writes made by no user`,
  });

export const UserInputSchema = UserFields.extend({ uid: notReserved(GivenUid) }).strict();
export type UserInput = z.input<typeof UserInputSchema>;

/** Fields the server sets: a 400 that names them. */
const USER_SERVER_CONTROLLED = ['companyId', 'createdAt', 'updatedAt'] as const;
function checked<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const errors: FieldError[] = [];
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const key of USER_SERVER_CONTROLLED) if (key in raw) errors.push({ path: `/${key}`, message: `${key} is set by the server and must not be sent` });
  }
  const rest = raw && typeof raw === 'object' && !Array.isArray(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => !(USER_SERVER_CONTROLLED as readonly string[]).includes(k))) : raw;
  const r = schema.safeParse(rest);
  if (!r.success) errors.push(...fieldErrorsFromZod(r.error.issues));
  if (errors.length || !r.success) invalid('user', errors);
  return r.data;
}

/**
 * `POST /users`, `createUser` (admin; docs/contract/gaps.md §12). `uid` is the user's id at the identity provider
 * when there is one; without it the server makes one.
 */
export const CreateUserSchema = UserFields.extend({
  uid: notReserved(notDotSegment(z.string().trim().min(1).max(128).regex(/^[^\s/]+$/, 'uid must not contain spaces or /'))).optional().describe('The user’s id at the identity provider (made by the server when left out)'),
}).strict();
export const CreateUserCheck = serviceCheck('user', CreateUserSchema, (raw) => checked(CreateUserSchema, raw));
export type CreateUser = z.output<typeof CreateUserSchema>;

/** `PATCH /users/{uid}`, `updateUser` (admin): only the fields sent change; null clears an optional one. No delete: Inactive. */
export const UpdateUserSchema = z
  .object({
    email: UserFields.shape.email.optional(),
    displayName: UserFields.shape.displayName.optional(),
    firstName: z.string().max(200).nullable().optional(),
    lastName: z.string().max(200).nullable().optional(),
    status: UserStatusSchema.optional().describe('Active, Pending or Inactive (users are never deleted: Inactive is how one leaves)'),
    roles: Roles.optional().describe(`${USER_ROLES}; the list sent replaces the list`),
    phone: Phone.nullable().optional(),
    timezone: TimeZone.nullable().optional(),
  })
  .strict();
export const UpdateUserCheck = serviceCheck('user', UpdateUserSchema, (raw) => checked(UpdateUserSchema, raw));
export type UpdateUser = z.output<typeof UpdateUserSchema>;

const AUDITED = ['email', 'displayName', 'firstName', 'lastName', 'status', 'roles', 'phone', 'timezone'] as const;

/** The order of the user list; its cursor continues it. */
const USER_ORDER = ['displayName', 'uid'];

export const UserFilterSchema = z.object({
  status: UserStatusSchema.optional().describe('Only users with this status'),
  role: z.string().min(1).optional().describe('Only users that have this role'),
  ...pageArgs('user', USER_ORDER),
});
export type UserFilter = z.infer<typeof UserFilterSchema>;

/** The row fields of a checked user (create or import entry): the audited ones, an absent optional one as null. */
const rowData = (u: z.output<typeof UserFields>) => rowFields(u, AUDITED);

export function createUserLoader(db: ScopedPrisma) {
  return uidLoader((args) => db.user.findMany(args));
}

export class UserService {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly loader: DataLoader<string, User | null>,
    /** Who is acting, for the audit log. */
    private readonly actor: () => AuditActor = () => ({ keyId: null, userId: null, channel: 'internal' }),
  ) {}

  /** `createUser` (admin): 409 when the uid or the email is a user of the company already. */
  async create(u: CreateUser): Promise<WriteResult<'created'>> {
    const uid = u.uid ?? newUid('usr');
    const data = rowData(u);
    await retrying(() => this.db.$transaction(async (tx) => {
      await this.lockUsers(tx);
      if (await tx.user.findFirst({ where: { uid }, select: { uid: true } })) throw takenError('uid', `user ${uid} exists already`);
      await this.emailFree(tx, data.email, null);
      await tx.user.create({ data: { uid, ...data } });
      await recordAudit(tx, this.actor(), { entity: 'user', entityId: uid, action: 'created', changes: changesBetween(null, data, AUDITED) });
    }));
    this.loader.clear(uid);
    return { uid, status: 'created' };
  }

  /** `updateUser` (admin): `updated`, or `no_changes` when every field sent has its current value. */
  async update(uid: string, p: UpdateUser): Promise<WriteResult<'updated' | 'no_changes'>> {
    const status = await retrying(() => this.db.$transaction(async (tx) => {
      // locked: a concurrent update waits, so each audit entry's "before" is what the change replaced
      await this.lockUsers(tx);
      if (!(await lockRows(tx, 'User', [uid])).size) throw new NotFoundError('user', uid);
      const current = (await tx.user.findFirst({ where: { uid } }))!;
      const data: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(p)) if (v !== undefined) data[k] = v;
      const changes = changesBetween(current, { ...current, ...data }, AUDITED);
      if (!Object.keys(changes).length) return 'no_changes' as const;
      if (changes.email) await this.emailFree(tx, String(data.email), uid);
      await tx.user.updateMany({ where: { uid }, data });
      await recordAudit(tx, this.actor(), { entity: 'user', entityId: uid, action: 'updated', changes });
      return 'updated' as const;
    }));
    this.loader.clear(uid);
    return { uid, status };
  }

  /**
   * Every write of users holds the company's row first (then a user's row, as every writer locks the company before
   * its records): no index can hold an email unique in any case, so two writes giving one address (in any case) to
   * two users wait for each other, and the second finds the first's user. `FOR NO KEY UPDATE`: inserts that refer to
   * the company (an audit entry, a flight log) take a key-share lock, which it does not wait for.
   */
  private async lockUsers(tx: ScopedPrisma): Promise<void> {
    await tx.$queryRaw`SELECT id FROM "Company" WHERE id = ${COMPANY} FOR NO KEY UPDATE`;
  }

  private async emailFree(tx: ScopedPrisma, email: string, uid: string | null): Promise<void> {
    const other = await tx.user.findFirst({ where: { email: { equals: email, mode: 'insensitive' }, ...(uid ? { uid: { not: uid } } : {}) }, select: { uid: true } });
    if (other) throw takenError('email', `email ${email} is already user ${other.uid}`);
  }

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

  /**
   * Creates or updates a user by uid (import, demo), under the rules of `createUser` and `updateUser`: an email
   * (case-insensitive) that is another user's is a 409; `unchanged` when the user is as the input says.
   */
  async upsert(input: unknown, pathPrefix = ''): Promise<UpsertStatus> {
    const parsed = UserInputSchema.safeParse(input);
    if (!parsed.success) throw new ValidationError('invalid user', fieldErrorsFromZod(parsed.error.issues, pathPrefix));
    const u = parsed.data;
    const data = rowData(u);
    const status = await retrying(() => this.db.$transaction(async (tx): Promise<UpsertStatus> => {
      await this.lockUsers(tx);
      const before = (await lockRows(tx, 'User', [u.uid])).size ? await tx.user.findFirst({ where: { uid: u.uid } }) : null;
      const changes = changesBetween(before, data, AUDITED);
      if (before && !Object.keys(changes).length) return 'unchanged';
      if (!before || changes.email) await this.emailFree(tx, data.email, u.uid);
      if (before) await tx.user.updateMany({ where: { uid: u.uid }, data });
      else await tx.user.create({ data: { uid: u.uid, ...data } });
      await recordAudit(tx, this.actor(), { entity: 'user', entityId: u.uid, action: before ? 'updated' : 'created', changes });
      return before ? 'updated' : 'created';
    }));
    this.loader.clear(u.uid);
    return status;
  }
}
