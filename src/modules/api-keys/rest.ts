import { z } from 'zod';
import { defineRoutes, named } from '../../rest/contract.js';
import { ApiKeyListArgsSchema, CreateApiKeySchema } from './service.js';

/** REST routes of API keys (docs/contract/gaps.md §12): admin keys only; never MCP tools (`mcp: false`). */
export const apiKeyRoutes = defineRoutes([
  {
    operationId: 'listApiKeys',
    field: 'Query.apiKeys',
    method: 'GET',
    path: '/api-keys',
    tag: 'Administration',
    summary: 'List API keys',
    description:
      'The company\u2019s API keys, revoked ones included, oldest first: id, prefix, name, scope, user, created, last used, revoked. Never a key itself. Admin keys only. Without `limit` at most 1,000; page with `limit` and the `nextCursor` of the previous page.',
    query: ApiKeyListArgsSchema,
    status: 200,
    errors: [400, 403],
    mcp: false,
  },
  {
    operationId: 'createApiKey',
    field: 'Mutation.createApiKey',
    method: 'POST',
    path: '/api-keys',
    tag: 'Administration',
    summary: 'Create an API key',
    description:
      'The answer holds the key\u2019s plaintext, shown this once (only a hash is stored). An Idempotency-Key is refused here (400): the answer would have to be stored with its secret. Admin keys only.',
    body: named('CreateApiKeyBody', CreateApiKeySchema),
    bodyArg: 'input',
    status: 201,
    errors: [400, 403],
    mcp: false,
  },
  {
    operationId: 'revokeApiKey',
    field: 'Mutation.revokeApiKey',
    method: 'DELETE',
    path: '/api-keys/{id}',
    tag: 'Administration',
    summary: 'Revoke an API key',
    description:
      'Revoked at once in every server process: its next request is a 401. A key cannot revoke itself, and the company\u2019s last admin key cannot be revoked (409). Revoking a revoked key answers it unchanged. Admin keys only.',
    params: z.object({ id: z.string().min(1).max(200).describe('API key id') }),
    status: 200,
    errors: [403, 404, 409],
    mcp: false,
  },
]);
