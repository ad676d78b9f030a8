import fs from 'node:fs';
import http from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import pino from 'pino';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { logMixin } from './lib/request-scope.js';

/**
 * `fleetops serve`: opens the database (applying pending migrations), serves HTTP, and, on the embedded
 * database, answers other `fleetops` commands over a Unix socket in DATA_DIR (the embedded database is
 * single-process, so `fleetops demo` or `keys create` run inside the server while it holds the database).
 */
export interface RunningServer {
  url: string;
  database: Database;
  close(): Promise<void>;
}

export { adminSocketPath } from './db/lock.js';
import { adminSocketPath } from './db/lock.js';

export async function startServer(
  config: Config,
  cliHandler?: (database: Database, argv: string[], cwd?: string) => Promise<{ code: number; stdout: string; stderr: string }>,
): Promise<RunningServer> {
  const logger = pino({ level: config.logLevel, mixin: logMixin });
  // the HTTP app (GraphQL schema, REST façade, MCP) loads while the database opens
  const appModule = import('./app.js');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let app;
  try {
    app = (await appModule).createApp({ database, config, logger });
  } catch (e) {
    await database.close();
    throw e;
  }
  await app.ready;
  const server = http.createServer(
    createServerAdapter<{ req: http.IncomingMessage }>((req, ctx) => app.fetch(req, { clientAddress: ctx?.req?.socket?.remoteAddress })),
  );
  // requests Node refuses before the app sees them (headers or URL over the 16 KB limit, malformed HTTP) still get
  // a problem+json body
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({
      type: `/docs#problem-${tooLarge ? 'headers_too_large' : 'bad_request'}`,
      title: tooLarge ? 'Request header fields too large' : 'Bad request',
      status,
      detail: tooLarge ? 'the request line and headers are over the 16 KB limit' : 'the request is not valid HTTP',
      code: tooLarge ? 'headers_too_large' : 'bad_request',
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (e) {
    await database.close();
    throw e;
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;

  let admin: http.Server | undefined;
  const socket = adminSocketPath(config.dataDir);
  if (database.kind === 'pglite' && cliHandler && socket.length < 100) {
    fs.rmSync(socket, { force: true });
    admin = http.createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      try {
        const { argv, cwd } = JSON.parse(body) as { argv: string[]; cwd?: string };
        const out = await cliHandler(database, argv, cwd);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      } catch (e) {
        res.writeHead(500).end(JSON.stringify({ code: 1, stdout: '', stderr: String(e) + '\n' }));
      }
    });
    const oldMask = process.umask(0o077);
    await new Promise<void>((resolve) => admin!.listen(socket, resolve));
    process.umask(oldMask);
  }
  logger.info({ url, database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined }, 'fleetops listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    database,
    close() {
      closing ??= (async () => {
        // stop accepting; requests in flight finish (up to SHUTDOWN_TIMEOUT_MS), then what is left is cut
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs ?? 10_000).unref();
        });
        if (admin) {
          await new Promise<void>((resolve) => admin!.close(() => resolve()));
          fs.rmSync(socket, { force: true });
        }
        await app.close();
        await database.close();
      })();
      return closing;
    },
  };
}
