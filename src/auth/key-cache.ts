import type { Actor } from './keys.js';

/**
 * Authenticated API keys, kept for a short time so that a request does not pay a database round trip for its key
 * (docs/benchmarks.md: the key lookup was one of the GraphQL page's four statements).
 *
 * Revocation must still take effect at once (docs/api-notes.md, "API keys"):
 * - every cache of this process is invalidated when a key changes here (`invalidateKey`), after the change commits;
 * - on PostgreSQL, other processes hear of it through `NOTIFY fleetops_api_keys` (sent in the changing transaction,
 *   so delivered when it commits) and invalidate theirs, and the revoke waits until they all have (key-drops.ts);
 * - while that channel is down (or not yet up), nothing is cached: every request reads its key;
 * - an entry lives at most `KEY_CACHE_TTL_MS` whatever happens, the documented bound.
 * A lookup that started before an invalidation never stores its (possibly stale) answer: each invalidation moves a
 * generation counter, and `set` is refused for an older generation.
 */
export const KEY_CACHE_TTL_MS = 30_000;
export const KEY_CHANGE_CHANNEL = 'fleetops_api_keys';
const MAX_ENTRIES = 10_000;

const caches = new Set<KeyCache>();

export class KeyCache {
  private entries = new Map<string, { actor: Actor; until: number }>();
  private generation = 0;
  /** Off while changes from other processes could go unheard (see `Database.listen`). */
  enabled = true;

  constructor(private readonly ttlMs = KEY_CACHE_TTL_MS) {
    caches.add(this);
  }

  /** The generation a lookup starts in; pass it back to `set`. */
  begin(): number {
    return this.generation;
  }

  get(hash: string): Actor | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.until <= Date.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.actor;
  }

  set(hash: string, actor: Actor, generation: number) {
    if (!this.enabled || generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // the oldest insertion goes first (a Map iterates in insertion order)
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { actor, until: Date.now() + this.ttlMs });
  }

  invalidate(hash: string) {
    this.generation++;
    this.entries.delete(hash);
  }

  /** Forget everything: used when the cross-process channel was interrupted and changes may have been missed. */
  clear() {
    this.generation++;
    this.entries.clear();
  }

  dispose() {
    caches.delete(this);
    this.entries.clear();
  }
}

/** A key's record changed in this process (revoked, re-assigned, restored): no cache here may answer from before. */
export function invalidateKey(hash: string) {
  for (const c of caches) c.invalidate(hash);
}
