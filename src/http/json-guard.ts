import { ValidationError } from '../errors.js';

/**
 * Input guards (docs/contract/gaps.md §11): values nested deeper than MAX_JSON_DEPTH, strings holding NUL
 * (PostgreSQL text cannot hold NUL) and keys named `__proto__` (JavaScript does not keep them as keys) are refused:
 * by the operation policy for every operation's variables (src/graphql/policy.ts), and here for the URL (NUL), before
 * any routing.
 */
export const MAX_JSON_DEPTH = 64;

// NUL and `__proto__` keys in JSON values: src/lib/input-faults.ts (the batch runner checks each item with the same function)
export { findFault, faultFieldMessage, faultMessage, PROTO_KEY_MESSAGE } from '../lib/input-faults.js';

/** NUL in the URL (path or query, after percent-decoding): 400 before any routing. */
export function rejectNulInUrl(url: URL): void {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return; // malformed escapes are the router's to answer
  }
  if (path.includes('\u0000')) throw new ValidationError('invalid path: it must not contain the NUL character (%00)', [{ path: '/path', message: 'must not contain the NUL character (%00)' }]);
  for (const [k, v] of url.searchParams) {
    if (k.includes('\u0000') || v.includes('\u0000')) {
      throw new ValidationError(`invalid query parameter ${k.replace(/\u0000/g, '%00')}: it must not contain the NUL character (%00)`, [
        { path: `/query/${k.replace(/\u0000/g, '%00')}`, message: 'must not contain the NUL character (%00)' },
      ]);
    }
  }
}
