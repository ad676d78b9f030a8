import { z } from 'zod';

/**
 * The GraphQL type of a schema whose zod type alone would not say it (src/graphql/zod-input.ts reads it):
 * - a query parameter that takes a string and a typed value alike (a flag, a page size): its typed form;
 * - a uid the rest of the schema calls `ID`;
 * - a subset of an enum the schema already has (the service refuses the other values with its own message).
 * Kept out of zod's global registry so it does not show in the OpenAPI document.
 */
/** A scalar (`Int`, `Float`, `Boolean`, `String`, `ID`) or the name of an enum type. */
export type GraphQLTypeName = string;
export const graphqlHints = z.registry<{ graphql: string }>();

export function typedAs<T extends z.ZodType>(schema: T, graphql: GraphQLTypeName): T {
  graphqlHints.add(schema, { graphql });
  return schema;
}
