import { z } from 'zod';

/**
 * What the GraphQL schema calls a zod schema, where its JSON Schema alone would not say it (src/graphql/inputs.ts
 * reads this registry through `z.toJSONSchema`'s `metadata` option):
 * - `id`: a named GraphQL type: an enum (one per id, shared by inputs and output fields) or a nested input object;
 * - `graphql`: a scalar or a type named elsewhere: a query parameter that takes a string and a typed value alike
 *   (a flag, a page size) is Boolean or Int; a uid the rest of the schema calls `ID`; a subset of an enum the schema
 *   already has (the service refuses the other values with its own message).
 * Kept out of zod's global registry so it does not show in the OpenAPI document.
 */
export const graphqlTypes = z.registry<{ id?: string; graphql?: string }>();

/** A scalar (`Int`, `Float`, `Boolean`, `String`, `ID`) or the name of a type the schema has. */
export function typedAs<T extends z.ZodType>(schema: T, graphql: string): T {
  graphqlTypes.add(schema, { graphql });
  return schema;
}

/** The schema is the GraphQL type `id` (an enum, or a nested input object). */
export function graphqlType<T extends z.ZodType>(schema: T, id: string): T {
  graphqlTypes.add(schema, { id });
  return schema;
}
