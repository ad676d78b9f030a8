import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, Kind, getOperationAST, parse, type DocumentNode, type ValidationRule } from 'graphql';
import { useExecutionCancellation, type Plugin } from 'graphql-yoga';

/**
 * GraphQL limits (issue: GraphQL cannot be used to stall the server). graphql-armor bounds depth, aliases, cost,
 * tokens and directives during validation, before any resolver runs; field suggestions are off in production.
 * Strings holding NUL are refused like everywhere else. A request may carry at most MAX_MUTATIONS root mutation
 * fields, and each one past the first is charged to the rate limit (see operationInfo). A request whose client
 * disconnects is cancelled (resolvers not yet started do not run).
 */
export const LIMITS = { maxDepth: 10, maxAliases: 20, maxTokens: 3000, maxDirectives: 20, maxCost: 20_000, maxMutations: 10 };

const noNulStrings: ValidationRule = (context) => ({
  StringValue(node) {
    if (node.value.includes('\u0000')) {
      context.reportError(new GraphQLError('strings must not contain the NUL character (\\u0000)', { nodes: [node], extensions: { code: 'VALIDATION_ERROR' } }));
    }
  },
});

const mutationCap: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation === 'mutation' && node.selectionSet.selections.length > LIMITS.maxMutations) {
      context.reportError(
        new GraphQLError(`a request may run at most ${LIMITS.maxMutations} mutations (got ${node.selectionSet.selections.length}); use the batch operations`, {
          nodes: [node],
          extensions: { code: 'VALIDATION_ERROR' },
        }),
      );
    }
  },
});

export function graphqlLimitPlugins(production: boolean): Plugin[] {
  return [
    // a client that goes away stops the work it asked for
    useExecutionCancellation(),
    EnvelopArmorPlugin({
      maxDepth: { n: LIMITS.maxDepth },
      maxAliases: { n: LIMITS.maxAliases },
      maxTokens: { n: LIMITS.maxTokens },
      maxDirectives: { n: LIMITS.maxDirectives },
      costLimit: { maxCost: LIMITS.maxCost },
      blockFieldSuggestion: { enabled: production },
    }) as Plugin,
    {
      onValidate({ addValidationRule }) {
        addValidationRule(noNulStrings);
        addValidationRule(mutationCap);
      },
    },
  ];
}

/** The request's operation type and how many root mutation fields it has (null type when it does not parse). */
export function operationInfo(body: unknown): { type: 'query' | 'mutation' | 'subscription' | null; mutations: number } {
  const none = { type: null, mutations: 0 };
  if (!body || typeof body !== 'object') return none;
  const { query, operationName } = body as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return none;
  let doc: DocumentNode;
  try {
    doc = parse(query, { maxTokens: LIMITS.maxTokens });
  } catch {
    return none; // yoga answers the syntax error
  }
  const op = getOperationAST(doc, typeof operationName === 'string' ? operationName : undefined);
  if (!op) return none;
  return { type: op.operation, mutations: op.operation === 'mutation' ? op.selectionSet.selections.filter((s) => s.kind === Kind.FIELD).length : 0 };
}
