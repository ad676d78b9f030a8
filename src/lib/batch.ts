import { ValidationError, oneLineMessage } from '../errors.js';
import { databaseError } from '../db/errors.js';
import { reportUnexpected } from './unexpected.js';

/**
 * Batches (api-v1 §4.2, §8): 1 to 50 items, each processed independently; an item that fails with a domain error
 * is reported with its input index, the others go on. An item never fails the whole batch: its earlier items
 * are committed, so an answer without their results would make a retrying client write them twice.
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

export async function runBatch<T, R>(list: T[], fn: (item: T) => Promise<R>): Promise<BatchOutcome<R>> {
  const out: BatchOutcome<R> = { results: [], errors: [] };
  for (const [index, item] of list.entries()) {
    try {
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
