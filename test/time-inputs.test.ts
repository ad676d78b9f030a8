// Dates and time zones as inputs (docs/api-notes.md "Maintenance schedule", "Aggregation"; docs/forms.md "Side
// effects"; docs/aggregation.md): the day a defect from a public form is due, calendar-date bounds and filters in
// aggregations, the years 0001 to 0099, the aggregation guide's example, a date alone as lastCarriedOutDate, one
// rule for time zone names, and one rule for offsets and whitespace in every date input. Each case goes through
// the public surface, with the service's clock as an input (docs/decisions/0009-time-as-an-input.md).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../src/lib/clock.js';
import { ApiKeyService } from '../src/auth/keys.js';
import { adminKey, createTestEnv, flightLogBody, uniq, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
let admin: string;
beforeAll(async () => {
  env = await createTestEnv({ config: { publicRateLimitPerMinute: 0 } });
  admin = await adminKey(env);
}, 120_000);
afterAll(() => env?.close());

const asAdmin = (method: string, path: string, body?: unknown) => env.json(method, `/api/v1${path}`, { key: admin, body });
const scheduleItem = async (uid: string) => (await env.rest.get(`/schedule-items/${uid}`)).body;

describe('a defect from a public form (or a submitter without a time zone) is due today in the company\u2019s time zone', () => {
  let formId: string;
  let publicId: string;
  const submit = (body: unknown) =>
    env.app.fetch(
      new Request(`http://fleetops.test/forms/public/${publicId}/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      { clientAddress: '203.0.113.9' },
    );
  const defectsOn = async (completionUid: string) => {
    const c = await env.gql(`query($id: ID!) { formCompletion(id: $id) { scheduleItems { uid calendarDateDue } } }`, { id: completionUid });
    expect(c.body.errors, JSON.stringify(c.body.errors)).toBeUndefined();
    return c.body.data.formCompletion.scheduleItems as { uid: string; calendarDateDue: string }[];
  };

  beforeAll(async () => {
    const r = await env.rest.post('/forms', {
      name: 'Defect report',
      code: `defect-${uniq()}`,
      department: 'Ops',
      publiclyAvailable: true,
      sections: [{ name: 'S', fields: [{ name: 'aircraft', label: 'Aircraft', type: 'aircraft', required: true }, { name: 'defect', label: 'Defect', type: 'defect', assetField: 'aircraft' }] }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    formId = r.body.uid;
    publicId = (await env.rest.get(`/forms/${formId}`)).body.publicId;
  });

  it('08:00 in Sydney (22:00 UTC the day before): UTC while the company has no time zone, then Sydney once the alert settings name it', async () => {
    setClock('2026-06-14T22:00:00Z');
    // no alert settings: the company has no time zone, so UTC decides the day
    const before = await submit({ answers: { aircraft: 'acme-ac-1', defect: { description: 'Before settings' } } });
    expect(before.status).toBe(201);
    const [early] = await defectsOn(((await before.json()) as { uid: string }).uid);
    expect(early.calendarDateDue).toBe('2026-06-14T00:00:00.000Z');

    const saved = await asAdmin('PUT', '/settings/alerts', { timezone: 'Australia/Sydney', recipients: [{ email: 'ops@acme.test' }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const r = await submit({ answers: { aircraft: 'acme-ac-1', defect: { description: 'Cracked windscreen' } } });
    expect(r.status).toBe(201);
    const [item] = await defectsOn(((await r.json()) as { uid: string }).uid);
    expect(item.calendarDateDue).toBe('2026-06-15T00:00:00.000Z');
    // due today with 0 days remaining in the company's zone: not overdue
    const status = await env.rest.get('/maintenance-status?relatedTo=acme-ac-1&timezone=Australia/Sydney');
    expect(status.body.data.find((s: { scheduleItemUid: string }) => s.scheduleItemUid === item.uid).calendarDaysRemaining).toBe(0);
  });

  it('a user without a time zone submitting over the API takes the company\u2019s too; a user with one keeps theirs', async () => {
    setClock('2026-06-14T22:00:00Z');
    const saved = await asAdmin('PUT', '/settings/alerts', { timezone: 'Australia/Sydney', recipients: [{ email: 'ops@acme.test' }] });
    expect(saved.status).toBe(200);
    const pilotKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'pilot', userId: 'acme-pilot' })).key;
    const r = await env.json('POST', '/api/v1/form-completions', { key: pilotKey, body: { formId, answers: { aircraft: 'acme-ac-1', defect: { description: 'Oil leak' } } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect((await defectsOn(r.body.uid))[0].calendarDateDue).toBe('2026-06-15T00:00:00.000Z');
    // the owner's own zone wins over the company's
    await asAdmin('PATCH', '/users/acme-owner', { timezone: 'UTC' });
    const own = await env.rest.post('/form-completions', { formId, answers: { aircraft: 'acme-ac-1', defect: { description: 'Tyre' } } });
    expect((await defectsOn(own.body.uid))[0].calendarDateDue).toBe('2026-06-14T00:00:00.000Z');
    await asAdmin('PATCH', '/users/acme-owner', { timezone: 'Australia/Sydney' });
  });
});

describe('one time zone rule for a user without one: the company\u2019s, else UTC', () => {
  it('maintenance status and a completion\u2019s roll-forward take the company\u2019s zone too, as defects do (they took UTC)', async () => {
    setClock('2026-06-14T22:00:00Z'); // 2026-06-15 08:00 in Sydney
    expect((await asAdmin('PUT', '/settings/alerts', { timezone: 'Australia/Sydney', recipients: [{ email: 'ops@acme.test' }] })).status).toBe(200);
    const pilotKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'pilot-zone', userId: 'acme-pilot' })).key;
    const made = await env.json('POST', '/api/v1/schedule-items', {
      key: pilotKey,
      body: { name: `Zone ${uniq()}`, type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, calendarRecurring: 10, calendarDateDue: '2026-06-15' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const status = await env.json('GET', '/api/v1/maintenance-status?relatedTo=acme-ac-1', { key: pilotKey });
    const row = status.body.data.find((s: { scheduleItemUid: string }) => s.scheduleItemUid === made.body.uid);
    expect(row.calendarDaysRemaining).toBe(0); // due today in Sydney (in UTC it is still the 14th: 1)
    const done = await env.json('POST', `/api/v1/schedule-items/${made.body.uid}/complete`, { key: pilotKey, body: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect((await scheduleItem(made.body.uid)).calendarDateDue).toBe('2026-06-25T00:00:00.000Z'); // 15 June + 10 days
  });
});

describe('aggregation bounds and filters on calendarDateDue take a date-time\u2019s date as written', () => {
  const tag = `eq-${uniq()}`;
  beforeAll(async () => {
    for (const d of ['2026-06-01', '2026-06-30', '2026-07-01']) {
      const r = await env.rest.post('/schedule-items', { name: `Due ${d}`, type: 'Inspection', relatedTo: tag, relatedToType: 'equipment', recurring: false, calendarDateDue: d });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  });
  const count = async (body: Record<string, unknown>) => {
    const r = await env.rest.post('/aggregate', { collection: 'schedule', metric: '__count__', ...body, filters: { relatedTo: tag, ...((body.filters as object) ?? {}) } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  it('June in New York, bounds with offsets: the three dates as written, not the instants', async () => {
    const r = await count({ dateField: 'calendarDateDue', dateGroup: 'month', timezone: 'America/New_York', startDate: '2026-06-01T00:00:00-04:00', endDate: '2026-06-30T23:59:59.999-04:00' });
    expect(r.results).toEqual([{ group: 'all', period: '2026-06', value: 2, count: 2 }]);
    // the same answer as date-only bounds
    const d = await count({ dateField: 'calendarDateDue', dateGroup: 'month', timezone: 'America/New_York', startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(d.results).toEqual(r.results);
    // the alternative form's dateRange alike; a bound east of UTC keeps its date too
    const alt = await env.rest.post('/aggregate', {
      collection: 'schedule', metrics: [{ field: '__count__' }], filters: { relatedTo: tag },
      dateRange: { field: 'calendarDateDue', start: '2026-06-30T00:30:00+10:00', end: '2026-06-30T00:30:00+10:00' },
    });
    expect(alt.status, JSON.stringify(alt.body)).toBe(200);
    expect(alt.body.totalCount).toBe(1);
  });

  it('a filter value that is a date-time matches the date POST /schedule-items stores for it', async () => {
    for (const v of ['2026-06-30T23:00:00-05:00', '2026-06-30T00:00:00+10:00', '2026-06-30']) {
      expect((await count({ filters: { calendarDateDue: v } })).totalCount, v).toBe(1);
    }
    // an instant field keeps comparing instants: createdAt at an instant nothing was created at matches nothing
    expect((await count({ filters: { createdAt: '2000-01-01T00:00:00Z' } })).totalCount).toBe(0);
  });
});

describe('the years 0001 to 0099 are dates like any other', () => {
  it('a flight log at 0001-01-01T00:00:00Z, a due date 0050-01-01, a list bound 0001-01-01', async () => {
    const log = await env.rest.post('/flight-logs', flightLogBody({ timeDate: '0001-01-01T00:00:00Z', aircraftId: 'acme-ac-2', aircraftRegistration: 'VH-ACZ' }));
    expect(log.status, JSON.stringify(log.body)).toBe(201);
    expect((await env.rest.get(`/flight-logs/${log.body.uid}`)).body.timeDate).toBe('0001-01-01T00:00:00.000Z');
    const item = await env.rest.post('/schedule-items', { name: 'Year 50', type: 'Inspection', relatedTo: 'acme-ac-2', relatedToType: 'aircraft', recurring: false, calendarDateDue: '0050-01-01' });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect((await scheduleItem(item.body.uid)).calendarDateDue).toBe('0050-01-01T00:00:00.000Z');
    const list = await env.rest.get('/flight-logs?aircraftId=acme-ac-2&startDate=0001-01-01&endDate=0001-01-01');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((l: { uid: string }) => l.uid)).toEqual([log.body.uid]);
    // year 0000 is still refused
    expectValidation(await env.rest.post('/schedule-items', { name: 'Y0', type: 'Inspection', relatedTo: 'acme-ac-2', relatedToType: 'aircraft', recurring: false, calendarDateDue: '0000-12-31' }), '/calendarDateDue');
  });
});

describe('docs/aggregation.md\u2019s example answers Sydney months', () => {
  it('the example request, sent as written, counts the flights of July to December in Sydney time', async () => {
    const doc = fs.readFileSync(new URL('../docs/aggregation.md', import.meta.url), 'utf8');
    const example = JSON.parse(/-d '(\{[\s\S]*?\})'/.exec(doc)![1]) as Record<string, unknown>;
    expect(example).toMatchObject({ timezone: 'Australia/Sydney', dateGroup: 'month' });
    // the edges of the half year in Sydney: 00:00 AEST on 1 July is 14:00Z on 30 June; 00:00 AEDT on 1 January is 13:00Z
    const times = ['2024-06-30T13:59:59.999Z', '2024-06-30T14:00:00Z', '2024-12-31T12:59:59.999Z', '2024-12-31T13:00:00Z'];
    for (const t of times) {
      const r = await env.rest.post('/flight-logs', flightLogBody({ timeDate: t, trackingItems: { hobbs: 1.5 } }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const r = await env.rest.post('/aggregate', example);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toEqual([
      { group: 'acme-ac-1', period: '2024-07', value: 1.5, count: 1 },
      { group: 'acme-ac-1', period: '2024-12', value: 1.5, count: 1 },
    ]);
  });
});

describe('a date alone as lastCarriedOutDate is that day in the acting user\u2019s time zone, as a completion\u2019s completedAt is', () => {
  it('PATCH, POST and a completion write the same instant for 2026-06-15 (Sydney: 14:00Z the day before)', async () => {
    const base = { type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', calendarDateDue: '2027-01-01' };
    const created = await env.rest.post('/schedule-items', { ...base, name: 'Carried out (create)', recurring: false, lastCarriedOutDate: '2026-06-15' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await scheduleItem(created.body.uid)).lastCarriedOutDate).toBe('2026-06-14T14:00:00.000Z');
    const patched = await env.rest.patch(`/schedule-items/${created.body.uid}`, { lastCarriedOutDate: '2026-06-16' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await scheduleItem(created.body.uid)).lastCarriedOutDate).toBe('2026-06-15T14:00:00.000Z');
    // a date-time is the instant it names, as before
    await env.rest.patch(`/schedule-items/${created.body.uid}`, { lastCarriedOutDate: '2026-06-16T10:00:00Z' });
    expect((await scheduleItem(created.body.uid)).lastCarriedOutDate).toBe('2026-06-16T10:00:00.000Z');

    const done = await env.rest.post('/schedule-items', { ...base, name: 'Carried out (completion)', recurring: false });
    expect((await env.rest.post(`/schedule-items/${done.body.uid}/complete`, { completedAt: '2026-06-15' })).status).toBe(201);
    expect((await scheduleItem(done.body.uid)).lastCarriedOutDate).toBe('2026-06-14T14:00:00.000Z');
  });
});

describe('one rule for time zone names: what POST /aggregate takes', () => {
  it('IST and other names without an area are refused for users, alert settings and the maintenance status; offsets and listed abbreviations are taken', async () => {
    for (const tz of ['IST', 'Japan', 'EST5EDT']) {
      expectValidation(await asAdmin('PATCH', '/users/acme-new', { timezone: tz }), '/timezone');
      expectValidation(await asAdmin('PUT', '/settings/alerts', { timezone: tz }), '/timezone');
      expectValidation(await env.rest.get(`/maintenance-status?timezone=${tz}`), '/query/timezone');
      expectValidation(await env.rest.post('/aggregate', { collection: 'flightLogs', metric: '__count__', timezone: tz }), '/timezone');
    }
    for (const [tz, stored] of [['utc+05:30', 'UTC+05:30'], ['aest', 'AEST'], ['-03:30', '-03:30'], ['australia/perth', 'Australia/Perth']]) {
      const r = await asAdmin('PATCH', '/users/acme-new', { timezone: tz });
      expect(r.status, `${tz} ${JSON.stringify(r.body)}`).toBe(200);
      expect((await env.rest.get('/users/acme-new')).body.timezone).toBe(stored);
      expect((await env.rest.get(`/maintenance-status?timezone=${encodeURIComponent(tz)}`)).status, tz).toBe(200);
      expect((await env.rest.post('/aggregate', { collection: 'flightLogs', metric: '__count__', timezone: tz })).status, tz).toBe(200);
    }
  });

  it('a fixed-offset zone counts days at that offset; a zone stored before the rule (IST) keeps working on reads', async () => {
    setClock('2026-06-14T22:00:00Z'); // 2026-06-15 08:00 at +10, 03:30 at +05:30
    const item = await env.rest.post('/schedule-items', { name: 'Offset day', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2026-06-15' });
    const days = async (q: string, key?: string) => {
      const r = await env.json('GET', `/api/v1/maintenance-status?relatedTo=acme-ac-1${q}`, { key });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.find((s: { scheduleItemUid: string }) => s.scheduleItemUid === item.body.uid).calendarDaysRemaining;
    };
    expect(await days('&timezone=UTC%2B10')).toBe(0);
    expect(await days('&timezone=AEST')).toBe(0);
    expect(await days('&timezone=-03:30')).toBe(1);
    // a user whose zone was stored before (IST: India to the runtime): the status in that user's zone still answers
    await env.database.prisma.user.updateMany({ where: { companyId: env.a.id, uid: 'acme-new' }, data: { timezone: 'IST' } });
    const newKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, name: 'new', userId: 'acme-new' })).key;
    expect(await days('', newKey)).toBe(0);
  });
});

describe('one rule for offsets and whitespace in every date input', () => {
  it('an offset beyond -12:00..+14:00 is refused as such; an hour-only offset is read; surrounding whitespace is refused everywhere', async () => {
    const far = await env.rest.post('/flight-logs', flightLogBody({ timeDate: '2026-03-01T09:30:00+23:59' }));
    expectValidation(far, '/timeDate');
    expect(far.body.errors[0].message).toMatch(/offset \+23:59.*-12:00 to \+14:00/);
    // the list's bounds say the same (they said only "must be an ISO 8601 date or date-time")
    for (const bound of ['startDate', 'endDate']) {
      const list = await env.rest.get(`/flight-logs?${bound}=${encodeURIComponent('2026-01-01T00:00:00+23:59')}`);
      expectValidation(list, `/query/${bound}`);
      expect(list.body.errors[0].message).toMatch(new RegExp(`${bound} has the offset \\+23:59`));
    }
    // and a year out of range is said as such
    const late = await env.rest.post('/flight-logs', flightLogBody({ timeDate: '9999-12-31T23:00:00-05:00' }));
    expectValidation(late, '/timeDate');
    expect(late.body.errors[0].message).toMatch(/years 0001 to 9999/);
    const dueFar = await env.rest.post('/schedule-items', { name: 'Far', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2026-03-01T09:30:00-12:30' });
    expectValidation(dueFar, '/calendarDateDue');
    expect(dueFar.body.errors[0].message).toMatch(/offset -12:30.*-12:00 to \+14:00/);
    const agg = await env.rest.post('/aggregate', { collection: 'flightLogs', metric: '__count__', startDate: '2026-03-01T00:00:00+14:01' });
    expectValidation(agg, '/startDate');
    expect(agg.body.errors[0].message).toMatch(/offset \+14:01/);

    for (const [t, at] of [['2026-03-01T09:30:00+05', '2026-03-01T04:30:00.000Z'], ['2026-03-01T09:30:00+14:00', '2026-02-28T19:30:00.000Z'], ['2026-03-01T09:30:00-1200', '2026-03-01T21:30:00.000Z']]) {
      const r = await env.rest.post('/flight-logs', flightLogBody({ timeDate: t }));
      expect(r.status, `${t} ${JSON.stringify(r.body)}`).toBe(201);
      expect((await env.rest.get(`/flight-logs/${r.body.uid}`)).body.timeDate).toBe(at);
    }
    const hourOnly = await env.rest.post('/schedule-items', { name: 'Hour only', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2026-06-30T23:00:00-05' });
    expect(hourOnly.status, JSON.stringify(hourOnly.body)).toBe(201);
    expect((await scheduleItem(hourOnly.body.uid)).calendarDateDue).toBe('2026-06-30T00:00:00.000Z');

    expectValidation(await env.rest.post('/flight-logs', flightLogBody({ timeDate: ' 2026-03-01T00:00:00Z' })), '/timeDate');
    expectValidation(
      await env.rest.post('/schedule-items', { name: 'Spaces', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: ' 2026-06-30 ' }),
      '/calendarDateDue',
    );
    expectValidation(await env.rest.post('/aggregate', { collection: 'flightLogs', metric: '__count__', startDate: '2026-03-01 ' }), '/startDate');
  });
});
