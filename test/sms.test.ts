// SMS notifications of form submissions (docs/contract/gaps.md §13; docs/notifications.md) through the official
// twilio package, against a local HTTP server implementing Twilio's Messages endpoint (TWILIO_API_BASE): delivered,
// refused by the provider, provider unreachable, no provider; the company integration settings (write-only token,
// admin keys only, on REST, GraphQL and MCP's tool list), E.164 checks, the 320-character one-line text, re-send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../src/auth/keys.js';
import { createTestEnv, uniq, type TestEnv } from './helpers.js';
import { expectProblem, expectValidation } from './assertions.js';
import { createForm, localServer, notifyingForm, submitForm, until } from './form-notifications.js';

type Body = Record<string, any>;
const SID = 'AC' + '0123456789abcdef'.repeat(2);
const TOKEN = 'twilio-auth-token-0123456789';
const FROM = '+61255501234';
/** Numbers the fake provider refuses as Twilio does an invalid 'To' (400, code 21211). */
const REFUSED = '+61499999999';

interface TwilioHit {
  path: string;
  auth: string;
  form: URLSearchParams;
}

/** A number the provider takes (201) and answers `failed` for at once. */
const CARRIER_FAILED = '+61412000099';

/** Twilio's Messages endpoint, as far as sending goes: POST /2010-04-01/Accounts/{sid}/Messages.json. */
async function fakeTwilio() {
  const hits: TwilioHit[] = [];
  const server = await localServer((req, raw, res) => {
    const form = new URLSearchParams(raw);
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    hits.push({ path: req.url ?? '', auth, form });
    const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || !m) return json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    if (auth !== `${m[1]}:${TOKEN}`) return json(401, { code: 20003, message: 'Authenticate', status: 401 });
    if (form.get('To') === REFUSED) {
      return json(400, { code: 21211, message: `The 'To' number ${REFUSED} is not a valid phone number.`, more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 });
    }
    const failed = form.get('To') === CARRIER_FAILED;
    json(201, {
      sid: 'SM' + uniq().repeat(4),
      account_sid: m[1],
      to: form.get('To'),
      from: form.get('From'),
      body: form.get('Body'),
      status: failed ? 'failed' : 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      date_created: new Date().toUTCString(),
      error_code: failed ? 30007 : null,
      error_message: failed ? 'Carrier violation' : null,
      uri: `/2010-04-01/Accounts/${m[1]}/Messages/SM.json`,
    });
  });
  return { base: server.url(''), hits, close: server.close };
}

const formBody = (recipients: Body[], over: Body = {}): Body => notifyingForm({ notification: true, notificationRecipients: recipients, ...over });
const setup = (env: TestEnv, recipients: Body[], over: Body = {}) => createForm(env, formBody(recipients, over));
const submit = (env: TestEnv, formId: string, extra: Body = {}) => submitForm(env, formId, { vehicle: 'acme-v-1' }, extra);

async function settled(env: TestEnv, formId: string, n: number): Promise<Body[]> {
  return until(async () => {
    const r = await env.json('GET', `/api/v1/forms/${formId}/deliveries?channel=sms`);
    const rows: Body[] = r.body.data;
    return rows.length >= n && rows.every((d) => d.status !== 'pending') ? rows : undefined;
  }, `${n} settled SMS deliveries`);
}

const adminKey = async (env: TestEnv, companyId = env.a.id) => (await new ApiKeyService(env.database.prisma).create({ companyId, scope: 'admin', name: 'admin' })).key;

describe('SMS through a Twilio-compatible server', () => {
  let env: TestEnv;
  let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
  let admin: string;
  beforeAll(async () => {
    twilio = await fakeTwilio();
    env = await createTestEnv({ dispatch: true, config: { twilioApiBase: twilio.base, webhookTimeoutMs: 2000 } });
    admin = await adminKey(env);
  });
  afterAll(async () => {
    await env?.close();
    await twilio?.close();
  });

  it('integration settings: any key reads them without the token, only an admin key writes them; bad values are 400s', async () => {
    expect((await env.json('GET', '/api/v1/settings/integrations')).body).toEqual({ sms: null });
    const body = { sms: { provider: 'twilio', accountSid: SID, authToken: TOKEN, from: FROM } };
    expectProblem(await env.json('PUT', '/api/v1/settings/integrations', { body }), 403, 'forbidden');
    const put = await env.json('PUT', '/api/v1/settings/integrations', { body, key: admin });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const view = { sms: { provider: 'twilio', accountSid: SID, from: FROM, hasAuthToken: true } };
    expect(put.body).toEqual(view);
    expect((await env.json('GET', '/api/v1/settings/integrations')).body).toEqual(view);
    expect(JSON.stringify((await env.json('GET', '/api/v1/settings/integrations')).body)).not.toContain(TOKEN);
    // the same over GraphQL; another company sees its own (none)
    const gql = await env.gql('{ integrationSettings { sms { provider accountSid from hasAuthToken } } }');
    expect(gql.body.data.integrationSettings).toEqual(view);
    expect((await env.json('GET', '/api/v1/settings/integrations', { key: env.b.key })).body).toEqual({ sms: null });
    // the token left out keeps the stored one for the same account
    const keep = await env.json('PUT', '/api/v1/settings/integrations', { body: { sms: { provider: 'twilio', accountSid: SID, from: FROM } }, key: admin });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    for (const [bad, path] of [
      [{ sms: { ...body.sms, from: '0412 345 678' } }, '/sms/from'],
      [{ sms: { ...body.sms, accountSid: 'nope' } }, '/sms/accountSid'],
      [{ sms: { ...body.sms, provider: 'carrier-pigeon' } }, '/sms/provider'],
      [{ sms: { provider: 'twilio', accountSid: 'AC' + 'f'.repeat(32), from: FROM } }, '/sms/authToken'],
      [{ sms: { ...body.sms, extra: 1 } }, /^\/sms/],
    ] as const) {
      expectValidation(await env.json('PUT', '/api/v1/settings/integrations', { body: bad, key: admin }), path);
    }
    expect((await env.json('GET', '/api/v1/settings/integrations')).body).toEqual(view);
    const denied = await env.gql('mutation($i: IntegrationSettingsInput!) { putIntegrationSettings(input: $i) { sms { from } } }', { i: { sms: null } });
    expect(denied.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('E.164 numbers only in notificationRecipients', async () => {
    for (const phone of ['0412345678', '+0412345678', '+61 412 345 678', '+1234567890123456', 12345]) {
      expectValidation(await env.json('POST', '/api/v1/forms', { body: formBody([{ phone }]) }), '/notificationRecipients/0/phone');
    }
  });

  it('sends one SMS per phone recipient through the provider: one line, at most 320 characters, logged as delivered; re-sendable', async () => {
    await env.json('PUT', '/api/v1/settings/integrations', { body: { sms: { provider: 'twilio', accountSid: SID, authToken: TOKEN, from: FROM } }, key: admin });
    const to1 = '+61412000001';
    const to2 = '+14155550123';
    const formId = await setup(env, [{ phone: to1, name: 'Ops' }, { email: 'ops@example.com', phone: to2 }], { name: 'Daily\r\ncheck\n'.repeat(35) });
    const uid = await submit(env, formId, { submitterName: 'Dana\nDriver\u2028Second line', appBaseUrl: 'https://app.example.com' });
    const rows = await settled(env, formId, 2);
    expect(rows.map((d) => [d.target, d.status, d.channel]).sort()).toEqual([
      [to2, 'delivered', 'sms'],
      [to1, 'delivered', 'sms'],
    ].sort());
    const sent = twilio.hits.filter((h) => h.form.get('To') === to1 || h.form.get('To') === to2);
    expect(sent).toHaveLength(2);
    for (const h of sent) {
      expect(h.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
      expect(h.auth).toBe(`${SID}:${TOKEN}`);
      expect(h.form.get('From')).toBe(FROM);
      const text = h.form.get('Body')!;
      expect(Array.from(text).length).toBeLessThanOrEqual(320);
      expect(text).not.toMatch(/[\r\n\u2028\u2029\u000b\u000c\u0085]/);
      expect(text).toContain('Dana Driver Second line');
      expect(text).toMatch(/^Fleet Ops: "Daily check Daily check/);
      expect(text).toContain(`https://app.example.com/forms/completions/${uid}`);
    }
    // a re-send is a new attempt of the same text to the same number
    const r = await env.json('POST', `/api/v1/deliveries/${rows.find((d) => d.target === to1)!.uid}/resend`);
    expect(r.status).toBe(202);
    await until(() => twilio.hits.filter((h) => h.form.get('To') === to1).length === 2 || undefined, 'the re-sent SMS');
    const [a, b] = twilio.hits.filter((h) => h.form.get('To') === to1);
    expect(b.form.get('Body')).toBe(a.form.get('Body'));
    const again = await settled(env, formId, 3);
    expect(again[0]).toMatchObject({ uid: r.body.uid, status: 'delivered', resendOf: rows.find((d) => d.target === to1)!.uid });
  });

  it('a link that does not fit whole is left out rather than cut', async () => {
    const to = '+61412000002';
    const formId = await setup(env, [{ phone: to }], { name: 'Fuel' });
    const uid = await submit(env, formId, { submitterName: 'Sam', appBaseUrl: 'https://app.example.com/' + 'x'.repeat(300) });
    await settled(env, formId, 1);
    const text = twilio.hits.find((h) => h.form.get('To') === to)!.form.get('Body')!;
    expect(text).toMatch(/^Fleet Ops: "Fuel" submitted by Sam at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/);
    expect(text).not.toContain(uid);
  });

  it('a message the provider answers failed (201) is recorded failed with that answer\u2019s status code', async () => {
    const formId = await setup(env, [{ phone: CARRIER_FAILED }]);
    await submit(env, formId);
    const [d] = await settled(env, formId, 1);
    expect(d).toMatchObject({ channel: 'sms', target: CARRIER_FAILED, status: 'failed', statusCode: 201, error: 'provider answered failed: Carrier violation' });
  });

  it('a number the provider refuses is recorded as failed with its answer, and not retried', async () => {
    const formId = await setup(env, [{ phone: REFUSED }]);
    await submit(env, formId);
    const [d] = await settled(env, formId, 1);
    expect(d).toMatchObject({ channel: 'sms', target: REFUSED, status: 'failed', statusCode: 400 });
    expect(d.error).toMatch(/provider refused \(400, code 21211\).*not a valid phone number/);
    await new Promise((r) => setTimeout(r, 1500)); // more than one poll
    expect(twilio.hits.filter((h) => h.form.get('To') === REFUSED)).toHaveLength(1);
  });

  it('without an SMS provider each SMS is recorded as skipped with the reason', async () => {
    const formId = (await env.json('POST', '/api/v1/forms', { body: formBody([{ phone: '+61412000003' }]), key: env.b.key })).body.uid;
    await env.json('POST', '/api/v1/form-completions', { body: { formId, answers: { vehicle: 'globex-v-1' } }, key: env.b.key });
    const d = await until(async () => {
      const r = await env.json('GET', `/api/v1/forms/${formId}/deliveries?channel=sms`, { key: env.b.key });
      return r.body.data[0]?.status === 'skipped' ? r.body.data[0] : undefined;
    }, 'the skipped SMS');
    expect(d.error).toMatch(/no SMS provider/);
    expect(twilio.hits.some((h) => h.form.get('To') === '+61412000003')).toBe(false);
  });
});

describe('SMS when the provider cannot be reached', () => {
  it('records the delivery as failed: provider unreachable', async () => {
    const closed = await fakeTwilio();
    const base = closed.base;
    await closed.close(); // nothing listens there any more
    const env = await createTestEnv({ dispatch: true, config: { twilioApiBase: base, webhookTimeoutMs: 2000 } });
    try {
      const admin = await adminKey(env);
      await env.json('PUT', '/api/v1/settings/integrations', { body: { sms: { provider: 'twilio', accountSid: SID, authToken: TOKEN, from: FROM } }, key: admin });
      const formId = await setup(env, [{ phone: '+61412000004' }]);
      await submit(env, formId);
      const [d] = await settled(env, formId, 1);
      expect(d).toMatchObject({ status: 'failed', target: '+61412000004' });
      expect(d.statusCode).toBeUndefined();
      expect(d.error).toMatch(/provider unreachable: .*ECONNREFUSED/);
    } finally {
      await env.close();
    }
  });
});
