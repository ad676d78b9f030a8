import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import '../modules/index.js';

/** The whole GraphQL schema: every module (src/modules/index.ts) registers its types on the one builder. */
// fields in the order the modules define them (the REST bodies follow it, as the contract shows them); schema.graphql
// is printed sorted
export const schema = builder.toSchema({ sortSchema: false });

/** The SDL committed as schema.graphql (a test fails when it is stale). */
export function printSchemaSDL(): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
