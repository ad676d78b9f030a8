import { generate } from '@graphql-codegen/cli';
import config from '../codegen.js';

/** Generates the typed GraphQL operations the tests import, from the committed schema.graphql. */
export default async function setup() {
  await generate(config, true);
}
