// Each input and each output defined once (issue 22, docs/decisions/0007-defined-once.md).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { buildSchema, findBreakingChanges } from 'graphql';
import { describe, expect, inject, it } from 'vitest';
import { schema } from '../src/graphql/schema.js';

describe('one definition, every channel', () => {
  it('a field added to a resource\u2019s Pothos object shows in GraphQL, REST, the OpenAPI document and MCP', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/fixtures/change-impact.ts'], {
      timeout: 60_000,
      env: { ...process.env, PGLITE_SNAPSHOT: inject('pgliteSnapshot') ?? '' },
    });
    const seen = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(seen).toEqual({
      sdl: true,
      rest: 'VHONE-CALL',
      graphql: 'VHONE-CALL',
      openapi: { type: 'string', description: 'The radio call sign', maxLength: expect.any(Number) },
      mcp: 'VHONE-CALL',
    });
  }, 180_000);
});

describe('GraphQL stays compatible', () => {
  it('against the schema before issue 22, the only breaking changes are input fields the service requires, now non-null, and a completion’s write status as the WriteStatus enum', () => {
    const before = buildSchema(fs.readFileSync(new URL('./fixtures/schema-before-issue-22.graphql', import.meta.url), 'utf8'));
    const changes = findBreakingChanges(before, schema);
    // one output: FormCompletionWriteResult.status was a String that only ever held `created`; it is the WriteStatus enum
    const status = 'FormCompletionWriteResult.status changed type from String! to WriteStatus!.';
    expect(changes.filter((c) => c.description === status)).toHaveLength(1);
    for (const c of changes.filter((x) => x.description !== status)) {
      expect(c.type, c.description).toBe('FIELD_CHANGED_KIND');
      const m = /^(\w+)\.(\w+) changed type from (\w+) to (\w+)!\.$/.exec(c.description);
      expect(m, c.description).not.toBeNull();
      expect(m![4], c.description).toBe(m![3]); // the same type, non-null
      expect(schema.getType(m![1])?.astNode?.kind ?? 'InputObjectTypeDefinition', c.description).toBe('InputObjectTypeDefinition');
      expect(/Input$/.test(m![1]), `${m![1]} is an input type`).toBe(true);
    }
  });
});
