// findFault (src/lib/input-faults.ts): the pointer it answers is where the NUL or the `__proto__` key is, at any depth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPointer } from '../src/errors.js';
import { findFault } from '../src/lib/input-faults.js';

const findNul = (v: unknown, prefix?: (string | number)[]) => {
  const f = findFault(v, prefix);
  if (f) expect(f.kind).toBe('text');
  return f?.at ?? null;
};

const clean = fc.string().map((s) => s.replaceAll('\u0000', ''));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, clean, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  // fast-check does make the key __proto__ now and then: that is the other fault, found by its own test below
  object: fc.dictionary(clean.filter((k) => k !== '__proto__'), tie('value'), { maxKeys: 4 }),
})).value;

/** Every path in `v` that leads to a string, and every object key (as a path ending in that key). */
function places(v: unknown, path: (string | number)[] = []): { path: (string | number)[]; key: boolean }[] {
  if (typeof v === 'string') return [{ path, key: false }];
  if (Array.isArray(v)) return v.flatMap((x, i) => places(x, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [{ path: [...path, k], key: true }, ...places(x, [...path, k])]);
  return [];
}

/** `v` with NUL put into the string or key at `at`. */
function withNul(v: unknown, at: { path: (string | number)[]; key: boolean }, depth = 0): unknown {
  if (depth === at.path.length) return `${v as string}\u0000`;
  const step = at.path[depth]!;
  if (Array.isArray(v)) return v.map((x, i) => (i === step ? withNul(x, at, depth + 1) : x));
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(o).map(([k, x]) =>
      k !== step ? [k, x] : at.key && depth === at.path.length - 1 ? [`${k}\u0000`, x] : [k, withNul(x, at, depth + 1)],
    ),
  );
}

describe('findFault', () => {
  it('answers null for a value with no NUL', () => {
    fc.assert(fc.property(json, (v) => {
      expect(findNul(v)).toBeNull();
    }));
  });

  it('answers the pointer of the one string or key holding NUL, after the given prefix', () => {
    const withPlace = json.chain((v) => {
      const all = places(v);
      return all.length ? fc.constantFrom(...all).map((at) => ({ v, at })) : fc.constant(null);
    });
    fc.assert(
      fc.property(withPlace, (c) => {
        if (!c) return;
        const v = withNul(c.v, c.at);
        const last = c.at.path[c.at.path.length - 1];
        const path = c.at.key ? [...c.at.path.slice(0, -1), `${String(last)}\u0000`.split('\u0000').join('\\u0000')] : c.at.path;
        expect(findNul(v, ['items', 3])).toBe(jsonPointer(['items', 3, ...path]));
      }),
      { numRuns: 500 },
    );
  });

  it('finds the shallowest first: a NUL at the top before one nested earlier in the document', () => {
    expect(findNul({ a: { b: 'x\u0000' }, c: 'y\u0000' })).toBe('/c');
    expect(findNul(['ok', ['\u0000'], '\u0000'])).toBe('/2');
    expect(findNul('\u0000', ['body'])).toBe('/body');
  });

  it('finds a key named __proto__ (JSON.parse keeps it as a key; a copy would drop it), at any depth', () => {
    expect(findFault(JSON.parse('{"__proto__": 1}'))).toEqual({ at: '/__proto__', kind: 'key' });
    expect(findFault(JSON.parse('{"a": [{"b": {"__proto__": {"x": 1}}}]}'), ['body'])).toEqual({ at: '/body/a/0/b/__proto__', kind: 'key' });
    // the shallowest first, whichever fault it is
    expect(findFault(JSON.parse('{"a": {"__proto__": 1}, "b": "\\u0000"}'))).toEqual({ at: '/b', kind: 'text' });
    // a property inherited from Object.prototype is not a key of the value
    expect(findFault({ a: {} })).toBeNull();
    expect(findFault(JSON.parse('{"proto": 1, "constructor": 2}'))).toBeNull();
  });
});
