import type { Plugin } from 'graphql-yoga';
import { BREAK, GraphQLError, Kind, getOperationAST, visit, type ASTNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { listAsObjectCheck } from './jit-variables.js';

/** How often a client's query runs before it is compiled (`useCompiledQueries`). */
export const COMPILE_AFTER = 10;

/**
 * GraphQL over HTTP: a query document a client sends again and again (a front end's page, an integration's poll) runs
 * compiled by graphql-jit from its `after`th run on, as the channels' fixed documents do (decision 0013). Until then,
 * and for every mutation and subscription, Yoga's executor runs it. Counted and kept by document: Yoga hands the
 * same parsed document for the same text (its parse cache: 1,024 documents, each for an hour), so what is kept here
 * goes with it. A document graphql-jit cannot compile, or would answer differently (`compilable`), stays on Yoga's
 * executor.
 *
 * Cancellation (`useQueryCancellation` below): a compiled query looks at the execution's signal before and after it
 * runs, never between fields; Yoga's executor stops between fields.
 */
export function useCompiledQueries(schema: GraphQLSchema, after = COMPILE_AFTER): Plugin {
  type Seen = { runs: number; query: CompiledQuery | null; listAsObject?: ReturnType<typeof listAsObjectCheck> };
  const seen = new WeakMap<DocumentNode, Map<string, Seen>>();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const name = args.operationName ?? '';
      let byName = seen.get(args.document);
      if (!byName) seen.set(args.document, (byName = new Map()));
      let s = byName.get(name);
      if (!s) byName.set(name, (s = { runs: 0, query: null }));
      if (s.query === null) {
        if (++s.runs < after) return;
        // never again for this document when it is no query (a mutation runs on Yoga's executor) or cannot be
        // compiled as it must be
        if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return void (s.runs = -Infinity);
        const c = compilable(args.document) ? compileQuery(schema, copyOf(args.document), args.operationName ?? undefined) : null;
        if (!c || !isCompiledQuery(c)) return void (s.runs = -Infinity);
        s.query = c;
        s.listAsObject = listAsObjectCheck(schema, args.document, args.operationName);
      }
      const { query, listAsObject } = s;
      // a list given where an input object belongs: the interpreter refuses it (graphql-jit would take it as the
      // object: src/graphql/jit-variables.ts)
      if (listAsObject?.(args.variableValues ?? {})) return;
      setExecuteFn(async (a) => {
        const signal = (a as { signal?: AbortSignal }).signal;
        signal?.throwIfAborted();
        const result = await query.query(a.rootValue, a.contextValue, a.variableValues ?? {});
        // no data at all: the variables were refused before anything ran, and the interpreter says so in its words
        // (graphql-jit's messages differ, and Yoga answers 400 for the interpreter's)
        if (result.data === undefined) return executeFn(a);
        signal?.throwIfAborted();
        return asInterpreted(result, a.document);
      });
    },
  };
}

/**
 * Whether graphql-jit 0.8.9 answers the document as graphql-js does. It does not for `@skip`/`@include` on a
 * fragment spread or an inline fragment (it marks the fragment's fields, which every other spread of the fragment
 * shares, so they vanish there too), nor for a field answered under the name `__proto__` (its result objects are
 * literals, where that name sets the prototype). test/graphql-compiled.test.ts holds both.
 */
function compilable(document: DocumentNode): boolean {
  let ok = true;
  visit(document, {
    enter(node) {
      const conditional = (node.kind === Kind.FRAGMENT_SPREAD || node.kind === Kind.INLINE_FRAGMENT) && node.directives?.some((d) => d.name.value === 'skip' || d.name.value === 'include');
      if (conditional || (node.kind === Kind.FIELD && (node.alias ?? node.name).value === '__proto__')) {
        ok = false;
        return BREAK;
      }
      return undefined;
    },
  });
  return ok;
}

/**
 * The document graphql-jit compiles: a copy, since it writes onto the nodes it compiles, and the original is Yoga's
 * cached document that the interpreter and every later compile read. The copy shares `loc` (read only), so its
 * errors have the document's locations.
 */
function copyOf<T extends ASTNode | readonly ASTNode[]>(node: T): T {
  if (Array.isArray(node)) return node.map((n) => copyOf(n)) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k !== 'loc' && v && typeof v === 'object' ? copyOf(v as ASTNode) : v;
  return out as T;
}

/**
 * A compiled run's errors as the interpreter's:
 * - located at the same place in the document's source: graphql-jit's carry `locations` alone, which Yoga drops when
 *   it serialises an error (it rebuilds each from its nodes, or its source and positions);
 * - a field that broke its own type (a non-null field resolving null, a value its scalar cannot serialise) is a bug,
 *   which graphql-js reports with an `originalError` and graphql-jit without one: given one, the client sees it
 *   masked and the policy logs it (src/graphql/errors.ts `unexpectedError`).
 */
function asInterpreted(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  if (!result.errors?.length) return result;
  const source = document.loc?.source;
  let lineStarts: number[] | undefined;
  const positionOf = (line: number, column: number) => {
    if (!lineStarts) {
      lineStarts = [0];
      for (const m of source!.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(m.index + m[0].length);
    }
    return lineStarts[line - 1]! + column - 1;
  };
  const errors = result.errors.map((e) => {
    const broken = e.path !== undefined && e.originalError === undefined;
    const unplaced = !e.nodes && !e.positions && !!e.locations?.length && !!source;
    if (!broken && !unplaced) return e;
    return new GraphQLError(e.message, {
      source: unplaced ? source : undefined,
      positions: unplaced ? e.locations!.map((l) => positionOf(l.line, l.column)) : undefined,
      nodes: e.nodes,
      path: e.path,
      originalError: e.originalError ?? new Error(e.message),
      extensions: e.extensions,
    });
  });
  return { ...result, errors };
}

/**
 * A query whose client has gone away stops: the execution gets the client's signal (Yoga's executor stops between
 * fields, a compiled query before and after it runs), and the request is answered 499 (src/app.ts). A mutation runs to
 * its end: stopped between fields, it would leave its Idempotency-Key claim unsettled (the policy settles it when
 * execution is done). Yoga's own `useExecutionCancellation` read `request.signal` off the operation's context, which
 * is this app's RequestState: no execution ever got a signal (decision 0013).
 */
export function useQueryCancellation(): Plugin {
  return {
    onExecute({ args }) {
      // GraphQL over HTTP only: the channels' executor (REST, MCP; src/graphql/executor.ts) runs without a signal
      const request = (args.contextValue as { request?: { clientSignal?: AbortSignal; channel?: string } } | undefined)?.request;
      const signal = request?.channel === 'graphql' ? request.clientSignal : undefined;
      if (signal && getOperationAST(args.document, args.operationName)?.operation === 'query') (args as { signal?: AbortSignal }).signal = signal;
    },
  };
}
