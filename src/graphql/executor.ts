import { envelop, useEngine, useSchema, type Plugin as EnvelopPlugin } from '@envelop/core';
import type { Plugin } from 'graphql-yoga';
import { parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
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
 * too. GraphQL over HTTP runs on Yoga's executor, and a client's repeated query compiled (src/graphql/compiled-queries.ts).
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
