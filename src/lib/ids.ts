import { randomBytes } from 'node:crypto';

/**
 * Record ids: a short type prefix, the creation time (ms, base32, so ids sort roughly by creation) and 80 random
 * bits, e.g. `fl_01k7u91id1jb0pp5q63u`. Unguessable, URL-safe, never reused.
 */
export function newUid(prefix: string): string {
  const t = Date.now().toString(32).padStart(10, '0');
  return `${prefix}_${t}${[...randomBytes(10)].map((b) => (b % 32).toString(32)).join('')}`;
}
