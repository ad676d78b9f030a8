// What the tests of form-submission notifications share (webhooks, email, SMS): a local HTTP server that records
// what it receives, a form that notifies, a submission of it, and waiting for something the dispatcher does later.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { uniq, type TestEnv } from './helpers.js';
import { until as poll } from './cluster-harness.js';

type Body = Record<string, any>;

/** Polls `fn` every 25 ms until it gives something truthy; fails naming `what` after `ms`. */
export const until = <T>(fn: () => Promise<T | undefined> | T | undefined, what: string, ms = 15_000): Promise<T> =>
  poll(what, async () => (await fn()) || undefined, ms, 25);

/** An HTTP server on 127.0.0.1: `answer` gets each request with its whole body read. */
export async function localServer(answer: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => answer(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** An SMTP server on 127.0.0.1 (smtp-server) that keeps every message as received: its recipients and raw text. */
export async function localSmtp() {
  const mails: { to: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c) => (raw += c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const port = (smtp.server.address() as AddressInfo).port;
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

/** A form body with a required vehicle field (and `fields` after it); `over` sets its notifications. */
export function notifyingForm(over: Body, fields: Body[] = []): Body {
  return {
    name: 'Pre-start check',
    code: `prestart-${uniq()}`,
    department: 'Ops',
    sections: [{ name: 'S', fields: [{ name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true }, ...fields] }],
    ...over,
  };
}

/** Creates the form `body` (a 201 expected) and gives its uid. */
export async function createForm(env: TestEnv, body: Body): Promise<string> {
  const f = await env.json('POST', '/api/v1/forms', { body });
  expect(f.status, JSON.stringify(f.body)).toBe(201);
  return f.body.uid as string;
}

/** Submits `answers` to the form (a 201 expected) and gives the completion's uid. */
export async function submitForm(env: TestEnv, formId: string, answers: Body, extra: Body = {}): Promise<string> {
  const r = await env.json('POST', '/api/v1/form-completions', { body: { formId, answers, ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
}
