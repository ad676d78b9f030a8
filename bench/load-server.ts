// One side of bench/load.ts, in its own process so its memory is its own: `service` (the real app on node:http)
// or `floor` (a bare node:http + pg handler doing the least SQL for the same answers). Prints its URL, then serves
// until killed; GET /rss answers its resident memory.
// Usage: npx tsx bench/load-server.ts service|floor <postgres url>
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createServerAdapter } from '@whatwg-node/server';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { hashKey } from '../src/auth/keys.js';
import { openDatabase } from '../src/db/database.js';

const [kind, url] = process.argv.slice(2);

function floor(pool: pg.Pool): http.RequestListener {
  const company = async (req: http.IncomingMessage) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const r = await pool.query('SELECT "companyId" FROM "ApiKey" WHERE hash = $1 AND "revokedAt" IS NULL', [hashKey(key)]);
    return r.rows[0]?.companyId as string | undefined;
  };
  const iso = (d: Date) => new Date(d).toISOString();
  const presentLog = (l: Record<string, any>) => {
    const { tracking, companyId, timeDate, createdAt, updatedAt, ...core } = l;
    return { ...core, companyId, timeDate: iso(timeDate), createdAt: iso(createdAt), updatedAt: iso(updatedAt), ...tracking };
  };
  async function insert(companyId: string, items: Record<string, any>[]) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const byAircraft = new Map<string, Record<string, number>>();
      for (const it of items) {
        const sums = byAircraft.get(it.aircraftId) ?? {};
        for (const [k, v] of Object.entries(it)) if (typeof v === 'number' && k !== 'pax') sums[k] = (sums[k] ?? 0) + v;
        byAircraft.set(it.aircraftId, sums);
      }
      await client.query('SELECT uid FROM "Aircraft" WHERE "companyId" = $1 AND uid = ANY($2) ORDER BY uid FOR UPDATE', [companyId, [...byAircraft.keys()]]);
      const rows = items.map((it) => {
        const { timeDate, pilot, aircraftId, aircraftRegistration, startLocation, endLocation, pax, ...tracking } = it;
        return ['fl_' + randomBytes(10).toString('hex'), aircraftId, aircraftRegistration, timeDate, pilot, startLocation, endLocation, pax ?? null, JSON.stringify(tracking)];
      });
      await client.query(
        `INSERT INTO "FlightLog" ("companyId", uid, "aircraftId", "aircraftRegistration", "timeDate", pilot, "startLocation", "endLocation", pax, tracking, "updatedAt")
         SELECT $1, * , now() FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[], $9::int[], $10::jsonb[])`,
        [companyId, ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => rows.map((r) => r[i]))],
      );
      for (const [aircraftId, sums] of byAircraft) {
        await client.query(
          `UPDATE "Aircraft" a SET totals = a.totals || (SELECT jsonb_object_agg(k, COALESCE((a.totals ->> k)::numeric, 0) + v::numeric) FROM jsonb_each_text($3::jsonb) AS s(k, v)), "updatedAt" = now()
           WHERE "companyId" = $1 AND uid = $2`,
          [companyId, aircraftId, JSON.stringify(sums)],
        );
      }
      await client.query('COMMIT');
      return rows.map((r) => ({ uid: r[0], status: 'created' }));
    } catch (e) {
      await client.query('ROLLBACK');
      throw e;
    } finally {
      client.release();
    }
  }
  return async (req, res) => {
    if (req.url === '/rss') return void res.end(String(process.memoryUsage().rss));
    const companyId = await company(req);
    if (!companyId) return void res.writeHead(401).end();
    let body = '';
    for await (const c of req) body += c;
    const send = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    if (req.method === 'GET' && req.url?.startsWith('/api/v1/flight-logs')) {
      const r = await pool.query('SELECT * FROM "FlightLog" WHERE "companyId" = $1 ORDER BY "timeDate" DESC, uid DESC LIMIT 101', [companyId]);
      const data = r.rows.slice(0, 100).map(presentLog);
      return send(200, { data, count: data.length, nextCursor: r.rows.length > 100 ? 'next' : null });
    }
    if (req.url === '/api/v1/flight-logs') return send(201, (await insert(companyId, [JSON.parse(body)]))[0]);
    if (req.url === '/api/v1/flight-logs/batch') return send(200, { results: await insert(companyId, JSON.parse(body).items), errors: [] });
    if (req.url === '/graphql') {
      const r = await pool.query(
        `SELECT l.uid, l."timeDate", l.tracking, a.registration, a.totals, u."displayName"
         FROM "FlightLog" l JOIN "Aircraft" a ON a."companyId" = l."companyId" AND a.uid = l."aircraftId"
         LEFT JOIN "User" u ON u."companyId" = l."companyId" AND u.uid = l.pilot
         WHERE l."companyId" = $1 ORDER BY l."timeDate" DESC, l.uid DESC LIMIT 100`,
        [companyId],
      );
      const data = r.rows.map((l) => ({ uid: l.uid, timeDate: iso(l.timeDate), trackingItems: l.tracking, aircraft: { registration: l.registration, totals: l.totals }, pilotUser: l.displayName ? { displayName: l.displayName } : null }));
      return send(200, { data: { flightLogs: { count: data.length, data } } });
    }
    send(404, {});
  };
}

let handler: http.RequestListener;
if (kind === 'floor') {
  handler = floor(new pg.Pool({ connectionString: url, max: 10 }));
} else {
  const database = await openDatabase({ databaseUrl: url });
  const app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
  const adapter = createServerAdapter((r: Request) => app.fetch(r));
  handler = (req, res) => (req.url === '/rss' ? res.end(String(process.memoryUsage().rss)) : adapter(req, res));
}
const server = http.createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
