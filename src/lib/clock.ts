/**
 * The service's one clock: what "now" is for every rule that depends on the time (today's date in a time zone for
 * maintenance status and defect due dates, the default completion time, when a component was installed or a
 * counter reset, the demo's dates). Rules read `now()` here and never `new Date()`, `Date.now()` or SQL `now()` /
 * `CURRENT_DATE` on their own, so a test can fix the instant (`setClock`) and a suite can run as if it were any
 * hour of any day (docs/decisions/0009-time-as-an-input.md).
 *
 * Record-keeping timestamps are not rules: `createdAt` and `updatedAt` are when a row was written, set by Prisma
 * (`@default(now())`, `@updatedAt`) from the wall clock; SQL that writes `updatedAt` itself uses `writtenAt()`, the
 * same wall clock, so a row is never updated before it was created.
 */
let fixed: Date | null = null;

/** The current instant as the rules see it: the wall clock, or the instant a test fixed. */
export function now(): Date {
  return fixed ? new Date(fixed.getTime()) : new Date();
}

/**
 * Fixes the clock at an instant (a Date, epoch ms or an ISO 8601 date-time), until it is set again; `null` gives
 * the wall clock back. For tests only: the service never sets it.
 */
export function setClock(at: Date | number | string | null): void {
  if (at === null) {
    fixed = null;
    return;
  }
  const d = at instanceof Date ? new Date(at.getTime()) : new Date(at);
  if (Number.isNaN(d.getTime())) throw new Error(`setClock: not an instant: ${String(at)}`);
  fixed = d;
}

/** Whether a test fixed the clock. */
export function clockIsFixed(): boolean {
  return fixed !== null;
}

/** When a row is written (`updatedAt` set by SQL): the wall clock, as Prisma takes it for `createdAt`/`updatedAt`. */
export function writtenAt(): Date {
  return new Date();
}
