import { listenerName, type Database } from '../db/database.js';
import { KEY_CHANGE_CHANNEL } from './key-cache.js';

/**
 * "Revoked at once in every server process" (docs/api-notes.md, "API keys"), made true on PostgreSQL.
 *
 * Every server process keeps authenticated keys briefly (key-cache.ts) and drops a key when it hears the revoking
 * transaction's `NOTIFY fleetops_api_keys`. Hearing takes a moment: a request sent to another process right after the
 * revoke answered could still be served from its cache (CI saw it once: `fleetops keys revoke`, then a 200). So every
 * process answers each key change on `fleetops_api_keys_ack` once it has dropped the key, and a revoke does not answer
 * until every process that listens has (they are counted by their connection's `application_name`), or until
 * `ACK_TIMEOUT_MS` has passed: a process that is wedged still drops the key within the cache's 30 s bound.
 *
 * The embedded database has one process, where the revoke itself drops the key: nothing to wait for.
 */
export const KEY_ACK_CHANNEL = 'fleetops_api_keys_ack';
export const ACK_TIMEOUT_MS = 3_000;

/** Started before a key change commits; `settled(hash)` after it has, waits for every listening process. */
export interface KeyDropWatch {
  settled(hash: string): Promise<void>;
  close(): Promise<void>;
}

/** A server process's answer to a key change it heard: the key is gone from its cache. */
export function acknowledgeKeyDrop(database: Database, hash: string): Promise<unknown> {
  return database.session ? database.session.query('SELECT pg_notify($1, $2)', [KEY_ACK_CHANNEL, hash]) : Promise.resolve();
}

/** How to watch a key change of `database` (PostgreSQL); undefined on the embedded database. */
export function keyDropWatcher(database: Database, timeoutMs = ACK_TIMEOUT_MS): (() => Promise<KeyDropWatch>) | undefined {
  if (!database.listen) return undefined;
  const listen = database.listen.bind(database);
  return async () => {
    const heard = new Map<string, number>();
    const waiters = new Set<() => void>();
    let listening = false;
    const stop = await listen(
      KEY_ACK_CHANNEL,
      (hash) => {
        heard.set(hash, (heard.get(hash) ?? 0) + 1);
        for (const w of waiters) w();
      },
      (up) => {
        listening = up;
      },
    );
    return {
      async settled(hash) {
        // not listening (the connection failed): nothing can be counted, the processes drop the key as they hear it
        if (!listening) return;
        // a listening connection runs nothing but its LISTEN, so its last statement names it even when DATABASE_URL
        // sets an application_name of its own (which overrides the one db/postgres.ts gives it)
        const rows = await database.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND (application_name = $1 OR query = $2)',
          [listenerName(KEY_CHANGE_CHANNEL), `LISTEN "${KEY_CHANGE_CHANNEL}"`],
        );
        const expected = rows[0]?.n ?? 0;
        if ((heard.get(hash) ?? 0) >= expected) return;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          };
          const check = () => {
            if ((heard.get(hash) ?? 0) >= expected) done();
          };
          const timer = setTimeout(done, timeoutMs);
          waiters.add(check);
        });
      },
      close: stop,
    };
  };
}
