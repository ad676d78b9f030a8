import fs from 'node:fs';
import http from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import pino from 'pino';
import proxyAddr from 'proxy-addr';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { problemFromError } from './http/problem.js';
import { ReportedError } from './errors.js';

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

export { adminSocketPath } from './db/data-dir-lock.js';
import { adminSocketPath } from './db/data-dir-lock.js';

/**
 * A command sent over the admin socket: its working directory, whether the caller draws on a terminal (and how
 * wide), and where its output goes as it is written. The socket answers newline-delimited JSON events as the
 * command writes them, `{"out": chunk}`, `{"err": chunk}`, and last `{"code": n}`, so a long command (import-logs)
 * shows its progress and its rejected rows while it runs, not at the end.
 */
export interface RelayedCommand {
  cwd?: string;
  tty?: boolean;
  columns?: number;
  stdout: (chunk: string) => void;
  stderr: (chunk: string) => void;
}

export async function startServer(
  config: Config,
  cliHandler?: (database: Database, argv: string[], opts: RelayedCommand) => Promise<{ code: number }>,
): Promise<RunningServer> {
  const logger = pino({ level: config.logLevel });
  // the HTTP app (GraphQL schema, REST façade, MCP) loads while the database opens
  const appModule = import('./app.js');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementCache: config.statementCache });
  let app;
  try {
    app = (await appModule).createApp({ database, config, logger });
  } catch (e) {
    await database.close();
    throw e;
  }
  await app.ready;
  // behind a load balancer (TRUST_PROXY), the client is the address its X-Forwarded-For names; the per-address limits
  // (failed authentications, public forms) count clients, not the balancer
  const trusted = config.trustProxy?.length ? proxyAddr.compile(config.trustProxy) : null;
  const clientAddress = (req: http.IncomingMessage | undefined) => (req && trusted ? proxyAddr(req, trusted) : req?.socket?.remoteAddress);
  const server = http.createServer(
    createServerAdapter<{ req: http.IncomingMessage }>((req, ctx) => app.fetch(req, { clientAddress: clientAddress(ctx?.req) })),
  );
  // requests Node refuses before the app sees them (headers or URL over the 16 KB limit, malformed HTTP) still get
  // a problem+json body
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(
      problemFromError(
        tooLarge
          ? new ReportedError(status, 'headers_too_large', 'Request header fields too large', 'the request line and headers are over the 16 KB limit')
          : new ReportedError(status, 'bad_request', 'Bad request', 'the request is not valid HTTP'),
      ),
    );
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
    // a HOST that does not resolve fails in getaddrinfo: said as the listen address's fault, not the database's
    const err = e as NodeJS.ErrnoException;
    throw err?.syscall === 'getaddrinfo' ? Object.assign(new Error(`${err.message} (HOST ${config.host})`), { code: err.code, syscall: 'listen', cause: err }) : e;
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
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // the client takes the answer's head as "the server took the command": before it, nothing was run (the store
      // is said to be busy); after it, an answer cut before its exit code says the command may be partly done
      res.flushHeaders();
      const send = (event: Record<string, unknown>) => res.write(JSON.stringify(event) + '\n');
      try {
        const { argv, cwd, tty, columns } = JSON.parse(body) as { argv: string[]; cwd?: string; tty?: boolean; columns?: number };
        const { code } = await cliHandler(database, argv, { cwd, tty, columns, stdout: (out) => send({ out }), stderr: (err) => send({ err }) });
        send({ code });
      } catch (e) {
        send({ err: String(e) + '\n' });
        send({ code: 1 });
      }
      res.end();
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
        // /readyz answers 503 from now; a load balancer polling it stops sending traffic within DRAIN_DELAY_MS, while
        // this process still serves what arrives
        app.drain();
        if (config.drainDelayMs) await new Promise((r) => setTimeout(r, config.drainDelayMs));
        const limit = config.shutdownTimeoutMs ?? 10_000;
        // stop accepting; requests in flight finish (up to SHUTDOWN_TIMEOUT_MS), then what is left is cut. A command
        // run through the admin socket (an import, a backup) is waited for to its end: cut, it would have written part
        // of its work while its client, which had no answer yet, reported the store busy (a second import would
        // count the same logs twice)
        const drained = (s: http.Server, cutAfter: number | null) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeIdleConnections();
            if (cutAfter !== null) setTimeout(() => s.closeAllConnections(), cutAfter).unref();
          });
        await Promise.all([drained(server, limit), admin ? drained(admin, null).then(() => fs.rmSync(socket, { force: true })) : null]);
        // background work (deliveries in flight, an alert evaluation) and the database's close get SHUTDOWN_TIMEOUT_MS
        // too: a database that stopped answering would hold them, and the process, for ever. Past it, the process
        // is left to exit (bin/fleetops.js) with whatever is still waiting on the database; a write cut so is one
        // whose client saw its connection close, which the Idempotency-Key covers.
        const released = (async () => {
          try {
            await app.close(limit);
          } finally {
            await database.close(); // even when stopping background work failed
          }
        })();
        let timer: NodeJS.Timeout | undefined;
        // a second more than the deliveries get: one that ends at its limit still records its outcome
        const late = await Promise.race([
          released.then(() => false),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), limit + 1000))),
        ]).finally(() => clearTimeout(timer));
        if (late) {
          released.catch(() => undefined);
          logger.warn({ shutdownTimeoutMs: limit }, 'shutdown: background work or the database did not finish within SHUTDOWN_TIMEOUT_MS; stopping without them');
        }
      })();
      return closing;
    },
  };
}
