import type { ScopedPrisma } from '../../db/scoped.js';
import { cutDays, DAY_MS, dayOf, dayText } from './days.js';
import type { Plan } from './service.js';
import { sizeQuery, type Source } from './sql.js';

/**
 * Which plan answers a flight-log aggregation the rollup can serve, by size. Both plans are exact, so a rough size
 * is enough to choose: reading the logs costs about one unit per log of the span; the rollup costs half a unit per
 * rollup row (a company, key, UTC day and aircraft) of its whole days, one unit per log of its cut days, and eight per
 * day of the span (its period in the zone and the zone check). A company with few logs per aircraft and day gains
 * nothing from the rollup and reads its logs in one plain statement.
 *
 * The size comes from the rollup itself (sizeQuery: its first and last day, and the rows, days and logs of its latest
 * 2,000 rows), read once per company and kept for a minute in this process. A size that has aged only costs time: the
 * statement reads from the logs every day outside the span the size named, so logs written since are counted too.
 */

/**
 * Relative costs, in logs read by the logs plan (about 0.6 µs each on PostgreSQL: a heap row, its zone conversion and
 * JSON value), measured with scratch runs of both plans (docs/benchmarks.md): a rollup row, and a day of the span
 * (its period and its zone check: three zone conversions).
 */
const ROW_COST = 0.5;
const DAY_COST = 8;
/** Below this many logs in the span the logs are read: the rollup's larger statement costs more than it saves. */
const MIN_LOGS = 4_000;
/** The rollup answers at most this many days (the latest of the company's span); older logs are read from the table. */
const MAX_SPAN_DAYS = 20 * 366;

export interface Size {
  /** first and last UTC day with rollup rows (day numbers), null without logs */
  first: number | null;
  last: number | null;
  /** over the sample: rollup rows of key '' (aircraft-days), distinct days, logs */
  rows: number;
  days: number;
  logs: number;
}

const TTL_MS = 60_000;
const MAX_COMPANIES = 10_000;
const sizes = new Map<string, { at: number; size: Promise<Size> }>();
/** Where the size cache reads the time (monotonic; no business rule depends on it). */
export const sizeClock = { now: () => performance.now() };

/** The company's size, from the cache or one index-only statement. */
export function sizeOf(db: ScopedPrisma): Promise<Size> {
  const now = sizeClock.now();
  const hit = sizes.get(db.companyId);
  if (hit && now - hit.at < TTL_MS) return hit.size;
  const size = db.$queryRaw<{ first: string | null; last: string | null; rows: number; days: number; logs: number }[]>(sizeQuery()).then(([r]) => ({
    first: r.first === null ? null : dayOf(Date.parse(`${r.first}T00:00:00Z`)),
    last: r.last === null ? null : dayOf(Date.parse(`${r.last}T00:00:00Z`)),
    rows: Number(r.rows),
    days: Number(r.days),
    logs: Number(r.logs),
  }));
  size.catch(() => sizes.delete(db.companyId));
  sizes.delete(db.companyId);
  sizes.set(db.companyId, { at: now, size });
  if (sizes.size > MAX_COMPANIES) sizes.delete(sizes.keys().next().value!);
  return size;
}

/** Forgets every size (tests). */
export function forgetSizes() {
  sizes.clear();
}

/** Estimated costs of both plans for the span `first..last` with `cut` days, in units of one log read. */
export function planCosts(plan: Plan, size: Size, first: number, last: number, cut: number): { logs: number; rollup: number } {
  const days = last - first + 1;
  const activeDays = Math.max(1, size.days);
  let logsPerDay = size.logs / activeDays;
  let rowsPerDay = size.rows / activeDays;
  if (plan.filters.length) {
    // one aircraft: about one rollup row per day, holding the logs of one aircraft-day
    logsPerDay = size.logs / Math.max(1, size.rows);
    rowsPerDay = 1;
  }
  const keys = 1 + new Set(plan.metrics.flatMap((m) => (m.resolved?.source === 'dynamic' ? [m.resolved.key] : []))).size;
  return {
    logs: days * logsPerDay,
    rollup: (days - cut) * rowsPerDay * keys * ROW_COST + cut * logsPerDay + days * DAY_COST,
  };
}

/**
 * The source of a flight-log aggregation the rollup can serve: the rollup with the span and cut days when it pays
 * (or when `force`d), else the logs.
 */
export async function rollupSource(db: ScopedPrisma, plan: Plan, force: boolean): Promise<Source> {
  const size = await sizeOf(db);
  if (size.first === null || size.last === null) return { kind: 'logs' };
  // the span: the days the range covers whole (a day it starts or ends inside is read from the logs)
  const { start, end } = plan;
  const last = end === null ? size.last : Math.min(size.last, dayOf(end) - 1);
  const first = Math.max(size.first, last - MAX_SPAN_DAYS + 1, start === null ? -Infinity : Math.ceil(start / DAY_MS));
  if (first > last) return { kind: 'logs' };
  // a company with few logs in the span reads them; the cut days are computed only where the rollup may pay
  if (!force && planCosts(plan, size, first, last, 0).logs < MIN_LOGS) return { kind: 'logs' };
  const cut = cutDays(plan.timezone, plan.dateGroup, first, last, null, null);
  if (!force) {
    const cost = planCosts(plan, size, first, last, cut.length);
    if (cost.rollup >= cost.logs) return { kind: 'logs' };
  }
  return { kind: 'rollup', first: dayText(first), last: dayText(last), cut: cut.map(dayText) };
}
