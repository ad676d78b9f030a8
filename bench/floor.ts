// The floor the benchmarks compare against: a bare node:http handler over the database driver doing the least SQL
// that gives the same answers (keys checked in memory after one lookup; one list query; ONE statement per write:
// the multi-row insert or delete with the totals update of its aircraft; one join for the GraphQL page). Not a copy of
// the service's design: no validation beyond what the answer needs, no GraphQL, no ORM.
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { hashKey } from '../src/auth/keys.js';
import type { RawSql } from '../src/db/database.js';

/** The floor's authentication: a request's bearer key looked up once, then kept in memory. */
export function floorCompany(sql: RawSql): (req: http.IncomingMessage) => Promise<string | undefined> {
  const keys = new Map<string, string>();
  return async (req) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const known = keys.get(key);
    if (known) return known;
    const r = await sql.query<{ companyId: string }>('SELECT "companyId" FROM "ApiKey" WHERE hash = $1 AND "revokedAt" IS NULL', [hashKey(key)]);
    if (r[0]) keys.set(key, r[0].companyId);
    return r[0]?.companyId;
  };
}

export function floorHandler(sql: RawSql): http.RequestListener {
  const company = floorCompany(sql);
  const iso = (d: unknown) => new Date(d as string).toISOString();
  const presentLog = (l: Record<string, any>) => {
    const { tracking, timeDate, createdAt, updatedAt, ...core } = l;
    return { ...core, timeDate: iso(timeDate), createdAt: iso(createdAt), updatedAt: iso(updatedAt), ...tracking };
  };
  // Writes are ONE statement each (atomic on its own, so no transaction round trips): the logs and the totals
  // difference of every aircraft they touch, summed per key in SQL.
  async function insert(companyId: string, items: Record<string, any>[]) {
    const rows = items.map((it) => {
      const { timeDate, pilot, aircraftId, aircraftRegistration, startLocation, endLocation, pax, ...tracking } = it;
      return ['fl_' + randomBytes(10).toString('hex'), aircraftId, aircraftRegistration, timeDate, pilot, startLocation, endLocation, pax ?? null, JSON.stringify(tracking)];
    });
    await sql.query(
      `WITH ins AS (
         INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
         SELECT $1, u.*, now() FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::int[], $10::jsonb[]) u
         RETURNING "aircraftId", tracking)
       UPDATE "Aircraft" a SET totals = a.totals || COALESCE((SELECT jsonb_object_agg(s.k, COALESCE((a.totals ->> s.k)::numeric, 0) + s.v)
         FROM (SELECT e.key AS k, SUM(e.value::numeric) AS v FROM ins i, jsonb_each_text(i.tracking) e WHERE i."aircraftId" = a.uid GROUP BY e.key) s), '{}'), "updatedAt" = now()
       WHERE a."companyId" = $1 AND a.uid IN (SELECT "aircraftId" FROM ins)`,
      [companyId, ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => rows.map((r) => r[i]))],
    );
    return rows.map((r) => ({ uid: r[0] as string, status: 'created' }));
  }
  async function remove(companyId: string, ids: string[]) {
    const logs = await sql.query<{ uid: string }>(
      `WITH del AS (DELETE FROM "FlightLog" WHERE "companyId" = $1 AND uid = ANY($2) RETURNING uid, "aircraftId", tracking),
       upd AS (UPDATE "Aircraft" a SET totals = a.totals || COALESCE((SELECT jsonb_object_agg(s.k, COALESCE((a.totals ->> s.k)::numeric, 0) - s.v)
         FROM (SELECT e.key AS k, SUM(e.value::numeric) AS v FROM del d, jsonb_each_text(d.tracking) e WHERE d."aircraftId" = a.uid GROUP BY e.key) s), '{}'), "updatedAt" = now()
         WHERE a."companyId" = $1 AND a.uid IN (SELECT "aircraftId" FROM del))
       SELECT uid FROM del`,
      [companyId, ids],
    );
    return logs.map((l) => ({ uid: l.uid, status: 'deleted' }));
  }
  return async (req, res) => {
    if (req.url === '/rss') return void res.end(String(process.memoryUsage().rss));
    const companyId = await company(req);
    if (!companyId) return void res.writeHead(401).end();
    let body = '';
    for await (const c of req) body += c;
    const send = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (req.method === 'GET' && req.url?.startsWith('/api/v1/flight-logs')) {
      const r = await sql.query<Record<string, any>>('SELECT * FROM "FlightLog" WHERE "companyId" = $1 ORDER BY "timeDate" DESC, uid DESC LIMIT 101', [companyId]);
      const data = r.slice(0, 100).map(presentLog);
      return send(200, { data, count: data.length, nextCursor: r.length > 100 ? 'next' : null });
    }
    if (req.method === 'GET' && req.url?.startsWith('/api/v1/aircraft/')) {
      const [a] = await sql.query<Record<string, any>>('SELECT * FROM "Aircraft" WHERE "companyId" = $1 AND uid = $2', [companyId, decodeURIComponent(req.url.slice(17))]);
      if (!a) return send(404, { title: 'Not found' });
      return send(200, { ...a, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt) });
    }
    if (req.url === '/api/v1/flight-logs') return send(201, (await insert(companyId, [JSON.parse(body)]))[0]);
    if (req.url === '/api/v1/flight-logs/batch') return send(200, { results: await insert(companyId, JSON.parse(body).items), errors: [] });
    if (req.url === '/api/v1/flight-logs/batch-delete') return send(200, { results: await remove(companyId, JSON.parse(body).ids), errors: [] });
    if (req.url === '/graphql') {
      const r = await sql.query<Record<string, any>>(
        `SELECT l.uid, l."timeDate", l.tracking, a.registration, a.totals, u."displayName"
         FROM "FlightLog" l JOIN "Aircraft" a ON a."companyId" = l."companyId" AND a.uid = l."aircraftId"
         LEFT JOIN "User" u ON u."companyId" = l."companyId" AND u.uid = l.pilot
         WHERE l."companyId" = $1 ORDER BY l."timeDate" DESC, l.uid DESC LIMIT 100`,
        [companyId],
      );
      const data = r.map((l) => ({ uid: l.uid, timeDate: iso(l.timeDate), trackingItems: l.tracking, aircraft: { registration: l.registration, totals: l.totals }, pilotUser: l.displayName ? { displayName: l.displayName } : null }));
      return send(200, { data: { flightLogs: { count: data.length, data } } });
    }
    send(404, {});
  };
}
