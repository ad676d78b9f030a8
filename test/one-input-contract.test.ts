// One input contract per operation (issue 8): the service's check is the only one a body meets, so the same bad
// input gets the same ValidationError (message and JSON paths) on REST and on GraphQL, and nothing is written.
// REST never answers with GraphQL's own vocabulary (variables, coercion), whatever is wrong with a body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, flightLogBody, mcpTool, type TestEnv } from './helpers.js';
import { expectValidation } from './assertions.js';

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env?.close();
});

type Body = Record<string, unknown>;
const API = '/api/v1';

interface Case {
  name: string;
  rest: { method: string; path: string; body: unknown };
  gql: { query: string; variables: Body };
  /** The one field error both channels report (among others, possibly). */
  path: string;
  message: RegExp;
}

const logCore = flightLogBody;

const cases: Case[] = [
  {
    name: 'component create: a name of blanks',
    rest: { method: 'POST', path: '/components', body: { name: '   ', type: 'Engine', partNumber: 'P-1', serialNumber: 'S-1' } },
    gql: {
      query: 'mutation($input: CreateComponentInput!) { createComponent(input: $input) { uid } }',
      variables: { input: { name: '   ', type: 'Engine', partNumber: 'P-1', serialNumber: 'S-1' } },
    },
    path: '/name',
    message: /^name must not be empty$/,
  },
  {
    name: 'component create: a counter precision out of range',
    rest: {
      method: 'POST',
      path: '/components',
      body: { name: 'E', type: 'Engine', partNumber: 'P-1', serialNumber: 'S-1', counters: [{ displayText: 'Hours', unit: 'hours', precision: 11 }] },
    },
    gql: {
      query: 'mutation($input: CreateComponentInput!) { createComponent(input: $input) { uid } }',
      variables: { input: { name: 'E', type: 'Engine', partNumber: 'P-1', serialNumber: 'S-1', counters: [{ displayText: 'Hours', unit: 'hours', precision: 11 }] } },
    },
    path: '/counters/0/precision',
    message: /^precision must be a whole number from 0 to 10$/,
  },
  {
    name: 'component create: no name (presence is the service\u2019s to check, on GraphQL too)',
    rest: { method: 'POST', path: '/components', body: { type: 'Engine', partNumber: 'P-1', serialNumber: 'S-1' } },
    gql: {
      query: 'mutation($input: CreateComponentInput!) { createComponent(input: $input) { uid } }',
      variables: { input: { type: 'Engine', partNumber: 'P-1', serialNumber: 'S-1' } },
    },
    path: '/name',
    message: /^name is required$/,
  },
  {
    name: 'counter reset: no counterKey',
    rest: { method: 'POST', path: '/components/no-such-component/counters/reset', body: { newValue: 0 } },
    gql: {
      query: 'mutation($input: ResetCounterInput!) { resetComponentCounter(id: "no-such-component", input: $input) { uid } }',
      variables: { input: { newValue: 0 } },
    },
    path: '/counterKey',
    message: /^counterKey is required$/,
  },
  {
    name: 'component install: an empty parentUid (checked before the component is looked up)',
    rest: { method: 'POST', path: '/components/no-such-component/install', body: { parentType: 'aircraft', parentUid: '' } },
    gql: {
      query: 'mutation($input: InstallComponentInput!) { installComponent(id: "no-such-component", input: $input) { uid } }',
      variables: { input: { parentType: 'aircraft', parentUid: '' } },
    },
    path: '/parentUid',
    message: /^parentUid must not be empty$/,
  },
  {
    name: 'schedule item create: calendarRecurring of no days',
    rest: {
      method: 'POST',
      path: '/schedule-items',
      body: { name: 'Check', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, calendarRecurring: 0 },
    },
    gql: {
      query: 'mutation($input: CreateScheduleItemInput!) { createScheduleItem(input: $input) { uid } }',
      variables: { input: { name: 'Check', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: true, calendarRecurring: 0 } },
    },
    path: '/calendarRecurring',
    message: /^calendarRecurring must be at least 1 day$/,
  },
  {
    name: 'flight log create: negative pax',
    rest: { method: 'POST', path: '/flight-logs', body: logCore({ pax: -1 }) },
    gql: { query: 'mutation($input: CreateFlightLogInput!) { createFlightLog(input: $input) { uid } }', variables: { input: logCore({ pax: -1 }) } },
    path: '/pax',
    message: /^pax must not be negative$/,
  },
  {
    name: 'flight log create: no pilot (presence is the service\u2019s to check, on GraphQL too)',
    rest: { method: 'POST', path: '/flight-logs', body: logCore({ pilot: undefined }) },
    gql: { query: 'mutation($input: CreateFlightLogInput!) { createFlightLog(input: $input) { uid } }', variables: { input: logCore({ pilot: undefined }) } },
    path: '/pilot',
    message: /^pilot is required$/,
  },
  {
    name: 'flight log update: an empty pilot (checked before the log is looked up)',
    rest: { method: 'PATCH', path: '/flight-logs/no-such-log', body: { pilot: '' } },
    gql: { query: 'mutation($input: UpdateFlightLogInput!) { updateFlightLog(id: "no-such-log", input: $input) { uid } }', variables: { input: { pilot: '' } } },
    path: '/pilot',
    message: /^pilot must not be empty$/,
  },
  {
    name: 'vehicle create: a year before cars',
    rest: { method: 'POST', path: '/vehicles', body: { make: 'Toyota', model: 'Hilux', registration: 'ABC-1', year: 1700 } },
    gql: {
      query: 'mutation($input: CreateVehicleInput!) { createVehicle(input: $input) { uid } }',
      variables: { input: { make: 'Toyota', model: 'Hilux', registration: 'ABC-1', year: 1700 } },
    },
    path: '/year',
    message: /1885/,
  },
  {
    name: 'form completion: an empty formId',
    rest: { method: 'POST', path: '/form-completions', body: { formId: '', answers: {} } },
    gql: { query: 'mutation($input: CreateFormCompletionInput!) { createFormCompletion(input: $input) { uid } }', variables: { input: { formId: '', answers: {} } } },
    path: '/formId',
    message: /^formId must not be empty$/,
  },
];

/** Company a's records (the database may be shared with other suites running at the same time). */
async function counts() {
  const db = env.database.prisma;
  const where = { companyId: env.a.id };
  return Promise.all([
    db.component.count({ where }),
    db.flightLog.count({ where }),
    db.scheduleItem.count({ where }),
    db.vehicle.count({ where }),
    db.formCompletion.count({ where }),
  ]);
}

describe('the same bad input gets the same ValidationError on REST and GraphQL', () => {
  it.each(cases)('$name', async (c) => {
    const before = await counts();
    const rest = await env.json(c.rest.method, `${API}${c.rest.path}`, { body: c.rest.body });
    expectValidation(rest, c.path);
    const restError = rest.body.errors.find((e: { path: string }) => e.path === c.path);
    expect(restError.message).toMatch(c.message);

    const gql = await env.gql(c.gql.query, c.gql.variables);
    expect(gql.body.data ?? null, JSON.stringify(gql.body)).toBeNull();
    const [error] = gql.body.errors ?? [];
    expect(error.extensions.code).toBe('VALIDATION_ERROR');
    // the same message and the same field errors, path for path
    expect(error.message).toBe(rest.body.detail);
    expect(error.extensions.errors).toEqual(rest.body.errors);
    expect(await counts()).toEqual(before);
  });
});

describe('REST bodies meet only the service check', () => {
  it('a tracking value sent both at the top level and in trackingItems is the flight-log service\u2019s 400', async () => {
    const before = await counts();
    const r = await env.json('POST', `${API}/flight-logs`, { body: logCore({ hobbs: 1201, trackingItems: { hobbs: 1202 } }) });
    expectValidation(r, '/trackingItems/hobbs');
    expect(r.body.errors).toContainEqual({ path: '/trackingItems/hobbs', message: 'hobbs is given twice (top level and in trackingItems)' });
    expect(await counts()).toEqual(before);
  });

  // a wrongly typed value for a field of each typed input: the service's message, never GraphQL's
  it.each([
    ['POST', '/components', { name: 5, type: 'Engine', partNumber: 'P', serialNumber: 'S' }, '/name'],
    ['POST', '/components', { name: 'E', type: 'Engine', partNumber: 'P', serialNumber: 'S', counters: 'many' }, '/counters'],
    ['POST', '/components/x/counters/reset', { counterKey: 'hours', newValue: 'zero' }, '/newValue'],
    ['POST', '/schedule-items', { name: 'C', type: 'T', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: 'yes' }, '/recurring'],
    ['POST', '/flight-logs', logCore({ pax: 'two' }), '/pax'],
    ['PATCH', '/flight-logs/x', { timeDate: 20260301 }, '/timeDate'],
    ['POST', '/vehicles', { make: 'M', model: 'M', registration: 'R', totalSeats: 'four' }, '/totalSeats'],
    ['POST', '/aggregate', { collection: 'flightLogs', metric: 7, operation: 'sum' }, '/metric'],
    ['POST', '/schedule-items/x/complete', { trackingValue: { a: 1 } }, '/trackingValue'],
  ])('%s %s: a wrong type at %s', async (method, path, body, at) => {
    const before = await counts();
    const r = await env.json(method as string, `${API}${path}`, { body });
    expectValidation(r, at as string);
    expect(JSON.stringify(r.body)).not.toMatch(/Variable "\$|cannot represent|GraphQL/);
    expect(await counts()).toEqual(before);
  });

  it('a missing body field is named by the service, on every typed route', async () => {
    const r = await env.json('POST', `${API}/components`, { body: { type: 'Engine', partNumber: 'P', serialNumber: 'S' } });
    expectValidation(r, '/name');
    const s = await env.json('POST', `${API}/components/x/counters/reset`, { body: { newValue: 0 } });
    expectValidation(s, '/counterKey');
  });
});

describe('a list in a REST body or an MCP tool call is a JSON array', () => {
  // GraphQL coerces a single value given for a list into a list of one (its specification); a JSON body is not a
  // GraphQL value: the same value there is the service's 400, in its words, and nothing is written (api-notes.md)
  const item = { name: 'Check', type: 'Inspection', relatedTo: 'acme-ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2026-06-30' };
  const component = { name: 'Engine', type: 'Engine', partNumber: 'P-1', serialNumber: `S-${Math.random()}` };
  const counter = { displayText: 'Hours', unit: 'hours', initialValue: 10 };
  let itemId = '';
  let componentId = '';
  beforeAll(async () => {
    itemId = (await env.json('POST', `${API}/schedule-items`, { body: item })).body.uid;
    componentId = (await env.json('POST', `${API}/components`, { body: { ...component, counters: [counter] } })).body.uid;
  });
  const cases: [string, string, string, () => string, Body, RegExp][] = [
    ['POST', '/schedule-items', '/documentation', () => '', { ...item, documentation: 'https://x.test/a.pdf' }, /^documentation must be an array of strings$/],
    ['PATCH', '/schedule-items/:id', '/archivedDocumentation', () => itemId, { archivedDocumentation: 'https://x.test/b.pdf' }, /^archivedDocumentation must be an array of strings$/],
    ['POST', '/schedule-items/:id/complete', '/documents', () => itemId, { documents: 'https://x.test/c.pdf' }, /^documents must be an array of strings$/],
    ['POST', '/components', '/alternatePartNumbers', () => '', { ...component, alternatePartNumbers: 'ALT' }, /^alternatePartNumbers must be an array of strings$/],
    ['POST', '/components', '/counters', () => '', { ...component, counters: counter }, /^counters must be an array$/],
    ['POST', '/components/:id/install', '/mappings', () => componentId, { parentUid: 'acme-ac-1', parentType: 'aircraft', mappings: { counterKey: 'hours', sourceKey: 'hobbs' } }, /^mappings must be an array$/],
  ];
  it.each(cases)('%s %s: a single value at %s', async (method, route, at, id, body, message) => {
    const before = await counts();
    const itemBefore = (await env.json('GET', `${API}/schedule-items/${itemId}`)).body;
    const componentBefore = (await env.json('GET', `${API}/components/${componentId}`)).body;
    const path = `${API}${route.replace(':id', id())}`;
    const r = await env.json(method, path, { body });
    expectValidation(r, at);
    expect(r.body.errors.find((e: { path: string }) => e.path === at).message).toMatch(message);
    expect(await counts()).toEqual(before);
    expect((await env.json('GET', `${API}/schedule-items/${itemId}`)).body).toEqual(itemBefore);
    expect((await env.json('GET', `${API}/components/${componentId}`)).body).toEqual(componentBefore);
  });
  it('an MCP tool call with a single value for a list is refused as the route is, and writes nothing', async () => {
    const before = await counts();
    const m = await mcpTool(env, 'createScheduleItem', { body: { ...item, documentation: 'https://x.test/m.pdf' } });
    expect(m.isError).toBe(true);
    expect(m.content[0].text).toMatch(/documentation must be an array/);
    expect(await counts()).toEqual(before);
  });
  it('GraphQL takes a single value for a list as a list of one (its input coercion)', async () => {
    const r = await env.gql('mutation($input: CreateScheduleItemInput!) { createScheduleItem(input: $input) { uid } }', {
      input: { ...item, documentation: 'https://x.test/g.pdf' },
    });
    expect(r.body.errors).toBeUndefined();
    const made = await env.json('GET', `${API}/schedule-items/${r.body.data.createScheduleItem.uid}`);
    expect(made.body.documentation).toEqual(['https://x.test/g.pdf']);
  });
});

describe('derived GraphQL types keep what clients declared before', () => {
  it('a flight log\u2019s aircraftId takes an ID variable (aircraft uids are IDs everywhere in the schema)', async () => {
    const b = logCore();
    const r = await env.gql(
      `mutation($aircraftId: ID!) { createFlightLog(input: { aircraftId: $aircraftId, pilot: "${b.pilot}", timeDate: "${b.timeDate}",
        aircraftRegistration: "${b.aircraftRegistration}", startLocation: "YSSY", endLocation: "YSBK", pax: 1 }) { uid status } }`,
      { aircraftId: b.aircraftId },
    );
    expect(r.body.errors ?? [], JSON.stringify(r.body)).toEqual([]);
    expect(r.body.data.createFlightLog.status).toBe('created');
  });

  it('createVehicle takes starting totals, as REST does: they become the initialValues', async () => {
    const r = await env.gql('mutation($input: CreateVehicleInput!) { createVehicle(input: $input) { uid status } }', {
      input: { make: 'Toyota', model: 'Hilux', registration: `TOT-${Date.now()}`, tracking: { kilometers: true, miles: false, hours: false }, totals: { odometer: 1000 } },
    });
    expect(r.body.errors ?? [], JSON.stringify(r.body)).toEqual([]);
    const v = await env.json('GET', `${API}/vehicles/${r.body.data.createVehicle.uid}`);
    expect(v.body).toMatchObject({ initialValues: { odometer: 1000 }, totals: { odometer: 1000 } });
  });

  it('removeComponent takes a ComponentState; installed is the service\u2019s to refuse, with its message', async () => {
    const created = await env.json('POST', `${API}/components`, { body: { name: 'Blade', type: 'Rotor blade', partNumber: 'P-R', serialNumber: `S-${Date.now()}` } });
    const q = 'mutation($id: ID!, $s: ComponentState) { removeComponent(id: $id, input: { state: $s }) { uid } }';
    const missing = await env.gql(q, { id: 'no-such-component', s: 'inRepair' });
    expect(missing.body.errors![0].extensions.code).toBe('NOT_FOUND');
    const installed = await env.gql(q, { id: created.body.uid, s: 'installed' });
    expect(installed.body.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(installed.body.errors![0].extensions.errors[0].path).toBe('/state');
  });

  it('an empty number in a query string is the query check\u2019s 400, in its words', async () => {
    const r = await env.json('GET', `${API}/maintenance-status?dueWithinDays=`);
    expectValidation(r, '/query/dueWithinDays');
    expect(JSON.stringify(r.body)).not.toMatch(/cannot represent/);
    const ok = await env.json('GET', `${API}/maintenance-status?dueWithinDays=30`);
    expect(ok.status).toBe(200);
  });
});
