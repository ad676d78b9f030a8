import { envelop, useEngine, useSchema, type Plugin as EnvelopPlugin } from '@envelop/core';
import type { Plugin } from 'graphql-yoga';
import { execute as interpret, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { appErrorAsGraphQL } from './errors.js';
import { listAsObjectCheck, singleForListCheck } from './jit-variables.js';

/**
 * The operation executor of the channels that build their own operations (the REST façade, MCP tools): the same
 * envelop plugins as GraphQL over HTTP (src/graphql/policy.ts), so each operation gets the same policy. Documents
 * are built when the channel starts and validated and compiled once, on their first call; later calls only execute.
 *
 * The engine is graphql-jit (decision 0012): each channel document is compiled once, on its first call, into a
 * function that runs the operation (the per-row field execution of graphql-js was what a REST list spent most of its
 * own time in). These channels' documents are the routes' fixed ones, and their calls ran to the end with graphql-js
 * too. GraphQL over HTTP runs on Yoga's executor, and a client's repeated query compiled (src/graphql/compiled-queries.ts).
 */
export interface Executor {
  /**
   * Registers a document the channel built. It is validated and compiled on its first call, before the policy
   * sees that call (a document that does not fit the schema fails the call before the policy charges it or claims
   * its Idempotency-Key), so start-up does not wait for the channel's documents (decision 0012).
   */
  prepare(document: DocumentNode, name: string): DocumentNode;
  /** Validates and compiles every registered document now; throws naming the first that does not fit (tests). */
  compileAll(): void;
  run(ctx: RequestContext, document: DocumentNode, variables: Record<string, unknown>): Promise<ExecutionResult>;
}

export function createExecutor(schema: GraphQLSchema, plugins: Plugin[]): Executor {
  const names = new Map<DocumentNode, string>();
  type Compiled = { query: CompiledQuery; listAsObject: ReturnType<typeof listAsObjectCheck>; singleForList: ReturnType<typeof singleForListCheck> };
  const compiled = new WeakMap<DocumentNode, Compiled>();
  const compile = (document: DocumentNode): Compiled => {
    let q = compiled.get(document);
    if (!q) {
      const name = names.get(document) ?? 'unnamed';
      const errors = validate(schema, document);
      if (errors.length) throw new Error(`operation ${name} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
      const c = compileQuery(schema, document);
      if (!isCompiledQuery(c)) throw new Error(`operation ${name} does not compile: ${c.errors?.map((e) => e.message).join('; ')}`);
      compiled.set(document, (q = { query: c, listAsObject: listAsObjectCheck(schema, document), singleForList: singleForListCheck(schema, document) }));
    }
    return q;
  };
  // envelop's plugins see and may replace the arguments; the compiled operation runs what they hand over, unless its
  // variables hold a list where an input object belongs: graphql-js then refuses them, as GraphQL over HTTP does
  // (graphql-jit would take the list as the object: src/graphql/jit-variables.ts)
  // These channels' variables are JSON (a REST body, an MCP tool's arguments), where a list is an array: a single
  // value where a list belongs is refused before anything runs, where GraphQL would take it as a list of one
  // (decision 0005). The operation's policy then puts the refusal in the service's words, as for any value GraphQL's
  // types refuse (explainRefusedVariables, src/graphql/policy.ts); this error stands where no check says more.
  const execute = (args: ExecutionArgs) => {
    const { query, listAsObject, singleForList } = compile(args.document);
    const variables = args.variableValues ?? {};
    const single = singleForList?.(variables);
    if (single) {
      const path = single.pointer || `/${single.variable}`;
      const name = path.split('/').findLast((p) => !/^\d+$/.test(p)) ?? single.variable;
      return { errors: [appErrorAsGraphQL(new ValidationError('invalid request body', [{ path, message: `${name} must be an array` }]))] };
    }
    return listAsObject?.(variables) ? interpret(args) : query.query(args.rootValue, args.contextValue, variables);
  };
  const getEnveloped = envelop({ plugins: [useEngine({ parse, validate, execute, specifiedRules }), useSchema(schema),
    // yoga's Plugin type is envelop's with yoga's request fields in its context; these channels run only the policy's
    // envelop hooks, which read the request context this executor passes (library types force the widening)
    ...(plugins as unknown as EnvelopPlugin[])] });
  return {
    prepare(document, name) {
      names.set(document, name);
      return document;
    },
    compileAll() {
      for (const document of names.keys()) compile(document);
    },
    async run(ctx, document, variables) {
      // compiled on the first call (the 63 route documents were 8 % of a start-up's profile), before the policy's hooks run
      compile(document);
      const { execute: run } = getEnveloped(ctx);
      return (await run({ schema, document, variableValues: variables, contextValue: ctx })) as ExecutionResult;
    },
  };
}
