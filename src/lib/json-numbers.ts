/**
 * JSON numbers taken as written, or refused (docs/contract/gaps.md §11, "Tracking values, counters and totals stay
 * exact"). `JSON.parse` turns every number into the nearest double: `1.00000000000000001` arrives as 1,
 * `0.1000000000000000055511151231257827` as 0.1 and `1e400` as Infinity, and a check of the double (six decimal places
 * at most) then passes a figure the client never wrote. `parseJson` decodes a request's JSON as `JSON.parse` does, except
 * that a number the double does not hold exactly becomes an `InexactNumber` holding its text; `findFault`
 * (src/lib/input-faults.ts), which every operation's variables and every batch item go through, refuses it at its
 * path. A number is exact when the double's shortest decimal form is the same decimal as the text (`1.10`, `1e2` and
 * `0.30000000000000004` are exact; what JavaScript's `JSON.stringify` writes always is).
 *
 * A double holds every decimal of up to 15 significant digits, so only a number with 16 or more digits in a row, or
 * an exponent of three digits, can be inexact: a body without either (nearly every one) is `JSON.parse` alone.
 */
export class InexactNumber {
  constructor(readonly text: string) {}
  /** What the double would have made of it. */
  get nearest(): number {
    return Number(this.text);
  }
}

/**
 * What is said of a number no double holds exactly, on every channel: past a double's range (`1e999`, read as
 * Infinity; `1e-400`, read as 0) the advice is the range, not the digits, which are few.
 */
export const inexactMessage = (text: string) => {
  const read = Number(text);
  const tiny = read === 0 ? /[1-9]/.test(text.replace(/[eE].*$/, '')) : Math.abs(read) < 1e-300;
  const advice = !Number.isFinite(read) || tiny ? 'send 0 or a number whose size is between 1e-300 and 1e308' : 'send at most 15 significant digits';
  return `the number ${text} cannot be kept exactly (it would be read as ${read}); ${advice}`;
};

const MAYBE_INEXACT = /[\d.]{16}|[eE][+-]?\d{3}/;
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A decimal as (sign, significant digits without leading or trailing zeros, power of ten of the last digit). */
function decimalOf(text: string): { sign: string; digits: string; exp: number } | null {
  const m = NUMBER.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  let digits = (m[2] + frac).replace(/^0+/, '');
  let exp = Number(m[4] ?? 0) - frac.length;
  const trimmed = digits.replace(/0+$/, '');
  exp += digits.length - trimmed.length;
  digits = trimmed;
  return digits === '' ? { sign: '', digits: '', exp: 0 } : { sign: m[1], digits, exp };
}

/** Whether the number written `text` is exactly the double `Number(text)` (its shortest form is the same decimal). */
export function isExactNumberText(text: string): boolean {
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  const a = decimalOf(text);
  const b = decimalOf(String(n).replace('e+', 'e'));
  if (!a || !b) return false;
  // a decimal that is not zero must not become zero (1e-400)
  return a.digits === b.digits && a.exp === b.exp && (a.digits === '' || a.sign === b.sign);
}

/** JSON.parse, with each number the double would not hold exactly as an InexactNumber (see above). Throws as JSON.parse. */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!MAYBE_INEXACT.test(text)) return value;
  const found = inexactNumbers(text);
  if (found.length === 0) return value;
  const box = { root: value };
  for (const { path, text: number } of found) {
    let parent: unknown = box;
    let key: string | number = 'root';
    for (const k of path) {
      const next: unknown = (parent as Record<string | number, unknown>)[key];
      if (!next || typeof next !== 'object' || !Object.hasOwn(next, k)) {
        parent = null;
        break;
      }
      parent = next;
      key = k;
    }
    if (!parent) continue;
    const holder = parent as Record<string | number, unknown>;
    // a key named twice keeps its last value (as JSON.parse does): mark only the number that was kept
    if (Object.hasOwn(holder, key) && Object.is(holder[key], Number(number))) holder[key] = new InexactNumber(number);
  }
  return box.root;
}

type Frame = { array: boolean; key: string | number; expectKey: boolean };

/**
 * A body whose inexact numbers are too many or too deep to mark (more than SCAN_MAX_FOUND, or nested deeper than
 * SCAN_MAX_DEPTH, which the policy refuses anyway): refused whole, before any path is copied (a 1 MB body of deep
 * inexact numbers otherwise cost gigabytes).
 */
export class InexactBodyError extends Error {}
const SCAN_MAX_FOUND = 1000;
const SCAN_MAX_DEPTH = 65;

/**
 * The numbers of a well-formed JSON text that no double holds exactly, with their paths. A scan of the text, not a
 * parse: the text has passed JSON.parse already.
 */
function inexactNumbers(text: string): { path: (string | number)[]; text: string }[] {
  const out: { path: (string | number)[]; text: string }[] = [];
  const stack: Frame[] = [];
  const top = () => stack[stack.length - 1];
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push({ array: c === '[', key: 0, expectKey: c === '{' });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      const f = top();
      if (f.array) f.key = (f.key as number) + 1;
      else f.expectKey = true;
      i++;
    } else if (c === ':') {
      top().expectKey = false;
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const f = top();
      if (f && !f.array && f.expectKey) f.key = JSON.parse(text.slice(i, j + 1)) as string;
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[\d.eE+-]/.test(text[j])) j++;
      const number = text.slice(i, j);
      if (!isExactNumberText(number)) {
        if (out.length >= SCAN_MAX_FOUND || stack.length > SCAN_MAX_DEPTH) {
          throw new InexactBodyError(`the body holds numbers that cannot be kept exactly (${number}) too many or too deep to name; send at most 15 significant digits`);
        }
        out.push({ path: stack.map((f) => f.key), text: number });
      }
      i = j;
    } else i++;
  }
  return out;
}
