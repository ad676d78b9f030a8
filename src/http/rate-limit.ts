import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError, ServiceUnavailableError } from '../errors.js';

/** Seconds a client is asked to wait when the rate limit's store (Redis) cannot be reached. */
const STORE_RETRY_S = 5;
import { plural } from '../lib/text.js';

/**
 * Per-API-key rate limit (docs/contract/gaps.md §2): N requests a minute, counted in memory, or in Redis when REDIS_URL is set so
 * several server processes share one budget. Answers carry IETF draft `RateLimit-Policy` / `RateLimit` headers.
 */
export interface RateLimit {
  /** Consumes one request for the key; returns the headers to send, or throws RateLimitedError (429). */
  consume(key: string, points?: number): Promise<Record<string, string>>;
  /**
   * Throws the RateLimitedError (429) `consume` would once the key's budget is spent, without using any of it: for a
   * budget of failures, checked before the attempt it guards (an answer to an attempt while over budget would tell
   * a right key from a wrong one).
   */
  check(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createRateLimit(opts: { perMinute: number; redisUrl?: string; prefix?: string }): RateLimit {
  if (opts.perMinute <= 0) return { consume: async () => ({}), check: async () => {}, close: async () => {} };
  let redis: Redis | undefined;
  const common = { points: opts.perMinute, duration: 60, keyPrefix: opts.prefix ?? 'fleetops:rl' };
  const redisUrl = opts.redisUrl;
  // the Redis client is loaded only when REDIS_URL is set (it is a noticeable part of start-up otherwise)
  const limiter: Promise<RateLimiterAbstract> | RateLimiterAbstract = redisUrl
    ? import('ioredis').then(({ Redis }) => {
        redis = new Redis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
        // an outage is answered per request (a 503, below); without a listener ioredis prints every reconnect failure
        redis.on('error', () => {});
        return new RateLimiterRedis({ storeClient: redis, ...common });
      })
    : new RateLimiterMemory(common);
  const policy = `${opts.perMinute};w=60`;
  const headers = (r: RateLimiterRes) => ({
    'ratelimit-policy': policy,
    ratelimit: `limit=${opts.perMinute}, remaining=${Math.max(0, r.remainingPoints)}, reset=${Math.ceil(r.msBeforeNext / 1000)}`,
  });
  const limited = (r: RateLimiterRes) => {
    const retry = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
    const err = new RateLimitedError(`rate limit of ${plural(opts.perMinute, 'request')} per minute exceeded; retry in ${retry} s`, retry);
    // the answer's headers whatever the channel: the budget as it now is, and when to come back
    return Object.assign(err, { headers: { ...headers(r), 'retry-after': String(retry) } });
  };
  // the store cannot be reached (Redis down): the request is not counted, so it is not served either; a 503 the
  // client may retry, not an internal error
  const unreachable = (e: unknown) =>
    new ServiceUnavailableError(`the rate limit's store cannot be reached (${(e as Error)?.message ?? e}); retry in ${STORE_RETRY_S} s`, STORE_RETRY_S);
  return {
    async consume(key, points = 1) {
      try {
        return headers(await (await limiter).consume(key, points));
      } catch (e) {
        throw e instanceof RateLimiterRes ? limited(e) : unreachable(e);
      }
    },
    async check(key) {
      let r: RateLimiterRes | null;
      try {
        r = await (await limiter).get(key);
      } catch (e) {
        throw unreachable(e);
      }
      if (r && r.consumedPoints >= opts.perMinute && r.msBeforeNext > 0) throw limited(r);
    },
    async close() {
      await Promise.resolve(limiter).catch(() => {});
      await redis?.quit().catch(() => {});
    },
  };
}
