// The maintenance schedule's pure rules (src/modules/schedule/rules.ts): exact decimals, calendar-day arithmetic in
// time zones (DST changes, month ends, leap days), days remaining, threshold consistency and the urgency order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  calendarDaysRemaining,
  compareUrgency,
  daysBetween,
  decimalPlaces,
  dueWithin,
  exactAddString,
  exactSubtract,
  isCalendarDate,
  isOverdue,
  isTimeZone,
  localDate,
  nextCalendarDue,
  roundToTrackingScale,
  sameDecimal,
  startOfLocalDay,
  thresholdErrors,
  urgencyGroup,
  type UrgencyFields,
} from '../src/modules/schedule/rules.js';
import { trackingValue } from '../src/modules/tracking/value.js';

describe('exact decimals', () => {
  it('subtracts without float drift', () => {
    expect(1300.3 - 1200.1).not.toBe(100.2); // the drift this avoids
    expect(exactSubtract(1300.3, 1200.1)).toBe(100.2);
    expect(exactSubtract(20.3, 12.25)).toBe(8.05);
    expect(exactSubtract(0.3, 0.1)).toBe(0.2);
    expect(exactSubtract(10, 12.25)).toBe(-2.25);
    expect(exactSubtract('1300.300000', 1300.3)).toBe(0);
    expect(exactSubtract(1e-6, 0)).toBe(0.000001);
    expect(exactSubtract(99999999.99, 0.01)).toBe(99999999.98);
    expect(exactSubtract(12345678.123456, 0.000001)).toBe(12345678.123455);
  });

  it('adds exactly, as a decimal string for numeric columns', () => {
    expect(exactAddString(1200.1, 100.2)).toBe('1300.3');
    expect(exactAddString('1204.300000', '100')).toBe('1304.3');
    expect(exactAddString(0.1, 0.2)).toBe('0.3');
    expect(exactAddString(-0.5, 0.5)).toBe('0');
  });

  it('counts decimal places; a tracking figure is below 1e9 with at most 6 of them (gaps.md §11)', () => {
    expect(decimalPlaces(1200)).toBe(0);
    expect(decimalPlaces(1200.125)).toBe(3);
    expect(decimalPlaces('1.500000')).toBe(1);
    expect(decimalPlaces(3e-7)).toBe(7);
    expect(decimalPlaces(-0)).toBe(0);
    expect(decimalPlaces(-12.5)).toBe(1);
    expect(decimalPlaces(1.5e-7)).toBe(8);
    expect(decimalPlaces(1e21)).toBe(0);
    // a number's places are those of the decimal string it prints as (the digits a client sent), whatever its form
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(decimalPlaces(n)).toBe(decimalPlaces(String(n)));
      }),
      { numRuns: 2000 },
    );
    const fits = (n: number) => trackingValue().safeParse(n).success;
    expect(fits(1300.123456)).toBe(true);
    expect(fits(999999999.999999)).toBe(true);
    expect(fits(-999999999.999999)).toBe(true);
    expect(fits(0)).toBe(true);
    expect(fits(1300.1234567)).toBe(false);
    expect(fits(3e-7)).toBe(false);
    expect(fits(1e9)).toBe(false);
    expect(fits(-1e9)).toBe(false);
    expect(fits(1e25)).toBe(false);
    expect(fits(Number.NaN)).toBe(false);
    expect(fits(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('rounds to 6 places half away from zero; compares values, not spellings', () => {
    expect(roundToTrackingScale(1.23456789)).toBe('1.234568');
    expect(roundToTrackingScale(-1.0000005)).toBe('-1.000001');
    expect(roundToTrackingScale(1.0000004)).toBe('1');
    expect(roundToTrackingScale(1204.3)).toBe('1204.3');
    expect(sameDecimal('1200.100000', 1200.1)).toBe(true);
    expect(sameDecimal('1200.100001', 1200.1)).toBe(false);
    expect(sameDecimal(null, undefined)).toBe(true);
    expect(sameDecimal(null, 0)).toBe(false);
  });
});

describe('calendar dates', () => {
  it('validates dates, including leap days', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2100-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-4-1')).toBe(false);
  });

  it('adds calendar days across month ends, year ends and leap days', () => {
    expect(addCalendarDays('2024-01-31', 1)).toBe('2024-02-01');
    expect(addCalendarDays('2024-01-31', 30)).toBe('2024-03-01');
    expect(addCalendarDays('2023-01-31', 30)).toBe('2023-03-02');
    expect(addCalendarDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addCalendarDays('2024-02-29', 365)).toBe('2025-02-28');
    expect(addCalendarDays('2023-02-28', 366)).toBe('2024-02-29');
    expect(addCalendarDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addCalendarDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(() => addCalendarDays('2026-03-01', 1.5)).toThrow();
  });

  it('counts whole days between dates', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-02-28', '2025-03-01')).toBe(1);
    expect(daysBetween('2026-03-01', '2026-02-28')).toBe(-1);
    expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
  });

  it('knows time zones', () => {
    expect(isTimeZone('Australia/Sydney')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('roll-forward across DST changes: the local date advances by exactly N days', () => {
  it('Australia/Sydney, DST end (5 April 2026, 03:00 AEDT → 02:00 AEST)', () => {
    const tz = 'Australia/Sydney';
    // 23:30 local on 4 April (AEDT, UTC+11) = 12:30 UTC
    const late = new Date('2026-04-04T12:30:00Z');
    expect(localDate(late, tz)).toBe('2026-04-04');
    expect(nextCalendarDue(late, 1, tz)).toBe('2026-04-05');
    expect(nextCalendarDue(late, 2, tz)).toBe('2026-04-06');
    // adding 48 hours instead would land at 22:30 on the 6th local — still right here, but 00:30 shows the trap:
    const early = new Date('2026-04-04T13:30:00Z'); // 00:30 local on 5 April (AEDT)
    expect(localDate(early, tz)).toBe('2026-04-05');
    expect(nextCalendarDue(early, 1, tz)).toBe('2026-04-06');
    expect(localDate(new Date(early.getTime() + 86_400_000), tz)).toBe('2026-04-05'); // 24 h later is still the 5th
  });

  it('Australia/Sydney, DST start (4 October 2026, 02:00 AEST → 03:00 AEDT)', () => {
    const tz = 'Australia/Sydney';
    const lateNight = new Date('2026-10-03T13:45:00Z'); // 23:45 AEST on 3 October
    expect(localDate(lateNight, tz)).toBe('2026-10-03');
    expect(nextCalendarDue(lateNight, 1, tz)).toBe('2026-10-04');
    expect(localDate(new Date(lateNight.getTime() + 86_400_000), tz)).toBe('2026-10-05'); // 24 h later skips the 4th
    expect(nextCalendarDue(lateNight, 30, tz)).toBe('2026-11-02');
  });

  it('America/New_York, DST start (8 March 2026) and end (1 November 2026)', () => {
    const tz = 'America/New_York';
    const beforeSpring = new Date('2026-03-08T04:30:00Z'); // 23:30 EST on 7 March
    expect(localDate(beforeSpring, tz)).toBe('2026-03-07');
    expect(nextCalendarDue(beforeSpring, 1, tz)).toBe('2026-03-08');
    expect(nextCalendarDue(beforeSpring, 7, tz)).toBe('2026-03-14');
    const beforeFall = new Date('2026-11-01T03:30:00Z'); // 23:30 EDT on 31 October
    expect(localDate(beforeFall, tz)).toBe('2026-10-31');
    expect(nextCalendarDue(beforeFall, 1, tz)).toBe('2026-11-01');
    expect(localDate(new Date(beforeFall.getTime() + 86_400_000), tz)).toBe('2026-11-01'); // 24 h: 22:30 EST on the 1st
    const fallMorning = new Date('2026-11-01T05:30:00Z'); // 01:30 EDT (first pass) on 1 November
    expect(nextCalendarDue(fallMorning, 1, tz)).toBe('2026-11-02');
  });

  it('the same instant rolls to different dates in different zones; UTC is the default zone', () => {
    const t = new Date('2026-03-10T22:00:00Z');
    expect(nextCalendarDue(t, 30, 'Australia/Sydney')).toBe('2026-04-10');
    expect(nextCalendarDue(t, 30, 'UTC')).toBe('2026-04-09');
    expect(nextCalendarDue(t, 30, 'America/New_York')).toBe('2026-04-09');
    expect(nextCalendarDue(new Date('2026-03-11T03:00:00Z'), 30, 'America/New_York')).toBe('2026-04-09'); // 23:00 EDT on the 10th
  });

  it('month ends and leap days', () => {
    expect(nextCalendarDue('2024-01-31', 29, 'UTC')).toBe('2024-02-29');
    expect(nextCalendarDue('2024-02-29', 366, 'UTC')).toBe('2025-03-01');
    expect(nextCalendarDue(new Date('2024-02-28T14:00:00Z'), 1, 'Australia/Sydney')).toBe('2024-03-01'); // 29 Feb local + 1
    expect(nextCalendarDue(new Date('2024-02-29T04:00:00Z'), 1, 'America/New_York')).toBe('2024-02-29'); // 28 Feb local + 1
  });

  it('startOfLocalDay: local midnight, or the first instant after a DST gap that swallows it', () => {
    expect(startOfLocalDay('2026-04-05', 'Australia/Sydney').toISOString()).toBe('2026-04-04T13:00:00.000Z'); // AEDT
    expect(startOfLocalDay('2026-04-06', 'Australia/Sydney').toISOString()).toBe('2026-04-05T14:00:00.000Z'); // AEST
    expect(startOfLocalDay('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfLocalDay('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfLocalDay('2026-06-01', 'UTC').toISOString()).toBe('2026-06-01T00:00:00.000Z');
    // São Paulo 2018: DST began at midnight (00:00 → 01:00), so 4 November started at 01:00 local (-02:00)
    expect(startOfLocalDay('2018-11-04', 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
    // and ended at midnight (00:00 → 23:00 on the 17th): 18 February started at 00:00 -03:00
    expect(startOfLocalDay('2018-02-18', 'America/Sao_Paulo').toISOString()).toBe('2018-02-18T03:00:00.000Z');
    for (const [date, tz] of [['2026-04-05', 'Australia/Sydney'], ['2018-11-04', 'America/Sao_Paulo'], ['2026-11-01', 'America/New_York']]) {
      const start = startOfLocalDay(date, tz);
      expect(localDate(start, tz)).toBe(date);
      expect(localDate(new Date(start.getTime() - 1000), tz)).not.toBe(date);
    }
  });
});

describe('calendar days remaining', () => {
  it('counts from today in the zone to the due date; negative when overdue', () => {
    const now = new Date('2026-04-04T20:00:00Z'); // 5 April 06:00 in Sydney, 4 April 16:00 in New York
    expect(calendarDaysRemaining('2026-04-10', now, 'UTC')).toBe(6);
    expect(calendarDaysRemaining('2026-04-10', now, 'Australia/Sydney')).toBe(5);
    expect(calendarDaysRemaining('2026-04-10', now, 'America/New_York')).toBe(6);
    expect(calendarDaysRemaining('2026-04-04', now, 'Australia/Sydney')).toBe(-1);
    expect(calendarDaysRemaining('2026-04-04', now, 'UTC')).toBe(0);
    expect(calendarDaysRemaining('2026-04-03', now, 'Pacific/Pago_Pago')).toBe(-1);
    expect(calendarDaysRemaining('2027-04-04', now, 'UTC')).toBe(365);
  });

  it('is a whole number across DST changes (calendar days, not 24-hour periods)', () => {
    const now = new Date('2026-04-04T14:30:00Z'); // 01:30 AEDT on 5 April
    expect(calendarDaysRemaining('2026-04-06', now, 'Australia/Sydney')).toBe(1);
    const ny = new Date('2026-03-07T12:00:00Z');
    expect(calendarDaysRemaining('2026-03-09', ny, 'America/New_York')).toBe(2);
  });
});

describe('thresholds and recurrence', () => {
  const base = { recurring: false, trackingItem: null, dueAtInterval: null, recurringInterval: null, calendarDateDue: null, calendarRecurring: null };
  const paths = (over: Partial<typeof base> | Record<string, unknown>) => thresholdErrors({ ...base, ...over } as never).map((e) => e.path);

  it('needs a usage or a calendar threshold', () => {
    expect(paths({})).toEqual(['']);
    expect(paths({ trackingItem: 'hobbs', dueAtInterval: '1300' })).toEqual([]);
    expect(paths({ calendarDateDue: '2026-06-30' })).toEqual([]);
    expect(paths({ trackingItem: 'hobbs' })).toEqual(['/dueAtInterval']);
    expect(paths({ dueAtInterval: '1300' })).toEqual(['/trackingItem']);
    expect(paths({ trackingItem: 'hobbs', calendarDateDue: '2026-06-30' })).toEqual(['/dueAtInterval']);
  });

  it('a recurring item needs the interval of each threshold it has', () => {
    expect(paths({ recurring: true, trackingItem: 'hobbs', dueAtInterval: '1300' })).toEqual(['/recurringInterval']);
    expect(paths({ recurring: true, trackingItem: 'hobbs', dueAtInterval: '1300', recurringInterval: '100' })).toEqual([]);
    expect(paths({ recurring: true, calendarDateDue: '2026-06-30' })).toEqual(['/calendarRecurring']);
    expect(paths({ recurring: true, calendarDateDue: '2026-06-30', calendarRecurring: 30 })).toEqual([]);
    expect(
      paths({ recurring: true, trackingItem: 'hobbs', dueAtInterval: '1300', calendarDateDue: '2026-06-30', calendarRecurring: 30 }),
    ).toEqual(['/recurringInterval']);
  });

  it('an interval belongs to its threshold; a non-recurring item may keep intervals', () => {
    expect(paths({ calendarDateDue: '2026-06-30', recurringInterval: '100' })).toEqual(['/recurringInterval']);
    expect(paths({ trackingItem: 'hobbs', dueAtInterval: '1300', calendarRecurring: 30 })).toEqual(['/calendarRecurring']);
    expect(paths({ trackingItem: 'hobbs', dueAtInterval: '1300', recurringInterval: '100' })).toEqual([]);
  });
});

describe('urgency', () => {
  const s = (uid: string, over: Partial<UrgencyFields> = {}): UrgencyFields => ({ uid, name: uid, ...over });

  it('groups: overdue, due, upcoming, unknown', () => {
    expect(urgencyGroup(s('a', { remaining: -0.1 }))).toBe('overdue');
    expect(urgencyGroup(s('a', { calendarDaysRemaining: -1, remaining: 50 }))).toBe('overdue');
    expect(urgencyGroup(s('a', { remaining: 0 }))).toBe('due');
    expect(urgencyGroup(s('a', { calendarDaysRemaining: 0, remaining: 10 }))).toBe('due');
    expect(urgencyGroup(s('a', { calendarDaysRemaining: 3 }))).toBe('upcoming');
    expect(urgencyGroup(s('a'))).toBe('unknown');
    expect(isOverdue(s('a', { remaining: -1 }))).toBe(true);
    expect(isOverdue(s('a', { remaining: 0 }))).toBe(false);
  });

  it('orders most urgent first: by group, then calendar days, then remaining, then name and uid', () => {
    const items = [
      s('unknown'),
      s('usage-later', { remaining: 8.05 }),
      s('usage-soon', { remaining: 0.5 }),
      s('cal-40', { calendarDaysRemaining: 40, remaining: 87.75 }),
      s('cal-5', { calendarDaysRemaining: 5 }),
      s('due-usage', { remaining: 0 }),
      s('due-today', { calendarDaysRemaining: 0 }),
      s('over-usage', { remaining: -2.25 }),
      s('over-usage-more', { remaining: -10 }),
      s('over-cal-1', { calendarDaysRemaining: -1 }),
      s('over-cal-9', { calendarDaysRemaining: -9, remaining: 100 }),
    ];
    expect([...items].sort(compareUrgency).map((i) => i.uid)).toEqual([
      'over-cal-9',
      'over-cal-1',
      'over-usage-more',
      'over-usage',
      'due-today',
      'due-usage',
      'cal-5',
      'cal-40',
      'usage-soon',
      'usage-later',
      'unknown',
    ]);
    // ties: name, then uid
    expect([s('b', { name: 'X', remaining: 1 }), s('a', { name: 'X', remaining: 1 }), s('c', { name: 'A', remaining: 1 })].sort(compareUrgency).map((i) => i.uid)).toEqual(['c', 'a', 'b']);
  });

  it('dueWithin: calendar within N days or past, or a usage threshold reached', () => {
    expect(dueWithin(s('a', { calendarDaysRemaining: 5 }), 5)).toBe(true);
    expect(dueWithin(s('a', { calendarDaysRemaining: 6 }), 5)).toBe(false);
    expect(dueWithin(s('a', { calendarDaysRemaining: -3 }), 0)).toBe(true);
    expect(dueWithin(s('a', { remaining: 0 }), 0)).toBe(true);
    expect(dueWithin(s('a', { remaining: 0.5 }), 365)).toBe(false);
    expect(dueWithin(s('a', { remaining: 0.5, calendarDaysRemaining: 30 }), 30)).toBe(true);
    expect(dueWithin(s('a'), 1000)).toBe(false);
  });
});

/** Whether a service check takes a body (it throws the 400 otherwise). */
function accepts(check: (body: unknown) => unknown, body: unknown): boolean {
  try {
    check(body);
    return true;
  } catch {
    return false;
  }
}

describe('the documented create body (CreateItemSchema) takes exactly what checkCreate takes', async () => {
  const { CreateItemSchema } = await import('../src/modules/schedule/schema.js');
  const { checkCreate } = await import('../src/modules/schedule/service.js');
  const base = { name: 'Check', type: 'Inspection', relatedTo: 'ac-1', relatedToType: 'aircraft', recurring: false, calendarDateDue: '2026-06-30' };
  const bodies: [string, Record<string, unknown>][] = [
    ['the base body', base],
    ...(['name', 'type', 'relatedTo', 'relatedToType', 'recurring'] as const).flatMap((k): [string, Record<string, unknown>][] => {
      const { [k]: _drop, ...rest } = base;
      return [[`without ${k}`, rest], [`${k} null`, { ...base, [k]: null }]];
    }),
    ['optional fields null', { ...base, notes: null, trackingItem: null, dueAtInterval: null, documentation: null }],
    ['status inactive', { ...base, status: 'inactive' }],
    ['a blank name', { ...base, name: '  ' }],
    ['recurring as a string', { ...base, recurring: 'yes' }],
    ['calendarRecurring 0', { ...base, calendarRecurring: 0 }],
    ['a bad date', { ...base, calendarDateDue: 'June' }],
    ['documentation a string', { ...base, documentation: 'https://x.test/a.pdf' }],
  ];
  it.each(bodies)('%s', (_name, body) => expect(CreateItemSchema.safeParse(body).success).toBe(accepts(checkCreate, body)));
});

describe('the documented update body (UpdateItemSchema) takes exactly what checkUpdate takes', async () => {
  const { UpdateItemSchema } = await import('../src/modules/schedule/schema.js');
  const { checkUpdate } = await import('../src/modules/schedule/service.js');
  const bodies: [string, Record<string, unknown>][] = [
    ['nothing', {}],
    ['a new name', { name: 'Check 2' }],
    ['name null (a required field cannot be cleared)', { name: null }],
    ['recurring null', { recurring: null }],
    ['notes null (an optional field is cleared)', { notes: null }],
    ['status (changed by delete and restore only)', { status: 'inactive' }],
    ['calendarRecurring 1.5', { calendarRecurring: 1.5 }],
  ];
  it.each(bodies)('%s', (_name, body) => expect(UpdateItemSchema.safeParse(body).success).toBe(accepts(checkUpdate, body)));
});
