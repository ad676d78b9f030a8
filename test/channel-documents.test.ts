// The REST façade's and MCP's operations (src/graphql/executor.ts, decision 0012) are validated and compiled on their
// first call, not at start-up. What that must keep: every route's document fits the schema and compiles (checked here,
// so a broken one never ships), and a document that does not fit fails its call before the policy sees it.
import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import pino from 'pino';
import type { Plugin } from 'graphql-yoga';
import { createExecutor } from '../src/graphql/executor.js';
import { schema } from '../src/graphql/schema.js';
import { createRestFacade } from '../src/rest/facade.js';
import { restRoutes } from '../src/rest/routes.js';
import type { RequestContext } from '../src/context.js';

describe('channel documents', () => {
  it('every REST route (and so every MCP tool) has a document that fits the schema and compiles', () => {
    const executor = createExecutor(schema, []);
    const prepared: string[] = [];
    createRestFacade({
      schema,
      routes: restRoutes,
      basePath: '/api/v1',
      bodyLimitBytes: 1 << 20,
      logger: pino({ level: 'silent' }),
      executor: { ...executor, prepare: (d, name) => (prepared.push(name), executor.prepare(d, name)) },
    });
    expect(prepared).toHaveLength(restRoutes.length);
    expect(() => executor.compileAll()).not.toThrow();
  });

  it('a document that does not fit fails its first call before the policy runs (nothing charged, no key claimed)', async () => {
    const seen: string[] = [];
    const spy: Plugin = { onExecute: () => void seen.push('execute') };
    const executor = createExecutor(schema, [spy]);
    const broken = executor.prepare(parse('query Broken { noSuchField }'), 'Broken');
    await expect(executor.run({} as RequestContext, broken, {})).rejects.toThrow(/operation Broken does not fit the schema/);
    expect(() => executor.compileAll()).toThrow(/operation Broken does not fit the schema/);
    expect(seen).toEqual([]);
    // a document that fits runs through the plugins
    const ok = executor.prepare(parse('query Ok { __typename }'), 'Ok');
    expect((await executor.run({} as RequestContext, ok, {})).data).toEqual({ __typename: 'Query' });
    expect(seen).toEqual(['execute']);
  });
});
