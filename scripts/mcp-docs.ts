// Writes the generated tool table of docs/mcp.md from the REST route declarations (the tools are generated from
// them too); test/mcp-channel.test.ts fails when the committed table is stale.
import fs from 'node:fs';
import { withToolTable } from '../src/mcp/docs.js';
import { restRoutes } from '../src/rest/routes.js';

const file = 'docs/mcp.md';
const old = fs.readFileSync(file, 'utf8');
const text = withToolTable(old, restRoutes);
if (text === old) console.log(`${file}: up to date`);
else {
  fs.writeFileSync(file, text);
  console.log(`${file}: written`);
}
