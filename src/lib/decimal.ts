import { trimTrailing } from './text.js';

/**
 * Exact decimal arithmetic for figures that are stored and compared (totals, remaining hours, tracking values).
 *
 * JSON numbers are doubles, so `1300.3 - 1200.1` in floating point is 100.19999999999993. Every sum and difference
 * here is done on the shortest decimal representation of each operand (the digits JavaScript prints for it) as a
 * scaled bigint, and turned back into a number only at the end.
 */
/** value = units / 10^scale */
export interface Dec {
  units: bigint;
  scale: number;
}

/** Digits of numeric(20, 6): 14 before the point, 6 after. */
export const TRACKING_SCALE = 6;
export const TRACKING_MAX_ABS = 1e14;

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** A finite number (its shortest round-trip digits) or a decimal string (e.g. Prisma Decimal's toString()). */
export function parseDec(value: number | string | { toString(): string }): Dec {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const s = String(value).trim();
  const m = DECIMAL.exec(s);
  if (!m) throw new RangeError(`not a decimal number: ${s}`);
  const [, sign, int, frac = '', exp = '0'] = m;
  let units = BigInt(int + frac);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

function rescale(d: Dec, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

/** Plain decimal notation without trailing zeros, e.g. `100.2`, `-0.5`, `3000`. */
export function formatDec(d: Dec): string {
  const neg = d.units < 0n;
  let digits = (neg ? -d.units : d.units).toString();
  if (d.scale > 0) {
    digits = digits.padStart(d.scale + 1, '0');
    const int = digits.slice(0, -d.scale);
    const frac = trimTrailing(digits.slice(-d.scale), '0');
    digits = frac ? `${int}.${frac}` : int;
  }
  return (neg && digits !== '0' ? '-' : '') + digits;
}

function combine(a: Dec, b: Dec, op: (x: bigint, y: bigint) => bigint): Dec {
  const scale = Math.max(a.scale, b.scale);
  return { units: op(rescale(a, scale), rescale(b, scale)), scale };
}

export type DecInput = number | string | { toString(): string };

/** `a - b`, exact in decimal (1300.3 - 1200.1 = 100.2). */
export function exactSubtract(a: DecInput, b: DecInput): number {
  return Number(formatDec(combine(parseDec(a), parseDec(b), (x, y) => x - y)));
}

/** `a + b`, exact in decimal, as a decimal string (for numeric columns). */
export function exactAddString(a: DecInput, b: DecInput): string {
  return formatDec(combine(parseDec(a), parseDec(b), (x, y) => x + y));
}

/** Decimal places a value needs (0.1 → 1, 1200.125 → 3, 3e-7 → 7). */
export function decimalPlaces(value: DecInput): number {
  // a number JavaScript prints without an exponent: its shortest digits never end in a fractional zero, so the
  // places are the digits after the point (every tracking value of every write is checked here; no bigint needed)
  if (typeof value === 'number' && Number.isFinite(value)) {
    const s = String(value);
    if (!s.includes('e')) {
      const point = s.indexOf('.');
      return point < 0 ? 0 : s.length - point - 1;
    }
  }
  // counted on the digits, in time linear in the text whatever its exponent (a CSV cell `1e-99999999`: no 10^n)
  const s = String(value).trim();
  const m = DECIMAL.exec(s);
  if (!m) throw new RangeError(`not a decimal number: ${s}`);
  const [, , int, frac = '', exp = '0'] = m;
  const digits = int + frac;
  const significant = trimTrailing(digits, '0');
  if (!/[1-9]/.test(significant)) return 0;
  return Math.max(0, frac.length - Number(exp) - (digits.length - significant.length));
}

/** Rounds to 6 decimal places, half away from zero (a live total with more digits, stored as a completion value). */
export function roundToTrackingScale(value: DecInput): string {
  const d = parseDec(value);
  if (d.scale <= TRACKING_SCALE) return formatDec(d);
  const div = 10n ** BigInt(d.scale - TRACKING_SCALE);
  const neg = d.units < 0n;
  const abs = neg ? -d.units : d.units;
  let q = abs / div;
  if ((abs % div) * 2n >= div) q += 1n;
  return formatDec({ units: neg ? -q : q, scale: TRACKING_SCALE });
}

/** Same value? (`1200.10` and `1200.1` are.) */
export function sameDecimal(a: DecInput | null | undefined, b: DecInput | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return combine(parseDec(a), parseDec(b), (x, y) => x - y).units === 0n;
}

/** The sum of the values, exact in decimal (null and undefined count as nothing). */
export function exactSum(...values: (DecInput | null | undefined)[]): number {
  let acc: Dec = { units: 0n, scale: 0 };
  for (const v of values) if (v !== null && v !== undefined) acc = combine(acc, parseDec(v), (x, y) => x + y);
  return Number(formatDec(acc));
}

