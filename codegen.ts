import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed GraphQL operations from schema.graphql: the tests' operations (test/operations) become TypedDocumentNodes
 * in test/generated/graphql.ts, the operator console's (console/operations) in console/generated/graphql.ts. Run
 * `npm run codegen`; `npm install` runs it before building the console, and the test run generates it too
 * (test/global-setup.ts).
 */
const typed = {
  plugins: ['typescript-operations', 'typed-document-node'],
  config: {
    scalars: { JSON: 'any', DateTime: 'string' },
    enumsAsTypes: true,
    useTypeImports: true,
  },
};

const config: CodegenConfig = {
  schema: 'schema.graphql',
  generates: {
    'test/generated/graphql.ts': { documents: ['test/operations/**/*.graphql'], ...typed },
    'console/generated/graphql.ts': { documents: ['console/operations/**/*.graphql'], ...typed },
  },
  silent: true,
};

export default config;
