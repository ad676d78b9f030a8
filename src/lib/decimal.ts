import { Prisma } from '../generated/prisma/client.js';

/**
 * Exact decimal arithmetic for figures that are stored and compared (totals, counters, remaining hours): binary
 * floating point would turn 1200.1 + 0.2 into 1200.3000000000002. Results come back as JS numbers, which print
 * as the shortest decimal that round-trips.
 */
export const Decimal = Prisma.Decimal;

export function dsum(...values: (number | string | null | undefined)[]): number {
  let acc = new Decimal(0);
  for (const v of values) if (v !== null && v !== undefined) acc = acc.plus(v);
  return acc.toNumber();
}

export function dsub(a: number | string, b: number | string): number {
  return new Decimal(a).minus(b).toNumber();
}
