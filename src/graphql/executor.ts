import { envelop, useEngine, useSchema, type Plugin as EnvelopPlugin } from '@envelop/core';
import type { Plugin } from 'graphql-yoga';
import { GraphQLError, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { RequestContext } from '../context.js';

/**
 * The operation executor of the channels that build their own operations (the REST façade, MCP tools): the same
 * envelop plugins as GraphQL over HTTP (src/graphql/policy.ts), so each operation gets the same policy. Documents
 * are built and validated once, when the channel starts; a call only executes.
 *
 * The engine is graphql-jit (decision 0012): each channel document is compiled once, when the channel starts, into a
 * function that runs the operation (the per-row field execution of graphql-js was what a REST list spent most of its
 * own time in). These channels' documents are the routes' fixed ones, and their calls ran to the end with graphql-js
 * too. GraphQL over HTTP runs on Yoga's executor, and a client's repeated query compiled (`useCompiledQueries` below).
 */
export interface Executor {
  /** Validates a document the channel built; throws at start-up when it does not fit the schema. */
  prepare(document: DocumentNode, name: string): DocumentNode;
  run(ctx: RequestContext, document: DocumentNode, variables: Record<string, unknown>): Promise<ExecutionResult>;
}

export function createExecutor(schema: GraphQLSchema, plugins: Plugin[]): Executor {
  const compiled = new WeakMap<DocumentNode, CompiledQuery>();
  const compile = (document: DocumentNode): CompiledQuery => {
    let q = compiled.get(document);
    if (!q) {
      const c = compileQuery(schema, document);
      if (!isCompiledQuery(c)) throw new Error(`operation does not compile: ${c.errors?.map((e) => e.message).join('; ')}`);
      compiled.set(document, (q = c));
    }
    return q;
  };
  // envelop's plugins see and may replace the arguments; the compiled operation runs what they hand over
  const execute = (args: ExecutionArgs) => compile(args.document).query(args.rootValue, args.contextValue, args.variableValues ?? {});
  const getEnveloped = envelop({ plugins: [useEngine({ parse, validate, execute, specifiedRules }), useSchema(schema),
    // yoga's Plugin type is envelop's with yoga's request fields in its context; these channels run only the policy's
    // envelop hooks, which read the request context this executor passes (library types force the widening)
    ...(plugins as unknown as EnvelopPlugin[])] });
  return {
    prepare(document, name) {
      const errors = validate(schema, document);
      if (errors.length) throw new Error(`operation ${name} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
      // compiled now, not on a first call: a document that does not compile stops start-up instead of failing a
      // request after the policy has charged it and claimed its Idempotency-Key (63 route documents: about 50 ms)
      compile(document);
      return document;
    },
    async run(ctx, document, variables) {
      const { execute: run } = getEnveloped(ctx);
      return (await run({ schema, document, variableValues: variables, contextValue: ctx })) as ExecutionResult;
    },
  };
}

/** graphql-jit's compiled operation, or null when it cannot compile the document (its errors are graphql-js's to give). */
function compiled1(schema: GraphQLSchema, document: DocumentNode, operationName?: string): CompiledQuery | null {
  const c = compileQuery(schema, document, operationName);
  return isCompiledQuery(c) ? c : null;
}

/** How often a client's query runs before it is compiled (`useCompiledQueries`). */
export const COMPILE_AFTER = 10;

/**
 * GraphQL over HTTP: a query document a client sends again and again (a front end's page, an integration's poll) runs
 * compiled by graphql-jit from its `after`th run on, as the channels' fixed documents do (decision 0013). Until then,
 * and for every mutation and subscription, Yoga's executor runs it. Counted and kept by document: Yoga hands the
 * same parsed document for the same text (its parse cache, 1,000 documents), so what is kept here goes with it. A
 * document graphql-jit cannot compile stays on Yoga's executor.
 *
 * A compiled operation does not stop between fields when the client goes away; the request's signal is looked at
 * before and after it runs, so a cancelled request still ends as one (Yoga answers 499 and nothing is logged as an
 * error).
 */
export function useCompiledQueries(schema: GraphQLSchema, after = COMPILE_AFTER): Plugin {
  type Seen = { runs: number; query: CompiledQuery | null };
  const seen = new WeakMap<DocumentNode, Map<string, Seen>>();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const name = args.operationName ?? '';
      let byName = seen.get(args.document);
      if (!byName) seen.set(args.document, (byName = new Map()));
      let s = byName.get(name);
      if (!s) byName.set(name, (s = { runs: 0, query: null }));
      if (s.query === null) {
        if (++s.runs < after || getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
        s.query = compiled1(schema, args.document, args.operationName ?? undefined);
        if (!s.query) return void (s.runs = -Infinity); // never again
      }
      const query = s.query;
      setExecuteFn(async (a) => {
        const signal = (a as { signal?: AbortSignal }).signal;
        signal?.throwIfAborted();
        const result = await query.query(a.rootValue, a.contextValue, a.variableValues ?? {});
        // no data at all: the variables were refused before anything ran, and the interpreter says so in its words
        // (graphql-jit's messages differ, and Yoga answers 400 for the interpreter's)
        if (result.data === undefined) return executeFn(a);
        signal?.throwIfAborted();
        return located(result, a.document);
      });
    },
  };
}

/**
 * graphql-jit's errors say where they are as `locations` alone, which Yoga drops when it serialises an error (it
 * rebuilds each from its nodes, or its source and positions). Each becomes graphql-js's error at the same place
 * in the document's source, so a client gets the locations it gets from the interpreter.
 */
function located(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  const source = document.loc?.source;
  if (!result.errors?.length || !source) return result;
  const lineStarts = [0];
  for (const m of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(m.index + m[0].length);
  const errors = result.errors.map((e) =>
    e.nodes || e.positions || !e.locations?.length
      ? e
      : new GraphQLError(e.message, {
          source,
          positions: e.locations.map((l) => lineStarts[l.line - 1]! + l.column - 1),
          path: e.path,
          originalError: e.originalError,
          extensions: e.extensions,
        }),
  );
  return { ...result, errors };
}
