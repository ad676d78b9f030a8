// The OpenAPI document passes Spectral's OpenAPI rules and the OWASP API Security ruleset (.spectral.yaml) with
// zero errors (warnings are reported, not failed on), and a projected flight-log list (`fields`) matches its own schema.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody } from './helpers.js';

const run = promisify(execFile);

describe('Spectral OWASP', () => {
  it('reports no error on docs/openapi.json', async () => {
    const bin = path.resolve('node_modules/.bin/spectral');
    const out = await run(bin, ['lint', 'docs/openapi.json', '--ruleset', '.spectral.yaml', '-f', 'json', '--quiet'], { maxBuffer: 64 << 20 }).catch((e) => e);
    const results = JSON.parse(out.stdout) as { code: string; severity: number; path: string[]; message: string }[];
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(errors).toEqual([]);
    expect(results.length).toBeGreaterThan(0); // it did lint: warnings such as string-restricted remain
  }, 180_000);

  it('a `fields` list answer matches FlightLogListResponse', async () => {
    const env = await createTestEnv();
    try {
      await env.json('POST', '/api/v1/flight-logs', { body: flightLogBody({ hobbs: 1 }) });
      const doc = env.app.openapi as any;
      const ajv = new Ajv2020({ strict: false });
      ajv.addSchema({ $id: 'urn:fleetops:openapi', components: { schemas: doc.components.schemas } });
      const validate = ajv.compile({ $ref: 'urn:fleetops:openapi#/components/schemas/FlightLogListResponse' });
      const projected = await env.json('GET', '/api/v1/flight-logs?fields=hobbs');
      expect(validate(projected.body), JSON.stringify(validate.errors)).toBe(true);
      const full = await env.json('GET', '/api/v1/flight-logs');
      expect(validate(full.body), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ data: [{ hobbs: 1 }], count: 1, nextCursor: null })).toBe(false); // uid is always there
    } finally {
      await env.close();
    }
  });
});

describe('examples', () => {
  it('every operation shows an example of its success body (and request body), valid against its schema', async () => {
    const env = await createTestEnv();
    try {
      const doc = env.app.openapi as any;
      const ajv = new Ajv2020({ strict: false });
      ajv.addFormat('int32', true);
      ajv.addFormat('int64', true);
      ajv.addSchema({ $id: 'urn:fleetops:examples', components: { schemas: doc.components.schemas } });
      const check = (schema: { $ref: string }, example: unknown, where: string) => {
        expect(example, where).toBeDefined();
        const v = ajv.compile({ $ref: `urn:fleetops:examples${schema.$ref}` });
        expect(v(example), `${where}: ${JSON.stringify(v.errors)}`).toBe(true);
      };
      let n = 0;
      for (const [path, ops] of Object.entries<any>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(ops)) {
          const ok = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))![1].content['application/json'];
          check(ok.schema, ok.example, `${method} ${path} response`);
          const body = op.requestBody?.content['application/json'];
          if (body) check(body.schema, body.example, `${method} ${path} request`);
          n++;
        }
      }
      expect(n).toBeGreaterThan(40);
    } finally {
      await env.close();
    }
  });
});
