import { createHash } from 'node:crypto';
import { GraphQLError, print, type DocumentNode, type ExecutionResult } from 'graphql';
import type { RequestContext } from '../context.js';
import { AppError, BadRequestError, ConflictError, ReportedError } from '../errors.js';
import { isUniqueViolation } from '../lib/json.js';
import { databaseError } from '../db/errors.js';
import { appErrorAsGraphQL } from './errors.js';

/**
 * `Idempotency-Key` (docs/contract/gaps.md §11; IETF httpapi idempotency-key draft, Stripe's behaviour), decided at
 * the operation (docs/decisions/0006-policy-at-the-operation.md): the first result of a mutation sent with a key is
 * stored for 24 h per company and API key; the same operation with the same variables is answered with that result
 * again without running (header `Idempotent-Replayed: true`); another operation or other variables with the key is
 * a 422; while the first still runs, a 409. A first attempt that failed unexpectedly (a 5xx) is not kept, so it can
 * be retried. Stored in the database, so it holds across server processes; bound to the API key, so no other key
 * (a read key, another company's) can replay it. A REST request and an MCP tool call are one operation each, so the
 * same rules hold there.
 */
const TTL_MS = 24 * 3_600_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export class IdempotencyMismatchError extends AppError {
  readonly status = 422;
  readonly code = 'idempotency_mismatch';
  readonly title = 'Idempotency key reused';
}

type Claim =
  | { kind: 'run'; settle(result: ExecutionResult): Promise<void> }
  | { kind: 'replay'; result: ExecutionResult }
  | { kind: 'refused'; error: AppError };

interface StoredResult {
  data?: ExecutionResult['data'];
  errors?: { message: string; path?: ReadonlyArray<string | number>; status: number; code: string; title: string; errors?: { path: string; message: string }[] }[];
}

const printed = new WeakMap<DocumentNode, string>();
function documentText(doc: DocumentNode): string {
  let text = printed.get(doc);
  if (text === undefined) printed.set(doc, (text = print(doc)));
  return text;
}

/** JSON with object keys in order: the same variables hash the same whatever order they were sent in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

/** The result as stored; null when it must not be kept (an unexpected error: the request may be retried). */
function storable(result: ExecutionResult): StoredResult | null {
  const errors: NonNullable<StoredResult['errors']> = [];
  for (const e of result.errors ?? []) {
    const original = databaseError(e.originalError ?? null) ?? e.originalError;
    if (original instanceof AppError) {
      errors.push({ message: original.message, path: e.path, status: original.status, code: original.code, title: original.title, errors: original.errors });
    } else if (e.originalError && !(e.originalError instanceof GraphQLError)) {
      return null; // a bug or an outage: not an answer to keep
    } else {
      errors.push({ message: e.message, path: e.path, status: 400, code: 'bad_request', title: 'Bad request' });
    }
  }
  return { ...(result.data !== undefined ? { data: result.data } : {}), ...(errors.length ? { errors } : {}) };
}

function replayed(stored: StoredResult): ExecutionResult {
  return {
    ...(stored.data !== undefined ? { data: stored.data } : {}),
    ...(stored.errors
      ? {
          errors: stored.errors.map((e) => appErrorAsGraphQL(new ReportedError(e.status, e.code, e.title, e.message, e.errors), { path: e.path })),
        }
      : {}),
  };
}

/** A claim left running this long was abandoned (its process died mid-request): it may be taken again. */
const ABANDONED_MS = 120_000;

export function createIdempotency() {
  return {
    async claim(ctx: RequestContext, document: DocumentNode, operationName: string | null, variables: Record<string, unknown>): Promise<Claim> {
      const key = ctx.request.idempotencyKey!;
      if (!KEY_RE.test(key)) return { kind: 'refused', error: new BadRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters') };
      const apiKeyId = ctx.actor.keyId;
      const hash = createHash('sha256').update(`${documentText(document)}\n${operationName ?? ''}\n${canonical(variables)}`).digest('hex');
      const db = ctx.db;
      const where = { key, apiKeyId };
      const take = async (): Promise<boolean> => {
        try {
          await db.idempotencyKey.create({ data: { key, apiKeyId, requestHash: hash, expiresAt: new Date(Date.now() + TTL_MS) } });
          return true;
        } catch (e) {
          if (isUniqueViolation(e)) return false;
          throw e;
        }
      };
      const busy = () => ({ kind: 'refused' as const, error: new ConflictError('a request with this Idempotency-Key is in progress; retry later') });

      if (!(await take())) {
        const prior = await db.idempotencyKey.findFirst({ where });
        const abandoned = prior && prior.state !== 'done' && prior.createdAt.getTime() < Date.now() - ABANDONED_MS;
        if (!prior || prior.expiresAt.getTime() < Date.now() || abandoned) {
          if (prior) await db.idempotencyKey.deleteMany({ where: { ...where, createdAt: prior.createdAt } });
          if (!(await take())) return busy();
        } else {
          if (prior.requestHash !== hash) {
            return {
              kind: 'refused',
              error: new IdempotencyMismatchError('this Idempotency-Key was used with another request (another operation or input); use a new key'),
            };
          }
          if (prior.state !== 'done' || prior.result === null) return busy();
          return { kind: 'replay', result: replayed(JSON.parse(prior.result) as StoredResult) };
        }
      }
      // now and then, clear this company's expired records
      if (Math.random() < 0.01) await db.idempotencyKey.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => {});
      return {
        kind: 'run',
        async settle(result) {
          const stored = storable(result);
          if (!stored) await db.idempotencyKey.deleteMany({ where });
          else await db.idempotencyKey.updateMany({ where, data: { state: 'done', result: JSON.stringify(stored) } });
        },
      };
    },
  };
}
