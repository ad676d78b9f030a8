import { ValidationError, oneLineMessage } from '../errors.js';
import { databaseError } from '../db/errors.js';
import { reportUnexpected } from './unexpected.js';
import { rejectFault } from './input-faults.js';

/**
 * Batches (docs/contract/api-v1.md §4.2, §8; docs/contract/gaps.md §11): 1 to 50 items, each processed
 * independently; an item that fails any check (a NUL character anywhere in it, an out-of-range number, a reference
 * of another company, a wrong type) is reported with its input index, the others go on. Only the envelope (not a
 * list, or not 1 to 50 entries) fails the whole request. An item never fails the whole batch: its earlier items
 * are committed, so an answer without their results would make a retrying client write them twice.
 *
 * Because items are independent, the operation-level NUL check does not look inside a batch argument (it is
 * declared `extensions: { independentItems: true }`): each item is checked here, before its own check.
 */
export const BATCH_MAX = 50;

export interface BatchOutcome<R> {
  results: R[];
  errors: { index: number; error: string }[];
}

/** The array of 1..BATCH_MAX entries under `name`, or a 400 naming it. */
export function batchList(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw new ValidationError(`${name} must be an array`, [{ path: `/${name}`, message: `${name} must be an array` }]);
  if (value.length < 1 || value.length > BATCH_MAX) {
    throw new ValidationError(`${name} must hold 1 to ${BATCH_MAX} entries (got ${value.length})`, [
      { path: `/${name}`, message: `1 to ${BATCH_MAX} entries` },
    ]);
  }
  return value;
}

/** A batch body's check (`{items: [...]}` or `{ids: [...]}`): the list rule above, for the REST façade. */
export function batchBody(name: string): (body: unknown) => unknown {
  return (body) => {
    batchList(body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined, name);
    return body;
  };
}

/** An item holding NUL in any string, key or value, or a `__proto__` key, at any depth: a 400 for that item alone (src/lib/input-faults.ts). */
export function checkItemText(item: unknown): void {
  rejectFault(item, 'item');
}

/**
 * The first phase of a batch: each item checked on its own (checkItemText, then `check`, which throws a
 * ValidationError for a bad one). The good ones come back checked, with their index; the bad ones as errors.
 */
export function checkItems<T, C>(list: T[], check: (item: T) => C): { checked: { index: number; item: C }[]; errors: BatchOutcome<never>['errors'] } {
  const checked: { index: number; item: C }[] = [];
  const errors: BatchOutcome<never>['errors'] = [];
  for (const [index, item] of list.entries()) {
    try {
      checkItemText(item);
      checked.push({ index, item: check(item) });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      errors.push({ index, error: oneLineMessage(e) });
    }
  }
  return { checked, errors };
}

export async function runBatch<T, R>(list: T[], fn: (item: T) => Promise<R>): Promise<BatchOutcome<R>> {
  const out: BatchOutcome<R> = { results: [], errors: [] };
  for (const [index, item] of list.entries()) {
    try {
      checkItemText(item);
      out.results.push(await fn(item));
    } catch (e) {
      // every failure is this item's: earlier items are committed, so the batch must answer with their results
      const known = databaseError(e);
      if (known) out.errors.push({ index, error: oneLineMessage(known) });
      else {
        reportUnexpected(e, { batchItem: index });
        out.errors.push({ index, error: 'internal error: this item was not written (the error has been logged)' });
      }
    }
  }
  return out;
}

/**
 * A set-based batch: every item is checked first (`check` throws a domain error for a bad one, reported with its
 * index), then all the checked items are written together by `writeAll` (one statement or transaction). If that
 * write fails as a whole, the checked items are written one by one with `writeOne`, so each failure stays its own.
 */
export async function runSetBatch<T, C, R>(
  list: T[],
  check: (item: T) => C,
  writeAll: (checked: C[]) => Promise<R[]>,
  writeOne: (checked: C) => Promise<R>,
): Promise<BatchOutcome<R>> {
  const { checked, errors } = checkItems(list, check);
  const out: BatchOutcome<R> = { results: [], errors };
  if (!checked.length) return out;
  try {
    out.results = await writeAll(checked.map((c) => c.item));
  } catch {
    const one = await runBatch(checked, (c) => writeOne(c.item));
    out.results = one.results;
    out.errors.push(...one.errors.map((e) => ({ index: checked[e.index].index, error: e.error })));
    out.errors.sort((a, b) => a.index - b.index);
  }
  return out;
}
