import { Prisma } from '../../generated/prisma/client.js';
import { COMPANY } from '../../db/scoped.js';
import { PLAN_EACH_CALL } from '../../db/statement-cache.js';
import { dateColumn, numericExpr, presentExpr, textExpr, type ResolvedField } from './fields.js';
import { instantText } from './days.js';
import type { Plan } from './service.js';
import type { TimeZoneSpec } from './timezone.js';

/**
 * The SQL of an aggregation: ONE statement per request, whichever plan answers it. Two plans give the same numbers:
 * - logs: the collection's table, filtered, bucketed in the time zone and grouped;
 * - rollup (flight logs only): whole UTC days come from FlightLogDaily (kept exact by triggers on every write) and
 *   only the cut days (days a period or an offset change of the zone cuts through, computed by the service from the
 *   request: days.ts) are read from FlightLog, given as one `date[]` parameter and found by one index scan over the
 *   logs' UTC days. The days outside the span the service looked at (a range's partial first and last days, logs
 *   beyond the days it knew of) are read from the logs too, so the split is exact whatever the service assumed.
 *   The statement also checks each whole day against the database's own time-zone rules (`dd.ok`): the service
 *   answers from the logs if they disagree with the runtime's.
 * Both end in the same outer query: the labels of the periods, each group's total and the record count, computed
 * from the per-(group, period) partial aggregates `r`. Averages leave as their exact sum and count (exact.ts makes
 * the correctly rounded number). The statement can also say which of a list of dynamic field names the company has
 * (`known`), so a request naming them needs no statement of its own to check them.
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

/**
 * kind 0: a (group, period) row; 1: a group's total; 2: all records (with `known` and `zone_ok`). Values as numeric
 * text: `v<i>` the value of metric i (an average's exact sum), `n<i>` the count of an average's numeric values.
 */
export interface SqlRow {
  kind: number;
  g: string | null;
  period: string | null;
  c: string;
  known?: string[] | null;
  zone_ok?: boolean | null;
  [value: `v${number}` | `n${number}`]: string | null;
}

/** How a statement reads flight logs: from the logs, or whole days from the rollup and the rest from the logs. */
export type Source =
  | { kind: 'logs' }
  | {
      kind: 'rollup';
      /** first and last UTC day (`YYYY-MM-DD`) of the span whose whole days come from the rollup */
      first: string;
      last: string;
      /** the days of the span read from the logs (date[] parameter), ascending */
      cut: string[];
    };

const raw = Prisma.raw;
/** Prisma.join refuses an empty list. */
const concat = (parts: Prisma.Sql[]) => (parts.length ? Prisma.join(parts, '') : Prisma.empty);
const t = (column: string) => raw(`t."${column}"`);
/** An instant (ms) as a bound timestamptz (years past 9999 included: days.ts, instantText). */
const instant = (ms: number) => Prisma.sql`${instantText(ms)}::timestamptz`;

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

/** One partial aggregate column of the rollup plan's parts: over raw records (`w`) and over rollup rows (`x`). */
interface Partial {
  name: string;
  raw: Prisma.Sql;
  rollup?: Prisma.Sql;
}
/** A metric's value (and an average's count of numeric values) as an aggregate. */
interface Value {
  v: Prisma.Sql;
  n?: Prisma.Sql;
}
/**
 * A metric in SQL: its value aggregated over records `w` (the logs plan), and over the partial aggregates `u` of the
 * rollup plan's parts, with those partials.
 */
interface MetricSql {
  partials: Partial[];
  records: Value;
  merged: Value;
}

/**
 * Each metric's aggregates. Over records they read the columns `w.x<i>` (the metric's numeric value, or null) and
 * `w.q<i>` (whether the record has a value), computed once per record by `recordValues`.
 */
function metricSql(plan: Plan): MetricSql[] {
  return plan.metrics.map((m, i) => {
    const name = (s: string) => `${s}${i}`;
    const u = (s: string) => raw(`u.${s}${i}`);
    if (!m.resolved) return { partials: [], records: { v: Prisma.sql`count(*)` }, merged: { v: Prisma.sql`sum(u.c)` } };
    const num = raw(`w.x${i}`);
    const key = m.resolved.source === 'dynamic' ? m.resolved.key : null;
    const ofKey = (column: string) => Prisma.sql`sum(x.${raw(`"${column}"`)}) FILTER (WHERE x.key = ${key}::text)`;
    switch (m.operation) {
      case 'count': {
        const present = Prisma.sql`count(*) FILTER (WHERE ${raw(`w.q${i}`)})`;
        return {
          partials: [{ name: name('p'), raw: present, rollup: ofKey('present') }],
          records: { v: present },
          merged: { v: Prisma.sql`COALESCE(sum(${u('p')}), 0)` },
        };
      }
      case 'sum':
        return {
          partials: [{ name: name('s'), raw: Prisma.sql`sum(${num})`, rollup: ofKey('sum') }],
          records: { v: Prisma.sql`COALESCE(sum(${num}), 0)` },
          merged: { v: Prisma.sql`COALESCE(sum(${u('s')}), 0)` },
        };
      case 'avg':
        // the exact sum and count of the numeric values; the service divides (exact.ts)
        return {
          partials: [
            { name: name('s'), raw: Prisma.sql`sum(${num})`, rollup: ofKey('sum') },
            { name: name('n'), raw: Prisma.sql`count(${num})`, rollup: ofKey('numbers') },
          ],
          records: { v: Prisma.sql`sum(${num})`, n: Prisma.sql`count(${num})` },
          merged: { v: Prisma.sql`sum(${u('s')})`, n: Prisma.sql`sum(${u('n')})` },
        };
      case 'min':
      case 'max': {
        const fn = raw(m.operation);
        return { partials: [{ name: name('m'), raw: Prisma.sql`${fn}(${num})` }], records: { v: Prisma.sql`${fn}(${num})` }, merged: { v: Prisma.sql`${fn}(${u('m')})` } };
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

/** The conditions on raw records: company, soft deletes, date range (unless the caller bounds the dates), filters. */
function rawWhere(plan: Plan, withRange = true): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`t."companyId" = ${COMPANY}::text`];
  if (plan.def.deletedStatus && !plan.filters.some((f) => isCore(f.field, 'status'))) {
    where.push(Prisma.sql`t."status" IS DISTINCT FROM ${plan.def.deletedStatus}::text`);
  }
  if (withRange && plan.dateField && (plan.start !== null || plan.end !== null || plan.dateGroup !== 'none')) {
    const d = dateColumn(plan.dateField);
    where.push(Prisma.sql`${d} IS NOT NULL`);
    if (plan.start !== null) where.push(Prisma.sql`${d} >= ${instant(plan.start)}`);
    if (plan.end !== null) where.push(Prisma.sql`${d} < ${instant(plan.end)}`);
  }
  for (const { field, value } of plan.filters) {
    if (field.source === 'core' && field.kind === 'number') where.push(Prisma.sql`${t(field.column)} = ${value}::numeric`);
    else if (field.source === 'core' && field.kind === 'boolean') where.push(Prisma.sql`${t(field.column)} = ${value}::boolean`);
    // a date field's value is an instant; a calendar date's (kind day) is its date's midnight UTC, as the column holds
    // it (service.ts filterValue): equality of the two timestamps is equality of the dates
    else if (field.source === 'core' && (field.kind === 'date' || field.kind === 'day')) where.push(Prisma.sql`${t(field.column)} = ${value}::timestamptz`);
    else where.push(Prisma.sql`${textExpr(field)} = ${value}::text`);
  }
  return where;
}

const groupExpr = (plan: Plan) =>
  plan.groupBy ? Prisma.sql`COALESCE(${textExpr(plan.groupBy)}, ${NONE_GROUP}::text)` : Prisma.sql`${ALL_GROUP}::text`;

const partialCols = (metrics: MetricSql[], pick: (p: Partial) => Prisma.Sql) =>
  metrics.flatMap((m) => m.partials.map((p) => Prisma.sql`, ${pick(p)} AS ${raw(p.name)}`));

/**
 * Each metric's value per record, reading each JSON value once: the innermost query reads every dynamic field a
 * metric uses (`j<k>`), the next one makes each metric's numeric value (`x<i>`) or presence (`q<i>`) from it, so the
 * number check runs once per record and metric, and the aggregates over them only add. (OFFSET 0 keeps the planner
 * from folding the levels together, which would copy the expressions into every aggregate that uses them.)
 */
function recordValues(plan: Plan, extra: Prisma.Sql[], withRange: boolean): Prisma.Sql {
  const reads = new Map<string, { field: ResolvedField & { source: 'dynamic' }; alias: string }>();
  const read = (f: ResolvedField & { source: 'dynamic' }) => {
    const id = JSON.stringify([f.column, f.key]);
    if (!reads.has(id)) reads.set(id, { field: f, alias: `j${reads.size}` });
    return raw(`t.${reads.get(id)!.alias}`);
  };
  const values = plan.metrics.flatMap((m, i) => {
    const f = m.resolved;
    if (!f) return [];
    if (m.operation === 'count') {
      const present = f.source === 'dynamic' ? Prisma.sql`(jsonb_typeof(${read(f)}) <> 'null')` : presentExpr(f);
      return [Prisma.sql`, ${present} AS ${raw(`q${i}`)}`];
    }
    const j = f.source === 'dynamic' ? read(f) : null;
    const num = j ? Prisma.sql`(CASE WHEN jsonb_typeof(${j}) = 'number' THEN (${j})::numeric END)` : numericExpr(f)!;
    return [Prisma.sql`, ${num} AS ${raw(`x${i}`)}`];
  });
  const bucket = plan.dateGroup === 'none' ? Prisma.sql`NULL::timestamp` : trunc(plan, localTime(plan.dateField!, plan.timezone));
  const jsonReads = [...reads.values()].map(({ field, alias }) => Prisma.sql`, (t.${raw(`"${field.column}"`)} -> ${field.key}::text) AS ${raw(alias)}`);
  return Prisma.sql`
        SELECT ${groupExpr(plan)} AS g, ${bucket} AS b${concat(values)}
        FROM (SELECT t.*${concat(jsonReads)}
              FROM ${raw(`"${plan.def.table}"`)} t
              WHERE ${Prisma.join([...rawWhere(plan, withRange), ...extra], ' AND ')}
              OFFSET 0) t
        OFFSET 0`;
}

/**
 * Partial aggregates over the records of the table; `dates`, when given, replaces the date range (the rollup plan's
 * days to read from the logs, all within it).
 */
function fromRecords(plan: Plan, metrics: MetricSql[], dates?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
      SELECT w.g, w.b, count(*) AS c${concat(partialCols(metrics, (p) => p.raw))}
      FROM (${recordValues(plan, dates ? [dates] : [], !dates)}) w
      GROUP BY 1, 2`;
}

const DAY_MS = 86_400_000;

/**
 * `dd`: the whole days of the span with their period in the zone, by the database's time-zone rules, and whether
 * those rules agree that the day is whole (the same offset at its first and last millisecond, and both in one period).
 */
function wholeDays(plan: Plan, src: Extract<Source, { kind: 'rollup' }>): Prisma.Sql {
  const tz = plan.timezone;
  // a fixed offset is the same arithmetic here and in the service: nothing to check
  const check = tz.kind === 'iana' && plan.dateGroup !== 'none';
  const b = trunc(plan, Prisma.sql`l.s`);
  const ok = check ? Prisma.sql`(l.e - l.s = interval '23:59:59.999' AND ${trunc(plan, Prisma.sql`l.e`)} = ${b})` : Prisma.sql`true`;
  const e = check ? inZone(Prisma.sql`((w.day + 1)::timestamp AT TIME ZONE 'UTC' - interval '1 millisecond')`, tz) : Prisma.sql`NULL::timestamp`;
  // each day's local first and last millisecond, converted once (OFFSET 0: not once per use)
  return Prisma.sql`
      SELECT l.day, ${b} AS b, ${ok} AS ok
      FROM (SELECT w.day, ${inZone(Prisma.sql`(w.day::timestamp AT TIME ZONE 'UTC')`, tz)} AS s, ${e} AS e
            FROM (SELECT g::date AS day FROM generate_series(${src.first}::date::timestamp, ${src.last}::date::timestamp, interval '1 day') g
                  EXCEPT ALL SELECT unnest(${src.cut}::date[])) w
            OFFSET 0) l`;
}

/**
 * The rollup plan's partial aggregates per (group, period) `u`: from the whole days of FlightLogDaily, the logs of
 * the cut days and the logs of the days outside the span.
 */
function rollupParts(plan: Plan, metrics: MetricSql[], src: Extract<Source, { kind: 'rollup' }>): Prisma.Sql {
  const keys = [...new Set(plan.metrics.flatMap((m) => (m.resolved?.source === 'dynamic' ? [m.resolved.key] : [])))];
  const keyList = Prisma.join([Prisma.sql`''::text`, ...keys.map((k) => Prisma.sql`${k}::text`)], ', ');
  const aircraft = plan.filters.map((f) => Prisma.sql` AND x."aircraftId" = ${f.value}::text`);
  const group = plan.groupBy ? Prisma.sql`x."aircraftId"` : Prisma.sql`${ALL_GROUP}::text`;
  // the logs of the days outside the span (the range's first and last days when it starts or ends inside them, and
  // logs beyond the days the service knew of): at most two constant index ranges, clipped to the date range
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
  const from = plan.start ?? -Infinity;
  const to = plan.end ?? Infinity;
  const outside = ([[-Infinity, day(src.first)], [day(src.last) + DAY_MS, Infinity]] as [number, number][])
    .map(([a, b]): [number, number] => [Math.max(a, from), Math.min(b, to)])
    .filter(([a, b]) => a < b)
    .map(([a, b]) => {
      const bounds = [
        ...(a === -Infinity ? [] : [Prisma.sql`t."timeDate" >= ${instant(a)}`]),
        ...(b === Infinity ? [] : [Prisma.sql`t."timeDate" < ${instant(b)}`]),
      ];
      return bounds.length ? Prisma.sql`(${Prisma.join(bounds, ' AND ')})` : Prisma.sql`true`;
    });
  const parts = [
    Prisma.sql`
        SELECT ${group} AS g, dd.b, sum(x.present) FILTER (WHERE x.key = '') AS c${concat(partialCols(metrics, (p) => p.rollup!))}
        FROM "FlightLogDaily" x JOIN dd ON dd.day = x.day
        WHERE x."companyId" = ${COMPANY}::text AND x.key IN (${keyList})${concat(aircraft)}
          AND x.day >= ${src.first}::date AND x.day <= ${src.last}::date
        GROUP BY 1, 2`,
    ...(outside.length ? [fromRecords(plan, metrics, Prisma.sql`(${Prisma.join(outside, ' OR ')})`)] : []),
  ];
  // the logs of the cut days (all inside the date range): one index scan over their UTC days
  // (FlightLog_companyId_utcDay_idx, prisma/migrations/20261124010000_flight_log_utc_day)
  if (src.cut.length) parts.push(fromRecords(plan, metrics, Prisma.sql`(t."timeDate" AT TIME ZONE 'UTC')::date = ANY(${src.cut}::date[])`));
  return Prisma.join(parts, ' UNION ALL ');
}

/**
 * The statement: one pass of GROUPING SETS over the records (logs plan) or over the parts' partial aggregates (rollup
 * plan) gives the (group, period) rows, each group's total and the count of all records, in order.
 * `names`: dynamic field names whose existence the statement reports in `known` (see above).
 */
export function buildQuery(plan: Plan, src: Source, names: string[] = []): Prisma.Sql {
  const metrics = metricSql(plan);
  const rollup = src.kind === 'rollup';
  const q = rollup ? 'u' : 'w';
  const col = (c: string) => raw(`${q}.${c}`);
  const grouping = Prisma.sql`GROUPING(${col('g')}, ${col('b')})`;
  const values = metrics.flatMap((m, i) => {
    const { v, n } = rollup ? m.merged : m.records;
    return [Prisma.sql`, (${v})::text AS ${raw(`v${i}`)}`, ...(n ? [Prisma.sql`, (${n})::text AS ${raw(`n${i}`)}`] : [])];
  });
  const label = plan.dateGroup === 'none' ? Prisma.sql`NULL::text` : Prisma.sql`to_char(${col('b')}, ${raw(`'${PERIODS[plan.dateGroup].label}'`)})`;
  const dyn = plan.def.dynamic;
  const known = !names.length || !dyn
    ? Prisma.sql`NULL::text[]`
    : dyn.has
      ? Prisma.sql`(SELECT COALESCE(array_agg(n.n), '{}') FROM unnest(${names}::text[]) n(n) WHERE ${dyn.has(Prisma.sql`n.n`)})`
      : Prisma.sql`(SELECT COALESCE(array_agg(DISTINCT k.k), '{}') FROM (${dyn.keys()}) k WHERE k.k = ANY(${names}::text[]))`;
  const zoneOk = rollup ? Prisma.sql`(SELECT COALESCE(bool_and(dd.ok), true) FROM dd)` : Prisma.sql`NULL::boolean`;
  const input = src.kind === 'rollup' ? rollupParts(plan, metrics, src) : recordValues(plan, [], true);
  // kind 0: a (group, period) row; 1: a group's total; 2: all records, with the statement's reports. Planned for each
  // call on PostgreSQL (src/db/statement-cache.ts): one plan does not suit companies of 1,400 and 1,000,000 logs.
  return Prisma.sql`${raw(PLAN_EACH_CALL)}
    ${src.kind === 'rollup' ? Prisma.sql`WITH dd AS (${wholeDays(plan, src)})` : Prisma.empty}
    SELECT CASE ${grouping} WHEN 0 THEN 0 WHEN 1 THEN 1 ELSE 2 END AS kind, ${col('g')} AS g,
      CASE WHEN ${grouping} = 0 THEN ${label} END AS period, (${rollup ? Prisma.sql`sum(u.c)` : Prisma.sql`count(*)`})::text AS c${concat(values)},
      CASE WHEN ${grouping} = 3 THEN ${known} END AS known, CASE WHEN ${grouping} = 3 THEN ${zoneOk} END AS zone_ok
    FROM (${input}) ${raw(q)}
    GROUP BY GROUPING SETS ((${col('g')}, ${col('b')}), (${col('g')}), ())
    ${rollup ? Prisma.sql`HAVING sum(u.c) > 0 OR ${grouping} = 3` : Prisma.empty}
    ORDER BY 1, ${col('g')} COLLATE "C", ${col('b')}`;
}

/**
 * A rough size of the company's flight logs for choosing a plan: the first and last UTC day of its rollup, and over
 * its latest 2,000 rollup rows (the whole company when it has fewer) the rows, days and logs they hold. Index reads only.
 */
export function sizeQuery(): Prisma.Sql {
  return Prisma.sql`
    SELECT (SELECT min(x.day) FROM "FlightLogDaily" x WHERE x."companyId" = ${COMPANY}::text AND x.key = '')::text AS first,
           (SELECT max(x.day) FROM "FlightLogDaily" x WHERE x."companyId" = ${COMPANY}::text AND x.key = '')::text AS last,
           count(*)::int AS rows, count(DISTINCT s.day)::int AS days, COALESCE(sum(s.present), 0)::int AS logs
    FROM (SELECT x.day, x.present FROM "FlightLogDaily" x WHERE x."companyId" = ${COMPANY}::text AND x.key = ''
          ORDER BY x.day DESC LIMIT 2000) s`;
}
