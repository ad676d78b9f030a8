import { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { COMPANY } from '../../db/scoped.js';
import { serviceCheck } from '../../graphql/validation.js';
import { isoKey, pageArgs, readPage, type Page } from '../../db/keyset.js';
import { parseFilter } from '../../lib/params.js';
import { graphqlType } from '../../lib/graphql-hint.js';
import { now } from '../../lib/clock.js';
import { newUid } from '../../lib/ids.js';
import { generateKey, hashKey, keyPrefix, type ApiKeyInfo } from '../../auth/keys.js';
import { KEY_CHANGE_CHANNEL, invalidateKey } from '../../auth/key-cache.js';
import type { KeyDropWatch } from '../../auth/key-drops.js';
import { KEY_SCOPES, type KeyScope } from '../../auth/scopes.js';
import { changesBetween, recordAudit, type AuditActor } from '../audit/service.js';

/**
 * API keys of a company (docs/contract/gaps.md §12, docs/api-notes.md "API keys"): the one place their rules live,
 * for the API (admin keys) and the CLI and import files alike. Only a SHA-256 hash of a key is stored; its
 * plaintext is answered once, by the create that made it. Every create and revoke writes its audit entry in its
 * transaction (id, prefix, name, scope, user: never key material). A revocation holds at once in every process: the
 * change notifies the others in its transaction (PostgreSQL NOTIFY, delivered at commit) and this process's key
 * caches drop the key after the commit (src/auth/key-cache.ts).
 */
export const KeyScopeSchema = graphqlType(z.enum(KEY_SCOPES), 'ApiKeyScope');

export const CreateApiKeySchema = z
  .object({
    name: z.string().trim().min(1).max(100).describe('A label people tell keys apart by, e.g. "maintenance integration"'),
    scope: KeyScopeSchema.default('read_write').describe('read (no writes), read_write (default) or admin (also manages the company)'),
    userId: z.string().min(1).max(128).optional().describe('The user the key acts as (a user of the company); by default the company\u2019s owner'),
  })
  .strict();
export const CreateApiKeyCheck = serviceCheck('API key', CreateApiKeySchema);

/** The order of the key list (oldest first, then id); its cursor continues it (src/db/keyset.ts). */
export const API_KEY_ORDER = ['createdAt', 'id'] as const;
export const ApiKeyListArgsSchema = z.object(pageArgs('api-key', API_KEY_ORDER, (v) => isoKey(v[0]!))).strict();
export type ApiKeyListArgs = z.output<typeof ApiKeyListArgsSchema>;
export type CreateApiKey = z.output<typeof CreateApiKeySchema>;

/** The fields an audit entry of a key records: never the key or its hash. */
const AUDITED = ['name', 'scope', 'userId', 'prefix', 'revokedAt'] as const;

const keySelect = { id: true, companyId: true, name: true, prefix: true, userId: true, scope: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/** Creates a key in `db`'s company: `key` imports a given plaintext (import files), otherwise one is made. */
export async function createKey(
  db: ScopedPrisma,
  input: { name: string; scope: KeyScope; userId?: string | null; key?: string },
  actor: AuditActor,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = input.key ?? generateKey();
  // the name's rule holds on every channel that makes a key (the API, `fleetops keys create`, an import file)
  const name = CreateApiKeySchema.shape.name.safeParse(input.name);
  if (!name.success) {
    const message = `name: ${name.error.issues[0]?.message ?? 'invalid'}`;
    throw new ValidationError(`invalid API key: /name: ${message}`, [{ path: '/name', message }]);
  }
  if (key.length < 20) throw new ValidationError('an API key must be at least 20 characters long', [{ path: '/key', message: 'must be at least 20 characters long' }]);
  const info = await db.$transaction(async (tx) => {
    if (input.userId && !(await tx.user.findFirst({ where: { uid: input.userId }, select: { uid: true } }))) {
      throw new ValidationError(`invalid API key: /userId: ${input.userId} is not a user of the company`, [{ path: '/userId', message: `${input.userId} is not a user of the company` }]);
    }
    const row = (await tx.apiKey.create({
      data: { id: newUid('key'), name: name.data, prefix: keyPrefix(key), hash: hashKey(key), userId: input.userId ?? null, scope: input.scope },
      select: keySelect,
    })) as ApiKeyInfo;
    await recordAudit(tx, actor, { entity: 'api_key', entityId: row.id, action: 'created', changes: changesBetween(null, row, AUDITED) });
    return row;
  });
  return { key, info };
}

/**
 * Revokes a key of `db`'s company. Revoking a revoked key changes nothing and answers it as it is. `self`: the key
 * making the request, which cannot revoke itself (409); `keepAnAdmin`: the company's last live admin key cannot be
 * revoked (409). The company's row is locked first, so two admin keys revoking each other cannot both succeed.
 */
export async function revokeKey(
  db: ScopedPrisma,
  id: string,
  actor: AuditActor,
  opts: { self?: string; keepAnAdmin: boolean; watchDrops?: () => Promise<KeyDropWatch> },
): Promise<ApiKeyInfo> {
  // on PostgreSQL the answer waits until every server process has dropped the key (src/auth/key-drops.ts)
  const watch = await opts.watchDrops?.();
  try {
    return await revokeAndDrop(db, id, actor, opts, watch);
  } finally {
    await watch?.close();
  }
}

async function revokeAndDrop(db: ScopedPrisma, id: string, actor: AuditActor, opts: { self?: string; keepAnAdmin: boolean }, watch: KeyDropWatch | undefined) {
  let hash: string | null = null;
  const info = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Company" WHERE id = ${COMPANY} FOR UPDATE`;
    const row = await tx.apiKey.findFirst({ where: { id } });
    if (!row) throw new NotFoundError('API key', id);
    const { hash: _h, ...info } = row;
    if (row.revokedAt) return info as ApiKeyInfo;
    if (opts.self === id) throw new ConflictError('an API key cannot revoke itself: revoke it with another admin key (or `fleetops keys revoke` on the server)');
    if (opts.keepAnAdmin && row.scope === 'admin') {
      const others = await tx.apiKey.count({ where: { scope: 'admin', revokedAt: null, id: { not: id } } });
      if (!others) throw new ConflictError('this is the company\u2019s last admin key: create another admin key before revoking it');
    }
    // every process drops its cached copy when this commits (notifyKeyChange's statement, on the company's own row)
    await tx.$executeRaw`SELECT pg_notify(${KEY_CHANGE_CHANNEL}, hash) FROM "ApiKey" WHERE "companyId" = ${COMPANY} AND id = ${id}`;
    const revoked = (await tx.apiKey.update({ where: { id }, data: { revokedAt: now() }, select: keySelect })) as ApiKeyInfo;
    await recordAudit(tx, actor, { entity: 'api_key', entityId: id, action: 'revoked', changes: changesBetween(info, revoked, AUDITED) });
    hash = row.hash;
    return revoked;
  });
  if (hash) {
    invalidateKey(hash); // committed: no cache of this process may answer with the key again
    await watch?.settled(hash); // nor of any other
  }
  return info;
}

/** The API's key management (admin keys): list without secrets, create shown once, revoke. */
export class ApiKeyAdmin {
  constructor(
    private readonly db: ScopedPrisma,
    private readonly actor: () => AuditActor,
    private readonly watchDrops?: () => Promise<KeyDropWatch>,
  ) {}

  /** The company's keys, oldest first (then id), a page at a time (gaps.md §17). */
  async list(args: ApiKeyListArgs = {}): Promise<Page<ApiKeyInfo>> {
    const page = parseFilter(ApiKeyListArgsSchema, args, 'invalid api-key query');
    return readPage(page, API_KEY_ORDER, 'api-key', {}, (q) => this.db.apiKey.findMany({ ...q, select: keySelect }) as Promise<ApiKeyInfo[]>);
  }

  create(input: CreateApiKey): Promise<{ key: string; info: ApiKeyInfo }> {
    return createKey(this.db, input, this.actor());
  }

  revoke(id: string): Promise<ApiKeyInfo> {
    const actor = this.actor();
    return revokeKey(this.db, id, actor, { self: actor.keyId ?? undefined, keepAnAdmin: true, watchDrops: this.watchDrops });
  }
}
