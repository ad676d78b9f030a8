// A form's email or SMS goes only to a recipient the form still notifies, as its webhook goes only to a URL it still
// lists (docs/webhooks.md): after the owner takes a recipient off, a re-send of an earlier submission's message is
// recorded skipped ("not sent: the form no longer notifies this recipient") and nothing reaches the old address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTestEnv, type TestEnv } from './helpers.js';
import { localServer, localSmtp, notifyingForm, until } from './form-notifications.js';

type Body = Record<string, any>;
const SID = 'AC' + '0123456789abcdef'.repeat(2);
const TOKEN = 'twilio-auth-token-0123456789';

describe('re-send to a recipient the form no longer lists ', () => {
  let env: TestEnv;
  let smtp: Awaited<ReturnType<typeof localSmtp>>;
  let twilio: Awaited<ReturnType<typeof localServer>>;
  let texts: URLSearchParams[];
  let web: Awaited<ReturnType<typeof localServer>>;
  beforeAll(async () => {
    texts = [];
    smtp = await localSmtp();
    twilio = await localServer((_req, raw, res) => {
      const form = new URLSearchParams(raw);
      texts.push(form);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: 'SM' + '0'.repeat(32), account_sid: SID, to: form.get('To'), from: form.get('From'), body: form.get('Body'), status: 'queued' }));
    });
    web = await localServer((_req, _b, res) => res.writeHead(200).end());
    env = await createTestEnv({ dispatch: true, config: { smtpUrl: smtp.url, mailFrom: 'f@fleetops.test', twilioApiBase: twilio.url(''), webhookAllowPrivate: true, webhookTimeoutMs: 2000 } });
    const admin = await adminKey(env);
    const s = await env.json('PUT', '/api/v1/settings/integrations', { key: admin, body: { sms: { provider: 'twilio', accountSid: SID, authToken: TOKEN, from: '+61255501234' } } });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
    await twilio?.close();
    await web?.close();
  });

  async function rows(formId: string): Promise<Body[]> {
    await env.app.dispatcher!.idle();
    return (await env.json('GET', `/api/v1/forms/${formId}/deliveries`)).body.data;
  }

  it('after the form drops the recipient, a re-send of its email, SMS or webhook is skipped, not sent', async () => {
    const f = await env.json('POST', '/api/v1/forms', {
      body: notifyingForm({ notification: true, notificationRecipients: [{ email: 'gone@example.com', phone: '+61412000077' }], webhooks: [{ url: web.url('/gone') }] }),
    });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const formId = f.body.uid;
    const c = await env.json('POST', '/api/v1/form-completions', { body: { formId, answers: { vehicle: 'acme-v-1' } } });
    expect(c.status).toBe(201);
    const first = await until(async () => {
      const r = await rows(formId);
      return r.length === 3 && r.every((d) => d.status === 'delivered') ? r : undefined;
    }, 'three delivered');
    const mailsBefore = smtp.mails.length;
    const textsBefore = texts.length;
    // the owner takes every target off the form
    const p = await env.json('PATCH', `/api/v1/forms/${formId}`, { body: { notificationRecipients: [], webhooks: [] } });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    for (const d of first) {
      const r = await env.json('POST', `/api/v1/deliveries/${d.uid}/resend`);
      expect(r.status).toBe(202);
    }
    const after = await until(async () => {
      const r = await rows(formId);
      return r.length === 6 && r.every((d) => d.status !== 'pending') ? r : undefined;
    }, 'three re-sends settled');
    const resends = after.filter((d) => d.resendOf);
    const outcome = Object.fromEntries(resends.map((d) => [d.channel, d.status]));
    expect(outcome).toEqual({ webhook: 'skipped', email: 'skipped', sms: 'skipped' });
    for (const d of resends.filter((x) => x.channel !== 'webhook')) expect(d.error).toBe('not sent: the form no longer notifies this recipient');
    expect(smtp.mails.length).toBe(mailsBefore);
    expect(texts.length).toBe(textsBefore);
  });
});
