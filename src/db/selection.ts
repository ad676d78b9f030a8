/**
 * The part of a Prisma query a GraphQL request decides (plugin-prisma's `query`: the columns and relations it
 * selects). Services spread it into their reads so a request reads only what it asks for.
 */
export type RowQuery = { select?: Record<string, unknown>; include?: Record<string, unknown> };

/** The query with the columns a service needs itself (keyset cursors, rules) added to a narrowed selection. */
export function withKeys<Q extends RowQuery | undefined>(query: Q, keys: readonly string[]): Q | { select: Record<string, unknown> } {
  if (!query?.select) return query as Q;
  const select = { ...query.select };
  for (const k of keys) select[k] ??= true;
  return { ...query, select };
}
