// Webhook and email deliveries of form submissions (docs/contract/api-v1.md §6; docs/contract/gaps.md §6, §10) with real receivers on loopback:
// the contract's payload and Standard Webhooks headers verified with the library, a receiver that never answers
// (the submission does not wait; other URLs still receive), redirects not followed, a 500 recorded and not retried,
// each SSRF refusal, re-send with the same webhook-id, recovery of pending rows after a restart, exactly-once with
// two dispatchers on one PostgreSQL, notification emails through a real SMTP server, and the delivery log.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createDispatcher, DELIVERY_LOCK } from '../src/modules/webhooks/dispatcher.js';
import { createTestEnv, onPostgres, openSameDatabase, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';
import { createForm, localServer, localSmtp, notifyingForm, submitForm, until } from './form-notifications.js';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { notificationEmail, notificationSms } from '../src/modules/webhooks/send.js';

type Body = Record<string, any>;
interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver on 127.0.0.1: answers per path (`/ok` 200, `/slow` 200 after 300 ms, `/trickle` 200 with a body it never
 * ends, `/fail` 500, `/redirect` 302, `/hang` never).
 */
async function receiver() {
  const hits: Hit[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = await localServer((req, body, res) => {
    hits.push({ path: req.url ?? '', headers: req.headers, body });
    if (req.url?.startsWith('/hang')) return void hanging.push(res);
    if (req.url?.startsWith('/slow')) return void setTimeout(() => res.writeHead(200).end('ok'), 300);
    if (req.url?.startsWith('/trickle')) {
      // answers 200 at once, then sends part of a body and never ends it
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, ');
      return void hanging.push(res);
    }
    if (req.url?.startsWith('/fail')) return void res.writeHead(500).end('boom');
    if (req.url?.startsWith('/redirect')) return void res.writeHead(302, { location: server.url('/ok-after-redirect') }).end();
    res.writeHead(200).end('ok');
  });
  return {
    url: server.url,
    port: server.port,
    hits,
    close: () => {
      for (const h of hanging) h.destroy();
      return server.close();
    },
  };
}

const formBody = (webhooks: Body[], over: Body = {}): Body => notifyingForm({ webhooks, ...over }, [{ name: 'notes', label: 'Notes', type: 'text' }]);
const setup = (env: TestEnv, webhooks: Body[], over: Body = {}) => createForm(env, formBody(webhooks, over));
const submit = (env: TestEnv, formId: string, extra: Body = {}) => submitForm(env, formId, { vehicle: 'acme-v-1', notes: 'all good' }, extra);

async function deliveries(env: TestEnv, formId: string, query = ''): Promise<Body[]> {
  const r = await env.json('GET', `/api/v1/forms/${formId}/deliveries${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

/** The text parts of a MIME message (multipart/alternative from nodemailer), decoded (quoted-printable or base64). */
function mimeParts(raw: string): { type: string; body: string }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) throw new Error('not a multipart message');
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const end = part.indexOf('\r\n\r\n');
      const head = part.slice(0, end);
      const body = part.slice(end + 4).replace(/\r\n$/, '');
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '';
      const enc = /content-transfer-encoding:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim().toLowerCase();
      if (enc === 'base64') return { type, body: Buffer.from(body, 'base64').toString('utf8') };
      if (enc === 'quoted-printable') {
        const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
        return { type, body: Buffer.from(bytes, 'latin1').toString('utf8') };
      }
      return { type, body };
    });
}

const SECRET = 'a-shared-signing-secret';

describe('delivery to receivers on loopback (WEBHOOK_ALLOW_PRIVATE=true)', () => {
  let env: TestEnv;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    rx = await receiver();
    env = await createTestEnv({ dispatch: true, config: { webhookAllowPrivate: true, webhookTimeoutMs: 800 } });
  });
  afterAll(async () => {
    await env?.close();
    await rx?.close();
  });

  it('posts the contract payload with Standard Webhooks headers that verify with the library', async () => {
    const formId = await setup(env, [{ url: rx.url('/ok/signed'), secret: SECRET }, { url: rx.url('/ok/plain') }]);
    const completionId = await submit(env, formId);
    const signed = await until(() => rx.hits.find((h) => h.path === '/ok/signed'), 'the signed delivery');
    const plain = await until(() => rx.hits.find((h) => h.path === '/ok/plain'), 'the plain delivery');
    const payload = JSON.parse(signed.body);
    const form = (await env.json('GET', `/api/v1/forms/${formId}`)).body;
    expect(payload).toEqual({
      event: 'form.submitted',
      formId,
      formCode: form.code,
      formName: 'Pre-start check',
      completionId,
      submittedBy: 'acme-owner',
      submittedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: { vehicle: 'acme-v-1', notes: 'all good' },
    });
    expect(signed.headers['content-type']).toBe('application/json');
    const verified = new Webhook(Buffer.from(SECRET), { format: 'raw' }).verify(signed.body, signed.headers as Record<string, string>);
    expect(verified).toEqual(payload);
    // the same key in the library's usual form: whsec_ + base64 of the secret
    expect(new Webhook('whsec_' + Buffer.from(SECRET).toString('base64')).verify(signed.body, signed.headers as Record<string, string>)).toEqual(payload);
    expect(() => new Webhook(Buffer.from('another-secret'), { format: 'raw' }).verify(signed.body, signed.headers as Record<string, string>)).toThrow();
    expect(plain.headers['webhook-id']).toEqual(expect.any(String));
    expect(plain.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(plain.headers['webhook-signature']).toBeUndefined();
    await env.app.dispatcher!.idle();
    const log = await deliveries(env, formId);
    expect(log.map((d) => d.status).sort()).toEqual(['delivered', 'delivered']);
    const d = log.find((x) => x.target === rx.url('/ok/signed'))!;
    expect(d).toMatchObject({ channel: 'webhook', completionId, statusCode: 200, formId });
    expect(d.uid).toBe(signed.headers['webhook-id']);
    expect(d.durationMs).toEqual(expect.any(Number));
    expect(d.attemptedAt).toEqual(expect.any(String));
  });

  it('a whsec_ secret (Standard Webhooks form) signs with its decoded bytes: new Webhook(secret).verify works unchanged', async () => {
    const whsec = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
    const formId = await setup(env, [{ url: rx.url('/ok/whsec'), secret: whsec }]);
    await submit(env, formId);
    const hit = await until(() => rx.hits.find((h) => h.path === '/ok/whsec'), 'the whsec delivery');
    const headers = hit.headers as Record<string, string>;
    expect(new Webhook(whsec).verify(hit.body, headers)).toMatchObject({ event: 'form.submitted', formId });
    // not the UTF-8 bytes of the written secret (what a non-whsec secret signs with)
    expect(() => new Webhook(Buffer.from(whsec), { format: 'raw' }).verify(hit.body, headers)).toThrow();
    const form = await env.json('GET', `/api/v1/forms/${formId}`);
    expect(form.body.webhooks).toEqual([{ url: rx.url('/ok/whsec'), hasSecret: true }]);
    // a whsec_ secret whose rest is not the base64 of 24 to 64 bytes signs with a key no receiver can rebuild: 400
    for (const bad of ['whsec_not base64!!', 'whsec_' + Buffer.from('short').toString('base64'), 'whsec_' + Buffer.from('x'.repeat(65)).toString('base64'), 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY']) {
      const r = await env.json('POST', '/api/v1/forms', { body: formBody([{ url: rx.url('/ok/x'), secret: bad }]) });
      expectValidation(r, '/webhooks/0/secret');
    }
  });

  it('answers the submission at once while a receiver never answers; the others still receive', async () => {
    const formId = await setup(env, [{ url: rx.url('/hang') }, { url: rx.url('/ok/beside-hang') }]);
    const t = performance.now();
    await submit(env, formId);
    expect(performance.now() - t).toBeLessThan(700); // the timeout is 800 ms: the request did not wait for it
    await until(() => rx.hits.find((h) => h.path === '/ok/beside-hang'), 'the other receiver');
    const hung = await until(async () => (await deliveries(env, formId)).find((d) => d.target === rx.url('/hang') && d.status === 'failed'), 'the timeout');
    expect(hung.error).toMatch(/no answer within 800 ms/);
  });

  it('a receiver that answers 200 and never ends its body has the delivery: recorded delivered with its 200, not timed out', async () => {
    // the outcome waited for the end of the body, which is never used: a 2xx with a slow body was recorded failed
    // ("no answer within 800 ms", no status code), and a maintenance alert to it was sent again
    const formId = await setup(env, [{ url: rx.url('/trickle') }]);
    await submit(env, formId);
    const [d] = await until(async () => {
      const log = await deliveries(env, formId);
      return log.every((x) => x.status !== 'pending') ? log : undefined;
    }, 'the outcome');
    expect(d).toMatchObject({ status: 'delivered', statusCode: 200 });
    expect(d).not.toHaveProperty('error');
  });

  it('does not follow redirects and records a 500 without retrying it', async () => {
    const formId = await setup(env, [{ url: rx.url('/redirect') }, { url: rx.url('/fail') }]);
    await submit(env, formId);
    await until(async () => (await deliveries(env, formId)).every((d) => d.status === 'failed') || undefined, 'both failures');
    const log = await deliveries(env, formId);
    expect(log.find((d) => d.target.endsWith('/redirect'))).toMatchObject({ status: 'failed', statusCode: 302, error: expect.stringMatching(/redirect .* not followed/) });
    expect(log.find((d) => d.target.endsWith('/fail'))).toMatchObject({ status: 'failed', statusCode: 500 });
    expect(rx.hits.some((h) => h.path === '/ok-after-redirect')).toBe(false);
    await new Promise((r) => setTimeout(r, 1500)); // more than one poll: no automatic retry
    expect(rx.hits.filter((h) => h.path === '/fail')).toHaveLength(1);
  });

  it('re-sends the same payload with the same webhook-id as a new delivery', async () => {
    const formId = await setup(env, [{ url: rx.url('/ok/resend'), secret: SECRET }]);
    await submit(env, formId);
    const first = await until(() => rx.hits.find((h) => h.path === '/ok/resend'), 'the first delivery');
    await env.app.dispatcher!.idle();
    const [original] = await deliveries(env, formId);
    const r = await env.json('POST', `/api/v1/deliveries/${original.uid}/resend`);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ uid: expect.any(String), status: 'pending' });
    await until(() => rx.hits.filter((h) => h.path === '/ok/resend').length === 2 || undefined, 'the re-send');
    const second = rx.hits.filter((h) => h.path === '/ok/resend')[1];
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(JSON.parse(second.body)).toEqual(JSON.parse(first.body));
    new Webhook(Buffer.from(SECRET), { format: 'raw' }).verify(second.body, second.headers as Record<string, string>);
    await env.app.dispatcher!.idle();
    const log = await deliveries(env, formId);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ uid: r.body.uid, resendOf: original.uid, messageId: original.messageId, status: 'delivered' });
    expectProblem(await env.json('POST', '/api/v1/deliveries/nope/resend'), 404, 'not_found');
    expectProblem(await env.json('POST', `/api/v1/deliveries/${original.uid}/resend`, { key: env.b.key }), 404, 'not_found');
  });

  it('a webhook is known by its URL: listed twice is a 400; a resend is signed with the secret the form holds then, and is not sent once the form drops the URL', async () => {
    const dup = await env.json('POST', '/api/v1/forms', { body: formBody([{ url: rx.url('/ok/dup'), secret: SECRET }, { url: rx.url('/ok/dup'), secret: 'another-secret' }]) });
    expectValidation(dup, '/webhooks/1/url');
    const formId = await setup(env, [{ url: rx.url('/ok/rotate'), secret: SECRET }, { url: rx.url('/ok/dropped'), secret: SECRET }]);
    await submit(env, formId);
    await until(() => rx.hits.filter((h) => h.path.startsWith('/ok/rotate') || h.path.startsWith('/ok/dropped')).length === 2 || undefined, 'both deliveries');
    await env.app.dispatcher!.idle();
    const sent = await deliveries(env, formId);
    const original = (path: string) => sent.find((d) => d.target.endsWith(path))!;
    // the secret of /ok/rotate is rotated and /ok/dropped taken off the form
    const rotated = 'a-rotated-secret';
    expect((await env.json('PATCH', `/api/v1/forms/${formId}`, { body: { webhooks: [{ url: rx.url('/ok/rotate'), secret: rotated }] } })).status).toBe(200);
    for (const path of ['/ok/rotate', '/ok/dropped']) expect((await env.json('POST', `/api/v1/deliveries/${original(path).uid}/resend`)).status).toBe(202);
    await until(() => rx.hits.filter((h) => h.path === '/ok/rotate').length === 2 || undefined, 'the re-send');
    await env.app.dispatcher!.idle();
    const again = rx.hits.filter((h) => h.path === '/ok/rotate')[1];
    new Webhook(Buffer.from(rotated), { format: 'raw' }).verify(again.body, again.headers as Record<string, string>);
    expect(rx.hits.filter((h) => h.path === '/ok/dropped')).toHaveLength(1);
    const log = await deliveries(env, formId);
    expect(log.find((d) => d.target.endsWith('/ok/dropped') && d.resendOf)).toMatchObject({ status: 'skipped', error: 'not sent: the form no longer has a webhook to this URL' });
  });

  it('lists deliveries newest first with filters and a cursor; another company\u2019s form is 404', async () => {
    const formId = await setup(env, [{ url: rx.url('/ok/list') }]);
    const c1 = await submit(env, formId);
    const c2 = await submit(env, formId);
    await until(async () => (await deliveries(env, formId)).length === 2 || undefined, 'two deliveries');
    const all = await deliveries(env, formId);
    expect(all.map((d) => d.completionId)).toEqual([c2, c1]);
    expect((await deliveries(env, formId, `?completionId=${c1}`)).map((d) => d.completionId)).toEqual([c1]);
    expect(await deliveries(env, formId, '?channel=email')).toEqual([]);
    expect(await deliveries(env, formId, '?channel=sms')).toEqual([]);
    const p1 = await env.json('GET', `/api/v1/forms/${formId}/deliveries?limit=1`);
    const p2 = await env.json('GET', `/api/v1/forms/${formId}/deliveries?limit=1&cursor=${p1.body.nextCursor}`);
    expect([...p1.body.data, ...p2.body.data].map((d: Body) => d.completionId)).toEqual([c2, c1]);
    expectValidation(await env.json('GET', `/api/v1/forms/${formId}/deliveries?channel=fax`), '/query/channel');
    expectProblem(await env.json('GET', `/api/v1/forms/${formId}/deliveries`, { key: env.b.key }), 404, 'not_found');
    const gql = await env.gql('query($id: ID!) { formDeliveries(id: $id, limit: 5) { count data { uid status channel target } } }', { id: formId });
    expect(gql.body.data.formDeliveries.count).toBe(2);
  });
});

describe('SSRF: refused on the address connected to (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let env: TestEnv;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    rx = await receiver();
    env = await createTestEnv({ dispatch: true, config: { webhookTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await env?.close();
    await rx?.close();
  });

  it('refuses loopback, a name resolving to 127.0.0.1, private, link-local metadata, CGNAT, multicast and IPv6 forms', async () => {
    const targets = [
      rx.url('/ok/direct'),
      `http://localhost:${rx.port}/ok/by-name`,
      `http://[::1]:${rx.port}/ok/v6`,
      `http://[::ffff:127.0.0.1]:${rx.port}/ok/mapped`,
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://172.16.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://224.0.0.1/hook',
      'http://[fd00::1]/hook',
      'http://0.0.0.0/hook',
    ];
    const formId = await setup(env, targets.map((url) => ({ url })));
    await submit(env, formId);
    const log = await until(async () => {
      const l = await deliveries(env, formId);
      return l.length === targets.length && l.every((d) => d.status === 'failed') ? l : undefined;
    }, 'every refusal');
    for (const d of log) expect(d.error, d.target).toMatch(/not allowed/);
    expect(rx.hits).toEqual([]);
  });
});

describe('email notifications through a real SMTP server', () => {
  let env: TestEnv;
  let smtp: Awaited<ReturnType<typeof localSmtp>>;
  let mails: typeof smtp.mails;
  beforeAll(async () => {
    smtp = await localSmtp();
    mails = smtp.mails;
    env = await createTestEnv({ dispatch: true, config: { smtpUrl: smtp.url, mailFrom: 'forms@fleetops.test' } });
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  it('mails each recipient with an email after commit, with a link to the submission', async () => {
    const formId = await setup(env, [], {
      notification: true,
      notificationRecipients: [{ email: 'ops@example.com', name: 'Ops desk' }, { name: 'No email' }, { email: 'chief@example.com' }],
    });
    const uid = await submit(env, formId, { submitterName: 'Dana Driver', appBaseUrl: 'https://app.example.com' });
    await until(() => mails.length >= 2 || undefined, 'two emails');
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['chief@example.com', 'ops@example.com']);
    const ops = mails.find((m) => m.to[0] === 'ops@example.com')!.raw;
    expect(ops).toMatch(/Subject: Form submitted: Pre-start check/);
    expect(ops).toContain('From: forms@fleetops.test');
    expect(ops).toContain('Hello Ops desk');
    expect(ops).toContain('Dana Driver');
    expect(ops.replace(/=\r?\n/g, '')).toContain(`https://app.example.com/forms/completions/${uid}`);
    await env.app.dispatcher!.idle();
    const log = await deliveries(env, formId, '?channel=email');
    expect(log.map((d) => [d.target, d.status]).sort()).toEqual([
      ['chief@example.com', 'delivered'],
      ['ops@example.com', 'delivered'],
    ]);
  });

  it('CR/LF in a submitter\u2019s name, a recipient\u2019s name or the form\u2019s name adds no header, no recipient and no line', async () => {
    const to = `crlf-${uniq()}@example.com`;
    const formId = await setup(env, [], {
      name: 'Pre-start\r\nX-Injected: form',
      notification: true,
      notificationRecipients: [{ email: to, name: 'Ops\nBcc: evil2@x' }],
    });
    await submit(env, formId, { submitterName: 'x\r\nBcc: evil@x\r\n\r\nA body line of its own' });
    const mail = await until(() => mails.find((m) => m.to.includes(to)), 'the email');
    expect(mail.to).toEqual([to]);
    const raw = mail.raw.replace(/=\r?\n/g, ''); // quoted-printable soft breaks
    const end = raw.indexOf('\r\n\r\n');
    const headers = raw.slice(0, end).split('\r\n').filter((l) => !/^\s/.test(l)); // folded lines continue the one above
    const body = raw.slice(end + 4).split(/\r?\n/);
    expect(headers.filter((l) => /^(bcc|cc|x-injected):/i.test(l))).toEqual([]);
    expect(body.filter((l) => /^(bcc|x-injected):|^A body line/i.test(l))).toEqual([]);
    expect(body).toContain('Submitted by: x Bcc: evil@x A body line of its own');
    expect(body).toContain('Hello Ops Bcc: evil2@x,');
    expect(raw).toMatch(/^Subject: Form submitted: Pre-start X-Injected: form$/m);
  });

  it('sends a plain-text and an HTML part: the answers as a table, the defects raised, the odometer reading applied, the link', async () => {
    const to = `html-${uniq()}@example.com`;
    const formId = await setup(env, [], {
      name: 'Daily <inspection> & check',
      notification: true,
      notificationRecipients: [{ email: to, name: 'Ops <desk>' }],
      sections: [
        {
          name: 'S',
          fields: [
            { name: 'vehicle', label: 'Vehicle', type: 'vehicle', required: true },
            { name: 'odometer', label: 'Odometer', type: 'odometer', vehicleField: 'vehicle' },
            { name: 'notes', label: 'Notes <b>', type: 'text' },
            { name: 'defects', label: 'Defects', type: 'defect', assetField: 'vehicle' },
          ],
        },
      ],
    });
    const r = await env.json('POST', '/api/v1/form-completions', {
      body: {
        formId,
        answers: { vehicle: 'acme-v-1', odometer: 987654, notes: '<script>alert(1)</script>\r\nsecond line', defects: [{ description: 'Cracked <mirror>', severity: 'low' }, { description: 'Oil leak' }] },
        submitterName: 'Dana Driver',
        appBaseUrl: 'https://app.example.com',
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const uid = r.body.uid;
    const mail = await until(() => mails.find((m) => m.to.includes(to)), 'the email');
    const parts = mimeParts(mail.raw);
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative/im);
    const text = parts.find((p) => p.type.startsWith('text/plain'))!.body;
    const html = parts.find((p) => p.type.startsWith('text/html'))!.body;
    // plain text: one line per answer, defect and reading; the answer's own line break is a space
    const lines = text.split(/\r?\n/);
    expect(lines).toContain('Hello Ops <desk>,');
    expect(lines).toContain('- Vehicle: acme-v-1');
    expect(lines).toContain('- Odometer: 987654');
    expect(lines).toContain('- Notes <b>: <script>alert(1)</script> second line');
    expect(lines).toContain('- Defects: Cracked <mirror> (low); Oil leak');
    expect(lines).toContain('Defects raised:');
    expect(lines).toContain('- acme-v-1: Cracked <mirror> (low)');
    expect(lines).toContain('- acme-v-1: Oil leak');
    expect(lines).toContain('Odometer readings:');
    expect(lines.some((l) => /^- acme-v-1: \w+ set to 987654$/.test(l))).toBe(true);
    expect(lines).toContain(`View the submission: https://app.example.com/forms/completions/${uid}`);
    // HTML: the same, every value escaped, the answers in a table
    expect(html).toContain('<table');
    expect(html).toContain('<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid #ddd">Notes &lt;b&gt;</th>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; second line');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<mirror>');
    expect(html).toContain('Form submitted: Daily &lt;inspection&gt; &amp; check');
    expect(html).toMatch(/<h2[^>]*>Defects raised<\/h2><ul><li>acme-v-1: Cracked &lt;mirror&gt; \(low\)<\/li><li>acme-v-1: Oil leak<\/li><\/ul>/);
    expect(html).toMatch(/<h2[^>]*>Odometer readings<\/h2><ul><li>acme-v-1: \w+ set to 987654<\/li><\/ul>/);
    expect(html).toContain(`<a href="https://app.example.com/forms/completions/${uid}">View the submission</a>`);
  });

  it('without an appBaseUrl there is no link in either part', async () => {
    const to = `nolink-${uniq()}@example.com`;
    const formId = await setup(env, [], { notification: true, notificationRecipients: [{ email: to }] });
    await submit(env, formId);
    const mail = await until(() => mails.find((m) => m.to.includes(to)), 'the email');
    for (const p of mimeParts(mail.raw)) {
      expect(p.body).not.toMatch(/View the submission|<a /);
      expect(p.body).toContain('all good');
    }
  });

  it('without SMTP_URL each email is recorded as skipped with the reason', async () => {
    const other = await createTestEnv({ dispatch: true, database: env.database });
    try {
      await env.app.dispatcher!.stop();
      const formId = await setup(other, [], { notification: true, notificationRecipients: [{ email: 'ops@example.com' }] });
      await submit(other, formId);
      const [d] = await until(async () => {
        const l = await deliveries(other, formId);
        return l[0]?.status === 'skipped' ? l : undefined;
      }, 'the skipped email');
      expect(d.error).toMatch(/SMTP_URL is not set/);
    } finally {
      await other.close();
    }
  });
});

describe('the outbox survives the process', () => {
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    rx = await receiver();
  });
  afterAll(async () => {
    await rx?.close();
  });

  it('a submission committed while no dispatcher ran is delivered after restart; a stale claim is sent again', async () => {
    const env = await createTestEnv({ dispatch: false, isolated: true, config: { webhookAllowPrivate: true } });
    try {
      const formId = await setup(env, [{ url: rx.url('/ok/after-restart') }]);
      await submit(env, formId);
      const [pending] = await deliveries(env, formId);
      expect(pending.status).toBe('pending');
      // a process that claimed a row and died before recording the outcome
      const formId2 = await setup(env, [{ url: rx.url('/ok/stale-claim') }]);
      await submit(env, formId2);
      await env.database.sql.query(`UPDATE "WebhookDelivery" SET status = 'sending', "claimedAt" = now() - interval '1 hour' WHERE "formId" = $1`, [formId2]);
      expect(rx.hits).toEqual([]);
      // the restarted server
      const restarted = createApp({ database: env.database, config: { rateLimitPerMinute: 0, bodyLimitBytes: 1 << 20, logLevel: 'silent', webhookAllowPrivate: true } });
      try {
        await until(() => rx.hits.find((h) => h.path === '/ok/after-restart'), 'the pending delivery');
        await until(() => rx.hits.find((h) => h.path === '/ok/stale-claim'), 'the stale claim');
        await restarted.dispatcher!.idle();
        expect((await deliveries(env, formId))[0].status).toBe('delivered');
      } finally {
        await restarted.close();
      }
    } finally {
      await env.close();
    }
  });

  it('a server stopped right after a submission waits for the attempts it is making: each is recorded once, none left sending', async () => {
    // The stop came while the dispatcher was claiming the rows (its claim was in flight): it waited for the claim but
    // not for the attempts the claim then started, so the server closed with both rows `sending` (shown as pending),
    // and both were sent again once their lease ran out: each receiver got its webhook twice
    const env = await createTestEnv({ dispatch: true, isolated: true, config: { webhookAllowPrivate: true, webhookTimeoutMs: 5000 } });
    try {
      const formId = await setup(env, [{ url: rx.url('/slow/stop-a') }, { url: rx.url('/slow/stop-b') }]);
      await submit(env, formId);
      await env.app.close(10_000);
      const rows = await env.database.prisma.webhookDelivery.findMany({ where: { formId }, select: { target: true, status: true, statusCode: true }, orderBy: { target: 'asc' } });
      expect(rows).toEqual([
        { target: rx.url('/slow/stop-a'), status: 'delivered', statusCode: 200 },
        { target: rx.url('/slow/stop-b'), status: 'delivered', statusCode: 200 },
      ]);
      expect(rx.hits.filter((h) => h.path.startsWith('/slow/stop-')).map((h) => h.path).sort()).toEqual(['/slow/stop-a', '/slow/stop-b']);
    } finally {
      await env.close();
    }
  });

  /** Takes the dispatcher's advisory lock on the form's delivery row from another process's session, as a claimer holds it. */
  async function holdRowLock(other: { session?: { query<T>(text: string, params?: unknown[]): Promise<T[]> } }, formId: string) {
    const locked = await other.session!.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_lock($1::int, ('x' || substr(md5("companyId" || '/' || uid), 1, 8))::bit(32)::int) AS ok FROM "WebhookDelivery" WHERE "formId" = $2`,
      [DELIVERY_LOCK, formId],
    );
    expect(locked).toEqual([{ ok: true }]);
  }

  it.skipIf(!onPostgres)('PostgreSQL: a pending row whose lock a dying claimer still holds is not sent, stays claimed, and is sent once after', async () => {
    // A process killed inside its claim statement: the claim rolled back (the row is pending) but its session lock on
    // the row lasts until PostgreSQL notices the connection is gone. A dispatcher that claims the row then does not
    // get the lock: it must neither send it nor put it back to pending (a reset can undo another dispatcher's claim
    // made in between, and the row is sent twice: seen in CI)
    const env = await createTestEnv({ dispatch: false, isolated: true, config: { webhookAllowPrivate: true } });
    const dying = (await openSameDatabase(env)).database;
    let dyingOpen = true;
    let a: ReturnType<typeof createDispatcher> | undefined;
    try {
      const formId = await setup(env, [{ url: rx.url('/ok/claimer-died-mid-claim') }]);
      await submit(env, formId);
      await holdRowLock(dying, formId);
      const control = await setup(env, [{ url: rx.url('/ok/control-mid-claim') }]);
      await submit(env, control);
      a = createDispatcher({ logger: pino({ level: 'silent' }), allowPrivate: true, timeoutMs: 5000, mailFrom: 'x@y', pollMs: 20, database: env.database });
      await until(() => rx.hits.find((h) => h.path === '/ok/control-mid-claim'), 'the control delivery');
      await a.idle();
      expect(rx.hits.filter((h) => h.path === '/ok/claimer-died-mid-claim')).toEqual([]);
      const raw = await env.database.sql.query<{ status: string }>(`SELECT status FROM "WebhookDelivery" WHERE "formId" = $1`, [formId]);
      expect(raw.map((r) => r.status), 'claimed, not put back to pending').toEqual(['sending']);
      dyingOpen = false;
      await dying.close();
      await until(() => rx.hits.find((h) => h.path === '/ok/claimer-died-mid-claim'), 'the row, sent once its lock went');
      await a.idle();
      await new Promise((r) => setTimeout(r, 100)); // a few more polls: nothing is sent again
      expect(rx.hits.filter((h) => h.path === '/ok/claimer-died-mid-claim')).toHaveLength(1);
      expect((await deliveries(env, formId))[0].status).toBe('delivered');
    } finally {
      await a?.stop();
      if (dyingOpen) await dying.close();
      await env.close();
    }
  });

  it.skipIf(!onPostgres)('PostgreSQL: a claim whose process lives is left alone; once that process is gone it is sent at once (no lease)', async () => {
    const env = await createTestEnv({ dispatch: false, isolated: true, config: { webhookAllowPrivate: true } });
    const owner = (await openSameDatabase(env)).database; // the process that claimed the row: its own connection holds the row's lock
    let ownerOpen = true;
    let a: ReturnType<typeof createDispatcher> | undefined;
    try {
      const formId = await setup(env, [{ url: rx.url('/ok/claimed-by-a-living-process') }]);
      await submit(env, formId);
      await env.database.sql.query(`UPDATE "WebhookDelivery" SET status = 'sending', "claimedAt" = now() WHERE "formId" = $1`, [formId]);
      await holdRowLock(owner, formId);
      // a later pending row: once it is delivered, the claim statement has passed over the living claim too
      const control = await setup(env, [{ url: rx.url('/ok/control') }]);
      await submit(env, control);
      a = createDispatcher({ logger: pino({ level: 'silent' }), allowPrivate: true, timeoutMs: 5000, mailFrom: 'x@y', pollMs: 20, database: env.database });
      await until(() => rx.hits.find((h) => h.path === '/ok/control'), 'the control delivery');
      await a.idle();
      expect(rx.hits.filter((h) => h.path === '/ok/claimed-by-a-living-process')).toEqual([]);
      expect((await deliveries(env, formId))[0].status).toBe('pending'); // sending, as clients see it
      // the owner dies: its connection closes, and its lock with it
      ownerOpen = false;
      await owner.close();
      await until(() => rx.hits.find((h) => h.path === '/ok/claimed-by-a-living-process'), 'the abandoned claim, sent again');
      await a.idle();
      expect((await deliveries(env, formId))[0].status).toBe('delivered');
    } finally {
      await a?.stop();
      if (ownerOpen) await owner.close();
      await env.close();
    }
  });

  it.skipIf(!onPostgres)('two dispatchers on one PostgreSQL send each delivery exactly once', async () => {
    const env = await createTestEnv({ dispatch: false, isolated: true, config: { webhookAllowPrivate: true } });
    const second = (await openSameDatabase(env)).database;
    try {
      const formId = await setup(env, [{ url: rx.url('/ok/once-a') }, { url: rx.url('/ok/once-b') }]);
      for (let i = 0; i < 15; i++) await submit(env, formId);
      const logger = pino({ level: 'silent' });
      const opts = { logger, allowPrivate: true, timeoutMs: 5000, mailFrom: 'x@y', batch: 3, pollMs: 20 };
      const a = createDispatcher({ ...opts, database: env.database });
      const b = createDispatcher({ ...opts, database: second });
      try {
        await until(() => rx.hits.filter((h) => h.path.startsWith('/ok/once-')).length >= 30 || undefined, '30 deliveries');
        await a.idle();
        await b.idle();
        await new Promise((r) => setTimeout(r, 200));
        const ids = rx.hits.filter((h) => h.path.startsWith('/ok/once-')).map((h) => h.headers['webhook-id']);
        expect(ids).toHaveLength(30);
        expect(new Set(ids).size).toBe(30);
        expect((await deliveries(env, formId, '?limit=500')).every((d) => d.status === 'delivered')).toBe(true);
      } finally {
        await a.stop();
        await b.stop();
      }
    } finally {
      await second.close();
      await env.close();
    }
  });
});

// An SMTP server that refuses one recipient (550) and never answers for another: an email attempt is bounded by
// WEBHOOK_TIMEOUT_MS as a webhook's is (nodemailer's own limits are minutes: the row stayed `pending`, and on the
// embedded store a second dispatcher claim sent the email twice), and a refusal keeps the server's reply code.
describe('email attempts: bounded, and the SMTP reply code kept', () => {
  let env: TestEnv;
  let smtp: SMTPServer;
  const stalled: (() => void)[] = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onRcptTo(address, _session, cb) {
        if (address.address.startsWith('refused')) return cb(Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }));
        if (address.address.startsWith('stall')) return void stalled.push(() => cb());
        cb();
      },
      onData(stream, _session, cb) {
        stream.resume().on('end', () => cb());
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const port = (smtp.server.address() as AddressInfo).port;
    env = await createTestEnv({ dispatch: true, config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'forms@fleetops.test', webhookTimeoutMs: 800 } });
  });
  afterAll(async () => {
    for (const go of stalled) go();
    await env?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it('a refused recipient is failed with 550; a server that stops answering is failed within the timeout', async () => {
    const formId = await setup(env, [], { notification: true, notificationRecipients: [{ email: 'refused@example.com' }, { email: 'stall@example.com' }] });
    await submit(env, formId);
    const log = await until(async () => {
      const rows = await deliveries(env, formId, '?channel=email');
      return rows.length === 2 && rows.every((d) => d.status !== 'pending' && d.status !== 'sending') ? rows : undefined;
    }, 'both emails finished', 20_000);
    const by = Object.fromEntries(log.map((d) => [d.target, d]));
    expect(by['refused@example.com']).toMatchObject({ status: 'failed', statusCode: 550 });
    expect(by['stall@example.com'].status).toBe('failed');
    expect(by['stall@example.com'].statusCode ?? null).toBeNull();
  });
});

describe('who a notification names', () => {
  it('a blank submitterName names the submitting user, as an absent one does (the SMS said "submitted by  at")', () => {
    const p = { formName: 'Pre-start check', submittedBy: 'usr_dana', submittedAt: '2026-11-28T17:46:00Z' };
    for (const submitterName of ['', '   ']) {
      expect(notificationSms({ ...p, submitterName })).toContain('submitted by usr_dana at');
      expect(notificationEmail({ ...p, submitterName }).text).toContain('Submitted by: usr_dana');
    }
    expect(notificationSms({ ...p, submitterName: ' Dana ' })).toContain('submitted by Dana at');
  });
});
