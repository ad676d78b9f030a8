import { createHash } from 'node:crypto';
import type { Session } from '../db/database.js';
import { GraphQLError, print, type DocumentNode, type ExecutionResult } from 'graphql';
import type { RequestContext } from '../context.js';
import { AppError, BadRequestError, ConflictError, ReportedError, errorKind } from '../errors.js';
import { isUniqueViolation } from '../lib/json.js';
import { databaseError } from '../db/errors.js';
import { appErrorAsGraphQL } from './errors.js';

/**
 * `Idempotency-Key` (docs/contract/gaps.md §11; IETF httpapi idempotency-key draft, Stripe's behaviour), decided at
 * the operation (docs/decisions/0006-policy-at-the-operation.md): the first result of a mutation sent with a key is
 * stored for 24 h per company and key; the same operation with the same variables is answered with that result
 * again without running (header `Idempotent-Replayed: true`); another operation or other variables with the key is
 * a 422; while the first still runs, a 409. A first attempt that failed unexpectedly (a 5xx) is not kept, so it can
 * be retried. Stored in the database, so it holds across server processes. Whichever of the company's API keys sends
 * the repeat (a client's key rotated between two attempts) gets the first result: the write is not made twice. The
 * key's scope is decided before (policy.ts), so a read key resending a write gets its own 403, and another company's
 * key never sees the record (the scoped client). A REST request and an MCP tool call are one operation each, so the
 * same rules hold there.
 */
const TTL_MS = 24 * 3_600_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export class IdempotencyMismatchError extends errorKind(422, 'idempotency_mismatch', 'Idempotency key reused') {}

/**
 * The first request with the key committed its write, and its server process stopped before it could store the
 * answer: the write is not run again (that would write twice), and its answer cannot be given. Final, like a 422.
 */
export class IdempotencyOutcomeLostError extends errorKind(422, 'idempotency_outcome_lost', 'Idempotent request done, answer lost') {}

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
    } else if ((e.originalError && !(e.originalError instanceof GraphQLError)) || (!e.originalError && e.path)) {
      // a bug or an outage: not an answer to keep (a field that broke its own type during execution carries a
      // path and, from graphql-jit, no original error)
      return null;
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

/** A claim left running this long was abandoned (its process died mid-request, or never settled): it may be taken again. */
const ABANDONED_MS = 120_000;

/** The first key of the claims' advisory locks (`pg_try_advisory_lock(IDEMPOTENCY_LOCK, key)`): "foik". */
export const IDEMPOTENCY_LOCK = 0x666f696b;
/** The advisory lock's second key for a company's Idempotency-Key (the first is IDEMPOTENCY_LOCK). */
export const lockKey = (companyId: string, key: string) => createHash('md5').update(`${companyId}\u0000${key}`).digest().readInt32BE(0);

/**
 * `session` (PostgreSQL: this process's own connection) makes a claim a session-level advisory lock as well as a
 * record: a process holds the lock while it runs the request, so another process that finds the record `running`
 * knows at once whether its owner is alive (the lock is taken: 409, retry later) or died (PostgreSQL released the
 * lock with its connection: the request runs again, unless its write had committed). The write marks the record
 * `committed` in its own transaction (TransactionHooks), so a request whose process died after its write committed
 * and before its answer was stored is never run again: it answers 422 idempotency_outcome_lost. Without a session
 * (the embedded database, one process), a `running` record is taken again after ABANDONED_MS.
 */
/**
 * Claims this process is running. A session-level lock is re-entrant on its own connection, so the lock alone cannot
 * tell two requests of this process apart: module-level, since one process builds the policy more than once (the
 * GraphQL endpoint's and the executor's for REST and MCP) over the same session.
 */
const mine = new Set<string>();

export function createIdempotency(opts: { session?: Session } = {}) {
  return {
    async claim(ctx: RequestContext, document: DocumentNode, operationName: string | null, variables: Record<string, unknown>): Promise<Claim> {
      const key = ctx.request.idempotencyKey!;
      if (!KEY_RE.test(key)) return { kind: 'refused', error: new BadRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters') };
      const apiKeyId = ctx.actor.keyId;
      const hash = createHash('sha256').update(`${documentText(document)}\n${operationName ?? ''}\n${canonical(variables)}`).digest('hex');
      const db = ctx.db;
      // per company (the scoped client) and Idempotency-Key, whichever of the company's keys sends it (gaps.md §11);
      // apiKeyId only records who made it
      const where = { key };
      const busy = () => ({ kind: 'refused' as const, error: new ConflictError('a request with this Idempotency-Key is in progress; retry later') });

      const local = `${ctx.companyId}\u0000${key}`;
      if (mine.has(local)) return busy();
      mine.add(local);
      // the lock says whether the owner of a record is alive; null: no session (or it is down), time decides
      const session = opts.session;
      let lock: { generation: number; k: number } | null = null;
      let ownerAlive: boolean | null = null;
      if (session) {
        const k = lockKey(ctx.companyId, key);
        try {
          const [row] = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [IDEMPOTENCY_LOCK, k]);
          if (row.ok) lock = { generation: session.generation, k };
          ownerAlive = !row.ok;
        } catch {
          ownerAlive = null;
        }
      }
      const release = async () => {
        mine.delete(local);
        if (lock && session && lock.generation === session.generation) {
          await session.query('SELECT pg_advisory_unlock($1::int, $2::int)', [IDEMPOTENCY_LOCK, lock.k]).catch(() => {});
        }
        lock = null;
      };
      const refuse = async (c: Claim): Promise<Claim> => {
        await release();
        return c;
      };
      const take = async (): Promise<boolean> => {
        try {
          await db.idempotencyKey.create({ data: { key, apiKeyId, requestHash: hash, expiresAt: new Date(Date.now() + TTL_MS) } });
          return true;
        } catch (e) {
          if (isUniqueViolation(e)) return false;
          throw e;
        }
      };

      try {
        // another process runs this key now: it may not have written its record yet, so nothing else is looked at
        // (apart from a claim stuck past ABANDONED_MS, as without a session)
        const prior0 = ownerAlive === true ? await db.idempotencyKey.findFirst({ where }) : null;
        if (ownerAlive === true && !(prior0 && prior0.state === 'running' && prior0.createdAt.getTime() < Date.now() - ABANDONED_MS)) {
          if (prior0 && prior0.requestHash !== hash) return await refuse(mismatch());
          if (prior0?.state === 'done' && prior0.result !== null) return await refuse({ kind: 'replay', result: replayed(JSON.parse(prior0.result) as StoredResult) });
          return await refuse(busy());
        }
        if (!(await take())) {
          const prior = await db.idempotencyKey.findFirst({ where });
          const old = !!prior && prior.createdAt.getTime() < Date.now() - ABANDONED_MS;
          // its owner is gone: the lock was free (session), or the claim is old
          const ownerGone = !!prior && (ownerAlive === false || old);
          if (prior && prior.requestHash !== hash && prior.expiresAt.getTime() >= Date.now()) return await refuse(mismatch());
          if (!prior || prior.expiresAt.getTime() < Date.now() || (prior.state === 'running' && ownerGone)) {
            // expired, or abandoned before its write committed: run it (again)
            if (prior) await db.idempotencyKey.deleteMany({ where: { ...where, createdAt: prior.createdAt } });
            if (!(await take())) return await refuse(busy());
          } else if (prior.state === 'committed' && ownerGone) {
            return await refuse({
              kind: 'refused',
              error: new IdempotencyOutcomeLostError(
                'the request first sent with this Idempotency-Key was carried out (its write committed), but the server process running it stopped before its answer was stored; it is not run again: read the records back to see its result',
              ),
            });
          } else if (prior.state !== 'done' || prior.result === null) {
            return await refuse(busy());
          } else {
            return await refuse({ kind: 'replay', result: replayed(JSON.parse(prior.result) as StoredResult) });
          }
        }
      } catch (e) {
        await release();
        throw e;
      }
      // now and then, clear this company's expired records
      if (Math.random() < 0.01) await db.idempotencyKey.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => {});
      // the write's transaction marks the claim committed: if this process dies before settle, the request is not
      // run again by another
      ctx.transactionHooks.beforeCommit = (tx) => tx.idempotencyKey.updateMany({ where: { ...where, state: 'running' }, data: { state: 'committed' } });
      return {
        kind: 'run',
        async settle(result) {
          ctx.transactionHooks.beforeCommit = undefined;
          try {
            const stored = storable(result);
            if (!stored) await db.idempotencyKey.deleteMany({ where });
            else await db.idempotencyKey.updateMany({ where, data: { state: 'done', result: JSON.stringify(stored) } });
          } finally {
            await release();
          }
        },
      };
    },
  };
}

const mismatch = (): Claim => ({
  kind: 'refused',
  error: new IdempotencyMismatchError('this Idempotency-Key was used with another request (another operation or input); use a new key'),
});
