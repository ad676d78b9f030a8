import { builder } from './builder.js';

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

import { WRITE_STATUSES, type WriteResult } from '../lib/write-result.js';

/** Result types shared by every resource's mutations (the status family is src/lib/write-result.ts). */
export { WRITE_STATUSES };

export const WriteStatusEnum = builder.enumType('WriteStatus', {
  description: 'What a write did. Each resource uses the subset its contract names.',
  values: WRITE_STATUSES,
});

export type WriteResultShape = WriteResult;

export const WriteResultType = builder.objectRef<WriteResultShape>('WriteResult').implement({
  fields: (t) => ({
    uid: t.exposeID('uid'),
    status: t.field({ type: WriteStatusEnum, resolve: (r) => r.status }),
  }),
});

export const BatchErrorType = builder.objectRef<{ index: number; error: string }>('BatchError').implement({
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position of the failed item in the input' }),
    error: t.exposeString('error'),
  }),
});

export const BatchResultType = builder
  .objectRef<{ results: WriteResultShape[]; errors: { index: number; error: string }[] }>('BatchResult')
  .implement({
    fields: (t) => ({
      results: t.field({ type: [WriteResultType], resolve: (r) => r.results }),
      errors: t.field({ type: [BatchErrorType], resolve: (r) => r.errors }),
    }),
  });

/** GraphQL optional args arrive as null; services take absent. */
export function stripNulls<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], null> } {
  const out: { [K in keyof T]?: Exclude<T[K], null> } = {};
  for (const [k, v] of Object.entries(o) as [keyof T, T[keyof T]][]) if (v !== null && v !== undefined) out[k] = v as Exclude<T[keyof T], null>;
  return out;
}

/**
 * The fields every list bounded by gaps.md §17 has besides `data`: the page's size and the cursor of the next page,
 * null on the last one. On REST (and MCP) `nextCursor` is left out when null, so a list that fits in one answer is
 * the body it always was, `{data, count}` (docs/api-notes.md, "Lists"). One definition, spread into each list type.
 */
export function pageFields<P extends { count: number; nextCursor: string | null }>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, P>) {
  return {
    count: t.int({ description: 'Records in this page', resolve: (p) => p.count }),
    nextCursor: t.string({
      nullable: true,
      description: 'Pass as `cursor` for the next page; null (left out on REST) at the end',
      resolve: (p) => p.nextCursor,
    }),
  };
}
