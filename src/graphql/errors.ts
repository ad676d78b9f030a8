import { createGraphQLError, maskError as defaultMaskError } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import { AppError } from '../errors.js';
import { databaseError } from '../db/errors.js';

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

/**
 * A resolver's failure that is no domain error and no GraphQL error (a coercion failure, say): a bug, which the
 * client sees masked and the log records.
 */
export function unexpectedError(error: unknown): boolean {
  const e = error as Located & { originalError?: unknown };
  const thrown = e?.originalError as { name?: string; extensions?: unknown } | undefined;
  if (!thrown || thrown instanceof AppError || databaseError(thrown) || e.path === undefined) return false;
  return !('extensions' in thrown && thrown.name === 'GraphQLError');
}

/** Yoga's maskError. (Duck-typed: yoga and our modules may hold different copies of graphql's error class.) */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const e = error as Located & { originalError?: unknown };
  const original = databaseError(e?.originalError ?? error) ?? (e?.originalError ?? error);
  if (original instanceof AppError && original !== error) return appErrorAsGraphQL(original, e);
  // a resolver that threw something unexpected (not a domain error, not a GraphQL error such as a coercion failure):
  // masked here; logged, with its request, by the operation policy (src/graphql/policy.ts)
  if (unexpectedError(e)) {
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
