import { createGraphQLError, maskError as defaultMaskError } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import { AppError } from '../errors.js';
import { databaseError } from '../db/errors.js';
import { reportUnexpected } from '../lib/unexpected.js';

/**
 * Domain errors as GraphQL clients get them: the message, and `code`, `status` and the field `errors` in
 * extensions (`http.status` sets the HTTP status of a GraphQL-over-HTTP answer). Anything else is masked.
 */
type Located = Partial<Pick<GraphQLError, 'nodes' | 'source' | 'positions' | 'path'>>;

export function appErrorAsGraphQL(original: AppError, at: Located = {}): GraphQLError {
  return createGraphQLError(original.message, {
    nodes: at.nodes,
    source: at.source,
    positions: at.positions,
    path: at.path,
    originalError: original,
    extensions: {
      code: original.code.toUpperCase(),
      status: original.status,
      ...(original.errors ? { errors: original.errors } : {}),
      http: { status: original.status },
    },
  });
}

/** Yoga's maskError. (Duck-typed: yoga and our modules may hold different copies of graphql's error class.) */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const e = error as Located & { originalError?: unknown };
  const original = databaseError(e?.originalError ?? error) ?? (e?.originalError ?? error);
  if (original instanceof AppError && original !== error) return appErrorAsGraphQL(original, e);
  // a resolver that threw something unexpected (not a domain error, not a GraphQL error such as a coercion failure)
  const thrown = e?.originalError as { name?: string; extensions?: unknown } | undefined;
  if (thrown && !(thrown instanceof AppError) && e.path !== undefined && !('extensions' in thrown && thrown.name === 'GraphQLError')) {
    reportUnexpected(e.originalError, { channel: 'graphql', path: e.path });
    return createGraphQLError('Internal server error: the error has been logged; retrying will not help until it is fixed.', {
      nodes: e.nodes,
      source: e.source,
      positions: e.positions,
      path: e.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
    });
  }
  return defaultMaskError(error, message, isDev);
}
