import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed GraphQL operations from schema.graphql: the tests' operations (test/operations) become TypedDocumentNodes
 * in test/generated/graphql.ts. Run `npm run codegen`; the test run generates it too (test/global-setup.ts).
 * Front ends point `documents` at their own operations the same way.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/operations/**/*.graphql'],
  generates: {
    'test/generated/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        scalars: { JSON: 'any', DateTime: 'string' },
        enumsAsTypes: true,
        useTypeImports: true,
      },
    },
  },
  silent: true,
};

export default config;
