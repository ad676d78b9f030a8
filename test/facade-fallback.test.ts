// The REST façade's last line (src/rest/facade.ts, docs/decisions/0001): a body that a route's service check lets
// through but GraphQL's types refuse is a 400 problem, not a 500; a resolver that fails unexpectedly is a 500. No
// shipped route reaches the first (test/property.test.ts asserts it); this is the net for a check that drifts.
import { buildSchema } from 'graphql';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRestFacade } from '../src/rest/facade.js';
import { createExecutor } from '../src/graphql/executor.js';
import { operationPolicy } from '../src/graphql/policy.js';
import { internalRequest } from '../src/context.js';
import type { RouteSpec } from '../src/rest/contract.js';

const schema = buildSchema(`
  type Query { ok: Boolean }
  input MakeInput { n: Int }
  type Mutation { make(input: MakeInput!): Boolean, boom(input: MakeInput!): Boolean }
`);
const mutations = schema.getMutationType()!.getFields();
mutations.make.resolve = () => true;
mutations.boom.resolve = () => {
  throw new Error('a bug in a resolver');
};

const route = (name: 'make' | 'boom'): RouteSpec => ({
  operationId: name,
  field: `Mutation.${name}`,
  method: 'POST',
  path: `/${name}`,
  summary: name,
  tag: 'test',
  body: z.object({ n: z.unknown() }),
  bodyArg: 'input',
  accept: (b) => b, // a check that lets anything through
  status: 200,
  response: z.boolean(),
  errors: [400],
});

const handle = createRestFacade({
  schema,
  routes: [route('make'), route('boom')],
  basePath: '/api/v1',
  bodyLimitBytes: 1024,
  logger: pino({ level: 'silent' }),
  executor: createExecutor(schema, [operationPolicy()]),
});

async function post(path: string, body: unknown) {
  const url = new URL(`http://fleetops.test/api/v1${path}`);
  const request = new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const res = await handle(request, url, { actor: { scope: 'read_write' }, request: internalRequest() } as never);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

describe('what the façade answers when GraphQL refuses what a check let through', () => {
  it('a value GraphQL cannot coerce is a 400 problem naming it', async () => {
    const r = await post('/make', { n: 'two' });
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^application\/problem\+json/);
    expect(r.body.code).toBe('bad_request');
    expect(r.body.detail).toMatch(/^invalid request: .*Int cannot represent/);
  });

  it('the same route with a good value runs', async () => {
    const r = await post('/make', { n: 2 });
    expect(r).toMatchObject({ status: 200, body: true });
  });

  it('an unexpected failure inside a resolver is a 500 that tells nothing of it', async () => {
    const r = await post('/boom', { n: 2 });
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toMatch(/a bug in a resolver/);
  });
});
