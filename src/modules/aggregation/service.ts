import type { ScopedPrisma } from '../../db/scoped.js';
import { ValidationError, invalid, jsonPointer, type FieldError } from '../../errors.js';
import { parseIso } from '../../lib/dates.js';
import { RANGE_REVERSED } from '../../lib/params.js';
import {
  COLLECTION_DEFS,
  isDateKind,
  numericExpr,
  type CollectionDef,
  type CollectionName,
  type ResolvedField,
} from './fields.js';
import { parseTimeZone } from './timezone.js';
import { DAY_MS, instantText } from './days.js';
import { averageToNumber, decimalToNumber } from './exact.js';
import { rollupSource } from './sizes.js';
import { buildQuery, rollupServes, type Source, type SqlRow } from './sql.js';

/**
 * Aggregation (docs/contract/api-v1.md §2.11, §4.4; docs/contract/gaps.md §5): sum/count/avg/min/max over one collection of the caller's company,
 * grouped by a field and/or a date period in a time zone. Everything is computed by the database (sql.ts): filtering,
 * bucketing in the time zone, grouping, exact `numeric` arithmetic and the per-group totals, in one statement; the
 * process only shapes the rows and turns exact decimals into the nearest JSON numbers (exact.ts). Field names are
 * checked against the collection's core columns (quoted identifiers from a fixed table) and the company's dynamic
 * keys (bound as parameters); the company is a bound parameter. Flight-log sums and counts read whole days from the
 * exact daily rollup when the company's size makes it pay (sizes.ts, days.ts).
 */
export * from './schema.js';
import { COUNT_METRIC, type AggregateBody, type AggregateMetricResult, type AggregateParams, type AggregateResult, type Operation, type Plan } from './schema.js';
export { ALL_GROUP, NONE_GROUP } from './sql.js';

/** The field names a request uses (metrics, groupBy, date field, filters). */
function namesOf(b: AggregateBody): string[] {
  const names = [
    ...(b.metrics ?? []).map((m) => m.field),
    b.metric,
    b.groupBy,
    b.dateRange ? b.dateRange.field : b.dateField,
    ...Object.keys(b.filters ?? {}),
  ];
  return names.filter((n): n is string => n != null && n !== COUNT_METRIC);
}

/** Which plan reads flight logs: chosen by size (`auto`), or fixed (tests compare the plans). */
export type PlanChoice = 'auto' | 'logs' | 'rollup';

export class AggregationService {
  /**
   * `plan`: `auto` picks the rollup or the logs by the company's size (sizes.ts); `logs` and `rollup` fix it where the
   * rollup can serve (tests compare both: the answers are the same). `rollup: false` is `plan: 'logs'`.
   * `alterSource` changes the rollup's span or cut days before the statement runs: only tests use it, to show that
   * the statement's own zone check catches days it was wrongly told are whole.
   */
  constructor(
    private readonly db: ScopedPrisma,
    private readonly opts: { plan?: PlanChoice; rollup?: boolean; alterSource?: (src: Extract<Source, { kind: 'rollup' }>) => Source } = {},
  ) {}

  /** `b` is a checked request (AggregateCheck): GraphQL's validation plugin, or a caller's own `AggregateCheck.parse`. */
  async aggregate(b: AggregateBody): Promise<AggregateResult> {
    const def = COLLECTION_DEFS[b.collection];
    const dynamic = namesOf(b).filter((n) => !Object.hasOwn(def.core, n));
    if (!dynamic.length) return this.answer(resolvePlan(b, new Set()), []);
    // Names that are not core fields are the company's dynamic keys, or unknown. Rather than reading the keys first,
    // the statement says which of the names exist (`known`): the request is validated as if they all did, and an
    // answer that names an unknown one is dropped for the 400 the keys give. A name such as `tracking.hobbs` (a
    // prefix form or a key with a dot) and a request with other mistakes read the keys first, as their messages
    // depend on them.
    const prefixes = def.dynamic?.prefixes ?? {};
    const prefixed = dynamic.some((n) => n.indexOf('.') > 0 && Object.hasOwn(prefixes, n.slice(0, n.indexOf('.'))));
    let plan: Plan | null = null;
    if (!prefixed) {
      try {
        plan = resolvePlan(b, new Set(dynamic));
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
      }
    }
    const checked = async () => this.answer(resolvePlan(b, await this.keysOf(b.collection)), []);
    if (!plan) return checked();
    let result: { answer: AggregateResult; known: Set<string> | null };
    try {
      result = await this.answer(plan, dynamic);
    } catch {
      // an error from the statement (a zone the database does not know ...) is reported as without speculation: the
      // names are checked first, so an unknown one is the 400
      return checked();
    }
    if (result.known && result.known.size < new Set(dynamic).size) resolvePlan(b, result.known); // throws the 400
    return result.answer;
  }

  /** The company's dynamic keys of the collection. */
  private async keysOf(collection: CollectionName): Promise<Set<string>> {
    const dyn = COLLECTION_DEFS[collection].dynamic;
    if (!dyn) return new Set();
    return new Set((await this.db.$queryRaw<{ k: string }[]>(dyn.keys())).map((r) => r.k));
  }

  /** Runs the plan in one statement; `names` are reported back as `known` (see aggregate). */
  private answer(plan: Plan, names: []): Promise<AggregateResult>;
  private answer(plan: Plan, names: string[]): Promise<{ answer: AggregateResult; known: Set<string> | null }>;
  private async answer(plan: Plan, names: string[]): Promise<AggregateResult | { answer: AggregateResult; known: Set<string> | null }> {
    const choice = this.opts.plan ?? (this.opts.rollup === false ? 'logs' : 'auto');
    let src: Source = { kind: 'logs' };
    if (choice !== 'logs' && rollupServes(plan)) src = await rollupSource(this.db, plan, choice === 'rollup');
    if (src.kind === 'rollup' && this.opts.alterSource) src = this.opts.alterSource(src);
    let rows = await this.query(plan, src, names);
    let last = rows[rows.length - 1];
    if (src.kind === 'rollup' && last?.zone_ok === false) {
      // the runtime's and the database's time-zone data disagree about a day of the span: read the logs
      rows = await this.query(plan, { kind: 'logs' }, names);
      last = rows[rows.length - 1];
    }
    const answer = shape(plan, rows);
    if (!names.length) return answer;
    return { answer, known: last?.known ? new Set(last.known) : null };
  }

  private async query(plan: Plan, src: Source, names: string[]): Promise<SqlRow[]> {
    try {
      return await this.db.$queryRaw<SqlRow[]>(buildQuery(plan, src, names));
    } catch (e) {
      // a zone name the runtime knows but this database's time zone data does not
      if (plan.timezone.kind === 'iana' && /time zone .* not recognized/i.test(String((e as Error)?.message))) {
        invalid('aggregation', [{ path: '/timezone', message: `unknown time zone ${JSON.stringify(plan.params.timezone)}` }]);
      }
      throw e;
    }
  }
}

/**
 * Validates a request whose shape is checked (every problem at its path, one 400) and resolves its field names,
 * given the company's dynamic keys among the names it uses.
 */
function resolvePlan(b: AggregateBody, keys: Set<string>): Plan {
  const errors: FieldError[] = [];
  const def = COLLECTION_DEFS[b.collection];

  // the two request forms (AggregateBody §2.11: metric, operation, dateField, startDate, endDate; the alternative
  // form §4.4: metrics[], dateRange) are not mixed; dateGroup, groupBy, filters and timezone belong to both
  const alternative = b.metrics != null || b.dateRange != null;
  if (b.metrics != null) {
    for (const k of ['metric', 'operation'] as const) {
      if (b[k] != null) errors.push({ path: `/${k}`, message: `${k} cannot be combined with metrics[] (give each metric's field and operation there)` });
    }
    if (b.dateRange == null) {
      for (const k of ['dateField', 'startDate', 'endDate'] as const) {
        if (b[k] != null) errors.push({ path: `/${k}`, message: `${k} cannot be combined with metrics[]: the alternative form takes dateRange {field, start, end}` });
      }
    }
  } else if (b.metric == null) {
    errors.push({ path: '/metric', message: 'metric is required (a numeric field, or __count__), or metrics[] in the alternative form' });
  }
  if (b.dateRange != null) {
    for (const k of ['dateField', 'startDate', 'endDate'] as const) {
      if (b[k] != null) errors.push({ path: `/${k}`, message: `${k} cannot be combined with dateRange` });
    }
    if (b.metrics == null && b.metric != null) {
      errors.push({ path: '/dateRange', message: 'dateRange cannot be combined with metric: with metric give dateField, startDate and endDate, or give metrics[] with dateRange' });
    }
  }
  const dateFieldName = b.dateRange ? (b.dateRange.field ?? null) : (b.dateField ?? null);
  const startRaw = b.dateRange ? (b.dateRange.start ?? null) : (b.startDate ?? null);
  const endRaw = b.dateRange ? (b.dateRange.end ?? null) : (b.endDate ?? null);
  const datePath = b.dateRange ? '/dateRange/field' : '/dateField';

  const timezoneRaw = b.timezone ?? 'UTC';
  const timezone = parseTimeZone(timezoneRaw);
  if (!timezone) {
    errors.push({
      path: '/timezone',
      message: `unknown time zone ${JSON.stringify(timezoneRaw)}: give an IANA Area/Location name (Australia/Sydney, Asia/Kolkata), a listed abbreviation (AEST, AEDT, EST, ...) or an offset (UTC+10, UTC-03:30)`,
    });
  }
  const dateGroup = b.dateGroup ?? 'none';

  const resolve = (name: string, path: string): ResolvedField | null => {
    const f = resolveField(def, name, keys);
    if (!f) errors.push({ path, message: `unknown field ${JSON.stringify(name)} for ${b.collection}` });
    return f;
  };

  const metricList = b.metrics
    ? b.metrics.map((m, i) => ({ field: m.field, operation: m.operation ?? 'sum', path: `/metrics/${i}/field` }))
    : b.metric != null
      ? [{ field: b.metric, operation: b.operation ?? 'sum', path: '/metric' }]
      : [];
  const metrics = metricList.map((m) => {
    if (m.field === COUNT_METRIC) return { field: m.field, operation: m.operation, resolved: null };
    const resolved = resolve(m.field, m.path);
    if (resolved && m.operation !== 'count' && !numericExpr(resolved)) {
      errors.push({ path: m.path, message: `${m.field} is not a numeric field: it can be counted (operation count) or grouped by, not summed or averaged` });
    }
    return { field: m.field, operation: m.operation, resolved };
  });

  const groupBy = b.groupBy != null ? resolve(b.groupBy, '/groupBy') : null;

  let dateField: ResolvedField | null = null;
  if (dateFieldName != null) {
    dateField = resolve(dateFieldName, datePath);
    if (dateField && !(dateField.source === 'core' && isDateKind(dateField.kind))) {
      const dates = Object.entries(def.core).filter(([, k]) => isDateKind(k)).map(([n]) => n);
      errors.push({ path: datePath, message: `${dateFieldName} is not a date field; the date fields of ${b.collection} are ${dates.join(', ')}` });
      dateField = null;
    }
  } else if (dateGroup !== 'none' && !b.dateRange) {
    // the contract's form: dateGroup needs dateField (gaps §5); the alternative form's dateRange.field has a default
    errors.push({ path: datePath, message: `dateGroup ${dateGroup} needs a dateField (for ${b.collection} typically ${def.defaultDateField})` });
  } else if (startRaw != null || endRaw != null || dateGroup !== 'none') {
    dateField = { name: def.defaultDateField, source: 'core', column: def.defaultDateField, kind: 'date' };
  }

  // a calendar date field (calendarDateDue) takes a date-time bound as its date as written, as the schedule does
  const asDate = dateField !== null && isCalendarDateField(dateField);
  const start = startRaw != null ? instant(startRaw, asDate) : null;
  const end = endRaw != null ? endOf(endRaw, asDate) : null;
  if (start !== null && end !== null && start >= end) {
    errors.push({ path: b.dateRange ? '/dateRange/end' : '/endDate', message: RANGE_REVERSED });
  }

  const filters: Plan['filters'] = [];
  for (const [name, value] of Object.entries(b.filters ?? {})) {
    const path = jsonPointer(['filters', name]);
    const field = resolve(name, path);
    if (!field) continue;
    const v = String(value);
    const problem = filterProblem(field, v);
    if (problem) errors.push({ path, message: problem });
    else filters.push({ field, value: filterValue(field, v) });
  }

  if (errors.length) invalid('aggregation', errors);

  const params: AggregateParams = {
    collection: b.collection,
    metric: metrics[0].field,
    operation: metrics[0].operation,
    groupBy: b.groupBy ?? null,
    dateGroup,
    dateRange: { start: startRaw, end: endRaw },
    timezone: timezoneRaw,
    ...(alternative ? { metrics: metrics.map((m) => ({ field: m.field, operation: m.operation })) } : {}),
  };
  return {
    collection: b.collection,
    def,
    metrics,
    groupBy,
    dateField,
    start,
    end,
    timezone: timezone!,
    dateGroup,
    filters,
    params,
    alternative,
  };
}

/** A name as a core field, `<prefix>.<key>`, or a dynamic key of the company (core names win). */
export function resolveField(def: CollectionDef, name: string, keys: Set<string>): ResolvedField | null {
  const kind = Object.hasOwn(def.core, name) ? def.core[name] : undefined;
  if (kind) return { name, source: 'core', column: name, kind };
  const dyn = def.dynamic;
  if (!dyn) return null;
  const dot = name.indexOf('.');
  if (dot > 0) {
    const prefix = name.slice(0, dot);
    const key = name.slice(dot + 1);
    const column = Object.hasOwn(dyn.prefixes, prefix) ? dyn.prefixes[prefix] : undefined;
    if (column && keys.has(key)) return { name, source: 'dynamic', column, key };
  }
  if (keys.has(name)) return { name, source: 'dynamic', column: dyn.column, key: name };
  return null;
}

function filterProblem(f: ResolvedField, v: string): string | null {
  if (f.source !== 'core') return null;
  if (f.kind === 'number' && !(v.trim() !== '' && Number.isFinite(Number(v)))) return `${f.name} is a number field: the filter value must be a number`;
  if (f.kind === 'boolean' && v !== 'true' && v !== 'false') return `${f.name} is a boolean field: the filter value must be true or false`;
  if (isDateKind(f.kind) && parseIso(v) === null) return `${f.name} is a date field: the filter value must be an ISO 8601 date-time`;
  return null;
}

/**
 * A calendar date field (kind `day`: the schedule's `calendarDateDue`) holds a date, kept as its midnight UTC, which
 * no time zone moves. A date-time bound or filter value given for it means its date as written, the rule the
 * schedule applies to that input (`2026-06-30T23:00:00-05:00` is 2026-06-30), never the instant it names.
 */
const isCalendarDateField = (f: ResolvedField): boolean => f.source === 'core' && f.kind === 'day';

/**
 * Date filters: on an instant field a date-time as given, a date alone as its midnight UTC; on a calendar date field
 * the date as written (its midnight UTC, which is what the column holds).
 */
function filterValue(f: ResolvedField, v: string): string {
  return f.source === 'core' && isDateKind(f.kind) ? instantText(instant(v, isCalendarDateField(f))) : v;
}

/**
 * An instant in ms (compared as a number, never as text: `toISOString` writes the end of 9999-12-31 as
 * `+010000-01-01T...`, which sorts before `2024-...`): a date-time as given, a date alone as its midnight UTC;
 * `asDate` (a calendar date field) takes a date-time's date as written, at its midnight UTC.
 */
function instant(v: string, asDate = false): number {
  const p = parseIso(v)!;
  return p.instant && !asDate ? p.instant.getTime() : Date.parse(`${p.date}T00:00:00Z`);
}

/**
 * The exclusive end of the range. A date alone includes that whole day (UTC), as in the flight-log list; a date-time
 * is inclusive, and as timestamps are kept to the millisecond, `<= end` is `< end + 1 ms`. `asDate` (a calendar date
 * field) includes the whole date a date-time is written on. The end of 9999-12-31 is 10000-01-01T00:00Z (the
 * statement reads it: sql.ts, instantText).
 */
function endOf(v: string, asDate = false): number {
  const p = parseIso(v)!;
  return p.instant && !asDate ? p.instant.getTime() + 1 : Date.parse(`${p.date}T00:00:00Z`) + DAY_MS;
}

/**
 * A metric's value from a row: the double nearest to the exact decimal (exact.ts); an average from its exact sum and
 * count, null when the row has no numeric value. `__count__` (no resolved field) is the record count whatever the
 * operation (docs/api-notes.md, Aggregation): its row has no average count.
 */
function valueOf(row: SqlRow, i: number, metric: Plan['metrics'][number]): number | null {
  const v = row[`v${i}`];
  if (v === null || v === undefined) return null;
  if (metric.operation !== 'avg' || !metric.resolved) return decimalToNumber(v);
  const n = row[`n${i}`];
  return n == null || n === '0' ? null : averageToNumber(v, n);
}

/** Rows to the contract's shape; nothing is computed here beyond turning the database's exact figures into numbers. */
function shape(plan: Plan, rows: SqlRow[]): AggregateResult {
  const perMetric: AggregateMetricResult[] = plan.metrics.map((m) => ({ field: m.field, operation: m.operation, results: [], totals: {} }));
  let totalCount = 0;
  for (const row of rows) {
    const kind = Number(row.kind);
    if (kind === 2) {
      totalCount = Number(row.c);
      continue;
    }
    perMetric.forEach((m, i) => {
      const value = valueOf(row, i, plan.metrics[i]);
      if (kind === 0) m.results.push({ group: row.g!, period: row.period, value, count: Number(row.c) });
      else m.totals[row.g!] = value;
    });
  }
  const first = perMetric[0];
  return {
    results: first.results,
    totals: first.totals,
    totalCount,
    params: plan.params,
    ...(plan.alternative ? { metrics: perMetric } : {}),
  };
}
