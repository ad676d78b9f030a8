import { ValidationError, jsonPointer } from '../errors.js';
import { InexactNumber, inexactMessage } from './json-numbers.js';
import { NUL_MESSAGE, PROTO_KEY_MESSAGE, SURROGATE_MESSAGE } from './input-messages.js';

export { NUL_MESSAGE, PROTO_KEY_MESSAGE, SURROGATE_MESSAGE };

/**
 * What no value coming in may hold, on any channel (docs/contract/gaps.md §11): NUL (`\u0000`) in text, which
 * PostgreSQL text cannot hold; a lone surrogate (`\ud800` without its pair), which is not Unicode text and which
 * PostgreSQL would keep as U+FFFD on one path and refuse on another; a key named `__proto__`, which JavaScript does not
 * keep as a key (a copy drops it or makes it the object's prototype: a tracking value sent under it vanished with a
 * 201); and a number no double holds exactly (src/lib/json-numbers.ts: `1.00000000000000001` would be read as 1).
 * Each is refused with the JSON Pointer of the shallowest one, never passed on.
 */

/** Where a value holds what is refused, and what: `text` for NUL, `unicode` for a lone surrogate, `key` for a `__proto__` key, `number` for an inexact number. */
export interface InputFault {
  at: string;
  kind: 'text' | 'unicode' | 'key' | 'number';
  /** The number as it was written (kind `number`). */
  number?: string;
}
const numberMessage = (f: InputFault) => inexactMessage(f.number!);
export const faultMessage = (f: InputFault) =>
  f.kind === 'text' ? `text ${NUL_MESSAGE}` : f.kind === 'unicode' ? `text ${SURROGATE_MESSAGE}` : f.kind === 'number' ? numberMessage(f) : PROTO_KEY_MESSAGE;
export const faultFieldMessage = (f: InputFault) =>
  f.kind === 'text' ? NUL_MESSAGE : f.kind === 'unicode' ? SURROGATE_MESSAGE : f.kind === 'number' ? numberMessage(f) : PROTO_KEY_MESSAGE;

/** What is wrong with a string (value or key): NUL, a lone surrogate, or nothing. */
// String.prototype.isWellFormed: Node 20 has it; TypeScript's lib before es2024 does not declare it
const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();
const textFault = (s: string): 'text' | 'unicode' | null => (s.includes('\u0000') ? 'text' : wellFormed(s) ? null : 'unicode');

/** A container still to look into: its key in its parent, and the parent, from which its path is built if needed. */
type Frame = { value: object; key: string | number; up: Frame | null };

function pathOf(f: Frame | null, prefix: (string | number)[], last: string | number): string {
  const keys: (string | number)[] = [last];
  for (; f?.up; f = f.up) keys.push(f.key);
  return jsonPointer([...prefix, ...keys.reverse()]);
}

/**
 * The first fault (above) in document order at the shallowest level that has one, or null. Iterative (no recursion
 * limit); a path is built only for the answer, so a clean value costs one small frame per object or array and one
 * check per string.
 */
export function findFault(value: unknown, prefix: (string | number)[] = []): InputFault | null {
  if (typeof value === 'string') {
    const kind = textFault(value);
    return kind ? { at: jsonPointer(prefix), kind } : null;
  }
  if (value instanceof InexactNumber) return { at: jsonPointer(prefix), kind: 'number', number: value.text };
  if (!value || typeof value !== 'object') return null;
  const queue: Frame[] = [{ value, key: '', up: null }];
  /** The fault of one element (a string or an inexact number), or null; objects and arrays are queued. */
  const look = (f: Frame, key: string | number, x: unknown): InputFault | null => {
    if (typeof x === 'string') {
      const kind = textFault(x);
      return kind ? { at: pathOf(f, prefix, key), kind } : null;
    }
    if (x && typeof x === 'object') {
      if (x instanceof InexactNumber) return { at: pathOf(f, prefix, key), kind: 'number', number: x.text };
      queue.push({ value: x, key, up: f });
    }
    return null;
  };
  for (let q = 0; q < queue.length; q++) {
    const f = queue[q]!;
    const v = f.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const fault = look(f, i, v[i]);
        if (fault) return fault;
      }
    } else {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        const keyFault = textFault(k);
        if (keyFault) return { at: pathOf(f, prefix, keyFault === 'text' ? k.split('\u0000').join('\\u0000') : k), kind: keyFault };
        if (k === '__proto__') return { at: pathOf(f, prefix, k), kind: 'key' };
        const fault = look(f, k, (v as Record<string, unknown>)[k]);
        if (fault) return fault;
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
