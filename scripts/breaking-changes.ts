// Lists what graphql's findBreakingChanges finds between a schema file and the current schema:
//   npx tsx scripts/breaking-changes.ts [OLD_SCHEMA_FILE]   (default: test/fixtures/schema-before-issue-22.graphql)
// Issue 22 allows one kind: an input field the service requires, now non-null (FIELD_CHANGED_KIND on an input type),
// and one output: FormCompletionWriteResult.status, a String that only held `created`, is the WriteStatus enum.
import fs from 'node:fs';
import { buildSchema, findBreakingChanges } from 'graphql';
import { schema } from '../src/graphql/schema.js';

const file = process.argv[2] ?? 'test/fixtures/schema-before-issue-22.graphql';
const changes = findBreakingChanges(buildSchema(fs.readFileSync(file, 'utf8')), schema);
for (const c of changes) console.log(`${c.type}: ${c.description}`);
console.log(`${changes.length} breaking change(s) since ${file}`);
