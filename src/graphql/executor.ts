import { envelop, useEngine, useSchema, type Plugin as EnvelopPlugin } from '@envelop/core';
import type { Plugin } from 'graphql-yoga';
import { execute, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.js';

/**
 * The operation executor of the channels that build their own operations (the REST façade, MCP tools): the same
 * envelop plugins as GraphQL over HTTP (src/graphql/policy.ts), so each operation gets the same policy. Documents
 * are built and validated once, when the channel starts; a call only executes.
 */
export interface Executor {
  /** Validates a document the channel built; throws at start-up when it does not fit the schema. */
  prepare(document: DocumentNode, name: string): DocumentNode;
  run(ctx: RequestContext, document: DocumentNode, variables: Record<string, unknown>): Promise<ExecutionResult>;
}

export function createExecutor(schema: GraphQLSchema, plugins: Plugin[]): Executor {
  const getEnveloped = envelop({ plugins: [useEngine({ parse, validate, execute, specifiedRules }), useSchema(schema), 
    // yoga's Plugin type is envelop's with yoga's request fields in its context; these channels run only the policy's
    // envelop hooks, which read the request context this executor passes (library types force the widening)
    ...(plugins as unknown as EnvelopPlugin[])] });
  return {
    prepare(document, name) {
      const errors = validate(schema, document);
      if (errors.length) throw new Error(`operation ${name} does not fit the schema: ${errors.map((e) => e.message).join('; ')}`);
      return document;
    },
    async run(ctx, document, variables) {
      const { execute } = getEnveloped(ctx);
      return (await execute({ schema, document, variableValues: variables, contextValue: ctx })) as ExecutionResult;
    },
  };
}
