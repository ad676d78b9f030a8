// The aggregation `timezone` parser (docs/contract/api-v1.md §2.11, docs/contract/gaps.md §5): IANA names, fixed-offset abbreviations and UTC±hh:mm.
import { describe, expect, it } from 'vitest';
import { formatOffset, parseTimeZone } from '../src/modules/aggregation/timezone.js';

const offset = (minutes: number) => ({ kind: 'offset', minutes });
/** The zone the runtime resolves a name to (its canonical name: Asia/Calcutta or Asia/Kolkata, by ICU version). */
const zone = (name: string) => ({ kind: 'iana', name: new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone });

describe('parseTimeZone', () => {
  it('takes IANA Area/Location names as zones with their daylight-saving rules', () => {
    expect(parseTimeZone('Australia/Sydney')).toEqual({ kind: 'iana', name: 'Australia/Sydney' });
    expect(parseTimeZone('America/New_York')).toEqual({ kind: 'iana', name: 'America/New_York' });
    expect(parseTimeZone('America/Argentina/Buenos_Aires')).toEqual(zone('America/Argentina/Buenos_Aires'));
    expect(parseTimeZone('Etc/GMT-10')).toEqual({ kind: 'iana', name: 'Etc/GMT-10' });
  });

  it('hands on the zone Intl resolved the name to, never the text sent (any case, links)', () => {
    expect(parseTimeZone('australia/sydney')).toEqual({ kind: 'iana', name: 'Australia/Sydney' });
    expect(parseTimeZone('US/Pacific')).toEqual({ kind: 'iana', name: 'America/Los_Angeles' });
    expect(parseTimeZone('asia/kolkata')).toEqual(zone('Asia/Kolkata'));
    expect(parseTimeZone(' Europe/Brussels ')).toEqual({ kind: 'iana', name: 'Europe/Brussels' });
    // the UTC zones are UTC
    for (const utc of ['Etc/UTC', 'etc/utc', 'Etc/GMT', 'Etc/Zulu', 'Etc/Universal']) expect(parseTimeZone(utc), utc).toEqual(offset(0));
  });

  it('refuses names without an area that the table does not list (PostgreSQL reads them as its abbreviations)', () => {
    for (const name of ['IST', 'ACT', 'ART', 'MET', 'AET', 'CTT', 'Japan', 'Israel', 'EST5EDT', 'PST8PDT', 'NZ', 'PRC', 'GB', 'Zulu', 'UCT', 'Universal', 'Greenwich', 'GMT0']) {
      expect(parseTimeZone(name), name).toBeNull();
    }
  });

  it('maps every listed abbreviation to its fixed offset, in any case', () => {
    const expected: Record<string, number> = {
      AEST: 600, AEDT: 660, ACST: 570, AWST: 480, NZST: 720, NZDT: 780, UTC: 0, GMT: 0, EST: -300, EDT: -240, CST: -360,
      CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420, BST: 60, CET: 60, CEST: 120, ACDT: 630,
    };
    for (const [abbr, minutes] of Object.entries(expected)) {
      expect(parseTimeZone(abbr), abbr).toEqual(offset(minutes));
      expect(parseTimeZone(abbr.toLowerCase()), abbr.toLowerCase()).toEqual(offset(minutes));
    }
  });

  it('reads UTC/GMT offsets with the ISO sign (east is +)', () => {
    expect(parseTimeZone('UTC+10')).toEqual(offset(600));
    expect(parseTimeZone('UTC-03:30')).toEqual(offset(-210));
    expect(parseTimeZone('UTC-3:30')).toEqual(offset(-210));
    expect(parseTimeZone('UTC+0530')).toEqual(offset(330));
    expect(parseTimeZone('GMT+5:45')).toEqual(offset(345));
    expect(parseTimeZone('utc+14')).toEqual(offset(840));
    expect(parseTimeZone('UTC-12')).toEqual(offset(-720));
    expect(parseTimeZone('+10:00')).toEqual(offset(600));
    expect(parseTimeZone('UTC+00:00')).toEqual(offset(0));
  });

  it('refuses what names no zone', () => {
    for (const bad of ['', ' ', 'Mars/Olympus_Mons', 'AEXT', 'UTC+15', 'UTC-13', 'UTC+10:60', 'UTC+1:5', 'UTC+', '10',
      'Australia/Sydney; DROP TABLE x', "Australia/Sydney'", 'UTC+10:00:00', 'Australia/', '/Sydney', 'Australia//Sydney']) {
      expect(parseTimeZone(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('formats offsets for messages', () => {
    expect(formatOffset(600)).toBe('+10:00');
    expect(formatOffset(-210)).toBe('-03:30');
    expect(formatOffset(0)).toBe('+00:00');
  });
});
