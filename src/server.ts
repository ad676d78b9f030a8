import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createServerAdapter } from '@whatwg-node/server';
import pino from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';

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

export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'fleetops.sock');

export async function startServer(
  config: Config,
  cliHandler?: (database: Database, argv: string[], cwd?: string) => Promise<{ code: number; stdout: string; stderr: string }>,
): Promise<RunningServer> {
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = createApp({ database, config, logger });
  const server = http.createServer(
    createServerAdapter<{ req: http.IncomingMessage }>((req, ctx) => app.fetch(req, { clientAddress: ctx?.req?.socket?.remoteAddress })),
  );
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
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
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
