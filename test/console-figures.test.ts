// A figure an operator types in the console (console/src/figures.ts), read by the server's and the CSV import's rule
// (figureFromText, src/modules/flight-logs/csv-rules.ts) and not by JavaScript's Number(text), which read `0x10` in a
// Hobbs field as 16 hours and `1.00000000000000001` as 1 (rounded away before the API could see it). Unit tests of the
// helper and of the flight-log form's input (console/src/flight-log-model.ts); the last block sends what the form
// makes through the API and compares the console's refusals with the API's own.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, errorsByField } from '../console/src/api.js';
import { Figures, pointer, readFigure, readNumber } from '../console/src/figures.js';
import { flightLogInput, type FlightLogFormState } from '../console/src/flight-log-model.js';
import { CreateFlightLogDocument } from '../console/generated/graphql.js';
import { createTestEnv, type TestEnv } from './helpers.js';

const ACM = {
  registration: 'VH-ACM',
  maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 } },
  logTrackingItems: { remarks: { displayText: 'Remarks', type: 'string' } },
};

/** The flight-log form logging a flight on VH-ACM with `pax` and tracking fields as typed. */
const logging = (pax: string, tracking: Record<string, string>): FlightLogFormState => ({
  values: { aircraftId: 'acme-ac-1', timeDate: '2026-03-01T20:30', pilot: 'acme-pilot', startLocation: 'YSSY', endLocation: 'YSBK', pax },
  tracking,
  aircraft: ACM,
  timeZone: 'Australia/Sydney',
});

/** The ApiError a call throws (or a note that it threw none). */
function refusal(f: () => unknown): ApiError | string {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? e : `not an ApiError: ${String(e)}`;
  }
  return 'not refused';
}

describe('a typed figure (console/src/figures.ts)', () => {
  it('decimal notation is a number; anything else is sent as typed (trimmed), for the API to refuse', () => {
    expect(readFigure('1.5', '/hobbs', 'hobbs')).toEqual({ value: 1.5 });
    expect(readFigure(' 2.5000000 ', '/hobbs', 'hobbs')).toEqual({ value: 2.5 });
    expect(readFigure('-0.3', '/hobbs', 'hobbs')).toEqual({ value: -0.3 });
    // the exponent is decimal notation too, as a spreadsheet writes it (docs/import.md: `1.5E+3`)
    expect(readFigure('25E-1', '/hobbs', 'hobbs')).toEqual({ value: 2.5 });
    for (const text of ['0x10', '0b11', '0o7', '12 h', 'Infinity', '1_000', '.5', '']) expect(readFigure(text, '/hobbs', 'hobbs'), text).toEqual({ value: text });
    expect(readFigure(' 0x10 ', '/pax', 'pax')).toEqual({ value: '0x10' });
    // past a double's range: JSON would carry it as null, so it is refused at its field in the words the API gives the
    // same digits in a JSON body, as the CSV import refuses such a cell (it was sent as text)
    const past = (text: string, read = 'Infinity') => `the number ${text} cannot be kept exactly (it would be read as ${read}); send 0 or a number whose size is between 1e-300 and 1e308`;
    expect(readFigure('1e999', '/trackingItems/hobbs', 'hobbs')).toEqual({ fault: { path: '/trackingItems/hobbs', message: past('1e999') } });
    expect(readFigure(' -1E999 ', '/answers/odo', 'the reading')).toEqual({ fault: { path: '/answers/odo', message: past('-1E999', '-Infinity') } });
    expect(readFigure('1e999', '/answers/odo')).toEqual({ fault: { path: '/answers/odo', message: past('1e999') } });
    expect(readNumber('1e999', '/pax')).toEqual({ fault: { path: '/pax', message: past('1e999') } });
    expect(readNumber('+1e400', '/answers/n')).toEqual({ fault: { path: '/answers/n', message: past('+1e400') } });
  });

  it('more than 6 decimal places is refused at its path, in the API’s words', () => {
    expect(readFigure('1.0000001', '/trackingItems/hobbs', 'hobbs')).toEqual({ fault: { path: '/trackingItems/hobbs', message: 'hobbs must have at most 6 decimal places' } });
    expect(readFigure('1.00000000000000001', '/pax', 'pax')).toEqual({ fault: { path: '/pax', message: 'pax must have at most 6 decimal places' } });
    expect(readFigure('1E-7', '/initialValues/hobbs', 'a tracking value')).toEqual({ fault: { path: '/initialValues/hobbs', message: 'a tracking value must have at most 6 decimal places' } });
    // a form answer's messages name no field
    expect(readFigure('0.1234567', '/answers/fuel')).toEqual({ fault: { path: '/answers/fuel', message: 'must have at most 6 decimal places' } });
    expect(readFigure('1.1234560', '/hobbs', 'hobbs')).toEqual({ value: 1.123456 });
  });

  it('an input’s figures are read together and every refusal is thrown at once, placed at its field', () => {
    const figures = new Figures();
    expect(figures.figure('3', '/pax', 'pax')).toBe(3);
    expect(figures.figure('1.0000001', pointer('trackingItems', 'hobbs'), 'hobbs')).toBe('1.0000001');
    expect(figures.figure('2.00000000001', pointer('answers', 'a/b~c'))).toBe('2.00000000001');
    const e = refusal(() => figures.check());
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('VALIDATION_ERROR');
    expect(errorsByField(e as ApiError)).toEqual({ 'trackingItems.hobbs': 'hobbs must have at most 6 decimal places', 'answers.a/b~c': 'must have at most 6 decimal places' });
    expect(() => new Figures().check()).not.toThrow();
  });
});

describe('the flight-log form’s figures (console/src/flight-log-model.ts)', () => {
  it('sends 0x10 as typed, 1.5 as 1.5; a string item’s text stays text', () => {
    expect(flightLogInput(logging('2', { hobbs: '0x10', remarks: '0x10' }))).toMatchObject({ pax: 2, trackingItems: { hobbs: '0x10', remarks: '0x10' } });
    expect(flightLogInput(logging('0b11', { hobbs: '1.5' }))).toMatchObject({ pax: '0b11', trackingItems: { hobbs: 1.5 } });
    expect(flightLogInput(logging(' 1e1 ', { hobbs: ' 2.50 ' }))).toMatchObject({ pax: 10, trackingItems: { hobbs: 2.5 } });
  });

  it('refuses more than 6 decimal places before sending, at each field', () => {
    const e = refusal(() => flightLogInput(logging('2', { hobbs: '1.0000001' })));
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).fieldErrors).toEqual([{ path: '/trackingItems/hobbs', message: 'hobbs must have at most 6 decimal places' }]);
    const both = refusal(() => flightLogInput(logging('1.00000000000000001', { hobbs: '1.00000000000000001' })));
    expect((both as ApiError).fieldErrors).toEqual([
      // pax is not a tracking figure: a number no double holds is refused in every channel's words
      { path: '/pax', message: 'the number 1.00000000000000001 cannot be kept exactly (it would be read as 1); send at most 15 significant digits' },
      { path: '/trackingItems/hobbs', message: 'hobbs must have at most 6 decimal places' },
    ]);
  });

  it('a number that is not a tracking figure is taken as written, whatever its places, or refused when no double holds it', () => {
    expect(readNumber('2.1234567', '/answers/x')).toEqual({ value: 2.1234567 });
    expect(readNumber('0x10', '/answers/x')).toEqual({ value: '0x10' });
    expect(readNumber('12345678901234567', '/answers/x')).toEqual({
      fault: { path: '/answers/x', message: 'the number 12345678901234567 cannot be kept exactly (it would be read as 12345678901234568); send at most 15 significant digits' },
    });
    expect(readFigure('12345678901234567', '/trackingItems/hobbs', 'hobbs')).toMatchObject({ fault: { path: '/trackingItems/hobbs' } });
  });
});

describe('through the API', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });
  const create = async (input: Record<string, unknown>) => (await env.gql(print(CreateFlightLogDocument), { input })).body;

  it('text the console sends is refused by the API in its words at its path; the console’s places refusal is the API’s', async () => {
    const sent = await create(flightLogInput(logging('0x2', { hobbs: '0x10' })));
    expect(sent.errors?.[0]?.extensions?.errors).toEqual(expect.arrayContaining([{ path: '/pax', message: 'pax must be a number or null' }]));
    const hex = await create(flightLogInput(logging('2', { hobbs: '0x10' })));
    expect(hex.errors?.[0]?.extensions?.errors).toEqual([{ path: '/trackingItems/hobbs', message: 'hobbs must be a number or null, not a string' }]);
    // the same figure as a number, sent by another client: the API's refusal is the one the console gives unsent
    const api = await create({ ...flightLogInput(logging('2', { hobbs: '1.5' })), trackingItems: { hobbs: 1.0000001 } });
    const unsent = refusal(() => flightLogInput(logging('2', { hobbs: '1.0000001' })));
    expect((unsent as ApiError).fieldErrors).toEqual(api.errors?.[0]?.extensions?.errors);
    // and a figure in decimal notation is logged
    const ok = await create(flightLogInput(logging('2', { hobbs: '1.5' })));
    expect(ok.errors).toBeUndefined();
  });
});
