import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import '../modules/aircraft/graphql.js';
import '../modules/users/graphql.js';
import '../modules/flight-logs/graphql.js';
import '../modules/components/graphql.js';
import '../modules/vehicles/graphql.js';
import '../modules/schedule/graphql.js';
import '../modules/forms/graphql.js';
import '../modules/completions/graphql.js';
import '../modules/aggregation/graphql.js';
import '../modules/webhooks/graphql.js';
import '../modules/audit/graphql.js';
import '../modules/api-keys/graphql.js';

/** The whole GraphQL schema: every module registers its types on the one builder, imported above. */
// fields in the order the modules define them (the REST bodies follow it, as the contract shows them); schema.graphql
// is printed sorted
export const schema = builder.toSchema({ sortSchema: false });

/** The SDL committed as schema.graphql (a test fails when it is stale). */
export function printSchemaSDL(): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
