import { builder } from '../../graphql/builder.js';
import { stripNulls } from '../../graphql/common.js';
import { argsFromSchema, enumOf } from '../../graphql/inputs.js';
import { adminOnly } from '../../auth/scopes.js';
import { REST_NULLABLE, jsonOf } from '../../rest/representation.js';
import { z } from 'zod';
import { AuditActionSchema, AuditEntitySchema, AuditFilterSchema, type AuditPage } from './service.js';

/** The audit log on GraphQL, and through it on REST and MCP (docs/decisions/0007-defined-once.md); admin keys only. */
export const AuditEntityEnum = enumOf(AuditEntitySchema, 'What kind of record an audit entry is about');
export const AuditActionEnum = enumOf(AuditActionSchema, 'What was done');

const ChangesSchema = z
  .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
  .describe('map<field, {before, after}>: each changed field, null on the side where it had no value');

export const AuditEntryType = builder.prismaObject('AuditEntry', {
  description: 'One management write or API key event: who, what, when and the fields it changed (never key material).',
  fields: (t) => ({
    uid: t.exposeID('uid'),
    at: t.expose('at', { type: 'DateTime', description: 'When the change was made' }),
    keyId: t.exposeString('keyId', { nullable: true, description: 'The API key that made the change (null: the CLI or an import file)', extensions: REST_NULLABLE }),
    userId: t.exposeString('userId', { nullable: true, description: 'The acting user: the key\u2019s user or the company\u2019s default actor (null for the CLI and import files)', extensions: REST_NULLABLE }),
    channel: t.exposeString('channel', { description: 'rest, graphql, mcp, cli, import or internal (the demo, the service itself)' }),
    entity: t.field({ type: AuditEntityEnum, resolve: (e) => AuditEntitySchema.parse(e.entity) }),
    entityId: t.exposeString('entityId', { description: 'The aircraft uid, user uid, API key id, or `integrations` / `alerts` for the settings' }),
    action: t.field({ type: AuditActionEnum, resolve: (e) => AuditActionSchema.parse(e.action) }),
    changes: t.field({ type: 'JSON', extensions: jsonOf(ChangesSchema), resolve: (e) => e.changes ?? {} }),
  }),
});

export const AuditPageType = builder.objectRef<AuditPage>('AuditPage').implement({
  fields: (t) => ({
    data: t.field({ type: [AuditEntryType], resolve: (p) => p.data }),
    count: t.exposeInt('count', { description: 'Entries in this page' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as `cursor` for the next page; null at the end', extensions: REST_NULLABLE }),
  }),
});

builder.queryFields((t) => ({
  auditLog: t.field({
    type: AuditPageType,
    description: 'The audit log, newest first: every management write and API key event. Admin keys only.',
    args: argsFromSchema(t, 'AuditFilter', AuditFilterSchema, 'audit-log'),
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.audit.list(stripNulls(args)),
  }),
}));
