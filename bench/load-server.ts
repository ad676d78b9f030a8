// One side of bench/load.ts, in its own process so its memory is its own: `service` (the real app on node:http)
// or `floor` (a bare node:http + pg handler doing the least SQL for the same answers). Prints its URL, then serves
// until killed; GET /rss answers its resident memory.
// Usage: npx tsx bench/load-server.ts service|floor <postgres url>
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import { createApp } from '../src/app.js';
import { openDatabase } from '../src/db/database.js';
import { floorHandler } from './floor.js';

const [kind, url] = process.argv.slice(2);

let handler: http.RequestListener;
const database = await openDatabase({ databaseUrl: url });
if (kind === 'floor') {
  handler = floorHandler(database.sql);
} else {
  const app = createApp({ database, config: { rateLimitPerMinute: 0, authFailLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent' }, dispatch: false });
  const adapter = createServerAdapter((r: Request) => app.fetch(r));
  handler = (req, res) => (req.url === '/rss' ? res.end(String(process.memoryUsage().rss)) : adapter(req, res));
}
const server = http.createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
