import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Several real `fleetops serve` processes on one PostgreSQL database and one Redis, behind a small round-robin
 * proxy, and a local webhook receiver that counts `webhook-id`s: shared by test/cluster.test.ts and bench/cluster.ts.
 * Nothing here imports vitest or the service: the processes are the public surface.
 */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/fleetops.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` returns a value other than undefined/false, polling; throws after `timeoutMs` with `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 60_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The environment of a child `fleetops` process: this one's, minus every setting the harness decides. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'TEST_REDIS_URL', 'PORT', 'HOST', 'DATA_DIR', 'REDIS_URL', 'LOG_LEVEL', 'RATE_LIMIT_PER_MINUTE', 'NODE_ENV', 'TEST_CLOCK']) {
    delete base[k];
  }
  return { ...base, LOG_LEVEL: 'warn', ...env };
}

export interface Node {
  name: string;
  url: string;
  proc: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL: the process dies at once, with whatever it had in flight. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not stopped after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `node bin/fleetops.js serve` on a free port and waits until its /readyz answers 200. */
export async function startNode(name: string, env: Record<string, string>, startTimeoutMs = 120_000): Promise<Node> {
  const port = await freePort();
  const proc = spawn(process.execPath, [BIN, 'serve'], {
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (c) => (out += c));
  proc.stderr!.setEncoding('utf8').on('data', (c) => (out += c));
  let done: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code, signal) => {
      done = code ?? (signal ? -1 : null);
      resolve(done);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const node: Node = {
    name,
    url,
    proc,
    output: () => out,
    exited,
    async kill() {
      if (done === undefined) proc.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 30_000) {
      if (done !== undefined) return;
      proc.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
      if (!stopped) await node.kill();
    },
  };
  try {
    await until(
      `${name} (${url}) to answer /readyz`,
      async () => {
        if (done !== undefined) throw new Error(`${name} exited with ${done} before it was ready:\n${out}`);
        try {
          return (await fetch(`${url}/readyz`)).status === 200;
        } catch {
          return false;
        }
      },
      startTimeoutMs,
      100,
    );
  } catch (e) {
    await node.kill();
    throw e;
  }
  return node;
}

/** Starts `count` processes side by side (they apply migrations under an advisory lock: any order is fine). */
export async function startCluster(count: number, env: Record<string, string>): Promise<Node[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, (_, i) => startNode(`node${i + 1}`, env)));
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(nodes.map((n) => n.kill()));
    throw (failed as PromiseRejectedResult).reason;
  }
  return nodes;
}

export interface Proxy {
  url: string;
  /** Requests each upstream answered (by upstream URL). */
  served: Map<string, number>;
  /** Upstreams taken out of rotation because they refused connections. */
  down: Set<string>;
  close(): Promise<void>;
}

/**
 * A round-robin HTTP proxy, as a load balancer would be: each request goes to the next upstream. An upstream that
 * refuses the connection (ECONNREFUSED: nothing reached it) is taken out of rotation and the request goes to the
 * next one, as HAProxy's `retries` + `redispatch` do; any other failure (the connection reset mid-request) answers
 * 502, since the request may have reached the server: the client decides whether to retry (with its
 * Idempotency-Key).
 */
export async function startProxy(upstreams: string[]): Promise<Proxy> {
  const served = new Map(upstreams.map((u) => [u, 0]));
  const down = new Set<string>();
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const pick = () => {
    for (let i = 0; i < upstreams.length; i++) {
      const u = upstreams[next++ % upstreams.length];
      if (!down.has(u)) return u;
    }
    return null;
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers };
    delete headers.connection;
    const attempt = (): void => {
      const target = pick();
      if (!target) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('no upstream');
        return;
      }
      const up = http.request(`${target}${req.url}`, { method: req.method, headers, agent }, (ur) => {
        served.set(target, (served.get(target) ?? 0) + 1);
        res.writeHead(ur.statusCode ?? 502, ur.headers);
        ur.pipe(res);
        ur.on('error', () => res.destroy());
      });
      up.on('error', (e: NodeJS.ErrnoException) => {
        if (res.headersSent) return void res.destroy();
        if (e.code === 'ECONNREFUSED') {
          down.add(target);
          return attempt();
        }
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream ${target}: ${e.code ?? e.message}`);
      });
      up.end(body);
    };
    attempt();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    down,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface Receiver {
  url: string;
  /** How many times each `webhook-id` arrived (a request counts once its body is read, answered or not). */
  ids: Map<string, number>;
  /** Every arrival, in order: its `webhook-id`, the completion it was for, and `tag`'s word on its sender. */
  arrivals: { id: string; completionId: string; path: string; tag: string }[];
  /** Called with the sender's port as each request arrives (while its connection is open), e.g. to tell which process sent it. */
  tag?: (remotePort: number) => string;
  /** While true, requests are read and counted but not answered (they are in flight at their sender). */
  hold: boolean;
  /** The unanswered requests: their id, the sender's port, and whether the sender has gone (closed the connection). */
  held: { id: string; remotePort: number; gone: boolean }[];
  /** Stops holding and answers every held request whose sender is still there. */
  release(): void;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that answers 204 and counts what it gets. */
export async function startReceiver(): Promise<Receiver> {
  const waiting: { res: http.ServerResponse; entry: Receiver['held'][number] }[] = [];
  const receiver: Receiver = {
    url: '',
    ids: new Map(),
    arrivals: [],
    hold: false,
    held: [],
    release() {
      receiver.hold = false;
      for (const w of waiting.splice(0)) if (!w.entry.gone) w.res.writeHead(204).end();
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c) => (body += c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      receiver.ids.set(id, (receiver.ids.get(id) ?? 0) + 1);
      let completionId = '';
      try {
        completionId = JSON.parse(body).completionId ?? '';
      } catch {
        /* counted all the same */
      }
      receiver.arrivals.push({ id, completionId, path: req.url ?? '', tag: receiver.tag?.(req.socket.remotePort ?? 0) ?? '' });
      if (!receiver.hold) return void res.writeHead(204).end();
      const entry = { id, remotePort: req.socket.remotePort ?? 0, gone: false };
      receiver.held.push(entry);
      waiting.push({ res, entry });
      res.on('close', () => {
        if (!res.writableEnded) entry.gone = true;
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return receiver;
}

/**
 * The local TCP ports of a process's sockets (Linux: its /proc fds matched with /proc/net/tcp{,6}); empty
 * elsewhere. Tells which process sent a request the receiver holds.
 */
export function localPortsOf(pid: number | undefined): Set<number> {
  const ports = new Set<number>();
  if (!pid) return ports;
  const inodes = new Set<string>();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        /* closed meanwhile */
      }
    }
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text = '';
      try {
        text = fs.readFileSync(table, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols.length > 9 && inodes.has(cols[9])) ports.add(parseInt(cols[1].split(':')[1], 16));
      }
    }
  } catch {
    /* not Linux, or the process is gone */
  }
  return ports;
}

/** Runs `node bin/fleetops.js ARGS` to completion. */
export function fleetopsCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The pth percentile (0..100) of `values` (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
