import { builder } from '../../graphql/builder.js';
import { argsFromSchema, inputFromSchema, enumOf } from '../../graphql/inputs.js';
import { pageFields, stripNulls } from '../../graphql/common.js';
import type { Page } from '../../db/keyset.js';
import { adminOnly } from '../../auth/scopes.js';
import { REST_NULLABLE } from '../../rest/representation.js';
import type { ApiKeyInfo } from '../../auth/keys.js';
import { ApiKeyListArgsSchema, CreateApiKeyCheck, KeyScopeSchema } from './service.js';

/**
 * API keys on GraphQL, and through it on REST (docs/decisions/0007-defined-once.md). Admin keys only, and never
 * offered as MCP tools (docs/contract/gaps.md §12): the routes say `mcp: false`.
 */
export const ApiKeyScopeEnum = enumOf(KeyScopeSchema, 'What a key may do: read; read_write (also write); admin (also manage the company)');

/** Fields a client gets the plaintext key from is the create's answer only, once. */
export const SECRET_RESULT = { secretResult: true } as const;

export const ApiKeyType = builder.objectRef<ApiKeyInfo>('ApiKey').implement({
  description: 'An API key as the company sees it: never the key itself (only a hash is stored) but its first characters.',
  fields: (t) => ({
    id: t.exposeID('id'),
    prefix: t.exposeString('prefix', { description: 'The key\u2019s first 12 characters, to tell keys apart' }),
    name: t.exposeString('name'),
    scope: t.field({ type: ApiKeyScopeEnum, resolve: (k) => KeyScopeSchema.parse(k.scope) }),
    userId: t.exposeString('userId', { nullable: true, description: 'The user the key acts as (null: the company\u2019s owner)', extensions: REST_NULLABLE }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Last authenticated request (kept to the minute)', extensions: REST_NULLABLE }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was revoked (null: live)', extensions: REST_NULLABLE }),
  }),
});

export const ApiKeyListType = builder.objectRef<Page<ApiKeyInfo>>('ApiKeyList').implement({
  fields: (t) => ({
    data: t.field({ type: [ApiKeyType], resolve: (p) => p.data }),
    ...pageFields(t),
  }),
});

export const NewApiKeyType = builder.objectRef<{ key: string; info: ApiKeyInfo }>('NewApiKey').implement({
  description: 'A key just made: `key` is its plaintext, shown this once and never again (only a hash is stored).',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The API key: send it as "Authorization: Bearer <key>". Shown once.' }),
    id: t.id({ resolve: (k) => k.info.id }),
    prefix: t.string({ resolve: (k) => k.info.prefix }),
    name: t.string({ resolve: (k) => k.info.name }),
    scope: t.field({ type: ApiKeyScopeEnum, resolve: (k) => KeyScopeSchema.parse(k.info.scope) }),
    userId: t.string({ nullable: true, extensions: REST_NULLABLE, resolve: (k) => k.info.userId }),
    createdAt: t.field({ type: 'DateTime', resolve: (k) => k.info.createdAt }),
  }),
});

const CreateApiKeyInput = inputFromSchema('CreateApiKeyInput', CreateApiKeyCheck);

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: ApiKeyListType,
    description: 'The company\u2019s API keys, revoked ones included, oldest first; never a key itself. Admin keys only.',
    ...adminOnly(),
    args: argsFromSchema(t, 'ApiKeyListArgs', ApiKeyListArgsSchema, 'api-key'),
    resolve: (_r, args, ctx) => ctx.services.apiKeys.list(stripNulls(args)),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: NewApiKeyType,
    description: 'Makes an API key; its plaintext is in this answer only. Not repeatable with an Idempotency-Key (the answer holds a secret, which is never stored). Admin keys only.',
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    ...adminOnly(SECRET_RESULT),
    resolve: (_r, args, ctx) => ctx.services.apiKeys.create(args.input),
  }),
  revokeApiKey: t.field({
    type: ApiKeyType,
    description:
      'Revokes a key at once, in every server process. A key cannot revoke itself, and the company\u2019s last admin key cannot be revoked (409). Revoking a revoked key changes nothing. Admin keys only.',
    args: { id: t.arg.id({ required: true }) },
    ...adminOnly(),
    resolve: (_r, args, ctx) => ctx.services.apiKeys.revoke(String(args.id)),
  }),
}));
