import { API_VERSION } from './app.js';
import { printSchemaSDL, schema } from './graphql/schema.js';
import { buildOpenApi } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';

/** The committed, generated contract files: the GraphQL SDL and the OpenAPI document. */
export function contractFiles(): Record<string, string> {
  return {
    'schema.graphql': printSchemaSDL(),
    'docs/openapi.json': JSON.stringify(buildOpenApi(restRoutes, { version: API_VERSION, schema }), null, 2) + '\n',
  };
}
