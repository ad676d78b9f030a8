// Moves of a subtree racing an install under it (PostgreSQL, where writers run side by side; gaps.md §3:
// "ancestorUids, rootAsset and the parents' childCount stay exact"). An install under P while P's ancestor A is
// removed, or while P's floating top component is installed on an aircraft, must end, whichever runs first, with
// the child at P's ancestors + P and under P's root asset. Before the install locked P's whole chain, the move's
// single UPDATE missed the child written meanwhile: it stayed on the aircraft its parent had left (23 of 30 runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTestEnv, flightLogBody, onPostgres, type TestEnv } from './helpers.js';

let env: TestEnv;
beforeAll(async () => {
  if (onPostgres) env = await createTestEnv({ isolated: true });
});
afterAll(() => env?.close());
const api = (method: string, path: string, body?: unknown) => env.json(method, `/api/v1${path}`, { body });
const make = async (name: string) => {
  const r = await api('POST', '/components', { name, type: 'Race', partNumber: 'P', serialNumber: `${name}-${Math.random()}`, counters: [{ displayText: 'Hours', unit: 'hours' }] });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
};
const install = (uid: string, parentType: string, parentUid: string) =>
  api('POST', `/components/${uid}/install`, { parentType, parentUid, mappings: [{ counterKey: 'hours', sourceKey: parentType === 'aircraft' ? 'hobbs' : 'hours' }] });

/** Where `child` is against where its parent `p` is: a mismatch described, or null. */
async function misplaced(child: string, p: string): Promise<string | null> {
  const [P, X] = [(await api('GET', `/components/${p}`)).body, (await api('GET', `/components/${child}`)).body];
  const want = { ancestorUids: [...P.ancestorUids, p], root: P.rootAsset?.uid ?? null };
  const got = { ancestorUids: X.ancestorUids, root: X.rootAsset?.uid ?? null };
  return JSON.stringify(got) === JSON.stringify(want) ? null : `want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}

describe.runIf(onPostgres)('an install under a component racing a move of the subtree above it', () => {
  it('install under P while P’s parent is removed from the aircraft: the child follows P', async () => {
    const bad: string[] = [];
    for (let i = 0; i < 10; i++) {
      const [a, p, x] = [await make(`A${i}`), await make(`P${i}`), await make(`X${i}`)];
      expect((await install(a, 'aircraft', 'acme-ac-1')).status).toBe(200);
      expect((await install(p, 'component', a)).status).toBe(200);
      const [r1, r2] = await Promise.all([install(x, 'component', p), api('POST', `/components/${a}/remove`, {})]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      const wrong = await misplaced(x, p);
      if (wrong) bad.push(`#${i} ${wrong}`);
      // the aircraft's list holds neither (both left with A)
      const listed = (await api('GET', '/components?rootAssetUid=acme-ac-1&type=Race&limit=100')).body.data.map((c: { uid: string }) => c.uid);
      if (listed.includes(x) || listed.includes(p)) bad.push(`#${i} still listed under acme-ac-1`);
    }
    expect(bad).toEqual([]);
  });

  it('install under D while D’s floating top component is installed on the aircraft: the child follows D', async () => {
    const bad: string[] = [];
    for (let i = 0; i < 10; i++) {
      const [t, d, y] = [await make(`T${i}`), await make(`D${i}`), await make(`Y${i}`)];
      expect((await install(d, 'component', t)).status).toBe(200);
      const [r1, r2] = await Promise.all([install(y, 'component', d), install(t, 'aircraft', 'acme-ac-1')]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      const wrong = await misplaced(y, d);
      if (wrong) bad.push(`#${i} ${wrong}`);
      expect((await api('GET', `/components/${d}`)).body.rootAsset?.uid).toBe('acme-ac-1');
    }
    expect(bad).toEqual([]);
  });
});

describe.runIf(onPostgres)('an install on an aircraft or vehicle racing its delete or the removal of the item a counter binds to', () => {
  // The install read its parent without locking it; the delete and the item change lock it and count what is fitted:
  // both answered 200 (24 of 25 runs), leaving a component fitted to a deleted vehicle or aircraft, or its counter bound
  // to an item the aircraft no longer has. Now one of each pair is refused, and what is left agrees with it.
  it('install on a vehicle while it is deleted: not both', async () => {
    const both: number[] = [];
    for (let i = 0; i < 10; i++) {
      const v = await api('POST', '/vehicles', { make: 'Race', model: 'Van', registration: `RACE-${i}-${Math.random().toString(36).slice(2, 8)}` });
      expect(v.status, JSON.stringify(v.body)).toBe(201);
      const c = await make(`V${i}`);
      const [fit, gone] = await Promise.all([
        api('POST', `/components/${c}/install`, { parentType: 'vehicle', parentUid: v.body.uid, mappings: [{ counterKey: 'hours', sourceKey: null }] }),
        api('DELETE', `/vehicles/${v.body.uid}`),
      ]);
      if (fit.status === 200 && gone.status === 200) both.push(i);
      // the other one is refused: the delete while a component is fitted (409), or the install on a deleted vehicle (400)
      expect(fit.status === 200 ? gone.status : fit.status, JSON.stringify([fit.body, gone.body])).toBe(fit.status === 200 ? 409 : 400);
    }
    expect(both).toEqual([]);
  });

  it('install on an aircraft while it is deleted, and a counter bound to hobbs while hobbs is taken away: not both', async () => {
    const admin = await adminKey(env);
    const as = (method: string, path: string, body?: unknown) => env.json(method, `/api/v1${path}`, { body, key: admin });
    const both: string[] = [];
    for (let i = 0; i < 8; i++) {
      const reg = `VH-R${i}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
      const ac = await as('POST', '/aircraft', {
        registration: reg, type: 'helicopter', category: 'Utility', engineType: 'piston', engineCount: 1,
        maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' } }, initialValues: { hobbs: 10 },
      });
      expect(ac.status, JSON.stringify(ac.body)).toBe(201);
      const c = await make(`AC${i}`);
      const [fit, gone] = await Promise.all([install(c, 'aircraft', ac.body.uid), as('DELETE', `/aircraft/${ac.body.uid}`)]);
      if (fit.status === 200 && gone.status === 200) both.push(`delete #${i}`);
      if (fit.status === 200 && gone.status !== 200) {
        // fitted, and the aircraft stayed: take hobbs away while another component binds to it
        const d = await make(`AD${i}`);
        const [bind, drop] = await Promise.all([install(d, 'aircraft', ac.body.uid), as('PATCH', `/aircraft/${ac.body.uid}`, { maintenanceTrackingItems: { hobbs: null } })]);
        if (bind.status === 200 && drop.status === 200) both.push(`item #${i}`);
      }
    }
    expect(both).toEqual([]);
  });
});

describe.runIf(onPostgres)('a schedule item made on an asset racing the removal of the item it tracks', () => {
  // The item's check read the aircraft outside the write; the aircraft's change takes a tracking item away only while
  // no active schedule item tracks it: both answered 200, leaving an active item on a key the aircraft no longer has
  // (3 of 40 runs: hence 60 rounds).
  it('create an item tracking hobbs while hobbs is taken away: not both', async () => {
    const admin = await adminKey(env);
    const as = (method: string, path: string, body?: unknown) => env.json(method, `/api/v1${path}`, { body, key: admin });
    const both: number[] = [];
    for (let i = 0; i < 60; i++) {
      const ac = await as('POST', '/aircraft', {
        registration: `VH-S${i}${Math.random().toString(36).slice(2, 5).toUpperCase()}`, type: 'helicopter', category: 'Utility', engineType: 'piston', engineCount: 1,
        maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number' } },
      });
      expect(ac.status, JSON.stringify(ac.body)).toBe(201);
      const [made, dropped] = await Promise.all([
        api('POST', '/schedule-items', { name: `Race ${i}`, type: 'Inspection', relatedTo: ac.body.uid, relatedToType: 'aircraft', recurring: false, trackingItem: 'hobbs', dueAtInterval: 100 }),
        as('PATCH', `/aircraft/${ac.body.uid}`, { maintenanceTrackingItems: { hobbs: null } }),
      ]);
      if (made.status === 201 && dropped.status === 200) both.push(i);
    }
    expect(both).toEqual([]);
  });
});

// For the races below: an aircraft with hobbs (100 to start); a component with an hours and a sinceEvent TSO counter;
// fitting one with both counters bound to its parent's hobbs or hours; a flight of 1 hobbs.
const newAircraft = async (admin: string, i: number) => {
  const registration = `VH-K${i}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
  const ac = await env.json('POST', '/api/v1/aircraft', {
    key: admin,
    body: {
      registration, type: 'helicopter', category: 'Utility', engineType: 'piston', engineCount: 1,
      maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 } }, initialValues: { hobbs: 100 },
    },
  });
  expect(ac.status, JSON.stringify(ac.body)).toBe(201);
  return { uid: ac.body.uid as string, registration };
};
const part = async (name: string) => {
  const r = await api('POST', '/components', {
    name, type: 'Chain', partNumber: 'P', serialNumber: `${name}-${Math.random()}`,
    counters: [{ displayText: 'Hours', unit: 'hours' }, { displayText: 'TSO', unit: 'hours', basis: 'sinceEvent' }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.uid as string;
};
const fit = async (uid: string, parentType: string, parentUid: string) => {
  const source = parentType === 'aircraft' ? 'hobbs' : 'hours';
  const r = await api('POST', `/components/${uid}/install`, { parentType, parentUid, mappings: [{ counterKey: 'hours', sourceKey: source }, { counterKey: 'tso', sourceKey: source }] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};
const after = <T>(ms: number, f: () => Promise<T>) => new Promise((r) => setTimeout(r, ms)).then(f);
const flight = (ac: { uid: string; registration: string }) =>
  api('POST', '/flight-logs', flightLogBody({ aircraftId: ac.uid, aircraftRegistration: ac.registration, hobbs: 1, timeDate: '2026-02-01T10:00:00Z' }));

describe.runIf(onPostgres)('a remove or a counter reset below a component racing that component’s remove and a flight', () => {
  // G is fitted to an aircraft, components under it count through it. A remove of G freezes G's counters at the
  // aircraft's total as it reads it, then moves G's subtree off the aircraft. A remove of X below G, or a reset of a
  // counter bound through G, read through G without locking it: with a flight logged meanwhile, X counted the
  // flight its top component G (frozen first) never did (7 of 40 races), and a reset bound X's counter above G's
  // frozen value, so it showed sourceDecreased and stopped counting (10 of 40). They now lock every component above
  // them first, as an install does.
  const counter = async (uid: string, key: string) => {
    const c = (await api('GET', `/components/${uid}`)).body;
    return { value: c.totals[key] as number, sourceDecreased: !!c.counters.find((x: { key: string }) => x.key === key).sourceDecreased };
  };
  const ROUNDS = 20;

  it('remove X (G > P > X) while G is removed and a flight is logged: X never counts more than G', async () => {
    const admin = await adminKey(env);
    const bad: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const ac = await newAircraft(admin, i);
      const [g, p, x] = [await part(`G${i}`), await part(`P${i}`), await part(`X${i}`)];
      await fit(g, 'aircraft', ac.uid);
      await fit(p, 'component', g);
      await fit(x, 'component', p);
      const d = [i % 3, (i + 1) % 3, (i + 2) % 3];
      const [rg, rx, l] = await Promise.all([
        after(d[0], () => api('POST', `/components/${g}/remove`, {})),
        after(d[1], () => api('POST', `/components/${x}/remove`, {})),
        after(d[2], () => flight(ac)),
      ]);
      expect([rg.status, rx.status, l.status], JSON.stringify([rg.body, rx.body, l.body])).toEqual([200, 200, 201]);
      const [G, X] = [await counter(g, 'hours'), await counter(x, 'hours')];
      if (X.value > G.value) bad.push(`#${i} X ${X.value} h, G ${G.value} h`);
    }
    expect(bad).toEqual([]);
  });

  it('reset X’s counter bound through G while G is removed and a flight is logged: never above its source', async () => {
    const admin = await adminKey(env);
    const bad: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const ac = await newAircraft(admin, i);
      const [g, x] = [await part(`G${i}`), await part(`X${i}`)];
      await fit(g, 'aircraft', ac.uid);
      await fit(x, 'component', g);
      const d = [i % 3, (i + 1) % 3, (i + 2) % 3];
      const [rg, rx, l] = await Promise.all([
        after(d[0], () => api('POST', `/components/${g}/remove`, {})),
        after(d[1], () => api('POST', `/components/${x}/counters/reset`, { counterKey: 'tso', newValue: 0 })),
        after(d[2], () => flight(ac)),
      ]);
      expect([rg.status, rx.status, l.status], JSON.stringify([rg.body, rx.body, l.body])).toEqual([200, 200, 201]);
      const X = await counter(x, 'tso');
      if (X.sourceDecreased || ![0, 1].includes(X.value)) bad.push(`#${i} X tso ${JSON.stringify(X)}`);
    }
    expect(bad).toEqual([]);
  });
});

describe.runIf(onPostgres)('a schedule completion on a component, sent no trackingValue, racing a remove or a reset and a flight', () => {
  // The default trackingValue (the counter's current figure) was read before the completion's transaction, through
  // the component's row, its parents and the aircraft's totals one statement at a time: a remove or a reset committing
  // between them recorded a figure the counter never had (2 on a counter reset to 0 and at 1 after the flight; 1 on a
  // component frozen at 0), and the item rolled forward from it. It is now read under the item's lock with the
  // component's place locked (src/modules/components/place.ts), so it is the figure of one serial order. (The same
  // with the parent's remove happened about once in 40 runs, too rarely to test here: the reset shows the read.)
  const ROUNDS = 40;
  const jitter = (i: number, k: number, m: number) => (i * 7 + k * 13 + ((i * k) % 5)) % m;
  const dueItem = async (x: string, key: string) => {
    const r = await api('POST', '/schedule-items', { name: `Check ${x}`, type: 'Inspection', relatedTo: x, relatedToType: 'component', recurring: true, trackingItem: key, dueAtInterval: 50, recurringInterval: 50 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.uid as string;
  };
  const recorded = async (item: string) => {
    const done = (await api('GET', `/schedule-completions?scheduleItemId=${item}`)).body.data as { trackingValue: number }[];
    return { value: Number(done[0]?.trackingValue), due: Number((await api('GET', `/schedule-items/${item}`)).body.dueAtInterval) };
  };
  const counter = async (x: string, key: string) => (await api('GET', `/components/${x}`)).body.totals[key] as number;

  it('reset of the counter it tracks (at 1): the completion records the figure of one serial order, and rolls from it', async () => {
    const admin = await adminKey(env);
    const bad: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const ac = await newAircraft(admin, i);
      const x = await part(`X${i}`);
      await fit(x, 'aircraft', ac.uid);
      expect((await flight(ac)).status).toBe(201); // tso 1
      const item = await dueItem(x, 'tso');
      const rs = await Promise.all([
        after(jitter(i, 1, 4), () => api('POST', `/schedule-items/${item}/complete`, {})),
        after(jitter(i, 2, 6), () => api('POST', `/components/${x}/counters/reset`, { counterKey: 'tso', newValue: 0 })),
        after(jitter(i, 3, 9), () => flight(ac)),
      ]);
      expect(rs.map((r) => r.status), JSON.stringify(rs.map((r) => r.body))).toEqual([201, 200, 201]);
      const [c, end] = [await recorded(item), await counter(x, 'tso')];
      // serial orders: (completion, reset, flight) 1/1; (completion, flight, reset) 1 or 2/0; (reset, ...) 0/1 or 1/1 ...
      // what none gives: a completion above the counter's figure at both the reset and the flight
      const possible = [[1, 1], [1, 0], [2, 0], [0, 1], [0, 0]].some(([v, e]) => v === c.value && e === end);
      if (!possible || c.due !== c.value + 50) bad.push(`#${i} recorded ${c.value}, due ${c.due}, tso now ${end}`);
    }
    expect(bad).toEqual([]);
  });
});
