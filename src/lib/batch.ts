import { AppError, ValidationError, oneLineMessage } from '../errors.js';

/**
 * Batches (api-v1 §4.2, §8): 1 to 50 items, each processed independently; an item that fails with a domain error
 * is reported with its input index, the others go on.
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
      if (!(e instanceof AppError)) throw e;
      out.errors.push({ index, error: oneLineMessage(e) });
    }
  }
  return out;
}
