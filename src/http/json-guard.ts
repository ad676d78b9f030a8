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

/** What a path or query parameter whose percent escapes do not decode is told (the router and the query check say the same). */
export const NOT_UTF8 = 'its percent escapes are not UTF-8 text (each character is written as its UTF-8 bytes, e.g. %C3%A9 for é)';

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

/**
 * A query name or value whose percent escapes are not UTF-8 text (`%FF`, `%ED%A0%80`) is a 400 at `/query/<name>`:
 * URLSearchParams would read it as U+FFFD and the route would take that, where GraphQL and MCP refuse such text (a
 * lone surrogate). Checked where a query is read (the REST façade, after the key's scope; a GraphQL GET), not for
 * pages that ignore their query string.
 */
export function rejectUndecodableQuery(url: URL): void {
  for (const part of url.search.slice(1).split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    const name = decodeComponent(rawName.replace(/\+/g, ' '));
    if (name === null || decodeComponent(rawValue.replace(/\+/g, ' ')) === null) {
      const shown = (name ?? rawName).replace(/\u0000/g, '%00');
      throw new ValidationError(`invalid query parameter ${shown}: ${NOT_UTF8}`, [{ path: `/query/${shown}`, message: NOT_UTF8 }]);
    }
  }
}

/**
 * A percent-encoded path segment or query component as browsers and URLSearchParams read it (a `%` not followed by
 * two hex digits is itself), or null when its escapes are not UTF-8 text.
 */
export function decodeComponent(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return null;
  }
}
