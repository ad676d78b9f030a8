// Exact decimals for the model-based tests: integer micro-units (6 decimal places, the figures' scale) as bigint.

export const SCALE = 1_000_000n;

/** A figure the service answered, in micro-units; anything but a plain decimal of at most 6 places is a failure. */
export function micro(v: unknown): bigint {
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  const m = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) throw new Error(`not an exact decimal with at most 6 places: ${JSON.stringify(v)}`);
  const n = BigInt(m[2]!) * SCALE + BigInt((m[3] ?? '').padEnd(6, '0'));
  return m[1] ? -n : n;
}

/** Micro-units as the decimal text a client reads (and as JSON prints the number sent). */
export function dec(m: bigint): string {
  const neg = m < 0n;
  const a = neg ? -m : m;
  const frac = (a % SCALE).toString().padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${a / SCALE}${frac ? `.${frac}` : ''}`;
}

/** Micro-units as the JSON number to send (the shortest round-trip form of a decimal is that decimal). */
export const num = (m: bigint) => Number(dec(m));
