// newUid (src/lib/ids.ts): well-formed, never repeated, random characters drawn evenly, chosen names honoured.
import { describe, expect, it } from 'vitest';
import { newUid, withUids } from '../src/lib/ids.js';

describe('newUid', () => {
  it('is the prefix, ten time characters and ten random characters, and never repeats across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const uid = newUid('fl');
      expect(uid).toMatch(/^fl_[0-9a-v]{20}$/);
      seen.add(uid.slice(-10)); // the random part alone: equal times must not give equal ids
    }
    expect(seen.size).toBe(50_000);
  });

  it('draws every base32 character about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) for (const c of newUid('x').slice(-10)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 200,000 draws, 6,250 expected per character; a fair draw leaves ±7 % (5.6 standard deviations) about once in a million runs
    for (const n of counts.values()) expect(Math.abs(n - 6250)).toBeLessThan(6250 * 0.07);
  });

  it('takes chosen names in order inside withUids, and new ids for other prefixes', async () => {
    const got = await withUids({ fl: ['fl-one', 'fl-two'] }, async () => [newUid('fl'), newUid('ac'), newUid('fl'), newUid('fl')]);
    expect(got[0]).toBe('fl-one');
    expect(got[1]).toMatch(/^ac_/);
    expect(got[2]).toBe('fl-two');
    expect(got[3]).toMatch(/^fl_[0-9a-v]{20}$/);
  });
});
