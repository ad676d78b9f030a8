import { builder } from './builder.js';
import { REST_NULLABLE } from '../rest/representation.js';

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
 * The fields every paged list type has besides `data` (gaps.md §17): the page's size and the cursor of the next
 * page, null on the last one. One definition, spread into each list type's fields.
 */
export function pageFields<P extends { count: number; nextCursor: string | null }>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, P>) {
  return {
    count: t.int({ description: 'Records in this page', resolve: (p) => p.count }),
    nextCursor: t.string({
      nullable: true,
      description: 'Pass as `cursor` for the next page; null at the end',
      extensions: REST_NULLABLE,
      resolve: (p) => p.nextCursor,
    }),
  };
}
