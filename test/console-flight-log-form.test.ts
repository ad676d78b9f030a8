// What the console's flight-log form sends (console/src/flight-log-model.ts, used by pages/flight-log-form.tsx),
// without a browser. An edit sends timeDate only when the operator changed the date and time: the datetime-local
// input holds minutes only, and in the hour repeated when clocks go back a wall-clock time names two instants, so
// sending back what was shown dropped the log's seconds or moved it by an hour whatever field was edited.
import { describe, expect, it } from 'vitest';
import { flightLogInput, type FlightLogFormState } from '../console/src/flight-log-model.js';
import { fromZonedLocal, toZonedLocal } from '../console/src/format.js';

const ACM = {
  registration: 'VH-ACM',
  maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 } },
  logTrackingItems: { remarks: { displayText: 'Remarks', type: 'string' } },
};

/** The edit form of a log at `timeDate`, as shown in `timeZone`, with `change` made by the operator. */
function edit(timeDate: string, timeZone: string, change: Record<string, string> = {}): Record<string, unknown> {
  const shown = toZonedLocal(timeDate, timeZone);
  const state: FlightLogFormState = {
    id: 'fl-1',
    values: { aircraftId: 'acme-ac-1', timeDate: shown, pax: '2', pilot: 'acme-pilot', startLocation: 'YSSY', endLocation: 'YSBK', notes: '', ...change },
    tracking: { hobbs: '1.5' },
    aircraft: ACM,
    log: { trackingItems: { hobbs: 1.5 } },
    shownTimeDate: shown,
    timeZone,
  };
  return flightLogInput(state);
}

describe('the flight-log form (console/src/flight-log-model.ts)', () => {
  const cases: [string, string][] = [
    ['2026-03-01T09:30:45.123Z', 'Australia/Sydney'], // seconds and milliseconds
    ['2026-04-04T15:30:00.000Z', 'Australia/Sydney'], // 02:30 AEDT, the first of the repeated hour (read back as AEST)
    ['2026-11-01T06:30:00.000Z', 'America/New_York'], // 01:30 EST, the second (read back as EDT)
  ];

  it('an edit of another field leaves timeDate out, so the log keeps its instant', () => {
    for (const [timeDate, zone] of cases) {
      // what sending the shown value back would do: another instant
      expect(fromZonedLocal(toZonedLocal(timeDate, zone), zone), `${timeDate} in ${zone}`).not.toBe(timeDate);
      const sent = edit(timeDate, zone, { notes: 'fuel stop' });
      expect(sent, `${timeDate} in ${zone}`).not.toHaveProperty('timeDate');
      expect(sent).toMatchObject({ notes: 'fuel stop', aircraftId: 'acme-ac-1', aircraftRegistration: 'VH-ACM', trackingItems: { hobbs: 1.5 } });
    }
  });

  it('an edit of the date and time sends the instant the operator entered; a cleared one is null', () => {
    expect(edit('2026-03-01T09:30:45.123Z', 'Australia/Sydney', { timeDate: '2026-03-01T21:00' })).toMatchObject({ timeDate: '2026-03-01T10:00:00.000Z' });
    expect(edit('2026-03-01T09:30:45.123Z', 'Australia/Sydney', { timeDate: '' })).toMatchObject({ timeDate: null });
  });

  it('logging a flight sends its timeDate', () => {
    const sent = flightLogInput({
      values: { aircraftId: 'acme-ac-1', timeDate: '2026-03-01T20:30', pilot: 'acme-pilot', startLocation: 'YSSY', endLocation: 'YSBK' },
      tracking: { hobbs: '1.5' },
      aircraft: ACM,
      timeZone: 'Australia/Sydney',
    });
    expect(sent).toMatchObject({ timeDate: '2026-03-01T09:30:00.000Z', pax: null, trackingItems: { hobbs: 1.5 } });
    expect(sent).not.toHaveProperty('notes');
  });

  it('a time in the hour the clocks skip is refused at timeDate, not moved an hour unseen; a repeated hour takes its second instant', () => {
    const log = (timeDate: string) =>
      flightLogInput({
        values: { aircraftId: 'acme-ac-1', timeDate, pilot: 'acme-pilot', startLocation: 'NZAA', endLocation: 'NZWN' },
        tracking: { hobbs: '1.5' },
        aircraft: ACM,
        timeZone: 'Pacific/Auckland',
      });
    // 27 September 2026: Auckland goes from 02:00 NZST to 03:00 NZDT
    expect(() => log('2026-09-27T02:30')).toThrow(expect.objectContaining({ fieldErrors: [{ path: '/timeDate', message: '2026-09-27 02:30 does not exist in Pacific/Auckland: the clocks go forward over it' }] }));
    expect(log('2026-09-27T01:59')).toMatchObject({ timeDate: '2026-09-26T13:59:00.000Z' });
    expect(log('2026-09-27T03:00')).toMatchObject({ timeDate: '2026-09-26T14:00:00.000Z' });
    // 5 April 2026: 02:00-03:00 happens twice (NZDT, then NZST): the second, in standard time (an edit that leaves
    // the field as shown sends no timeDate, so a log stored in the first keeps it)
    expect(log('2026-04-05T02:30')).toMatchObject({ timeDate: '2026-04-04T14:30:00.000Z' });
  });
});
