import { ValidationError } from '../errors.js';

/**
 * Input guards at the edge (docs/contract/gaps.md §11): JSON nested deeper than MAX_JSON_DEPTH is refused before it is parsed (a
 * deep body would otherwise overflow the stack in JSON.parse/stringify), and strings holding NUL are refused
 * wherever they are (PostgreSQL text cannot hold NUL): 400 with the JSON Pointer of the first one.
 */
export const MAX_JSON_DEPTH = 64;

/** Throws a 400 when the JSON text nests objects/arrays deeper than `max` (strings are skipped correctly). */
export function checkJsonDepth(text: string, max = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) throw new ValidationError(`the JSON body is nested more than ${max} levels deep`, [{ path: '', message: `nested more than ${max} levels deep` }]);
    } else if (c === 125 || c === 93) depth--;
  }
}

const pointer = (path: (string | number)[]) => path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

/** The JSON Pointer of the first string (value or key) holding NUL, or null. Iterative: no recursion limit. */
export function findNul(value: unknown, prefix: (string | number)[] = []): string | null {
  const stack: [unknown, (string | number)[]][] = [[value, prefix]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pointer(path);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return pointer([...path, k.replace(/\u0000/g, '\\u0000')]);
        stack.push([x, [...path, k]]);
      }
    }
  }
  return null;
}

export function rejectNul(value: unknown, prefix: (string | number)[] = []): void {
  const at = findNul(value, prefix);
  if (at !== null) throw new ValidationError(`invalid request: ${at || 'body'}: text must not contain the NUL character (\\u0000)`, [{ path: at, message: 'must not contain the NUL character (\\u0000)' }]);
}

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
