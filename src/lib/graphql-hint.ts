import { z } from 'zod';

/**
 * The GraphQL scalar of a schema that takes a REST query string and a typed value alike (a flag, a page size): a
 * GraphQL argument takes the typed form. Read by src/graphql/zod-input.ts; kept out of zod's global registry so it
 * does not show in the OpenAPI document.
 */
export const graphqlHints = z.registry<{ graphql: 'Int' | 'Float' | 'Boolean' | 'String' }>();

export function typedAs<T extends z.ZodType>(schema: T, graphql: 'Int' | 'Float' | 'Boolean' | 'String'): T {
  graphqlHints.add(schema, { graphql });
  return schema;
}
