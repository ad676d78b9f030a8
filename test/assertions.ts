import { expect } from 'vitest';

/** Assertions on problem+json answers shared by the HTTP suites. */
export type R = { status: number; body: any; res: Response };

/** A problem+json answer with this status (and code, when given). */
export function expectProblem(r: R, status: number, code?: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
  expect(r.body.status).toBe(status);
  expect(typeof r.body.title).toBe('string');
  expect(typeof r.body.type).toBe('string');
  expect(typeof r.body.detail).toBe('string');
  if (code) expect(r.body.code).toBe(code);
}

/** 400 validation_error whose errors[] has JSON-pointer paths, one of them matching `path` when given. */
export function expectValidation(r: R, path?: string | RegExp) {
  expectProblem(r, 400, 'validation_error');
  expect(Array.isArray(r.body.errors), 'errors[]').toBe(true);
  expect(r.body.errors.length).toBeGreaterThan(0);
  for (const e of r.body.errors) {
    expect(typeof e.message).toBe('string');
    expect(e.path).toMatch(/^(\/[^/]*)*$/);
  }
  if (path !== undefined) {
    const paths: string[] = r.body.errors.map((e: any) => e.path);
    const hit = paths.some((p) => (typeof path === 'string' ? p === path : path.test(p)));
    expect(hit, `an error at ${path} among ${JSON.stringify(paths)}`).toBe(true);
  }
}
