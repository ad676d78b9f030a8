import http from 'node:http';
import https from 'node:https';
import type { Transporter } from 'nodemailer';
// the namespace of the options type (the package's entry point re-exports the class only)
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { clipText, oneLine } from '../../lib/text.js';

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
  /** Where the twilio package sends its API requests instead of https://api.twilio.com (TWILIO_API_BASE; tests). */
  twilioApiBase?: string;
}

/** An SMS provider's credentials, as the company's integration settings hold them (docs/contract/gaps.md §13). */
export interface SmsProvider {
  provider: 'twilio';
  accountSid: string;
  authToken: string;
  from: string;
}

type TwilioSdk = typeof import('twilio');

/** The longest SMS text (docs/contract/gaps.md §13): two concatenated GSM segments. */
export const SMS_MAX = 320;

/** Characters (code points), as text limits are counted; a cut is clipText's (src/lib/text.ts). */
const length = (text: string) => Array.from(text).length;

/** `2026-11-23T06:30:00.000Z` → `2026-11-23 06:30 UTC`. */
function shortTime(iso: unknown): string {
  const d = new Date(String(iso ?? ''));
  return Number.isNaN(d.getTime()) ? oneLine(String(iso ?? '')) : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Who a notification names: the submitter's name when it says something, else the submitting user's id. */
function submitterOf(p: Record<string, unknown>): string {
  const name = typeof p.submitterName === 'string' ? p.submitterName.trim() : '';
  return name || String(p.submittedBy ?? '');
}

/**
 * The SMS of a submission (docs/contract/gaps.md §13): form name, submitter, time and the link when the submission
 * gave `appBaseUrl`, on one line (every value through oneLine: no client text adds a line), at most SMS_MAX
 * characters: the form name and submitter are cut first, and a link that does not fit whole is left out.
 */
export function notificationSms(p: Record<string, unknown>): string {
  const name = clipText(oneLine(String(p.formName ?? '')), 80);
  const by = clipText(oneLine(submitterOf(p)), 60);
  const text = `Fleet Ops: "${name}" submitted by ${by} at ${shortTime(p.submittedAt)}.`;
  const link = p.link ? oneLine(String(p.link)) : '';
  const withLink = link ? `${text} ${link}` : text;
  return length(withLink) <= SMS_MAX ? withLink : clipText(text, SMS_MAX);
}

const RESPONSE_CAP = 16 * 1024;

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

/** `text` safe inside HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&#39;';
    else out += ch;
  }
  return out;
}

interface Summary {
  answers: { label: string; value: string }[];
  defects: { asset: string; description: string; severity: string | null }[];
  readings: { vehicle: string; key: string | null; reading: number; applied: boolean; warning: string | null }[];
}

function summaryOf(p: Record<string, unknown>): Summary {
  const s = (p.summary ?? {}) as Partial<Summary>;
  return { answers: Array.isArray(s.answers) ? s.answers : [], defects: Array.isArray(s.defects) ? s.defects : [], readings: Array.isArray(s.readings) ? s.readings : [] };
}

const readingText = (r: Summary['readings'][number], v: (x: unknown) => string) =>
  r.applied ? `${v(r.vehicle)}: ${v(r.key ?? 'odometer')} set to ${v(r.reading)}` : `${v(r.vehicle)}: ${v(r.reading)} not applied${r.warning ? ` (${v(r.warning)})` : ''}`;

/**
 * The notification email of a submission (docs/contract/gaps.md §10; docs/notifications.md), from its outbox
 * payload: a plain-text part and an HTML part saying the same (the answers as a table, the defects raised, the
 * odometer readings applied, a link when the submission gave `appBaseUrl`). Every value in it comes from a client,
 * so each is put on one line (oneLine: a name holding "\r\nBcc: ..." adds no header and no line) and, in the HTML
 * part, escaped; the link is an http(s) URL (checked when submitted) and is shown only as one.
 */
export function notificationEmail(p: Record<string, unknown>): EmailMessage {
  const v = (x: unknown) => oneLine(String(x ?? ''));
  const h = (x: unknown) => escapeHtml(v(x));
  const sum = summaryOf(p);
  const link = typeof p.link === 'string' && /^https?:\/\//.test(p.link) ? v(p.link) : null;
  const submitter = submitterOf(p);

  const lines = [`Form: ${v(p.formName)} (${v(p.formCode)})`, `Submitted by: ${v(submitter)}`, `Submitted at: ${v(p.submittedAt)}`];
  if (sum.answers.length) lines.push('', 'Answers:', ...sum.answers.map((a) => `- ${v(a.label)}: ${v(a.value)}`));
  if (sum.defects.length) lines.push('', 'Defects raised:', ...sum.defects.map((d) => `- ${v(d.asset)}: ${v(d.description)}${d.severity ? ` (${v(d.severity)})` : ''}`));
  if (sum.readings.length) lines.push('', 'Odometer readings:', ...sum.readings.map((r) => `- ${readingText(r, v)}`));
  if (link) lines.push('', `View the submission: ${link}`);
  const greeting = p.recipientName ? `Hello ${v(p.recipientName)},\n\n` : '';

  const cell = 'style="text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid #ddd"';
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><title>Form submitted</title></head>',
    '<body style="font-family:sans-serif;color:#222">',
    p.recipientName ? `<p>Hello ${h(p.recipientName)},</p>` : '',
    `<h1 style="font-size:18px">Form submitted: ${h(p.formName)}</h1>`,
    `<p>${h(p.formCode)} &middot; submitted by <strong>${h(submitter)}</strong> at ${h(p.submittedAt)}</p>`,
    sum.answers.length
      ? `<table style="border-collapse:collapse"><thead><tr><th ${cell}>Question</th><th ${cell}>Answer</th></tr></thead><tbody>${sum.answers
          .map((a) => `<tr><th scope="row" ${cell}>${h(a.label)}</th><td ${cell}>${h(a.value)}</td></tr>`)
          .join('')}</tbody></table>`
      : '',
    sum.defects.length
      ? `<h2 style="font-size:16px">Defects raised</h2><ul>${sum.defects.map((d) => `<li>${h(d.asset)}: ${h(d.description)}${d.severity ? ` (${h(d.severity)})` : ''}</li>`).join('')}</ul>`
      : '',
    sum.readings.length ? `<h2 style="font-size:16px">Odometer readings</h2><ul>${sum.readings.map((r) => `<li>${readingText(r, h)}</li>`).join('')}</ul>` : '',
    link ? `<p><a href="${escapeHtml(link)}">View the submission</a></p>` : '',
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject: `Form submitted: ${v(p.formName)}`, text: `${greeting}${lines.join('\n')}\n`, html };
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
  // every wait of an SMTP session bounded by WEBHOOK_TIMEOUT_MS, as a webhook's is (nodemailer's own defaults are 2
  // and 10 minutes: a server that stalls outlasted the dispatcher's claim, and the email was claimed and sent again)
  const limits = { connectionTimeout: opts.timeoutMs, greetingTimeout: opts.timeoutMs, socketTimeout: opts.timeoutMs, dnsTimeout: opts.timeoutMs };
  const mailer = smtpUrl ? () => (transport ??= import('nodemailer').then((m) => m.default.createTransport({ url: smtpUrl, ...limits }))) : null;

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
      /** The attempt's outcome, once; the connection is left to the response's reading. */
      const settle = (r: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      /** An outcome without an answer (an error, the timeout): the request is dropped. */
      const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settle(r);
        req.destroy();
      };
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request(url, { method: 'POST', headers, agent: url.protocol === 'https:' ? agents.https : agents.http }, (res) => {
        // The outcome is the status line: a receiver that answered 2xx has the delivery, however slowly its body
        // follows (a 200 whose body never ended was recorded as no answer, and an alert to it sent again). The body
        // is not used; it is read on, so that the connection can serve the next delivery, until it ends, passes the
        // cap or outlasts the timeout, and then the connection is dropped.
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) settle({ status: 'delivered', statusCode: code });
        else if (code >= 300 && code < 400) {
          settle({ status: 'failed', statusCode: code, error: `redirect${res.headers.location ? ` to ${res.headers.location}` : ''} not followed` });
        } else settle({ status: 'failed', statusCode: code, error: `receiver answered ${code}` });
        const reading = setTimeout(() => req.destroy(), opts.timeoutMs);
        reading.unref();
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= RESPONSE_CAP) req.destroy(); // enough
        });
        res.on('close', () => clearTimeout(reading));
        res.on('error', () => req.destroy());
      });
      const timer = setTimeout(() => finish({ status: 'failed', error: `no answer within ${opts.timeoutMs} ms` }), opts.timeoutMs);
      req.on('error', (e) => finish({ status: 'failed', error: e.message }));
      req.end(body);
    });
  }

  // the twilio package is loaded with the first SMS, not at start-up; TWILIO_API_BASE is applied by a RequestClient
  // (its documented custom-client hook) that sends to that base instead of Twilio's hosts
  let twilioModule: Promise<TwilioSdk> | undefined;
  // a CommonJS package: its module.exports is the default export
  const twilioFactory = () => (twilioModule ??= import('twilio').then((m) => m.default));
  async function twilioClient(p: SmsProvider) {
    const twilio = await twilioFactory();
    const base = opts.twilioApiBase ? new URL(opts.twilioApiBase) : null;
    class Rebased extends twilio.RequestClient {
      request<T>(o: RequestClient.RequestOptions<T>) {
        if (!base) return super.request<T>(o);
        const u = new URL(o.uri);
        return super.request<T>({ ...o, uri: new URL(u.pathname + u.search, base).toString() });
      }
    }
    return twilio(p.accountSid, p.authToken, { httpClient: new Rebased({ timeout: opts.timeoutMs, keepAlive: false }), autoRetry: false });
  }

  /** One SMS through the company's provider; without one it is skipped. */
  async function sms(provider: SmsProvider | null, to: string, text: string): Promise<AttemptResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    if (!provider) return { status: 'skipped', durationMs: 0, error: 'no SMS provider in the company\u2019s integration settings (PUT /api/v1/settings/integrations)' };
    try {
      const client = await twilioClient(provider);
      const msg = await client.messages.create({ to, from: provider.from, body: oneLine(text) });
      if (msg.status === 'failed' || msg.status === 'undelivered') {
        return { status: 'failed', statusCode: 201, durationMs: ms(), error: `provider answered ${msg.status}${msg.errorMessage ? `: ${msg.errorMessage}` : ''}` };
      }
      return { status: 'delivered', statusCode: 201, durationMs: ms() };
    } catch (e) {
      const err = e as { status?: unknown; code?: unknown; message?: string };
      if (typeof err.status === 'number') {
        return { status: 'failed', statusCode: err.status, durationMs: ms(), error: `provider refused (${err.status}${err.code ? `, code ${String(err.code)}` : ''}): ${err.message ?? ''}` };
      }
      return { status: 'failed', durationMs: ms(), error: `provider unreachable: ${err.message ?? String(e)}` };
    }
  }

  /** Sends `message` as it is built (notificationEmail): header values are put on one line here as well. */
  async function email(to: string, message: EmailMessage): Promise<AttemptResult> {
    const started = performance.now();
    if (!mailer) return { status: 'skipped', durationMs: 0, error: 'SMTP_URL is not set: notification emails are not sent' };
    try {
      await (await mailer()).sendMail({ from: opts.mailFrom, to: oneLine(to), subject: oneLine(message.subject), text: message.text, html: message.html });
      return { status: 'delivered', durationMs: Math.round(performance.now() - started) };
    } catch (e) {
      // the SMTP server's reply code when it answered (550 for a refused recipient), as a webhook's HTTP status is kept
      const code = (e as { responseCode?: unknown }).responseCode;
      const statusCode = typeof code === 'number' ? { statusCode: code } : {};
      return { status: 'failed', ...statusCode, durationMs: Math.round(performance.now() - started), error: (e as Error).message };
    }
  }

  return {
    webhook,
    email,
    sms,
    close() {
      agents.http.destroy();
      agents.https.destroy();
      void transport?.then((t) => t.close(), () => {});
    },
  };
}
export type Sender = ReturnType<typeof createSender>;
