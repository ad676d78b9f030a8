// Writes schema.graphql and docs/openapi.json from code (`npm run contract`); test/graphql.test.ts fails
// when either committed file is stale.
import fs from 'node:fs';
import { contractFiles } from '../src/contract-files.js';

for (const [file, text] of Object.entries(contractFiles())) {
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (old === text) console.log(`${file}: up to date`);
  else {
    fs.writeFileSync(file, text);
    console.log(`${file}: written`);
  }
}
