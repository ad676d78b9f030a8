import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request a piece of work belongs to, for logs: every log line written while a request is handled carries its
 * `requestId` (pino's mixin reads it from here), the id every response returns as `X-Request-Id`.
 */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-Id when it is well formed, else a new one. */
export function requestIdFor(header: string | null): string {
  return header && WELL_FORMED.test(header) ? header : randomUUID();
}

export function logMixin(): Record<string, unknown> {
  const s = requestScope.getStore();
  return s ? { requestId: s.requestId } : {};
}
