/**
 * Exact figures from the database to JSON numbers. PostgreSQL computes sums, minima and maxima in `numeric` and
 * sends them as decimal text; an average is sent as its exact sum and count. Each becomes the double nearest to the
 * exact value (ties to even), the number a reader of the exact decimal would write: never a rounding of a rounding
 * (dividing in `numeric` first gives a 16-20 digit decimal, and rounding that to a double can land one step off).
 */

const TWO_53 = 2n ** 53n;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A decimal as written by PostgreSQL (`-12.340`, `7`, `0.000001`): sign, significant digits as an integer string, and
 * how many of them follow the point (trailing zeros of the fraction dropped: `12.300` is 123 and 1).
 */
function parseDecimal(text: string): { negative: boolean; digits: string; scale: number } {
  const negative = text.charCodeAt(0) === 45; // '-'
  let body = negative || text.charCodeAt(0) === 43 ? text.slice(1) : text;
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(body)) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const dot = body.indexOf('.');
  if (dot < 0) return { negative, digits: body, scale: 0 };
  let end = body.length;
  while (end > dot + 1 && body.charCodeAt(end - 1) === 48) end--; // '0'
  body = body.slice(0, end);
  const digits = body.slice(0, dot) + body.slice(dot + 1);
  return { negative, digits: digits === '' ? '0' : digits, scale: body.length - dot - 1 };
}

const bitLength = (n: bigint) => n.toString(2).length;

/** The double nearest to p / q (p >= 0, q > 0), ties to even, subnormals and overflow included. */
export function nearestDouble(p: bigint, q: bigint): number {
  if (q <= 0n) throw new Error('nearestDouble: the divisor must be positive');
  if (p === 0n) return 0;
  // both exactly representable: one IEEE division is correctly rounded
  if (p <= TWO_53 && q <= TWO_53) return Number(p) / Number(q);
  // the binary exponent e with 2^e <= p/q < 2^(e+1)
  let e = bitLength(p) - bitLength(q);
  if (e >= 0 ? p < q << BigInt(e) : p << BigInt(-e) < q) e--;
  if (e > 1023) return Infinity;
  // 53 significant bits for a normal double; fewer below 2^-1022, where the last bit is worth 2^-1074
  const shift = Math.max(e, -1022) - 52; // the value of the last kept bit is 2^shift
  const [a, b] = shift >= 0 ? [p, q << BigInt(shift)] : [p << BigInt(-shift), q];
  let m = a / b;
  const twice = 2n * (a - m * b);
  if (twice > b || (twice === b && (m & 1n) === 1n)) m += 1n;
  // m <= 2^53 (a carry may reach it, still exact); m * 2^shift in two steps that are each exact (or overflow to
  // Infinity past the largest double)
  const half = Math.trunc(shift / 2);
  return Number(m) * 2 ** half * 2 ** (shift - half);
}

/** The double nearest to the decimal PostgreSQL wrote (`numeric` as text). */
export function decimalToNumber(text: string): number {
  // at most 20 digits: ECMAScript's own conversion is the correctly rounded one (ECMA-262, StringToNumber)
  if (text.length <= 21 && DECIMAL.test(text)) return Number(text);
  const { negative, digits, scale } = parseDecimal(text);
  let v: number;
  const n = Number(digits);
  if (n <= MAX_SAFE && scale <= 22) {
    // both the digits and 10^scale (scale <= 22) are exact doubles: one correctly rounded division (or product)
    v = scale === 0 ? n : n / 10 ** scale;
  } else {
    v = nearestDouble(BigInt(digits), 10n ** BigInt(scale));
  }
  return negative ? -v : v;
}

/** The double nearest to sum / count, for a `numeric` sum as text and a count of values. */
export function averageToNumber(sum: string, count: string | number | bigint): number {
  const n = BigInt(count);
  if (n <= 0n) throw new Error('averageToNumber: the count must be positive');
  const { negative, digits, scale } = parseDecimal(sum);
  const p = Number(digits);
  const q = 10 ** scale * Number(n);
  // both exact integers (10^scale is exact up to 10^22, and the product stays below 2^53): one correctly rounded division
  const v = p <= MAX_SAFE && scale <= 22 && q <= MAX_SAFE ? p / q : nearestDouble(BigInt(digits), 10n ** BigInt(scale) * n);
  return negative ? -v : v;
}
