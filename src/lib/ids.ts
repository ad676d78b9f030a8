import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/**
 * Record ids: a short type prefix, the creation time (ms, base32, so ids sort roughly by creation) and 80 random
 * bits, e.g. `fl_01k7u91id1jb0pp5q63u`. Unguessable, URL-safe, never reused.
 */
export function newUid(prefix: string): string {
  const named = chosen.getStore()?.[prefix]?.shift();
  if (named !== undefined) return named;
  const t = Date.now().toString(32).padStart(10, '0');
  return `${prefix}_${t}${[...randomBytes(10)].map((b) => (b % 32).toString(32)).join('')}`;
}

const chosen = new AsyncLocalStorage<Record<string, string[]>>();

/**
 * Runs `fn` with chosen ids: each record it creates with a prefix listed in `names` takes the next name of that
 * prefix (in the order the service creates them), the others a new id as usual. For the demo company, whose
 * records the API docs' examples name (src/rest/examples.ts); the rules that check and write the record are the
 * same, only its id is known in advance.
 */
export function withUids<T>(names: Record<string, string[]>, fn: () => Promise<T>): Promise<T> {
  return chosen.run(Object.fromEntries(Object.entries(names).map(([k, v]) => [k, [...v]])), fn);
}
