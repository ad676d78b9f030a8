import { z } from 'zod';
import type { AuditEntry, Prisma } from '../../generated/prisma/client.js';
import type { ScopedPrisma } from '../../db/scoped.js';
import { afterCursor, toPage, timeCursorArg } from '../../db/keyset.js';
import { now } from '../../lib/clock.js';
import { newUid } from '../../lib/ids.js';
import { LimitParam, PAGE_DEFAULT, parseFilter } from '../../lib/params.js';
import { graphqlType } from '../../lib/graphql-hint.js';

export type { AuditEntry };

/**
 * The audit log (docs/contract/gaps.md §12, docs/api-notes.md "Administration"): who changed what and when, for
 * every management write (aircraft, users, the company's integration and alert settings) and every API key event,
 * written by the service that makes the change,
 * in its transaction (a change without its entry, or an entry without its change, cannot be committed). Key
 * material is never recorded: an API key's entry names its id, prefix, name, scope and user.
 */
export const AUDIT_ENTITIES = ['aircraft', 'user', 'api_key', 'settings'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];
export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'revoked'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntitySchema = graphqlType(z.enum(AUDIT_ENTITIES), 'AuditEntity');
export const AuditActionSchema = graphqlType(z.enum(AUDIT_ACTIONS), 'AuditAction');

/** Who acts: the request's key and user and the channel, or the CLI / an import file (no key). */
export interface AuditActor {
  keyId: string | null;
  userId: string | null;
  channel: string;
}

/** A change of one field: its value before and after (null when it had none). */
export type FieldChange = { before: unknown; after: unknown };
export type Changes = Record<string, FieldChange>;

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
function canonical(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return v ?? null;
}

/** The fields among `fields` whose values differ between `before` and `after` (null for a side that has none). */
export function changesBetween(before: object | null, after: object | null, fields: readonly string[]): Changes {
  const out: Changes = {};
  for (const f of fields) {
    const b = canonical(before ? Reflect.get(before, f) : undefined);
    const a = canonical(after ? Reflect.get(after, f) : undefined);
    if (!same(b, a)) out[f] = { before: b, after: a };
  }
  return out;
}

/**
 * A secret as an audit entry shows it (secrets are never recorded): `[secret]` while it is the one stored before,
 * `[new secret]` once it is another; null when there is none.
 */
export function secretMark(value: string | undefined | null, before: string | undefined | null): string | null {
  if (!value) return null;
  return value === before ? '[secret]' : '[new secret]';
}

/** Writes one entry, in the transaction `tx` of the change it records. */
export async function recordAudit(
  tx: ScopedPrisma,
  actor: AuditActor,
  entry: { entity: AuditEntity; entityId: string; action: AuditAction; changes: Changes },
): Promise<void> {
  await tx.auditEntry.create({
    data: {
      uid: newUid('au'),
      at: now(),
      keyId: actor.keyId,
      userId: actor.userId,
      channel: actor.channel,
      entity: entry.entity,
      entityId: entry.entityId,
      action: entry.action,
      changes: entry.changes as Prisma.InputJsonValue,
    },
  });
}

export const AuditFilterSchema = z
  .object({
    entity: AuditEntitySchema.optional().describe('Only entries about this kind of record'),
    entityId: z.string().min(1).max(200).optional().describe('Only entries about this record (aircraft uid, user uid, API key id, or `integrations` / `alerts` for the settings)'),
    action: AuditActionSchema.optional().describe('Only entries of this action'),
    keyId: z.string().min(1).max(200).optional().describe('Only changes made with this API key'),
    limit: LimitParam.optional().describe('Page size, 1 to 500 (default 100)'),
    cursor: timeCursorArg('audit-log').optional(),
  })
  .strict();
export type AuditFilter = z.input<typeof AuditFilterSchema>;

export interface AuditPage {
  data: AuditEntry[];
  count: number;
  nextCursor: string | null;
}

export class AuditService {
  constructor(private readonly db: ScopedPrisma) {}

  /** Newest first (at desc, uid desc), a page at a time; the cursor is opaque and stable under inserts. */
  async list(filter: AuditFilter = {}): Promise<AuditPage> {
    const f = parseFilter(AuditFilterSchema, filter, 'invalid audit-log query');
    const limit = f.limit ?? PAGE_DEFAULT;
    const where: Prisma.AuditEntryWhereInput = {
      ...(f.entity ? { entity: f.entity } : {}),
      ...(f.entityId ? { entityId: f.entityId } : {}),
      ...(f.action ? { action: f.action } : {}),
      ...(f.keyId ? { keyId: f.keyId } : {}),
      ...(f.cursor ? afterCursor('at', f.cursor, 'audit-log') : {}),
    };
    const rows = await this.db.auditEntry.findMany({ where, orderBy: [{ at: 'desc' }, { uid: 'desc' }], take: limit + 1 });
    return toPage(rows, limit, (r) => r.at, 'audit-log');
  }
}
