import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from '../src/app.js';

/**
 * What the browser tests share: Debian's chromium (CI installs it; elsewhere the suites are skipped when it is
 * missing), the app on a real port, and a webhook receiver that keeps the bodies it is sent.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = fs.existsSync(CHROMIUM);
if (!chromiumAvailable && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

export interface Listening {
  base: string;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<Listening> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The app served over HTTP on a free loopback port. */
export function serveApp(app: App): Promise<Listening> {
  return listen(http.createServer(createServerAdapter<{ req: http.IncomingMessage }>((req, ctx) => app.fetch(req, { clientAddress: ctx.req.socket.remoteAddress }))));
}

/** A webhook receiver answering 200; `bodies` holds what it was sent, in order. */
export async function webhookReceiver(): Promise<Listening & { bodies: string[]; url: string }> {
  const bodies: string[] = [];
  const l = await listen(
    http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        bodies.push(b);
        res.writeHead(200).end();
      });
    }),
  );
  return { ...l, bodies, url: `${l.base}/hook` };
}
