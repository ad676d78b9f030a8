import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY } from '../../db/scoped.js';
import { dateColumn, numericExpr, presentExpr, textExpr, type ResolvedField } from './fields.js';
import type { Plan } from './service.js';
import type { TimeZoneSpec } from './timezone.js';

/**
 * The SQL of an aggregation: one statement per request. Two plans give the same numbers:
 * - raw: the collection's table, filtered, bucketed in the time zone and grouped;
 * - rollup (flight logs only): whole UTC days come from FlightLogDaily (kept exact by triggers on every write) and
 *   only the days a period or the date range cuts through are read from FlightLog. A UTC day is whole when its first
 *   and last millisecond fall in the same period of the zone, its local length is 24 hours (no offset change inside
 *   it, so every instant of it is in that period too) and the date range covers all of it. A first small statement
 *   finds the cut days, so the second one reads them as constant index ranges (with estimates the planner can
 *   trust: one statement joining a day series to the logs was planned for millions of rows and JIT-compiled).
 * Both end in the same outer query: the labels of the periods, each group's total and the record count, computed
 * from the per-(group, period) partial aggregates `r`.
 */

/** Group key of records whose groupBy field is missing (docs/contract/gaps.md §5). */
export const NONE_GROUP = '(none)';
/** Group key when there is no groupBy. */
export const ALL_GROUP = 'all';

/** date_trunc unit and to_char label of each period (docs/contract/gaps.md §5); constants, never request text. */
export const PERIODS = {
  day: { unit: 'day', label: 'YYYY-MM-DD' },
  week: { unit: 'week', label: 'IYYY-"W"IW' }, // ISO week of the Monday that starts it: 2024-12-30 is 2025-W01
  month: { unit: 'month', label: 'YYYY-MM' },
  quarter: { unit: 'quarter', label: 'YYYY-"Q"Q' },
  year: { unit: 'year', label: 'YYYY' },
} as const;

/** kind 0: a (group, period) row; 1: a group's total; 2: all records. Values as numeric text. */
export interface SqlRow {
  kind: number;
  g: string | null;
  period: string | null;
  c: string;
  [value: `v${number}`]: string | null;
}

const raw = Prisma.raw;
/** Prisma.join refuses an empty list. */
const concat = (parts: Prisma.Sql[]) => (parts.length ? Prisma.join(parts, '') : Prisma.empty);
const t = (column: string) => raw(`t."${column}"`);

/** Local wall time of an instant in the zone. */
function inZone(instant: Prisma.Sql, tz: TimeZoneSpec): Prisma.Sql {
  return tz.kind === 'iana'
    ? Prisma.sql`(${instant} AT TIME ZONE ${tz.name}::text)`
    : Prisma.sql`(${instant} AT TIME ZONE make_interval(mins => ${tz.minutes}::int))`;
}

/** The local wall time of the date field; a calendar date stays that date whatever the zone. */
function localTime(field: ResolvedField, tz: TimeZoneSpec): Prisma.Sql {
  const column = dateColumn(field);
  if (field.source === 'core' && field.kind === 'day') return Prisma.sql`(${column} AT TIME ZONE 'UTC')`;
  return inZone(column, tz);
}

const trunc = (plan: Plan, local: Prisma.Sql) =>
  plan.dateGroup === 'none' ? Prisma.sql`NULL::timestamp` : Prisma.sql`date_trunc(${raw(`'${PERIODS[plan.dateGroup].unit}'`)}, ${local})`;

/** One partial aggregate column of `r`: over raw records, over rollup rows, and how partials add up. */
interface Partial {
  name: string;
  raw: Prisma.Sql;
  rollup?: Prisma.Sql;
}
interface MetricSql {
  partials: Partial[];
  row: Prisma.Sql;
  total: Prisma.Sql;
}

function metricSql(plan: Plan): MetricSql[] {
  return plan.metrics.map((m, i) => {
    const name = (s: string) => `${s}${i}`;
    const col = (s: string) => raw(`r.${s}${i}`);
    if (!m.resolved) return { partials: [], row: Prisma.sql`r.c`, total: Prisma.sql`sum(r.c)` };
    const num = numericExpr(m.resolved);
    const key = m.resolved.source === 'dynamic' ? m.resolved.key : null;
    const ofKey = (column: string) => Prisma.sql`sum(x.${raw(`"${column}"`)}) FILTER (WHERE x.key = ${key}::text)`;
    switch (m.operation) {
      case 'count':
        return {
          partials: [{ name: name('p'), raw: Prisma.sql`count(*) FILTER (WHERE ${presentExpr(m.resolved)})`, rollup: ofKey('present') }],
          row: Prisma.sql`COALESCE(${col('p')}, 0)`,
          total: Prisma.sql`COALESCE(sum(${col('p')}), 0)`,
        };
      case 'sum':
        return {
          partials: [{ name: name('s'), raw: Prisma.sql`sum(${num})`, rollup: ofKey('sum') }],
          row: Prisma.sql`COALESCE(${col('s')}, 0)`,
          total: Prisma.sql`COALESCE(sum(${col('s')}), 0)`,
        };
      case 'avg':
        return {
          partials: [
            { name: name('s'), raw: Prisma.sql`sum(${num})`, rollup: ofKey('sum') },
            { name: name('n'), raw: Prisma.sql`count(${num})`, rollup: ofKey('numbers') },
          ],
          row: Prisma.sql`(${col('s')} / NULLIF(${col('n')}, 0))`,
          total: Prisma.sql`(sum(${col('s')}) / NULLIF(sum(${col('n')}), 0))`,
        };
      case 'min':
      case 'max': {
        const fn = raw(m.operation);
        return { partials: [{ name: name('m'), raw: Prisma.sql`${fn}(${num})` }], row: col('m'), total: Prisma.sql`${fn}(${col('m')})` };
      }
    }
  });
}

const isCore = (f: ResolvedField | null, column: string) => !!f && f.source === 'core' && f.column === column;

/**
 * Whether FlightLogDaily can answer: flight logs by timeDate, grouped by aircraft or not at all, filtered by
 * aircraft only, and every metric `__count__` or a tracking key under sum, count or avg (min and max cannot be kept
 * exact under deletes, so they read the logs).
 */
export function rollupServes(plan: Plan): boolean {
  if (plan.collection !== 'flightLogs') return false;
  if (plan.dateField && !isCore(plan.dateField, 'timeDate')) return false;
  if (plan.groupBy && !isCore(plan.groupBy, 'aircraftId')) return false;
  if (!plan.filters.every((f) => isCore(f.field, 'aircraftId'))) return false;
  // days of a zone other than UTC cut every UTC day: nothing to read from the rollup
  if (plan.dateGroup === 'day' && !(plan.timezone.kind === 'offset' && plan.timezone.minutes === 0)) return false;
  return plan.metrics.every(
    (m) => !m.resolved || (m.resolved.source === 'dynamic' && m.resolved.column === 'tracking' && m.operation !== 'min' && m.operation !== 'max'),
  );
}

/** The conditions on raw records: company, soft deletes, date range, filters. */
function rawWhere(plan: Plan): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`t."companyId" = ${COMPANY}::text`];
  if (plan.def.deletedStatus && !plan.filters.some((f) => isCore(f.field, 'status'))) {
    where.push(Prisma.sql`t."status" IS DISTINCT FROM ${plan.def.deletedStatus}::text`);
  }
  if (plan.dateField && (plan.start || plan.end || plan.dateGroup !== 'none')) {
    const d = dateColumn(plan.dateField);
    where.push(Prisma.sql`${d} IS NOT NULL`);
    if (plan.start) where.push(Prisma.sql`${d} >= ${plan.start}::timestamptz`);
    if (plan.end) where.push(Prisma.sql`${d} < ${plan.end}::timestamptz`);
  }
  for (const { field, value } of plan.filters) {
    if (field.source === 'core' && field.kind === 'number') where.push(Prisma.sql`${t(field.column)} = ${value}::numeric`);
    else if (field.source === 'core' && field.kind === 'boolean') where.push(Prisma.sql`${t(field.column)} = ${value}::boolean`);
    else if (field.source === 'core' && (field.kind === 'date' || field.kind === 'day')) where.push(Prisma.sql`${t(field.column)} = ${value}::timestamptz`);
    else where.push(Prisma.sql`${textExpr(field)} = ${value}::text`);
  }
  return where;
}

const groupExpr = (plan: Plan) =>
  plan.groupBy ? Prisma.sql`COALESCE(${textExpr(plan.groupBy)}, ${NONE_GROUP}::text)` : Prisma.sql`${ALL_GROUP}::text`;

const partialCols = (metrics: MetricSql[], pick: (p: Partial) => Prisma.Sql) =>
  metrics.flatMap((m) => m.partials.map((p) => Prisma.sql`, ${pick(p)} AS ${raw(p.name)}`));

/** `r` over the raw table. */
function rawR(plan: Plan, metrics: MetricSql[]): Prisma.Sql {
  const bucket = plan.dateGroup === 'none' ? Prisma.sql`NULL::timestamp` : trunc(plan, localTime(plan.dateField!, plan.timezone));
  return Prisma.sql`
      SELECT ${groupExpr(plan)} AS g, ${bucket} AS b, count(*) AS c${concat(partialCols(metrics, (p) => p.raw))}
      FROM ${raw(`"${plan.def.table}"`)} t
      WHERE ${Prisma.join(rawWhere(plan), ' AND ')}
      GROUP BY 1, 2`;
}

/**
 * The first statement of the rollup plan: the UTC days with logs (within the date range) and, among them, the days
 * that cannot be read whole from the rollup — a period boundary of the zone, an offset change or the range cuts
 * them. Returns null when the company has no logs there.
 */
export function rollupDaysQuery(plan: Plan): Prisma.Sql {
  const tz = plan.timezone;
  const aircraft = plan.filters.map((f) => Prisma.sql` AND x."aircraftId" = ${f.value}::text`);
  const first = plan.start ? Prisma.sql`GREATEST(min(x.day), (${plan.start}::timestamptz AT TIME ZONE 'UTC')::date)` : Prisma.sql`min(x.day)`;
  const last = plan.end
    ? Prisma.sql`LEAST(max(x.day), ((${plan.end}::timestamptz - interval '1 millisecond') AT TIME ZONE 'UTC')::date)`
    : Prisma.sql`max(x.day)`;
  const cut: Prisma.Sql[] = [Prisma.sql`false`];
  if (plan.dateGroup !== 'none') {
    cut.push(Prisma.sql`${trunc(plan, inZone(Prisma.sql`dd.s`, tz))} <> ${trunc(plan, inZone(Prisma.sql`(dd.e - interval '1 millisecond')`, tz))}`);
    cut.push(Prisma.sql`${inZone(Prisma.sql`dd.e`, tz)} - ${inZone(Prisma.sql`dd.s`, tz)} <> interval '24 hours'`);
  }
  if (plan.start) cut.push(Prisma.sql`dd.s < ${plan.start}::timestamptz`);
  if (plan.end) cut.push(Prisma.sql`dd.e > ${plan.end}::timestamptz`);
  return Prisma.sql`
    WITH bounds AS (
      SELECT ${first} AS lo, ${last} AS hi
      FROM "FlightLogDaily" x WHERE x."companyId" = ${COMPANY}::text AND x.key = ''${concat(aircraft)}
    )
    SELECT bounds.lo::text AS lo, bounds.hi::text AS hi,
      (SELECT COALESCE(array_agg(dd.day::text ORDER BY dd.day), '{}') FROM (
         SELECT g::date AS day, (g AT TIME ZONE 'UTC') AS s, ((g + interval '1 day') AT TIME ZONE 'UTC') AS e
         FROM generate_series(bounds.lo::timestamp, bounds.hi::timestamp, interval '1 day') g
       ) dd WHERE ${Prisma.join(cut, ' OR ')}) AS cut
    FROM bounds`;
}

export interface RollupDays {
  lo: string | null;
  hi: string | null;
  cut: string[];
}

/** Consecutive cut days as [start, end) instants, so the logs are read with one index range each. */
function cutRanges(days: string[]): [string, string][] {
  const ranges: [number, number][] = [];
  for (const d of days) {
    const at = Date.parse(`${d}T00:00:00Z`);
    const lastRange = ranges[ranges.length - 1];
    if (lastRange && lastRange[1] === at) lastRange[1] = at + 86_400_000;
    else ranges.push([at, at + 86_400_000]);
  }
  return ranges.map(([a, b]) => [new Date(a).toISOString(), new Date(b).toISOString()]);
}

/** `r` from the whole days of FlightLogDaily plus the logs of the cut days. */
function rollupR(plan: Plan, metrics: MetricSql[], days: RollupDays): Prisma.Sql {
  const tz = plan.timezone;
  const keys = [...new Set(plan.metrics.flatMap((m) => (m.resolved?.source === 'dynamic' ? [m.resolved.key] : [])))];
  const keyList = Prisma.join([Prisma.sql`''::text`, ...keys.map((k) => Prisma.sql`${k}::text`)], ', ');
  const aircraft = plan.filters.map((f) => Prisma.sql` AND x."aircraftId" = ${f.value}::text`);
  const group = plan.groupBy ? Prisma.sql`x."aircraftId"` : Prisma.sql`${ALL_GROUP}::text`;
  // the period of each whole day, computed once per day rather than once per rollup row
  const dayJoin =
    plan.dateGroup === 'none'
      ? Prisma.empty
      : Prisma.sql` JOIN (SELECT g::date AS day, ${trunc(plan, inZone(Prisma.sql`(g AT TIME ZONE 'UTC')`, tz))} AS b
                FROM generate_series(${days.lo}::date::timestamp, ${days.hi}::date::timestamp, interval '1 day') g) dd ON dd.day = x.day`;
  const dayBucket = plan.dateGroup === 'none' ? Prisma.sql`NULL::timestamp` : Prisma.sql`dd.b`;
  const rollupCols = partialCols(metrics, (p) => p.rollup!);
  const sums = metrics.flatMap((m) => m.partials.map((p) => Prisma.sql`, sum(u.${raw(p.name)}) AS ${raw(p.name)}`));
  const parts = [
    Prisma.sql`
        SELECT ${group} AS g, ${dayBucket} AS b, sum(x.present) FILTER (WHERE x.key = '') AS c${concat(rollupCols)}
        FROM "FlightLogDaily" x${dayJoin}
        WHERE x."companyId" = ${COMPANY}::text AND x.key IN (${keyList})${concat(aircraft)}
          AND x.day >= ${days.lo}::date AND x.day <= ${days.hi}::date AND x.day <> ALL(ARRAY(SELECT unnest(${days.cut}::text[])::date))
        GROUP BY 1, 2`,
  ];
  const ranges = cutRanges(days.cut);
  if (ranges.length) {
    const within = Prisma.join(
      ranges.map(([a, b]) => Prisma.sql`(t."timeDate" >= ${a}::timestamptz AND t."timeDate" < ${b}::timestamptz)`),
      ' OR ',
    );
    const rawBucket = plan.dateGroup === 'none' ? Prisma.sql`NULL::timestamp` : trunc(plan, inZone(Prisma.sql`t."timeDate"`, tz));
    parts.push(Prisma.sql`
        SELECT ${groupExpr(plan)} AS g, ${rawBucket} AS b, count(*) AS c${concat(partialCols(metrics, (p) => p.raw))}
        FROM "FlightLog" t
        WHERE ${Prisma.join(rawWhere(plan), ' AND ')} AND (${within})
        GROUP BY 1, 2`);
  }
  return Prisma.sql`
      SELECT u.g, u.b, sum(u.c) AS c${concat(sums)}
      FROM (${Prisma.join(parts, ' UNION ALL ')}) u
      GROUP BY 1, 2
      HAVING sum(u.c) > 0`;
}

/** The statement of the raw plan, or of the rollup plan once its days are known (rollupDaysQuery). */
export function buildQuery(plan: Plan, rollupDays?: RollupDays): Prisma.Sql {
  const metrics = metricSql(plan);
  const r = rollupDays ? rollupR(plan, metrics, rollupDays) : rawR(plan, metrics);
  const cols = (pick: (m: MetricSql) => Prisma.Sql) =>
    Prisma.join(metrics.map((m, i) => Prisma.sql`(${pick(m)})::text AS ${raw(`v${i}`)}`), ', ');
  const nulls = Prisma.join(plan.metrics.map((_, i) => raw(`NULL::text AS v${i}`)), ', ');
  const label = plan.dateGroup === 'none' ? Prisma.sql`NULL::text` : Prisma.sql`to_char(r.b, ${raw(`'${PERIODS[plan.dateGroup].label}'`)})`;
  return Prisma.sql`
    WITH r AS (${r})
    SELECT * FROM (
      SELECT 0 AS kind, r.g, r.b, ${label} AS period, r.c::text AS c, ${cols((m) => m.row)} FROM r
      UNION ALL
      SELECT 1, r.g, NULL, NULL, sum(r.c)::text, ${cols((m) => m.total)} FROM r GROUP BY r.g
      UNION ALL
      SELECT 2, NULL, NULL, NULL, COALESCE(sum(r.c), 0)::text, ${nulls} FROM r
    ) x
    ORDER BY x.kind, x.g COLLATE "C", x.b`;
}
