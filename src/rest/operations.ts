import { buildOperationNodeForField, type SelectedFields } from '@graphql-tools/utils';
import {
  Kind,
  OperationTypeNode,
  getNamedType,
  isObjectType,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { RouteSpec } from './contract.js';

/**
 * The GraphQL operation a REST route runs: the one SOFA would build for the route's root field
 * (`buildOperationNodeForField` from @graphql-tools/utils, the function SOFA itself uses), selecting every field
 * of the result that belongs to the REST representation. Fields marked `extensions: { rest: false }` (relations
 * such as a log's aircraft, for GraphQL clients) are left out. Built once per route at start-up.
 */
export function restSelection(type: GraphQLNamedType, seen: Set<string> = new Set()): SelectedFields {
  if (!isObjectType(type)) return true;
  if (seen.has(type.name)) throw new Error(`REST representation of ${type.name} is recursive: mark the recursive field rest: false`);
  const next = new Set(seen).add(type.name);
  const out: Record<string, SelectedFields> = {};
  for (const field of Object.values(type.getFields())) {
    if (field.extensions?.rest === false) continue;
    out[field.name] = restSelection(getNamedType(field.type), next);
  }
  return out;
}

export function routeOperation(schema: GraphQLSchema, route: RouteSpec): DocumentNode {
  const [root, field] = route.field.split('.') as ['Query' | 'Mutation', string];
  const kind = root === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION;
  const rootType = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const def = rootType?.getFields()[field];
  if (!def) throw new Error(`route ${route.operationId}: no GraphQL field ${route.field}`);
  const selection = restSelection(getNamedType(def.type));
  const operation = buildOperationNodeForField({
    schema,
    kind,
    field,
    depthLimit: 100, // the selection decides the depth
    selectedFields: selection,
  });
  return { kind: Kind.DOCUMENT, definitions: [operation] };
}
