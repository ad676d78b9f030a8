import { createHash } from 'node:crypto';
import type { RequestContext } from '../context.js';
import { AppError, BadRequestError, ConflictError } from '../errors.js';
import { isUniqueViolation } from '../lib/json.js';
import { withLimitedBody } from './body.js';

/**
 * `Idempotency-Key` on POST and PATCH (docs/contract/gaps.md §11; IETF httpapi idempotency-key draft, Stripe's behaviour): the
 * first response (status and body) to a key is stored per company for 24 h; the same key with the same method,
 * path and body answers that response again without doing the work (header `Idempotent-Replayed: true`); with
 * another request it is a 422; while the first is still running, a 409. A first attempt that failed with a 5xx is
 * not kept, so it can be retried. Stored in the database, so it holds across server processes.
 */
const TTL_MS = 24 * 3_600_000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export class IdempotencyMismatchError extends AppError {
  readonly status = 422;
  readonly code = 'idempotency_mismatch';
  readonly title = 'Idempotency key reused';
}

export async function withIdempotency(
  request: Request,
  ctx: RequestContext,
  run: (request: Request) => Promise<Response>,
  bodyLimitBytes: number,
): Promise<Response> {
  const key = request.headers.get('idempotency-key');
  if (key === null || (request.method !== 'POST' && request.method !== 'PATCH')) return run(request);
  if (!KEY_RE.test(key)) throw new BadRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters');
  const body = await (await withLimitedBody(request, bodyLimitBytes)).text();
  const url = new URL(request.url);
  const hash = createHash('sha256').update(`${request.method} ${url.pathname}${url.search}\n${body}`).digest('hex');
  const db = ctx.db;

  const claim = async (): Promise<boolean> => {
    try {
      await db.idempotencyKey.create({ data: { key, requestHash: hash, expiresAt: new Date(Date.now() + TTL_MS) } });
      return true;
    } catch (e) {
      if (isUniqueViolation(e)) return false;
      throw e;
    }
  };
  if (!(await claim())) {
    const prior = await db.idempotencyKey.findFirst({ where: { key } });
    if (prior && prior.expiresAt.getTime() < Date.now()) {
      await db.idempotencyKey.deleteMany({ where: { key, expiresAt: { lt: new Date() } } });
      if (!(await claim())) throw new ConflictError('a request with this Idempotency-Key is in progress; retry later');
    } else if (!prior) {
      if (!(await claim())) throw new ConflictError('a request with this Idempotency-Key is in progress; retry later');
    } else {
      if (prior.requestHash !== hash) {
        throw new IdempotencyMismatchError('this Idempotency-Key was used with another request (method, path or body); use a new key');
      }
      if (prior.state !== 'done') throw new ConflictError('a request with this Idempotency-Key is in progress; retry later');
      return new Response(prior.body ?? '', {
        status: prior.status ?? 200,
        headers: { ...(prior.contentType ? { 'content-type': prior.contentType } : {}), 'idempotent-replayed': 'true' },
      });
    }
  }
  // occasionally clear expired records of this company
  if (Math.random() < 0.01) await db.idempotencyKey.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => {});

  let res: Response;
  try {
    res = await run(new Request(request.url, { method: request.method, headers: request.headers, body: body || undefined }));
  } catch (e) {
    await db.idempotencyKey.deleteMany({ where: { key } }).catch(() => {});
    throw e;
  }
  const text = await res.text();
  if (res.status >= 500) await db.idempotencyKey.deleteMany({ where: { key } });
  else {
    await db.idempotencyKey.updateMany({
      where: { key },
      data: { state: 'done', status: res.status, body: text, contentType: res.headers.get('content-type') },
    });
  }
  return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
}
