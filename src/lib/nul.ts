import { ValidationError, jsonPointer } from '../errors.js';

/**
 * NUL (`\u0000`) in text: PostgreSQL text cannot hold it, so a string holding one is refused (docs/contract/gaps.md
 * §11), with the JSON Pointer of the shallowest one, never passed on to the database.
 */

/** A container still to look into: its key in its parent, and the parent, from which its path is built if needed. */
type Frame = { value: object; key: string | number; up: Frame | null };

function pathOf(f: Frame | null, prefix: (string | number)[], last: string | number): string {
  const keys: (string | number)[] = [last];
  for (; f?.up; f = f.up) keys.push(f.key);
  return jsonPointer([...prefix, ...keys.reverse()]);
}

/**
 * The JSON Pointer of a string (value or key) holding NUL, or null: the first in document order at the shallowest
 * level that has one. Iterative (no recursion limit); a path is built only for the answer, so a clean value costs one
 * small frame per object or array and nothing per string.
 */
export function findNul(value: unknown, prefix: (string | number)[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? jsonPointer(prefix) : null;
  if (!value || typeof value !== 'object') return null;
  const queue: Frame[] = [{ value, key: '', up: null }];
  for (let q = 0; q < queue.length; q++) {
    const f = queue[q]!;
    const v = f.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') {
          if (x.includes('\u0000')) return pathOf(f, prefix, i);
        } else if (x && typeof x === 'object') queue.push({ value: x, key: i, up: f });
      }
    } else {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (k.includes('\u0000')) return pathOf(f, prefix, k.split('\u0000').join('\\u0000'));
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'string') {
          if (x.includes('\u0000')) return pathOf(f, prefix, k);
        } else if (x && typeof x === 'object') queue.push({ value: x, key: k, up: f });
      }
    }
  }
  return null;
}

/** A 400 naming the first string of `value` that holds NUL (`what` says what the value is: the body, an item). */
export function rejectNul(value: unknown, what = 'request'): void {
  const at = findNul(value);
  if (at !== null) {
    throw new ValidationError(`invalid ${what}: ${at || 'body'}: text must not contain the NUL character (\\u0000)`, [
      { path: at, message: 'must not contain the NUL character (\\u0000)' },
    ]);
  }
}
