import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
}, 60_000);
afterAll(() => env?.close());

it('lists aircraft and a user, and answers GraphQL', async () => {
  const r = await env.json('GET', '/api/v1/aircraft');
  expect(r.status).toBe(200);
  expect(r.body.count).toBe(2);
  const u = await env.json('GET', '/api/v1/users/acme-pilot');
  expect(u.status).toBe(200);
  const g = await env.gql('{ aircraft(id: "acme-ac-1") { uid registration totals } }');
  expect(g.body.data.aircraft.totals).toEqual({ hobbs: 1200.5, landings: 3000 });
  const nf = await env.gql('{ aircraft(id: "globex-ac-1") { uid } }');
  console.log(nf.status, JSON.stringify(nf.body));
  const x = await env.json('GET', '/api/v1/aircraft/globex-ac-1');
  console.log(x.status, JSON.stringify(x.body));
  const q = await env.json('GET', '/api/v1/users?status=Bogus');
  console.log(q.status, JSON.stringify(q.body));
});
