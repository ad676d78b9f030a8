import { config as loadDotenv } from 'dotenv';
import path from 'node:path';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { DEFAULT_STATEMENT_CACHE } from './db/statement-cache.js';

/** Configuration by environment variable (docs/contract/gaps.md §1); a .env file in the working directory is read too. */
const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * A whole number written in decimal digits, from `min` to `max`: `0x50`, `1e3` or `80.0` are mistakes in a
 * configuration file, not other spellings of a number.
 */
const NUMERIC = new Set<string>();
const whole = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  NUMERIC.add(name) &&
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number (decimal digits)${max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

const EnvSchema = z.object({
  PORT: whole('PORT', 0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database); leave it unset for the embedded database').optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_STATEMENT_CACHE: whole('DATABASE_STATEMENT_CACHE', 0).default(DEFAULT_STATEMENT_CACHE),
  RATE_LIMIT_PER_MINUTE: whole('RATE_LIMIT_PER_MINUTE', 0).default(120),
  REDIS_URL: z.string().regex(/^rediss?:\/\/./i, 'REDIS_URL must be a Redis URL (redis://host:6379 or rediss://...)').optional(),
  WEBHOOK_ALLOW_PRIVATE: boolish.default(false),
  WEBHOOK_TIMEOUT_MS: whole('WEBHOOK_TIMEOUT_MS', 1).default(10000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: whole('BODY_LIMIT_BYTES', 1).default(1024 * 1024),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('fleetops@localhost'),
  TWILIO_API_BASE: z.url({ protocol: /^https?$/, error: 'TWILIO_API_BASE must be an http or https URL' }).optional(),
  PUBLIC_RATE_LIMIT_PER_MINUTE: whole('PUBLIC_RATE_LIMIT_PER_MINUTE', 0).default(20),
  AUTH_FAIL_LIMIT_PER_MINUTE: whole('AUTH_FAIL_LIMIT_PER_MINUTE', 0).default(30),
  METRICS_TOKEN: z.string().min(8).optional(),
  SHUTDOWN_TIMEOUT_MS: whole('SHUTDOWN_TIMEOUT_MS', 0).default(10000),
  DRAIN_DELAY_MS: whole('DRAIN_DELAY_MS', 0).default(0),
  ALERT_SWEEP_MS: whole('ALERT_SWEEP_MS', 1000).default(15 * 60_000),
  TRUST_PROXY: z
    .string()
    .transform((v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .refine(
      (list) => {
        try {
          proxyAddr.compile(list);
          return true;
        } catch {
          return false;
        }
      },
      'TRUST_PROXY is a comma-separated list of addresses or CIDR ranges (or loopback, linklocal, uniquelocal)',
    )
    .default([]),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL: how many distinct SQL statements are prepared on each connection; 0 for none (a transaction pooler). */
  statementCache: number;
  rateLimitPerMinute: number;
  redisUrl?: string;
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  logLevel: string;
  bodyLimitBytes: number;
  smtpUrl?: string;
  mailFrom: string;
  /** Where SMS go instead of Twilio's API hosts (a Twilio-compatible server; tests). */
  twilioApiBase?: string;
  publicRateLimitPerMinute: number;
  authFailLimitPerMinute: number;
  metricsToken?: string;
  shutdownTimeoutMs: number;
  /** On shutdown: how long /readyz answers 503 while requests are still accepted, before the listener closes. */
  drainDelayMs: number;
  /** How often the maintenance alert sweep runs (dates make items due without a write; gaps.md §14: 15 minutes). */
  alertSweepMs?: number;
  /** Proxies (load balancers) whose X-Forwarded-For names the client: addresses, CIDR ranges or proxy-addr's names. */
  trustProxy: string[];
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, { dotenv = true } = {}): Config {
  if (dotenv) loadDotenv({ quiet: true });
  // a variable set to nothing (or to spaces only) is as if it were not set: its default applies; numbers may carry
  // spaces around their digits
  const blankToUndefined = Object.fromEntries(
    Object.entries(env)
      .filter(([k, v]) => k in EnvSchema.shape && v !== undefined && v.trim() !== '')
      .map(([k, v]) => [k, NUMERIC.has(k) ? v!.trim() : v]),
  );
  const parsed = EnvSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    statementCache: e.DATABASE_STATEMENT_CACHE,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    twilioApiBase: e.TWILIO_API_BASE,
    publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    authFailLimitPerMinute: e.AUTH_FAIL_LIMIT_PER_MINUTE,
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs: e.DRAIN_DELAY_MS,
    alertSweepMs: e.ALERT_SWEEP_MS,
    trustProxy: e.TRUST_PROXY,
  };
}
