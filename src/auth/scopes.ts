import type { GraphQLSchema } from 'graphql';
/**
 * API key scopes (docs/contract/gaps.md §11-12): `read` keys read; `read_write` keys also write; `admin` keys also
 * manage the company (aircraft, users, API keys, settings). Enforced per GraphQL field by Pothos' scope-auth plugin
 * (src/graphql/builder.ts), so every channel that ends in an operation gets the same answer.
 */
export const KEY_SCOPES = ['read', 'read_write', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export const isKeyScope = (s: string): s is KeyScope => (KEY_SCOPES as readonly string[]).includes(s);

export const canWrite = (scope: KeyScope | undefined): boolean => scope === 'read_write' || scope === 'admin' || scope === undefined;

/** The 403 for a field the key's scope does not reach (`required`: what the field needs). */
export function forbiddenMessage(scope: KeyScope | undefined, required: RequiredScope, field: string): string {
  if (required === 'admin') return `${field} manages the company: it needs an admin key (this key's scope is ${scope ?? 'read_write'})`;
  return `this API key is read-only: ${field} writes (use a read_write key to write)`;
}

/** What a GraphQL field needs: `read` (queries), `write` (mutations), or `admin` (fields that manage the company). */
export type RequiredScope = 'read' | 'write' | 'admin';

/** The scope a root field (`Mutation.createAircraft`) needs: what the field says (adminOnly), else write for a mutation, read for a query. */
export function requiredScopeOf(schema: GraphQLSchema, rootField: string): RequiredScope {
  const [root, name] = rootField.split('.');
  const field = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name];
  const declared = field?.extensions?.requiredScope as RequiredScope | undefined;
  return declared ?? (root === 'Mutation' ? 'write' : 'read');
}

/** Whether a key of `scope` may call a field that needs `required`. */
export function mayCall(scope: KeyScope | undefined, required: RequiredScope): boolean {
  if (required === 'read') return true;
  if (required === 'write') return canWrite(scope);
  return scope === 'admin';
}

/**
 * Field options of a field that manages the company: scope-auth refuses other keys (403), and the field says so in
 * its extensions, so channels that list what a key may call (the MCP tool list) leave it out for them.
 */
export function adminOnly<E extends Record<string, unknown>>(extensions?: E) {
  return { authScopes: { admin: true }, extensions: { ...(extensions ?? ({} as E)), requiredScope: 'admin' as const } };
}
