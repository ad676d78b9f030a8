import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { MethodNotAllowedError, NotFoundError, RateLimitedError } from '../../errors.js';
import { databaseError } from '../../db/errors.js';
import { readJsonBody } from '../../http/body.js';
import { internalErrorResponse, problemResponse } from '../../http/problem.js';
import { createRateLimit } from '../../http/rate-limit.js';
import { renderPublicForm } from './public-page.js';
import { Response } from '../../http/response.js';

/**
 * Public forms (docs/contract/gaps.md §7): `GET /forms/public/{publicId}` serves the page, `POST /forms/public/{publicId}/submissions`
 * takes the answers as JSON through the same completion service as the API. No key; only active forms with
 * `publiclyAvailable` answer (404 otherwise). Submissions are limited per client address and capped in size.
 */
export const PUBLIC_BODY_LIMIT = 64 * 1024;

export function createPublicForms(opts: {
  database: Database;
  logger: Logger;
  perMinute: number;
  redisUrl?: string;
  /** A submission was written (odometer readings may move totals): maintenance alerts are evaluated. */
  afterWrite?: (companyId: string) => void;
}) {
  const limiter = createRateLimit({ perMinute: opts.perMinute, redisUrl: opts.redisUrl, prefix: 'fleetops:public' });

  async function find(publicId: string) {
    // system-level lookup by the globally unique publicId; everything after it runs scoped to the form's company
    const form = await opts.database.prisma.form.findFirst({ where: { publicId, publiclyAvailable: true, status: 'active' } });
    if (!form) throw new NotFoundError('public form', publicId);
    return form;
  }

  async function page(publicId: string): Promise<Response> {
    const form = await find(publicId);
    const ctx = createContext(opts.database, { companyId: form.companyId, keyId: 'public', userId: 'public' });
    const [aircraft, vehicles] = await Promise.all([
      ctx.db.aircraft.findMany({ select: { uid: true, registration: true, model: true }, orderBy: { registration: 'asc' } }),
      ctx.db.vehicle.findMany({ where: { status: { not: 'deleted' } }, select: { uid: true, registration: true, make: true, model: true }, orderBy: { registration: 'asc' } }),
    ]);
    const nonce = randomBytes(16).toString('base64');
    const html = renderPublicForm(form, {
      nonce,
      choices: {
        aircraft: aircraft.map((a) => ({ uid: a.uid, label: a.model ? `${a.registration} (${a.model})` : a.registration })),
        vehicle: vehicles.map((v) => ({ uid: v.uid, label: `${v.registration} (${v.make} ${v.model})` })),
      },
    });
    return new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      },
    });
  }

  async function submit(request: Request, publicId: string, clientAddress: string): Promise<Response> {
    const headers = await limiter.consume(`addr:${clientAddress}`);
    const form = await find(publicId);
    const body = await readJsonBody(request, PUBLIC_BODY_LIMIT);
    const ctx = createContext(opts.database, { companyId: form.companyId, keyId: 'public', userId: 'public' });
    const result = await ctx.services.completions.createPublic(form.uid, publicId, body);
    opts.afterWrite?.(form.companyId);
    return Response.json(result, { status: 201, headers });
  }

  return {
    async handle(request: Request, url: URL, clientAddress: string): Promise<Response | null> {
      const m = /^\/forms\/public\/([^/]+)(\/submissions)?\/?$/.exec(url.pathname);
      if (!m) return null;
      let publicId: string;
      try {
        publicId = decodeURIComponent(m[1]);
      } catch {
        return problemResponse(new NotFoundError('public form'));
      }
      try {
        if (!m[2] && (request.method === 'GET' || request.method === 'HEAD')) return await page(publicId);
        if (m[2] && request.method === 'POST') return await submit(request, publicId, clientAddress);
        const allow = m[2] ? ['POST'] : ['GET', 'HEAD'];
        return problemResponse(new MethodNotAllowedError(`${request.method} is not allowed here: ${allow.join(' or ')}`, allow));
      } catch (e) {
        if (e instanceof RateLimitedError) return problemResponse(e, e.headers);
        // a domain error, or a database refusal the API answers as one (a 409 or 400, as on every channel)
        const known = databaseError(e);
        if (known) return problemResponse(known);
        opts.logger.error({ err: e }, 'public form request failed');
        return internalErrorResponse();
      }
    },
    close: () => limiter.close(),
  };
}
