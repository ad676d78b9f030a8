// The floor of the aggregation benchmark: a bare node:http handler over the database driver answering
// POST /api/v1/aggregate for the shapes bench/aggregate.ts sends (a tracking key's sum or __count__ of flight logs,
// grouped by aircraft or not, by a period in an IANA time zone, an optional date range and aircraft filter) with
// the least SQL that gives the same answer: the API key looked up once and kept, then ONE statement over FlightLog
// (GROUPING SETS give the rows, each group's total and the record count together). No validation beyond what the
// answer needs, no GraphQL, no ORM, no rollup: the hand-written SQL a developer would write for these questions.
import type http from 'node:http';
import type { RawSql } from '../src/db/database.js';
import { floorCompany } from './floor.js';

const PERIODS: Record<string, [string, string]> = {
  day: ['day', 'YYYY-MM-DD'],
  week: ['week', 'IYYY-"W"IW'],
  month: ['month', 'YYYY-MM'],
  quarter: ['quarter', 'YYYY-"Q"Q'],
  year: ['year', 'YYYY'],
};

/** The exclusive end of an inclusive `endDate`: a date alone includes that whole day (UTC). */
const endOf = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(Date.parse(`${v}T00:00:00Z`) + 86_400_000) : new Date(Date.parse(v) + 1));

/** The floor's one statement for an aggregation body, and how its rows become the answer. */
export function floorStatement(companyId: string, b: Record<string, any>) {
  const params: unknown[] = [companyId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const value = b.metric === '__count__' ? 'count(*)' : `COALESCE(sum((tracking ->> ${p(b.metric)}::text)::numeric), 0)`;
  const g = b.groupBy === 'aircraftId' ? '"aircraftId"' : `'all'::text`;
  const dateGroup = b.dateGroup ?? 'none';
  const period = dateGroup === 'none' ? 'NULL::text' : `to_char(date_trunc('${PERIODS[dateGroup][0]}', "timeDate" AT TIME ZONE ${p(b.timezone ?? 'UTC')}::text), '${PERIODS[dateGroup][1]}')`;
  const where = ['"companyId" = $1'];
  if (b.startDate) where.push(`"timeDate" >= ${p(new Date(b.startDate).toISOString())}::timestamptz`);
  if (b.endDate) where.push(`"timeDate" < ${p(endOf(b.endDate).toISOString())}::timestamptz`);
  if (b.filters?.aircraftId) where.push(`"aircraftId" = ${p(b.filters.aircraftId)}::text`);
  const text = `SELECT ${g} AS g, ${period} AS p, (${value})::text AS v, count(*)::text AS c, GROUPING(${g}, ${period}) AS k
       FROM "FlightLog" WHERE ${where.join(' AND ')}
       GROUP BY GROUPING SETS ((1, 2), (1), ())
       ORDER BY 5, ${g} COLLATE "C", 2`;
  const answer = (rows: { g: string | null; p: string | null; v: string; c: string; k: number }[]) => {
    const results: { group: string; period: string | null; value: number; count: number }[] = [];
    const totals: Record<string, number> = {};
    let totalCount = 0;
    for (const r of rows) {
      if (r.k === 0) results.push({ group: r.g!, period: r.p, value: Number(r.v), count: Number(r.c) });
      else if (r.k === 1) totals[r.g!] = Number(r.v);
      else totalCount = Number(r.c);
    }
    return {
      results,
      totals,
      totalCount,
      params: {
        collection: 'flightLogs', metric: b.metric, operation: b.operation ?? 'sum', groupBy: b.groupBy ?? null, dateGroup,
        dateRange: { start: b.startDate ?? null, end: b.endDate ?? null }, timezone: b.timezone ?? 'UTC',
      },
    };
  };
  return { text, params, answer };
}

export function aggregateFloorHandler(sql: RawSql): http.RequestListener {
  const company = floorCompany(sql);
  async function aggregate(companyId: string, b: Record<string, any>) {
    const { text, params, answer } = floorStatement(companyId, b);
    return answer(await sql.query(text, params));
  }

  return async (req, res) => {
    const companyId = await company(req);
    if (!companyId) return void res.writeHead(401).end();
    let body = '';
    for await (const c of req) body += c;
    if (req.method !== 'POST' || req.url !== '/api/v1/aggregate') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await aggregate(companyId, JSON.parse(body))));
  };
}
