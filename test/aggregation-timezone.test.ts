// The aggregation time-zone parser (gaps §5): IANA names, abbreviations as fixed offsets, UTC±hh:mm with the ISO
// sign, and what is refused.
import { describe, expect, it } from 'vitest';
import { offsetLabel, parseTimeZone } from '../src/modules/aggregation/timezone.js';

describe('parseTimeZone', () => {
  it('takes IANA names', () => {
    expect(parseTimeZone('Australia/Sydney')).toEqual({ kind: 'iana', name: 'Australia/Sydney' });
    expect(parseTimeZone('America/New_York')).toEqual({ kind: 'iana', name: 'America/New_York' });
  });
  it('maps the abbreviations to fixed offsets (minutes east of UTC)', () => {
    const want: Record<string, number> = {
      AEST: 600, AEDT: 660, ACST: 570, AWST: 480, NZST: 720, NZDT: 780, UTC: 0, GMT: 0, EST: -300, EDT: -240, CST: -360,
      CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420, BST: 60, CET: 60, CEST: 120,
    };
    for (const [abbr, minutes] of Object.entries(want)) expect(parseTimeZone(abbr), abbr).toMatchObject({ kind: 'offset', minutes });
    expect(parseTimeZone('aest')).toMatchObject({ minutes: 600 });
  });
  it('reads offsets with the ISO sign (UTC+10 is east)', () => {
    expect(parseTimeZone('UTC+10')).toMatchObject({ kind: 'offset', minutes: 600 });
    expect(parseTimeZone('UTC-03:30')).toMatchObject({ minutes: -210 });
    expect(parseTimeZone('GMT+0545')).toMatchObject({ minutes: 345 });
    expect(parseTimeZone('+14:00')).toMatchObject({ minutes: 840 });
    expect(parseTimeZone('UTC-12')).toMatchObject({ minutes: -720 });
  });
  it('refuses what is none of them', () => {
    for (const bad of ['', 'Mars/Olympus', 'UTC+15', 'UTC+14:30', 'UTC+10:75', 'Sydney', 'XYZT', 'UTC+', '10']) expect(parseTimeZone(bad), bad).toBeNull();
  });
  it('labels offsets', () => {
    expect(offsetLabel(600)).toBe('UTC+10:00');
    expect(offsetLabel(-210)).toBe('UTC-03:30');
    expect(offsetLabel(0)).toBe('UTC+00:00');
  });
});
