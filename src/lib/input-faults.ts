import { ValidationError, jsonPointer } from '../errors.js';

/**
 * What no value coming in may hold, on any channel (docs/contract/gaps.md §11): NUL (`\u0000`) in text, which
 * PostgreSQL text cannot hold, and a key named `__proto__`, which JavaScript does not keep as a key (a copy drops it
 * or makes it the object's prototype: a tracking value sent under it vanished with a 201). Either is refused with the
 * JSON Pointer of the shallowest one, never passed on.
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
export const PROTO_KEY_MESSAGE = '__proto__ is not allowed as a key';

/** Where a value holds what is refused, and what: `text` for NUL, `key` for a `__proto__` key. */
export interface InputFault {
  at: string;
  kind: 'text' | 'key';
}
export const faultMessage = (f: InputFault) => (f.kind === 'text' ? `text ${NUL_MESSAGE}` : PROTO_KEY_MESSAGE);
export const faultFieldMessage = (f: InputFault) => (f.kind === 'text' ? NUL_MESSAGE : PROTO_KEY_MESSAGE);

/** A container still to look into: its key in its parent, and the parent, from which its path is built if needed. */
type Frame = { value: object; key: string | number; up: Frame | null };

function pathOf(f: Frame | null, prefix: (string | number)[], last: string | number): string {
  const keys: (string | number)[] = [last];
  for (; f?.up; f = f.up) keys.push(f.key);
  return jsonPointer([...prefix, ...keys.reverse()]);
}

/**
 * The first string (value or key) holding NUL or key named `__proto__`, in document order at the shallowest level
 * that has one, or null. Iterative (no recursion limit); a path is built only for the answer, so a clean value costs
 * one small frame per object or array and nothing per string.
 */
export function findFault(value: unknown, prefix: (string | number)[] = []): InputFault | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { at: jsonPointer(prefix), kind: 'text' } : null;
  if (!value || typeof value !== 'object') return null;
  const queue: Frame[] = [{ value, key: '', up: null }];
  for (let q = 0; q < queue.length; q++) {
    const f = queue[q]!;
    const v = f.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') {
          if (x.includes('\u0000')) return { at: pathOf(f, prefix, i), kind: 'text' };
        } else if (x && typeof x === 'object') queue.push({ value: x, key: i, up: f });
      }
    } else {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (k.includes('\u0000')) return { at: pathOf(f, prefix, k.split('\u0000').join('\\u0000')), kind: 'text' };
        if (k === '__proto__') return { at: pathOf(f, prefix, k), kind: 'key' };
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'string') {
          if (x.includes('\u0000')) return { at: pathOf(f, prefix, k), kind: 'text' };
        } else if (x && typeof x === 'object') queue.push({ value: x, key: k, up: f });
      }
    }
  }
  return null;
}

/** A 400 naming the first fault of `value` (`what` says what the value is: the body, an item). */
export function rejectFault(value: unknown, what = 'request'): void {
  const fault = findFault(value);
  if (fault !== null) {
    throw new ValidationError(`invalid ${what}: ${fault.at || 'body'}: ${faultMessage(fault)}`, [{ path: fault.at, message: faultFieldMessage(fault) }]);
  }
}
