import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { crossCompany, scopedPrisma, type ScopedPrisma, type TxClient } from '../db/scoped.js';
import { KEY_CHANGE_CHANNEL, KeyCache } from './key-cache.js';
import type { KeyDropWatch } from './key-drops.js';
import { createKey, revokeKey } from '../modules/api-keys/service.js';
import type { AuditActor } from '../modules/audit/service.js';

/** The operator on the server's host: no key, no user. */
const operatorActor = (channel: 'cli' | 'import'): AuditActor => ({ keyId: null, userId: null, channel });
import { KEY_SCOPES, isKeyScope, type KeyScope } from './scopes.js';

/**
 * API keys: `fo_live_` + 32 random base62 characters. Only a SHA-256 hash is stored (keys are high-entropy, so a
 * fast hash is the right tool); the first 12 characters are kept as a visible prefix for people to tell keys apart.
 */
const KEY_PREFIX = 'fo_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const VISIBLE = 12;

export function generateKey(): string {
  const bytes = randomBytes(48);
  let out = '';
  for (const b of bytes) {
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4*62: no modulo bias
    if (out.length === 32) break;
  }
  return out.length === 32 ? KEY_PREFIX + out : generateKey();
}

export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** Whether a credential sent equals a configured one, in time that does not depend on where they differ. */
export const sameSecret = (sent: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(sent, 'utf8').digest(), createHash('sha256').update(expected, 'utf8').digest());
export const keyPrefix = (key: string) => key.slice(0, VISIBLE);

export interface Actor {
  companyId: string;
  keyId: string;
  /** The user acting through this key: the key's user, or else the company's first owner/admin. */
  userId: string;
  /** `read` keys may not write on any channel (403); `admin` keys also manage the company (src/auth/scopes.ts). */
  scope?: KeyScope;
  /** The acting user's roles when the key authenticated (recorded with each write in the log). */
  roles?: string[];
}

export { KEY_SCOPES, type KeyScope };

export interface ApiKeyInfo {
  id: string;
  companyId: string;
  name: string;
  prefix: string;
  userId: string | null;
  scope: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const keySelect = {
  id: true,
  companyId: true,
  name: true,
  prefix: true,
  userId: true,
  scope: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export class ApiKeyService {
  /** lastUsedAt is written at most once a minute per key, off the request's path. */
  private lastTouched = new Map<string, number>();

  /** Set by the server: authenticated keys kept briefly (key-cache.ts says how revocation still applies at once). */
  readonly cache: KeyCache | null;

  constructor(
    private readonly prisma: PrismaClient | TxClient,
    opts: { cache?: boolean; inTransaction?: boolean; watchDrops?: () => Promise<KeyDropWatch> } = {},
  ) {
    this.cache = opts.cache ? new KeyCache() : null;
    this.inTransaction = opts.inTransaction ?? false;
    this.watchDrops = opts.watchDrops;
  }

  /** Revocations wait for every server process to drop the key (src/auth/key-drops.ts). */
  private readonly watchDrops?: () => Promise<KeyDropWatch>;

  /** `prisma` is a transaction's client (an import file's): key changes join it. */
  private readonly inTransaction: boolean;

  /**
   * A key for a company, from the CLI or an import file (`channel`): the rules and the audit entry are the API's
   * (src/modules/api-keys/service.ts).
   */
  async create(input: { companyId: string; name?: string; userId?: string; key?: string; scope?: string; channel?: 'cli' | 'import' }) {
    const scope = input.scope ?? 'read_write';
    if (!isKeyScope(scope)) throw new ValidationError(`scope must be one of ${KEY_SCOPES.join(', ')}`);
    const company = await this.prisma.company.findUnique({ where: { id: input.companyId } });
    if (!company) throw new NotFoundError('company', input.companyId);
    return createKey(scopedPrisma(this.prisma, input.companyId, this.inTransaction), { name: input.name ?? 'default', scope, userId: input.userId, key: input.key }, operatorActor(input.channel ?? 'cli'));
  }

  async list(companyId: string): Promise<ApiKeyInfo[]> {
    const company = await this.prisma.company.findUnique({ where: { id: companyId } });
    if (!company) throw new NotFoundError('company', companyId);
    return this.prisma.apiKey.findMany({ where: { companyId }, orderBy: { createdAt: 'asc' }, select: keySelect });
  }

  /** `fleetops keys revoke`: the operator on the server's host may revoke any key, the last admin key included. */
  async revoke(keyId: string): Promise<ApiKeyInfo> {
    const row = await crossCompany(this.prisma, 'key by id').apiKey.findUnique({ where: { id: keyId }, select: { companyId: true } });
    if (!row) throw new NotFoundError('API key', keyId);
    return revokeKey(scopedPrisma(this.prisma, row.companyId, this.inTransaction), keyId, operatorActor('cli'), { keepAnAdmin: false, watchDrops: this.watchDrops });
  }

  /** Resolves `Authorization: Bearer <key>` to an actor, or throws 401. */
  async authenticate(authorization: string | null): Promise<Actor> {
    if (!authorization) throw new UnauthorizedError('missing Authorization header: send "Authorization: Bearer <API key>"');
    const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
    if (!m) throw new UnauthorizedError('malformed Authorization header: expected "Bearer <API key>"');
    const hash = hashKey(m[1]);
    const cached = this.cache?.get(hash);
    if (cached) {
      this.touch(cached.companyId, cached.keyId);
      return cached;
    }
    const generation = this.cache?.begin() ?? 0;
    // the key decides the company, so this lookup cannot be scoped; everything after it is the key's company's
    const row = await crossCompany(this.prisma, 'key by hash').apiKey.findUnique({ where: { hash } });
    // unknown and revoked keys get the same answer (no oracle for keys that once existed); the reason is logged
    if (!row || row.revokedAt) {
      throw Object.assign(new UnauthorizedError('invalid API key'), { reason: row ? `revoked key ${row.id}` : 'unknown key' });
    }
    const db = scopedPrisma(this.prisma, row.companyId);
    const userId = row.userId ?? (await this.lookupDefaultActor(db));
    this.touch(row.companyId, row.id);
    const actor: Actor = { companyId: row.companyId, keyId: row.id, userId, scope: row.scope as KeyScope, roles: await this.rolesOf(db, userId) };
    this.cache?.set(hash, actor, generation);
    return actor;
  }

  /**
   * The acting user's roles and a key's default acting user are read when the key is (on a miss of the key cache)
   * and kept with it, so they are at most KEY_CACHE_TTL_MS old, as docs/api-notes.md says: no cache of their own
   * (one of 60 s on top of the key's made a changed owner act for up to 90 s).
   */
  private async rolesOf(db: ScopedPrisma, userId: string): Promise<string[]> {
    const user = await db.user.findFirst({ where: { uid: userId }, select: { roles: true } });
    return user?.roles ?? [];
  }

  private async lookupDefaultActor(db: ScopedPrisma): Promise<string> {
    const users = await db.user.findMany({
      where: { roles: { hasSome: ['owner', 'admin'] } },
      orderBy: { createdAt: 'asc' },
      select: { uid: true, roles: true },
      take: 20,
    });
    const owner = users.find((u) => u.roles.includes('owner')) ?? users[0];
    return owner?.uid ?? 'api';
  }

  private touch(companyId: string, id: string) {
    const now = Date.now();
    if ((this.lastTouched.get(id) ?? 0) > now - 60_000) return;
    this.lastTouched.set(id, now);
    void scopedPrisma(this.prisma, companyId).apiKey.updateMany({ where: { id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
}

/**
 * Tells every fleetops process that a key's record changed (revoked, re-assigned, restored). Run it inside the
 * transaction that changes the key: PostgreSQL delivers the notification when that transaction commits. Processes
 * on the same database listen on the channel and drop their cached copy (key-cache.ts).
 */
export function notifyKeyChange(prisma: Pick<PrismaClient, '$executeRaw'>, hash: string) {
  return prisma.$executeRaw`SELECT pg_notify(${KEY_CHANGE_CHANNEL}, ${hash})`;
}
