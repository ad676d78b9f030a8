import { randomUUID } from 'node:crypto';

/**
 * The request a piece of work belongs to, for logs: each request logs through a child logger bound to its
 * `requestId` (src/app.ts, `RequestState.log`), the id every response returns as `X-Request-Id`. Not an
 * AsyncLocalStorage: on Node 20 one active store makes every promise of every request pay for async hooks (about a
 * tenth of a GraphQL page of 100 logs, measured in-process with `bench/profile-op.ts graphql`).
 */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-Id when it is well formed, else a new one. */
export function requestIdFor(header: string | null): string {
  return header && WELL_FORMED.test(header) ? header : randomUUID();
}
