import http from 'node:http';
import https from 'node:https';
import type { Transporter } from 'nodemailer';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { oneLine } from '../../lib/text.js';

/**
 * One delivery attempt over HTTP or SMTP (docs/contract/gaps.md §6, §10). Webhooks: POST application/json with Standard Webhooks
 * headers (signed with the `standardwebhooks` package when the form's webhook has a secret); the address actually
 * connected to is checked after DNS resolution by request-filtering-agent (loopback, private, link-local and cloud
 * metadata, CGNAT, multicast, IPv4-mapped IPv6 ... refused unless allowPrivate); only http and https; redirects are
 * never followed (a 3xx is a failure); one timeout per attempt; at most RESPONSE_CAP bytes of the answer are read.
 */
export interface AttemptResult {
  status: 'delivered' | 'failed' | 'skipped';
  statusCode?: number;
  durationMs: number;
  error?: string;
}

export interface SenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  smtpUrl?: string;
  mailFrom: string;
}

const RESPONSE_CAP = 16 * 1024;

export interface EmailMessage {
  subject: string;
  text: string;
}

/**
 * The notification email of a submission (docs/contract/gaps.md §10), from its outbox payload. Every value in it
 * (form name and code, submitter, recipient name, time, link) comes from a client, so each is put on one line
 * (oneLine): a name holding "\r\nBcc: ..." adds no header and no line. The body's own lines are the only ones.
 */
export function notificationEmail(p: Record<string, unknown>): EmailMessage {
  const v = (x: unknown) => oneLine(String(x ?? ''));
  const lines = [
    `Form: ${v(p.formName)} (${v(p.formCode)})`,
    `Submitted by: ${v(p.submitterName ?? p.submittedBy)}`,
    `Submitted at: ${v(p.submittedAt)}`,
    ...(p.link ? [`View the submission: ${v(p.link)}`] : []),
  ];
  const greeting = p.recipientName ? `Hello ${v(p.recipientName)},\n\n` : '';
  return { subject: `Form submitted: ${v(p.formName)}`, text: `${greeting}${lines.join('\n')}\n` };
}

/** The Standard Webhooks secret prefix: what follows is the base64 of the signing key. */
export const WHSEC_PREFIX = 'whsec_';

/**
 * The signer of a webhook secret (docs/contract/gaps.md §11): a `whsec_<base64>` secret (the Standard Webhooks form,
 * as their tools generate it) signs with its decoded bytes, exactly as `new Webhook(secret)` of the reference library
 * reads it; any other secret signs with its UTF-8 bytes.
 */
export function signer(secret: string): Webhook {
  return secret.startsWith(WHSEC_PREFIX) ? new Webhook(secret) : new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
}

export function createSender(opts: SenderOptions) {
  const filter = { allowPrivateIPAddress: opts.allowPrivate, allowMetaIPAddress: opts.allowPrivate, keepAlive: false };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  // nodemailer is loaded with the first email, not at start-up
  const smtpUrl = opts.smtpUrl;
  let transport: Promise<Transporter> | undefined;
  const mailer = smtpUrl ? () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl))) : null;

  async function webhook(target: string, messageId: string, payload: unknown, secret: string | undefined): Promise<AttemptResult> {
    const started = performance.now();
    const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return done({ status: 'failed', error: 'not a valid URL' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return done({ status: 'failed', error: `${url.protocol} is not http or https` });
    const body = JSON.stringify(payload);
    const timestamp = new Date();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'fleetops-webhooks/0.1',
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    };
    if (secret) headers['webhook-signature'] = signer(secret).sign(messageId, timestamp, body);
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve(done(r));
      };
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request(url, { method: 'POST', headers, agent: url.protocol === 'https:' ? agents.https : agents.http }, (res) => {
        const code = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= RESPONSE_CAP) finishWith(); // enough: the body is not used
        });
        res.on('end', finishWith);
        res.on('error', finishWith);
        function finishWith() {
          if (code >= 200 && code < 300) return finish({ status: 'delivered', statusCode: code });
          if (code >= 300 && code < 400) {
            return finish({ status: 'failed', statusCode: code, error: `redirect${res.headers.location ? ` to ${res.headers.location}` : ''} not followed` });
          }
          finish({ status: 'failed', statusCode: code, error: `receiver answered ${code}` });
        }
      });
      const timer = setTimeout(() => finish({ status: 'failed', error: `no answer within ${opts.timeoutMs} ms` }), opts.timeoutMs);
      req.on('error', (e) => finish({ status: 'failed', error: e.message }));
      req.end(body);
    });
  }

  /** Sends `message` as it is built (notificationEmail): header values are put on one line here as well. */
  async function email(to: string, message: EmailMessage): Promise<AttemptResult> {
    const started = performance.now();
    if (!mailer) return { status: 'skipped', durationMs: 0, error: 'SMTP_URL is not set: notification emails are not sent' };
    try {
      await (await mailer()).sendMail({ from: opts.mailFrom, to: oneLine(to), subject: oneLine(message.subject), text: message.text });
      return { status: 'delivered', durationMs: Math.round(performance.now() - started) };
    } catch (e) {
      return { status: 'failed', durationMs: Math.round(performance.now() - started), error: (e as Error).message };
    }
  }

  return {
    webhook,
    email,
    close() {
      agents.http.destroy();
      agents.https.destroy();
      void transport?.then((t) => t.close(), () => {});
    },
  };
}
export type Sender = ReturnType<typeof createSender>;
