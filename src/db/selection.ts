import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { fieldsOf } from '../graphql/selections.js';

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

type Selections = readonly SelectionSetNode[];

/**
 * The columns a GraphQL request's rows need, planned once per document: `path` leads from the resolving field to the
 * rows' object (`['data']` for a page), `columnsOf` names the columns a field of it reads (null: a field it does
 * not know, which reads the row whole); the service adds the columns it needs itself (`withKeys`). Kept by the
 * field's node of the parsed document (Yoga keeps a document per text, the channels theirs for good), so a request
 * only looks it up (plugin-prisma's `queryFromInfo` plans on every request: 130-180 µs a page of logs, decision 0007). Every
 * field a directive could skip counts: a few columns too many, never one too few. Without a narrower answer, `whole`.
 */
export function columnPlanner(path: readonly string[], columnsOf: (field: string) => readonly string[] | null, whole: RowQuery) {
  const plans = new WeakMap<FieldNode, RowQuery>();
  const plan = (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): RowQuery => {
    let level: Selections = info.fieldNodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    for (const step of path) {
      level = fieldsOf(level, (name) => info.fragments[name]).flatMap((f) => (f.name.value === step && f.selectionSet ? [f.selectionSet] : []));
    }
    const select: Record<string, true> = {};
    for (const f of fieldsOf(level, (name) => info.fragments[name])) {
      const columns = columnsOf(f.name.value);
      if (!columns) return whole;
      for (const c of columns) select[c] = true;
    }
    return { select };
  };
  return (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): RowQuery => {
    // a field merged from several nodes (the same response name twice) is planned each time: one of its nodes may
    // be merged with others in another operation of the document
    if (info.fieldNodes.length !== 1) return plan(info);
    const node = info.fieldNodes[0]!;
    let q = plans.get(node);
    if (!q) plans.set(node, (q = plan(info)));
    return q;
  };
}
