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
  close(): Promise<void>;
}

export function createRateLimit(opts: { perMinute: number; redisUrl?: string; prefix?: string }): RateLimit {
  if (opts.perMinute <= 0) return { consume: async () => ({}), close: async () => {} };
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
  return {
    async consume(key, points = 1) {
      try {
        return headers(await (await limiter).consume(key, points));
      } catch (e) {
        if (e instanceof RateLimiterRes) {
          const retry = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
          const err = new RateLimitedError(
            `rate limit of ${plural(opts.perMinute, 'request')} per minute exceeded; retry in ${retry} s`,
            retry,
          );
          // the answer's headers whatever the channel: the budget as it now is, and when to come back
          Object.assign(err, { headers: { ...headers(e), 'retry-after': String(retry) } });
          throw err;
        }
        // the store cannot be reached (Redis down): the request is not counted, so it is not served either; a 503 the
        // client may retry, not an internal error
        throw new ServiceUnavailableError(`the rate limit's store cannot be reached (${(e as Error)?.message ?? e}); retry in ${STORE_RETRY_S} s`, STORE_RETRY_S);
      }
    },
    async close() {
      await Promise.resolve(limiter).catch(() => {});
      await redis?.quit().catch(() => {});
    },
  };
}
