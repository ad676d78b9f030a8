import { AppError, MethodNotAllowedError, RateLimitedError, ReportedError, ServiceUnavailableError, UnauthorizedError } from '../errors.js';
import { Response } from './response.js';

/** RFC 9457 problem details, as every REST error is answered (docs/contract/gaps.md §2). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}

/** Problem types are relative URIs into the service's own /docs page, which lists every code. */
export const PROBLEM_TYPE_BASE = '/docs#problem-';

export function problemFromError(err: AppError): Problem {
  const p: Problem = {
    type: PROBLEM_TYPE_BASE + err.code,
    title: err.title,
    status: err.status,
    detail: err.message,
    code: err.code,
  };
  if (err.errors?.length) p.errors = err.errors;
  return p;
}

export function problemResponse(err: AppError, extraHeaders: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json', ...extraHeaders };
  if (err instanceof UnauthorizedError) headers['www-authenticate'] = 'Bearer realm="fleetops"';
  if (err instanceof MethodNotAllowedError) headers['allow'] = err.allow.join(', ');
  if (err instanceof RateLimitedError || err instanceof ServiceUnavailableError) headers['retry-after'] = String(err.retryAfterSeconds);
  return new Response(JSON.stringify(problemFromError(err)), { status: err.status, headers });
}

/** What a client is told of an unexpected error (the error itself is logged). */
export const INTERNAL_ERROR = new ReportedError(500, 'internal_error', 'Internal server error', 'An unexpected error occurred; it has been logged.');

export function internalErrorResponse(): Response {
  return problemResponse(INTERNAL_ERROR);
}
