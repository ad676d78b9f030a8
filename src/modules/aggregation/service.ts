import { z } from 'zod';
import type { ScopedPrisma } from '../../db/scoped.js';
import { ValidationError, fieldErrorsFromZod, invalid, isPlainObject, type FieldError } from '../../errors.js';
import { parseIso } from '../../lib/dates.js';
import { addCalendarDays, startOfLocalDay } from '../schedule/rules.js';
import { asTrackingMap } from '../tracking/schema.js';
import { locatedFields } from '../forms/service.js';
import { fieldTypeDef } from '../forms/fields.js';
import { offsetLabel, parseTimeZone, type TimeZoneSpec } from './timezone.js';

/**
 * Aggregation (api-v1 §2.11, §4.4; gaps §5; docs/aggregation.md). Filtering, time-zone bucketing, grouping and the
 * arithmetic all run in one SQL statement over the company's rows (exact `numeric`; nothing is summed in the
 * process). Field names are checked against the collection's columns and the company's dynamic keys; columns come
 * from the fixed table below and JSON keys and values are bound as parameters, so no input is spliced into SQL.
 */
export const COLLECTIONS = ['flightLogs', 'completedForms', 'aircraft', 'schedule', 'vehicles'] as const;
export const OPERATIONS = ['sum', 'count', 'avg', 'min', 'max'] as const;
export const DATE_GROUPS = ['none', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const COUNT_METRIC = '__count__';
const MAX_ROWS = 10_000;

type Collection = (typeof COLLECTIONS)[number];
type Operation = (typeof OPERATIONS)[number];
type DateGroup = (typeof DATE_GROUPS)[number];
type Kind = 'string' | 'number' | 'date' | 'boolean';

interface CollectionDef {
  table: string;
  core: Record<string, Kind>;
  /** The jsonb column holding dynamic fields (tracking values, totals, answers). */
  json: string;
  /** Rows hidden by default (soft-deleted), unless a filter names the status. */
  hidden?: { column: string; value: string };
  defaultDateField?: string;
}

const COLLECTION_DEFS: Record<Collection, CollectionDef> = {
  flightLogs: {
    table: 'FlightLog',
    json: 'tracking',
    defaultDateField: 'timeDate',
    core: {
      uid: 'string', aircraftId: 'string', aircraftRegistration: 'string', timeDate: 'date', pilot: 'string', copilot: 'string',
      copilotType: 'string', flightNumber: 'string', startLocation: 'string', endLocation: 'string', pax: 'number', notes: 'string',
      createdAt: 'date', updatedAt: 'date',
    },
  },
  completedForms: {
    table: 'FormCompletion',
    json: 'data',
    defaultDateField: 'createdAt',
    core: {
      uid: 'string', formId: 'string', code: 'string', name: 'string', userId: 'string', submitterName: 'string', revision: 'number',
      createdAt: 'date', updatedAt: 'date',
    },
  },
  aircraft: {
    table: 'Aircraft',
    json: 'totals',
    core: {
      uid: 'string', registration: 'string', type: 'string', category: 'string', manufacturer: 'string', model: 'string',
      engineType: 'string', engineCount: 'number', status: 'string', createdAt: 'date', updatedAt: 'date',
    },
  },
  vehicles: {
    table: 'Vehicle',
    json: 'totals',
    hidden: { column: 'status', value: 'deleted' },
    core: {
      uid: 'string', make: 'string', model: 'string', registration: 'string', status: 'string', vin: 'string', serialNumber: 'string',
      color: 'string', registrationState: 'string', engineNumber: 'string', fuelType: 'string', transmissionType: 'string', year: 'number',
      totalSeats: 'number', passengerCapacity: 'number', location: 'string', createdAt: 'date', updatedAt: 'date',
    },
  },
  schedule: {
    table: 'ScheduleItem',
    json: '',
    hidden: { column: 'status', value: 'inactive' },
    core: {
      uid: 'string', name: 'string', type: 'string', relatedTo: 'string', relatedToType: 'string', recurring: 'boolean',
      recurringInterval: 'number', trackingItem: 'string', dueAtInterval: 'number', calendarDateDue: 'date', calendarRecurring: 'number',
      lastCarriedOutDate: 'date', status: 'string', createdAt: 'date', updatedAt: 'date',
    },
  },
};

const fieldName = (what: string) => z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`).max(200, `${what} is too long`);
const instant = (what: string) =>
  z
    .string({ error: `${what} must be an ISO 8601 date or date-time` })
    .refine((v) => parseIso(v.trim()) !== null, `${what} must be an ISO 8601 date or date-time, e.g. 2024-07-01 or 2024-07-01T00:00:00Z`);
const filterValue = z.union([z.string().max(1000), z.number(), z.boolean()], { error: 'a filter value must be a string, number or boolean' });

const common = {
  collection: z.enum(COLLECTIONS, { error: `collection must be one of ${COLLECTIONS.join(', ')}` }),
  groupBy: fieldName('groupBy').nullable().optional().describe('Field to group by; all records form one group `all` when omitted'),
  timezone: z.string({ error: 'timezone must be a string' }).max(64).optional().describe('IANA name, abbreviation (AEST, EDT, ...) or UTC+10 / UTC-03:30; default UTC'),
  dateGroup: z.enum(DATE_GROUPS, { error: `dateGroup must be one of ${DATE_GROUPS.join(', ')}` }).optional().describe('Default none; needs dateField'),
  filters: z.record(z.string(), filterValue, { error: 'filters must be an object of field: value' }).optional().describe('Equality filters (values compare as text)'),
};

export const AggregateSchema = z
  .object({
    ...common,
    metric: fieldName('metric').describe('A numeric field, or __count__ to count records'),
    operation: z.enum(OPERATIONS, { error: `operation must be one of ${OPERATIONS.join(', ')}` }).optional().describe('Default sum'),
    dateField: fieldName('dateField').optional().describe('Date field for startDate/endDate and dateGroup'),
    startDate: instant('startDate').optional().describe('ISO 8601; a date alone is the start of that day in timezone'),
    endDate: instant('endDate').optional().describe('ISO 8601; a date alone includes that whole day in timezone'),
  })
  .strict();

export const AggregateMetricsSchema = z
  .object({
    ...common,
    metrics: z
      .array(
        z
          .object({
            field: fieldName('field'),
            operation: z.enum(OPERATIONS, { error: `operation must be one of ${OPERATIONS.join(', ')}` }).optional(),
          })
          .strict(),
        { error: 'metrics must be an array of {field, operation}' },
      )
      .min(1, 'metrics must hold at least one entry')
      .max(10, 'metrics holds at most 10 entries'),
    dateRange: z
      .object({ field: fieldName('field').optional(), start: instant('start').nullable().optional(), end: instant('end').nullable().optional() })
      .strict()
      .optional(),
  })
  .strict();

export interface AggregateRow {
  group: string;
  period: string | null;
  value: number | null;
  count: number;
}
export interface AggregateParams {
  collection: Collection;
  metric: string;
  operation: Operation;
  groupBy: string | null;
  dateField: string | null;
  dateGroup: DateGroup;
  dateRange: { start: string | null; end: string | null };
  timezone: string;
  filters: Record<string, string>;
}
export interface AggregateResult {
  results: AggregateRow[];
  totals: Record<string, number | null>;
  totalCount: number;
  params: AggregateParams;
}
export interface AggregateMetricsResult {
  metrics: (Omit<AggregateResult, 'params'> & { field: string; operation: Operation })[];
  totalCount: number;
  params: Omit<AggregateParams, 'metric' | 'operation'> & { metrics: { field: string; operation: Operation }[] };
}

interface Query {
  collection: Collection;
  metric: string;
  operation: Operation;
  groupBy: string | null;
  dateField: string | null;
  dateGroup: DateGroup;
  start: string | null;
  end: string | null;
  tz: TimeZoneSpec;
  timezone: string;
  filters: Record<string, string>;
}

/** A field resolved to SQL: a quoted column from the table above, or the jsonb column with the key as a parameter. */
interface ResolvedField {
  kind: Kind;
  column?: string;
  jsonKey?: string;
}

export class AggregationService {
  constructor(private readonly db: ScopedPrisma) {}

  /** Either request form: AggregateBody, or the `metrics[]` / `dateRange` form (one result set per metric). */
  async aggregate(raw: unknown): Promise<AggregateResult | AggregateMetricsResult> {
    if (!isPlainObject(raw)) throw new ValidationError('an aggregation must be a JSON object');
    if ('metrics' in raw) return this.aggregateMetrics(raw);
    const parsed = AggregateSchema.safeParse(raw);
    if (!parsed.success) invalid('aggregation', fieldErrorsFromZod(parsed.error.issues));
    const p = parsed.data;
    const q = this.query({ ...p, metric: p.metric, operation: p.operation ?? 'sum', dateField: p.dateField, start: p.startDate, end: p.endDate });
    const fields = await this.resolve(q, ['/metric', '/groupBy', '/dateField']);
    const out = await this.run(q, fields);
    return { ...out, params: paramsOf(q) };
  }

  private async aggregateMetrics(raw: Record<string, unknown>): Promise<AggregateMetricsResult> {
    const parsed = AggregateMetricsSchema.safeParse(raw);
    if (!parsed.success) invalid('aggregation', fieldErrorsFromZod(parsed.error.issues));
    const p = parsed.data;
    const queries = p.metrics.map((m) =>
      this.query({ ...p, metric: m.field, operation: m.operation ?? 'sum', dateField: p.dateRange?.field, start: p.dateRange?.start ?? undefined, end: p.dateRange?.end ?? undefined }),
    );
    const metrics = [];
    for (const [i, q] of queries.entries()) {
      const fields = await this.resolve(q, [`/metrics/${i}/field`, '/groupBy', '/dateRange/field']);
      metrics.push({ field: q.metric, operation: q.operation, ...(await this.run(q, fields)) });
    }
    const { metric: _m, operation: _o, ...params } = paramsOf(queries[0]);
    return { metrics, totalCount: metrics[0].totalCount, params: { ...params, metrics: queries.map((q) => ({ field: q.metric, operation: q.operation })) } };
  }

  /** The checks that need no database: time zone, date group without a date field, date range order. */
  private query(p: {
    collection: Collection;
    metric: string;
    operation: Operation;
    groupBy?: string | null;
    dateField?: string;
    dateGroup?: DateGroup;
    start?: string;
    end?: string;
    timezone?: string;
    filters?: Record<string, string | number | boolean>;
  }): Query {
    const errors: FieldError[] = [];
    const timezone = p.timezone?.trim() || 'UTC';
    const tz = parseTimeZone(timezone);
    if (!tz) errors.push({ path: '/timezone', message: `unknown timezone ${JSON.stringify(timezone)}: use an IANA name (Australia/Sydney), an abbreviation (AEST) or an offset (UTC+10, UTC-03:30)` });
    const dateGroup = p.dateGroup ?? 'none';
    const dateField = p.dateField ?? null;
    if (dateGroup !== 'none' && !dateField) errors.push({ path: '/dateField', message: `dateGroup ${dateGroup} needs a dateField` });
    if ((p.start || p.end) && !dateField) errors.push({ path: '/dateField', message: 'startDate and endDate need a dateField' });
    if (errors.length) invalid('aggregation', errors);
    const q: Query = {
      collection: p.collection,
      metric: p.metric,
      operation: p.operation,
      groupBy: p.groupBy ?? null,
      dateField,
      dateGroup,
      start: p.start?.trim() ?? null,
      end: p.end?.trim() ?? null,
      tz: tz!,
      timezone,
      filters: Object.fromEntries(Object.entries(p.filters ?? {}).map(([k, v]) => [k, String(v)])),
    };
    const [from, to] = bounds(q);
    if (from && to && from > to.at) invalid('aggregation', [{ path: '/endDate', message: 'endDate is before startDate' }]);
    return q;
  }

  /** Each named field against the collection's columns and the company's dynamic keys (400 otherwise). */
  private async resolve(q: Query, paths: [string, string, string]) {
    const def = COLLECTION_DEFS[q.collection];
    const names = [q.metric, q.groupBy, q.dateField, ...Object.keys(q.filters)].filter((n): n is string => !!n && n !== COUNT_METRIC);
    const dynamic = names.every((n) => Object.hasOwn(def.core, n)) ? new Map<string, Kind>() : await this.dynamicFields(q.collection);
    const errors: FieldError[] = [];
    const known = () => `core fields: ${Object.keys(def.core).join(', ')}${dynamic.size ? `; dynamic fields: ${[...dynamic.keys()].join(', ')}` : ''}`;
    const lookup = (name: string, path: string): ResolvedField | null => {
      if (Object.hasOwn(def.core, name)) return { kind: def.core[name], column: name };
      const kind = dynamic.get(name);
      if (kind) return { kind, jsonKey: name };
      errors.push({ path, message: `${name} is not a field of ${q.collection} (${known()})` });
      return null;
    };
    let metric: ResolvedField | null = null;
    if (q.metric !== COUNT_METRIC) {
      metric = lookup(q.metric, paths[0]);
      if (metric && metric.kind !== 'number') errors.push({ path: paths[0], message: `${q.metric} is not a numeric field; use a numeric field or __count__` });
    }
    const group = q.groupBy ? lookup(q.groupBy, paths[1]) : null;
    const date = q.dateField ? lookup(q.dateField, paths[2]) : null;
    if (date && date.kind !== 'date') errors.push({ path: paths[2], message: `${q.dateField} is not a date field (date fields: ${Object.keys(def.core).filter((k) => def.core[k] === 'date').join(', ')})` });
    const filters: [ResolvedField, string][] = [];
    for (const [name, value] of Object.entries(q.filters)) {
      const f = lookup(name, `/filters/${name}`);
      if (f) filters.push([f, value]);
    }
    if (errors.length) invalid('aggregation', errors);
    return { metric, group, date, filters };
  }

  /** The company's dynamic fields of a collection, with their kinds. */
  private async dynamicFields(collection: Collection): Promise<Map<string, Kind>> {
    const out = new Map<string, Kind>();
    const kindOf = (type: unknown): Kind => (type === 'number' ? 'number' : 'string');
    if (collection === 'flightLogs' || collection === 'aircraft') {
      const rows = await this.db.aircraft.findMany({ select: { maintenanceTrackingItems: true, logTrackingItems: true } });
      for (const r of rows) {
        for (const [k, v] of Object.entries(asTrackingMap(r.maintenanceTrackingItems))) if (!out.has(k)) out.set(k, kindOf(v.type));
        if (collection === 'flightLogs') for (const [k, v] of Object.entries(asTrackingMap(r.logTrackingItems))) if (!out.has(k)) out.set(k, kindOf(v.type));
      }
    } else if (collection === 'vehicles') {
      const rows = await this.db.vehicle.findMany({ select: { maintenanceTrackingItems: true } });
      for (const r of rows) for (const [k, v] of Object.entries(asTrackingMap(r.maintenanceTrackingItems))) if (!out.has(k)) out.set(k, kindOf(v.type));
    } else if (collection === 'completedForms') {
      const forms = await this.db.form.findMany({ select: { sections: true } });
      for (const f of forms) {
        for (const { field } of locatedFields(f)) {
          const format = fieldTypeDef(field.type).format(field);
          if (!out.has(field.name)) out.set(field.name, format === 'number' ? 'number' : format === 'boolean' ? 'boolean' : 'string');
          for (const c of field.companions ?? []) {
            const name = `${field.name}__${c.name}`;
            if (!out.has(name)) out.set(name, c.type === 'number' ? 'number' : c.type === 'boolean' ? 'boolean' : 'string');
          }
        }
      }
    }
    for (const k of Object.keys(COLLECTION_DEFS[collection].core)) out.delete(k);
    return out;
  }

  /** One statement: the (group, period) rows, each group's total and the grand total via GROUPING SETS. */
  private async run(q: Query, f: Awaited<ReturnType<AggregationService['resolve']>>) {
    const def = COLLECTION_DEFS[q.collection];
    const params: unknown[] = [this.db.companyId];
    const bind = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const col = (name: string) => `t."${name}"`; // names come from COLLECTION_DEFS only
    const keys = new Map<string, string>();
    const jsonOf = (key: string) => {
      let p = keys.get(key);
      if (!p) keys.set(key, (p = bind(key)));
      return `t."${def.json}" -> ${p}`;
    };
    // a jsonb number casts to numeric exactly; anything else (string, missing) is no value
    const numeric = (r: ResolvedField) =>
      r.column ? `(${col(r.column)})::numeric` : `(CASE WHEN jsonb_typeof(${jsonOf(r.jsonKey!)}) = 'number' THEN (${jsonOf(r.jsonKey!)})::numeric END)`;
    const textOf = (r: ResolvedField) =>
      r.column
        ? r.kind === 'date'
          ? `to_char(${col(r.column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
          : `(${col(r.column)})::text`
        : `(CASE WHEN jsonb_typeof(${jsonOf(r.jsonKey!)}) IN ('object', 'array') THEN (${jsonOf(r.jsonKey!)})::text ELSE ${jsonOf(r.jsonKey!)} #>> '{}' END)`;

    const where: string[] = [`t."companyId" = $1`];
    for (const [field, value] of f.filters) {
      // a text column compares as it is, so its index can serve the filter; `(none)` matches records without it
      const expr = field.column && field.kind === 'string' ? col(field.column) : textOf(field);
      where.push(value === '(none)' ? `${expr} IS NULL` : `${expr} = ${bind(value)}`);
    }
    if (def.hidden && !f.filters.some(([field]) => field.column === def.hidden!.column)) {
      where.push(`t."${def.hidden.column}" IS DISTINCT FROM ${bind(def.hidden.value)}`);
    }
    const [from, to] = bounds(q);
    if (f.date) {
      const d = col(f.date.column!);
      if (from) where.push(`${d} >= ${bind(from)}::timestamptz`);
      if (to) where.push(`${d} ${to.inclusive ? '<=' : '<'} ${bind(to.at)}::timestamptz`);
      if (q.dateGroup !== 'none') where.push(`${d} IS NOT NULL`);
    }

    const group = f.group ? `COALESCE(${textOf(f.group)}, '(none)')` : `'all'`;
    let period = 'NULL::text';
    if (q.dateGroup !== 'none') {
      const local =
        q.tz.kind === 'iana'
          ? `(${col(f.date!.column!)} AT TIME ZONE ${bind(q.tz.name)})`
          : `((${col(f.date!.column!)} AT TIME ZONE 'UTC') + make_interval(mins => ${bind(q.tz.minutes)}::int))`;
      const format = { day: 'YYYY-MM-DD', week: 'IYYY-"W"IW', month: 'YYYY-MM', quarter: 'YYYY-"Q"Q', year: 'YYYY' }[q.dateGroup];
      period = `to_char(${local}, '${format}')`;
    }
    // one aggregation pass per (group, period); each group's total and the record count combine those partial
    // aggregates in SQL (sum of sums, min of mins, sum of sums / sum of counts, ...), exactly as numeric
    const m = f.metric ? numeric(f.metric) : 'NULL::numeric';
    const combine =
      q.metric === COUNT_METRIC
        ? { row: 'n::numeric', total: 'sum(n)' }
        : {
            sum: { row: 's', total: 'sum(s)' },
            count: { row: 'c::numeric', total: 'sum(c)' },
            avg: { row: 's / NULLIF(c, 0)', total: 'sum(s) / NULLIF(sum(c), 0)' },
            min: { row: 'mn', total: 'min(mn)' },
            max: { row: 'mx', total: 'max(mx)' },
          }[q.operation];
    // only the partial aggregates the operation uses are computed
    const need = (name: string, expr: string) => (new RegExp(`\\b${name}\\b`).test(combine.row) ? expr : 'NULL::numeric');
    const sql = `
      WITH r AS (
        SELECT ${group} AS g, ${period} AS p, ${need('s', `sum(${m})`)} AS s, ${need('c', `count(${m})`)} AS c,
               ${need('mn', `min(${m})`)} AS mn, ${need('mx', `max(${m})`)} AS mx, count(*) AS n
        FROM "${def.table}" t WHERE ${where.join(' AND ')}
        GROUP BY 1, 2)
      SELECT * FROM (
        SELECT 0 AS level, g, p, (${combine.row})::text AS value, n::int AS n FROM r
        UNION ALL SELECT 1, g, NULL, (${combine.total})::text, sum(n)::int FROM r GROUP BY g
        UNION ALL SELECT 3, NULL, NULL, NULL, COALESCE(sum(n), 0)::int FROM r) x
      ORDER BY level, g, p
      LIMIT ${2 * MAX_ROWS + 2}`;
    let rows: { level: number; g: string | null; p: string | null; value: string | null; n: number }[];
    try {
      rows = await this.db.$queryRawUnsafe(sql, ...params);
    } catch (e) {
      if (/time zone .* not recognized|22023/.test(String((e as Error).message))) {
        invalid('aggregation', [{ path: '/timezone', message: `the database does not know the time zone ${q.timezone}` }]);
      }
      throw e;
    }
    const num = (v: string | null) => (v === null ? null : Number(v));
    const results: AggregateRow[] = [];
    const totals: Record<string, number | null> = {};
    let totalCount = 0;
    for (const r of rows) {
      const level = Number(r.level);
      if (level === 0) results.push({ group: r.g!, period: q.dateGroup === 'none' ? null : r.p, value: num(r.value), count: Number(r.n) });
      else if (level === 1) totals[r.g!] = num(r.value);
      else totalCount = Number(r.n);
    }
    if (results.length > MAX_ROWS) {
      invalid('aggregation', [{ path: f.group ? '/groupBy' : '/dateGroup', message: `more than ${MAX_ROWS} groups and periods: narrow the date range, the grouping or the filters` }]);
    }
    if (q.metric !== COUNT_METRIC && q.operation === 'count') {
      // count of records with the metric: a group with none still reports 0, not null
      for (const r of results) r.value ??= 0;
    }
    return { results, totals, totalCount };
  }
}

/** Date bounds as instants: a date alone is the start of that local day (endDate: the next day's start, exclusive). */
function bounds(q: Query): [string | null, { at: string; inclusive: boolean } | null] {
  const dayStart = (date: string) =>
    q.tz.kind === 'iana'
      ? startOfLocalDay(date, q.tz.name).toISOString()
      : new Date(Date.parse(`${date}T00:00:00Z`) - q.tz.minutes * 60_000).toISOString();
  const at = (v: string) => parseIso(v)!;
  let from: string | null = null;
  let to: { at: string; inclusive: boolean } | null = null;
  if (q.start && q.tz) {
    const p = at(q.start);
    from = p.instant ? p.instant.toISOString() : dayStart(p.date);
  }
  if (q.end && q.tz) {
    const p = at(q.end);
    to = p.instant ? { at: p.instant.toISOString(), inclusive: true } : { at: dayStart(addCalendarDays(p.date, 1)), inclusive: false };
  }
  return [from, to];
}

function paramsOf(q: Query): AggregateParams {
  return {
    collection: q.collection,
    metric: q.metric,
    operation: q.operation,
    groupBy: q.groupBy,
    dateField: q.dateField,
    dateGroup: q.dateGroup,
    dateRange: { start: q.start, end: q.end },
    timezone: q.tz.kind === 'offset' && q.tz.name !== 'UTC' && !/^[A-Za-z]+$/.test(q.tz.name) ? offsetLabel(q.tz.minutes) : q.timezone,
    filters: q.filters,
  };
}
