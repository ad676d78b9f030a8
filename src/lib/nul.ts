import { ValidationError, jsonPointer } from '../errors.js';

/**
 * NUL (`\u0000`) in text: PostgreSQL text cannot hold it, so a string holding one is refused (docs/contract/gaps.md
 * §11), with the JSON Pointer of the first one, never passed on to the database.
 */

/** The JSON Pointer of the first string (value or key) holding NUL, or null. Iterative: no recursion limit. */
export function findNul(value: unknown, prefix: (string | number)[] = []): string | null {
  const stack: [unknown, (string | number)[]][] = [[value, prefix]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return jsonPointer(path);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return jsonPointer([...path, k.split('\u0000').join('\\u0000')]);
        stack.push([x, [...path, k]]);
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
