// Model-based check of the maintenance figures a user relies on (twenty-third session's audit, kept): random sequences
// of flight-log writes (REST, GraphQL, batches, moves, date changes, deletes), initial-value changes, odometer readings,
// component installs (nested, mapped or frozen), removes, counter resets, deletes and restores, schedule items on
// aircraft, components and a vehicle (usage and calendar thresholds, edits, completions as the owner or as a user
// without a time zone, in a company zone drawn per sequence), checked after every step against an exact model:
// aircraft totals, odometer, counters, each item's record (REST and GraphQL) and /maintenance-status (zones,
// urgency order, filters, paging). Time is an input: each sequence fixes the service clock (near a DST change now
// and then) and steps move it forward. CI runs a fixed seed and a bounded count; PROPERTY_RUNS, PROPERTY_STEPS and
// PROPERTY_SEED run more or others; FINE=1 uses figures with six decimals.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTestEnv, type TestEnv } from './helpers.js';
import { SCALE, dec, micro, num } from './micro-units.js';
import { setClock } from '../src/lib/clock.js';
import { ApiKeyService } from '../src/auth/keys.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 5);
const STEPS = Number(process.env.PROPERTY_STEPS ?? 15);
const SEED = Number(process.env.PROPERTY_SEED ?? 4242);
const TZ = 'Australia/Sydney'; // acme-owner's zone: the acting user of both keys

let env: TestEnv;
let admin: string;
let pilotKey: string;
beforeAll(async () => {
  env = await createTestEnv();
  admin = await adminKey(env);
  pilotKey = (await new ApiKeyService(env.database.prisma).create({ companyId: env.a.id, scope: 'read_write', name: 'pilot', userId: 'acme-pilot' })).key;
});
afterAll(() => env?.close());

// ---------------------------------------------------------------- exact decimals (micro-units)
const FINE = !!process.env.FINE;
const cents = (c: number) => (FINE ? BigInt(c) * 10_000n + BigInt((c * 7919) % 10_000) : BigInt(c) * 10_000n);

// ---------------------------------------------------------------- calendar (independent of the service)
const fmts = new Map<string, Intl.DateTimeFormat>();
const FIXED: Record<string, number> = { AEST: 600, 'UTC-03:30': -210, NST: -210, '+05:45': 345, CET: 60 };
function localParts(ms: number, tz = TZ) {
  if (tz in FIXED) {
    const iso = new Date(ms + FIXED[tz]! * 60_000).toISOString();
    return { date: iso.slice(0, 10), hm: iso.slice(11, 16) };
  }
  let fmt = fmts.get(tz);
  if (!fmt) fmts.set(tz, (fmt = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  const p: Record<string, string> = {};
  for (const x of fmt.formatToParts(new Date(ms))) p[x.type] = x.value;
  return { date: `${p.year}-${p.month}-${p.day}`, hm: `${p.hour}:${p.minute}` };
}
const localDate = (ms: number, tz = TZ) => localParts(ms, tz).date;
const dayNo = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86_400_000;
const addDays = (d: string, n: number) => new Date((dayNo(d) + n) * 86_400_000).toISOString().slice(0, 10);
function startOfDay(d: string, tz = TZ): number {
  const base = dayNo(d) * 86_400_000;
  for (let q = -14 * 4; q <= 14 * 4; q++) {
    const t = base + q * 15 * 60_000;
    const lp = localParts(t, tz);
    if (lp.date === d && lp.hm === '00:00') return t;
  }
  throw new Error(`no midnight for ${d} in ${tz}`);
}

// ---------------------------------------------------------------- commands
type AcKey = 'hobbs' | 'landings' | 'tacho';
type CKey = 'hours' | 'landings' | 'sinceOverhaul';
type Via = 'rest' | 'graphql';
type AssetRef = { type: 'aircraft' | 'component' | 'vehicle'; i: number };
type Cmd =
  | { k: 'log'; ac: 0 | 1; hobbs: number; landings?: number; tacho?: number; day: number; via: Via }
  | { k: 'batch'; items: { ac: 0 | 1; hobbs: number; landings?: number; tacho?: number }[] }
  | { k: 'edit'; at: number; to?: 0 | 1; hobbs?: number | null; landings?: number | null; day?: number; via: Via }
  | { k: 'delete'; at: number; batch: boolean }
  | { k: 'initial'; ac: 0 | 1; key: 'hobbs' | 'landings'; value: number }
  | { k: 'install'; c: number; parent: number; map: ('natural' | 'omit' | 'alt')[] }
  | { k: 'remove'; c: number }
  | { k: 'reset'; c: number; value: number }
  | { k: 'create'; asset: number; key: number; dueOff: number; recurring: boolean; interval?: number; calOff?: number; calRec?: number; name: string; via: Via }
  | { k: 'complete'; at: number; tv?: number; when: { kind: 'none' } | { kind: 'date'; back: number } | { kind: 'time'; minutes: number }; via: Via; as: 'owner' | 'pilot' }
  | { k: 'patch'; at: number; p: Record<string, number | string | boolean | null> }
  | { k: 'deactivate'; at: number }
  | { k: 'restore'; at: number }
  | { k: 'tick'; minutes: number }
  | { k: 'reading'; delta: number; via: Via }
  | { k: 'softDelete'; c: number; restore: boolean }
  | { k: 'combo'; first: 'log' | 'reset' | 'reading' | 'deleteLog' | 'remove' | 'install'; ac: 0 | 1; c: number; n: number; at: number; twice: boolean };

const via = fc.constantFrom<Via>('rest', 'graphql');
const opt = <T>(a: fc.Arbitrary<T>, freq = 2) => fc.option(a, { nil: undefined, freq });
const hobbs = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 999 }) }, { weight: 1, arbitrary: fc.integer({ min: -150, max: 0 }) });
const lands = fc.integer({ min: 0, max: 6 });
const strip = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const patchField = fc.oneof(
  fc.record({ dueAtInterval: fc.integer({ min: -500, max: 5000 }) }),
  fc.record({ recurringInterval: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }) }),
  fc.record({ calendarDateDue: fc.option(fc.integer({ min: -20, max: 60 }), { nil: null }) }),
  fc.record({ calendarRecurring: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }) }),
  fc.record({ recurring: fc.boolean() }),
  fc.record({ trackingItem: fc.nat(2) }),
  fc.record({ dropUsage: fc.constant(true) }),
  fc.record({ lastCarriedOutDate: fc.integer({ min: 0, max: 400 }), lcoAs: fc.constantFrom('owner', 'pilot') }),
  fc.record({ lastCarriedOutValue: fc.integer({ min: 0, max: 90000 }) }),
);

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('log' as const), ac: fc.constantFrom<0 | 1>(0, 1), hobbs, landings: opt(lands), tacho: opt(hobbs), day: fc.integer({ min: 1, max: 28 }), via }).map(strip) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('batch' as const), items: fc.array(fc.record({ ac: fc.constantFrom<0 | 1>(0, 1), hobbs, landings: opt(lands), tacho: opt(hobbs) }).map(strip), { minLength: 1, maxLength: 4 }) }) },
  {
    weight: 3,
    arbitrary: fc
      .record({ k: fc.constant('edit' as const), at: fc.nat(), to: opt(fc.constantFrom<0 | 1>(0, 1)), hobbs: opt(fc.option(hobbs, { nil: null, freq: 5 })), landings: opt(fc.option(lands, { nil: null, freq: 5 })), day: opt(fc.integer({ min: 1, max: 28 })), via })
      .map(strip),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('delete' as const), at: fc.nat(), batch: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('initial' as const), ac: fc.constantFrom<0 | 1>(0, 1), key: fc.constantFrom<'hobbs' | 'landings'>('hobbs', 'landings'), value: fc.integer({ min: 0, max: 500_000 }) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('install' as const), c: fc.nat(2), parent: fc.nat(5), map: fc.tuple(...[0, 1, 2].map(() => fc.constantFrom<'natural' | 'omit' | 'alt'>('natural', 'natural', 'natural', 'omit', 'alt'))) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('remove' as const), c: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('reset' as const), c: fc.nat(2), value: fc.integer({ min: 0, max: 5000 }) }) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        k: fc.constant('create' as const),
        asset: fc.nat(5),
        key: fc.nat(2),
        dueOff: fc.integer({ min: -300, max: 3000 }),
        recurring: fc.boolean(),
        interval: opt(fc.integer({ min: 1, max: 5000 }), 8),
        cal: opt(fc.record({ off: fc.integer({ min: -15, max: 60 }), rec: opt(fc.integer({ min: 1, max: 400 }), 6) }), 2),
        badRec: opt(fc.integer({ min: 1, max: 400 }), 20),
        name: fc.constantFrom('Inspection', 'Overhaul', 'Service'),
        via,
      })
      .map((x: any) => strip({ ...x, cal: undefined, badRec: undefined, calOff: x.cal?.off, calRec: x.cal ? x.cal.rec : x.badRec })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        k: fc.constant('complete' as const),
        at: fc.nat(),
        tv: opt(fc.integer({ min: -200, max: 3000 })),
        when: fc.oneof(
          fc.constant({ kind: 'none' as const }),
          fc.record({ kind: fc.constant('date' as const), back: fc.integer({ min: -1, max: 20 }) }),
          fc.record({ kind: fc.constant('time' as const), minutes: fc.integer({ min: -30_000, max: 8 }) }),
        ),
        via,
        as: fc.constantFrom<'owner' | 'pilot'>('owner', 'pilot'),
      })
      .map(strip),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('patch' as const), at: fc.nat(), p: fc.array(patchField, { minLength: 1, maxLength: 3 }).map((a) => Object.assign({}, ...a)) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deactivate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('restore' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('tick' as const), minutes: fc.integer({ min: 1, max: 72 * 60 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('reading' as const), delta: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 50_000 }) }, { weight: 1, arbitrary: fc.integer({ min: -5000, max: -1 }) }), via }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('softDelete' as const), c: fc.nat(2), restore: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('combo' as const),
      first: fc.constantFrom('log' as const, 'reset' as const, 'reading' as const, 'deleteLog' as const, 'remove' as const, 'install' as const),
      ac: fc.constantFrom<0 | 1>(0, 1),
      c: fc.nat(2),
      n: fc.integer({ min: 1, max: 900 }),
      at: fc.nat(),
      twice: fc.boolean(),
    }),
  },
);

// start anywhere from 2026-03-25 to 2026-10-15 (both Sydney DST changes inside), any minute
const start = fc.oneof(
  fc.integer({ min: 0, max: 204 * 24 * 60 }).map((m) => Date.UTC(2026, 2, 25) + m * 60_000),
  fc.tuple(fc.constantFrom(Date.UTC(2026, 3, 4, 16), Date.UTC(2026, 9, 3, 16), Date.UTC(2026, 10, 1, 6), Date.UTC(2026, 8, 26, 14)), fc.integer({ min: -48 * 60, max: 48 * 60 })).map(([t, m]) => t + m * 60_000),
);

// ---------------------------------------------------------------- model
interface Ac {
  uid: string;
  reg: string;
  keys: AcKey[];
  initial: Record<string, bigint>;
}
interface Log {
  uid: string;
  ac: number;
  values: Partial<Record<AcKey, bigint>>;
}
type Parent = AssetRef;
interface Counter {
  key: CKey;
  basis: 'sinceNew' | 'sinceEvent';
  value: bigint;
  binding: { parent: Parent; src: string; pv: bigint; sv: bigint } | null;
}
interface Veh {
  uid: string;
  initial: bigint;
  readings: bigint[];
}
interface Comp {
  deleted?: boolean;
  uid: string;
  parent: Parent | null;
  counters: Counter[];
}
interface Item {
  uid: string;
  name: string;
  asset: AssetRef;
  trackingItem: string | null;
  dueAt: bigint | null;
  recurring: boolean;
  interval: bigint | null;
  cal: string | null;
  calRec: number | null;
  active: boolean;
  lastDate: number | null;
  lastValue: bigint | null;
}

class Model {
  logs: Log[] = [];
  items: Item[] = [];
  clock = 0;
  constructor(
    readonly ac: Ac[],
    readonly comps: Comp[],
    readonly veh: Veh,
  ) {}
  vtotal(): bigint {
    return this.veh.readings.reduce((a, b) => (b > a ? b : a), this.veh.initial);
  }
  total(i: number, k: string): bigint {
    return this.logs.filter((l) => l.ac === i).reduce((s, l) => s + (l.values[k as AcKey] ?? 0n), this.ac[i]!.initial[k] ?? 0n);
  }
  reading(ci: number, key: string): { value: bigint; decreased: boolean } {
    const c = this.comps[ci]!.counters.find((x) => x.key === key)!;
    if (!c.binding) return { value: c.value, decreased: false };
    const diff = this.current(c.binding.parent, c.binding.src) - c.binding.pv;
    return diff < 0n ? { value: c.binding.sv, decreased: true } : { value: c.binding.sv + diff, decreased: false };
  }
  current(p: Parent, k: string): bigint {
    return p.type === 'aircraft' ? this.total(p.i, k) : p.type === 'vehicle' ? this.vtotal() : this.reading(p.i, k).value;
  }
  live(a: AssetRef, k: string): bigint {
    return this.current(a, k);
  }
  keysOf(a: AssetRef): string[] {
    return a.type === 'aircraft' ? this.ac[a.i]!.keys : a.type === 'vehicle' ? ['odometer'] : ['hours', 'landings', 'sinceOverhaul'];
  }
  above(ci: number): number[] {
    const out: number[] = [];
    for (let p = this.comps[ci]!.parent; p?.type === 'component'; p = this.comps[p.i]!.parent) out.push(p.i);
    return out;
  }
  companyTz = 'UTC';
  zone(as: 'owner' | 'pilot') {
    return as === 'owner' ? TZ : this.companyTz;
  }
  today(as: 'owner' | 'pilot' = 'owner') {
    return localDate(this.clock, this.zone(as));
  }
}

function thresholdsValid(s: Pick<Item, 'trackingItem' | 'dueAt' | 'recurring' | 'interval' | 'cal' | 'calRec'>): boolean {
  const usage = s.trackingItem !== null && s.dueAt !== null;
  if ((s.trackingItem === null) !== (s.dueAt === null)) return false;
  if (!usage && s.cal === null) return false;
  if (s.interval !== null && !usage) return false;
  if (s.calRec !== null && s.cal === null) return false;
  if (s.recurring && usage && s.interval === null) return false;
  if (s.recurring && s.cal !== null && s.calRec === null) return false;
  return true;
}

// ---------------------------------------------------------------- transport
const api = (method: string, path: string, body?: unknown, key?: string) => env.json(method, `/api/v1${path}`, { key: key ?? env.a.key, body });
async function gql(query: string, variables?: Record<string, unknown>) {
  const r = await env.gql(query, variables);
  return r;
}
const noNulls = (o: any): any => (Array.isArray(o) ? o.map(noNulls) : o && typeof o === 'object' ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null).map(([k, v]) => [k, noNulls(v)])) : o);

const STATUS_FIELDS = 'scheduleItemUid name type relatedTo relatedToType recurring trackingItem trackingItemDisplayText dueAtInterval currentTotal remaining calendarDateDue calendarDaysRemaining lastCarriedOutDate lastCarriedOutValue status';
const ITEM_FIELDS = 'uid name relatedTo relatedToType recurring recurringInterval trackingItem dueAtInterval calendarDateDue calendarRecurring lastCarriedOutDate lastCarriedOutValue status';

let trace: string[] = [];
const stats: Record<string, number> = {};
const bump = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);

async function writeResult(via: Via, restCall: () => Promise<{ status: number; body: any }>, q: string, vars: Record<string, unknown>, field: string) {
  if (via === 'rest') {
    const r = await restCall();
    return { status: r.status, body: r.body };
  }
  const r = await gql(q, vars);
  if (r.body.errors?.length) return { status: r.body.errors[0].extensions?.status ?? r.status, body: r.body.errors };
  return { status: 200, body: r.body.data[field] };
}

function urgency(s: { calendarDaysRemaining: number | null; remaining: bigint | null }) {
  const r = s.remaining;
  const d = s.calendarDaysRemaining;
  if ((r !== null && r < 0n) || (d !== null && d < 0)) return 0;
  if ((r !== null && r === 0n) || (d !== null && d === 0)) return 1;
  if (r !== null || d !== null) return 2;
  return 3;
}

function statusModel(m: Model, today: string) {
  const active = m.items.filter((i) => i.active);
  const rows = active.map((it) => {
    const cur = it.trackingItem !== null ? m.live(it.asset, it.trackingItem) : null;
    const remaining = it.dueAt !== null && cur !== null ? it.dueAt - cur : null;
    const days = it.cal === null ? null : dayNo(it.cal) - dayNo(today);
    return { it, cur, remaining, days };
  });
  const byNum = (x: number | bigint | null, y: number | bigint | null) => (x !== null && y !== null ? (x < y ? -1 : x > y ? 1 : 0) : x !== null ? -1 : y !== null ? 1 : 0);
  rows.sort(
    (a, b) =>
      urgency({ calendarDaysRemaining: a.days, remaining: a.remaining }) - urgency({ calendarDaysRemaining: b.days, remaining: b.remaining }) ||
      byNum(a.days, b.days) ||
      byNum(a.remaining, b.remaining) ||
      (a.it.name < b.it.name ? -1 : a.it.name > b.it.name ? 1 : 0) ||
      (a.it.uid < b.it.uid ? -1 : a.it.uid > b.it.uid ? 1 : 0),
  );
  const wantStatus = rows.map((r) => ({
    scheduleItemUid: r.it.uid,
    currentTotal: r.cur === null ? null : dec(r.cur),
    remaining: r.remaining === null ? null : dec(r.remaining),
    dueAtInterval: r.it.dueAt === null ? null : dec(r.it.dueAt),
    calendarDateDue: r.it.cal === null ? null : `${r.it.cal}T00:00:00.000Z`,
    calendarDaysRemaining: r.days,
    lastCarriedOutValue: r.it.lastValue === null ? null : dec(r.it.lastValue),
  }));
  return { rows, wantStatus };
}
const sview = (s: any) => ({
    scheduleItemUid: s.scheduleItemUid,
    currentTotal: s.currentTotal == null ? null : dec(micro(s.currentTotal)),
    remaining: s.remaining == null ? null : dec(micro(s.remaining)),
    dueAtInterval: s.dueAtInterval == null ? null : dec(micro(s.dueAtInterval)),
    calendarDateDue: s.calendarDateDue ?? null,
    calendarDaysRemaining: s.calendarDaysRemaining ?? null,
    lastCarriedOutValue: s.lastCarriedOutValue == null ? null : dec(micro(s.lastCarriedOutValue)),
  });

async function check(m: Model, label: string) {
  const ctx = () => `${label}\n${trace.join('\n')}`;
  // aircraft totals
  for (const [i, a] of m.ac.entries()) {
    const r = await api('GET', `/aircraft/${a.uid}`);
    const got = Object.fromEntries(a.keys.map((k) => [k, dec(micro(r.body.totals[k]))]));
    const want = Object.fromEntries(a.keys.map((k) => [k, dec(m.total(i, k))]));
    expect(got, `aircraft ${i} totals ${ctx()}`).toEqual(want);
  }
  {
    const r = await api('GET', `/vehicles/${m.veh.uid}`);
    expect(dec(micro(r.body.totals.odometer)), `vehicle total ${ctx()}`).toEqual(dec(m.vtotal()));
  }
  // component counters REST
  for (const [ci, c] of m.comps.entries()) {
    const r = await api('GET', `/components/${c.uid}`);
    const got = Object.fromEntries(Object.entries<number>(r.body.totals).map(([k, v]) => [k, dec(micro(v))]));
    const want = Object.fromEntries(c.counters.map((x) => [x.key, dec(m.reading(ci, x.key).value)]));
    expect(got, `component c${ci} totals ${ctx()}`).toEqual(want);
  }
  // schedule items REST
  const today = m.today();
  const want = m.items.map((it) => ({
    uid: it.uid,
    status: it.active ? 'active' : 'inactive',
    trackingItem: it.trackingItem,
    dueAtInterval: it.dueAt === null ? null : dec(it.dueAt),
    recurringInterval: it.interval === null ? null : dec(it.interval),
    calendarDateDue: it.cal === null ? null : `${it.cal}T00:00:00.000Z`,
    calendarRecurring: it.calRec,
    recurring: it.recurring,
    lastCarriedOutDate: it.lastDate === null ? null : new Date(it.lastDate).toISOString(),
    lastCarriedOutValue: it.lastValue === null ? null : dec(it.lastValue),
  }));
  const view = (b: any) => ({
    uid: b.uid,
    status: b.status,
    trackingItem: b.trackingItem ?? null,
    dueAtInterval: b.dueAtInterval == null ? null : dec(micro(b.dueAtInterval)),
    recurringInterval: b.recurringInterval == null ? null : dec(micro(b.recurringInterval)),
    calendarDateDue: b.calendarDateDue ?? null,
    calendarRecurring: b.calendarRecurring ?? null,
    recurring: b.recurring,
    lastCarriedOutDate: b.lastCarriedOutDate ?? null,
    lastCarriedOutValue: b.lastCarriedOutValue == null ? null : dec(micro(b.lastCarriedOutValue)),
  });
  const restItems = [];
  for (const it of m.items) restItems.push(view((await api('GET', `/schedule-items/${it.uid}`)).body));
  expect(restItems, `schedule items (REST) ${ctx()}`).toEqual(want);

  const { rows, wantStatus } = statusModel(m, today);
  const ms = await api('GET', '/maintenance-status');
  expect(ms.status).toBe(200);
  expect(ms.body.data.map(sview), `maintenance-status ${ctx()}`).toEqual(wantStatus);
  const overdue = await api('GET', '/maintenance-status?overdueOnly=true');
  expect(overdue.body.data.map((s: any) => s.scheduleItemUid), `overdueOnly ${ctx()}`).toEqual(rows.filter((r) => urgency({ calendarDaysRemaining: r.days, remaining: r.remaining }) === 0).map((r) => r.it.uid));
  const within = await api('GET', '/maintenance-status?dueWithinDays=7');
  expect(within.body.data.map((s: any) => s.scheduleItemUid), `dueWithinDays ${ctx()}`).toEqual(
    rows.filter((r) => urgency({ calendarDaysRemaining: r.days, remaining: r.remaining }) <= 1 || (r.days !== null && r.days <= 7)).map((r) => r.it.uid),
  );
  {
    const p = statusModel(m, m.today('pilot'));
    const r = await api('GET', '/maintenance-status', undefined, pilotKey);
    expect(r.body.data.map(sview), `maintenance-status as pilot (company zone ${m.companyTz}) ${ctx()}`).toEqual(p.wantStatus);
  }
  for (const limit of [1, 2, 3]) {
    const seen: any[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 50; n++) {
      const r = await api('GET', `/maintenance-status?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      seen.push(...r.body.data);
      cursor = r.body.nextCursor;
      if (!cursor) break;
    }
    expect(seen.map((x) => x.scheduleItemUid), `paged by ${limit} ${ctx()}`).toEqual(ms.body.data.map((x: any) => x.scheduleItemUid));
  }
  for (const tz of ['AEST', '+05:45', 'NST', 'Pacific/Chatham']) {
    const p = statusModel(m, localDate(m.clock, tz));
    const r = await api('GET', `/maintenance-status?timezone=${encodeURIComponent(tz)}`);
    expect(r.body.data.map(sview), `maintenance-status timezone=${tz} ${ctx()}`).toEqual(p.wantStatus);
  }
  const utc = await api('GET', '/maintenance-status?timezone=UTC');
  const utcToday = new Date(m.clock).toISOString().slice(0, 10);
  for (const s of utc.body.data) {
    const it = m.items.find((x) => x.uid === s.scheduleItemUid)!;
    expect(s.calendarDaysRemaining ?? null, `UTC days ${ctx()}`).toEqual(it.cal === null ? null : dayNo(it.cal) - dayNo(utcToday));
  }

  // GraphQL parity: the same reads in one document
  const q = `query($ids: [ID!]) { maintenanceStatus { data { ${STATUS_FIELDS} } }
    ${m.items.map((it, n) => `s${n}: scheduleItem(id: "${it.uid}") { ${ITEM_FIELDS} }`).join('\n')}
    ${m.comps.map((c, n) => `c${n}: component(id: "${c.uid}") { totals counters { key value } }`).join('\n')}
    ${m.ac.map((a, n) => `a${n}: aircraft(id: "${a.uid}") { totals }`).join('\n')} }`.replace('query($ids: [ID!])', 'query');
  const g = await gql(q);
  expect(g.body.errors, ctx()).toBeUndefined();
  const d = g.body.data;
  expect(noNulls(d.maintenanceStatus.data), `GraphQL vs REST maintenance-status ${ctx()}`).toEqual(ms.body.data);
  for (const [n, it] of m.items.entries()) {
    const rest = (await api('GET', `/schedule-items/${it.uid}`)).body;
    const pick = Object.fromEntries(ITEM_FIELDS.split(' ').map((f) => [f, rest[f]]).filter(([, v]) => v !== undefined));
    expect(noNulls(d[`s${n}`]), `GraphQL vs REST item ${n} ${ctx()}`).toEqual(pick);
  }
  for (const [ci, c] of m.comps.entries()) {
    const got = Object.fromEntries(d[`c${ci}`].counters.map((x: any) => [x.key, dec(micro(x.value))]));
    expect(got, `GraphQL counters c${ci} ${ctx()}`).toEqual(Object.fromEntries(c.counters.map((x) => [x.key, dec(m.reading(ci, x.key).value)])));
  }
  for (const [i, a] of m.ac.entries()) {
    expect(Object.fromEntries(a.keys.map((k) => [k, dec(micro(d[`a${i}`].totals[k]))])), `GraphQL aircraft ${i} ${ctx()}`).toEqual(Object.fromEntries(a.keys.map((k) => [k, dec(m.total(i, k))])));
  }
}

// ---------------------------------------------------------------- runs
let run = 0;
let formId = '';
async function cleanup() {
  if (!formId) {
    const f = await api('POST', '/forms', { name: 'Odometer', code: `odo-${Date.now()}`, department: 'Fleet', sections: [{ name: 's', fields: [{ name: 'v', label: 'Vehicle', type: 'vehicle', required: true }, { name: 'o', label: 'Odometer', type: 'odometer', vehicleField: 'v' }] }] });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    formId = f.body.uid;
  }
  // every active item of the company goes inactive, so one run's status is its own
  const list = (await api('GET', '/schedule-items?limit=500')).body.data as any[];
  for (const it of list) await api('DELETE', `/schedule-items/${it.uid}`);
}

async function setupRun(t0: number, init: { hobbs: number; landings: number }[], cinit: number[][], companyTz: string): Promise<Model> {
  run++;
  setClock(t0);
  await cleanup();
  const st = await api('PUT', '/settings/alerts', { dueSoonDays: 14, dueSoonHours: 10, recipients: [], timezone: companyTz }, admin);
  expect(st.status, JSON.stringify(st.body)).toBe(200);
  const acs: Ac[] = [];
  for (const [i, keys] of [['hobbs', 'landings'], ['hobbs', 'landings', 'tacho']].entries()) {
    const reg = `VH-M${run}${'XY'[i]}${Math.random().toString(36).slice(2, 5).toUpperCase()}`;
    const items = Object.fromEntries(keys.map((k) => [k, { displayText: k, type: 'number' }]));
    const initialValues = { hobbs: num(cents(init[i]!.hobbs)), landings: init[i]!.landings };
    const r = await api('POST', '/aircraft', { registration: reg, type: 'R44', category: 'rotary-wing', engineType: 'piston', engineCount: 1, maintenanceTrackingItems: items, logTrackingItems: {}, initialValues }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    acs.push({ uid: r.body.uid, reg, keys: keys as AcKey[], initial: { hobbs: cents(init[i]!.hobbs), landings: BigInt(init[i]!.landings) * SCALE } });
  }
  const comps: Comp[] = [];
  for (let ci = 0; ci < 3; ci++) {
    const [h, l, so] = cinit[ci]!;
    const r = await api('POST', '/components', {
      name: `comp${ci}`,
      type: 'Engine',
      partNumber: `PN${ci}`,
      serialNumber: `SN${run}-${ci}`,
      counters: [
        { displayText: 'Hours', unit: 'hours', basis: 'sinceNew', initialValue: num(cents(h!)) },
        { displayText: 'Landings', unit: 'landings', basis: 'sinceNew', initialValue: l },
        { displayText: 'Since overhaul', unit: 'hours', basis: 'sinceEvent', initialValue: num(cents(so!)) },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    comps.push({
      uid: r.body.uid,
      parent: null,
      counters: [
        { key: 'hours', basis: 'sinceNew', value: cents(h!), binding: null },
        { key: 'landings', basis: 'sinceNew', value: BigInt(l!) * SCALE, binding: null },
        { key: 'sinceOverhaul', basis: 'sinceEvent', value: cents(so!), binding: null },
      ],
    });
  }
  const vinit = BigInt(init[0]!.landings) * 100n * SCALE;
  const v = await api('POST', '/vehicles', { make: 'Isuzu', model: 'NPR', registration: `K${run}${Math.random().toString(36).slice(2, 6)}`, tracking: { kilometers: true, miles: false, hours: false }, initialValues: { odometer: num(vinit) } });
  expect(v.status, JSON.stringify(v.body)).toBe(201);
  const m = new Model(acs, comps, { uid: v.body.uid, initial: vinit, readings: [] });
  m.clock = t0;
  m.companyTz = companyTz;
  return m;
}

const assetOf = (n: number): AssetRef => (n < 2 ? { type: 'aircraft', i: n } : n < 5 ? { type: 'component', i: n - 2 } : { type: 'vehicle', i: 0 });

async function step(m: Model, c: Cmd) {
  const line = JSON.stringify(c);
  const expectStatus = (r: { status: number; body: any }, s: number) => expect(r.status, `${line} -> ${JSON.stringify(r.body)}\n${trace.join('\n')}`).toBe(s);
  switch (c.k) {
    case 'reading': {
      const val = m.vtotal() + cents(c.delta);
      if (val < 0n) return;
      const body = { formId, answers: { v: m.veh.uid, o: num(val) } };
      const r = await writeResult(c.via, () => api('POST', '/form-completions', body), `mutation($i: CreateFormCompletionInput!) { createFormCompletion(input: $i) { uid status sideEffects { vehiclesUpdated warnings } } }`, { i: body }, 'createFormCompletion');
      expect([200, 201], `${line} -> ${JSON.stringify(r.body)}`).toContain(r.status);
      m.veh.readings.push(val);
      break;
    }
    case 'softDelete': {
      const self = m.comps[c.c]!;
      const hasKids = m.comps.some((x) => x.parent?.type === 'component' && x.parent.i === c.c);
      if (!c.restore) {
        const r = await api('DELETE', `/components/${self.uid}`);
        const want = self.deleted ? 404 : self.parent || hasKids ? 409 : 200;
        expect(r.status, `${line} ${JSON.stringify(r.body)}`).toBe(want);
        if (want === 200) self.deleted = true;
      } else {
        const r = await api('POST', `/components/${self.uid}/restore`);
        expect(r.status, `${line} ${JSON.stringify(r.body)}`).toBe(self.deleted ? 200 : 409);
        self.deleted = false;
      }
      break;
    }
    case 'combo': {
      // one GraphQL document: a write, then a completion with no body (its trackingValue is the live total), maybe twice
      const live = m.items.filter((i) => i.active && i.trackingItem !== null && i.dueAt !== null);
      if (!live.length) return;
      const it = live[c.at % live.length]!;
      let field = '';
      let apply = () => {};
      if (c.first === 'log') {
        const a = m.ac[c.ac]!;
        field = `w: createFlightLog(input: { timeDate: "2026-05-03T01:00:00Z", pilot: "acme-pilot", aircraftId: "${a.uid}", aircraftRegistration: "${a.reg}", startLocation: "A", endLocation: "B", pax: 1, trackingItems: { hobbs: ${dec(cents(c.n))}, landings: ${c.n % 5} } }) { uid status }`;
        apply = () => m.logs.push({ uid: '?', ac: c.ac, values: { hobbs: cents(c.n), landings: BigInt(c.n % 5) * SCALE } });
      } else if (c.first === 'reset') {
        const self = m.comps[c.c]!;
        field = `w: resetComponentCounter(id: "${self.uid}", input: { counterKey: "sinceOverhaul", newValue: ${dec(cents(c.n))} }) { uid status }`;
        apply = () => {
          const x = self.counters[2]!;
          x.value = cents(c.n);
          if (x.binding) x.binding = { ...x.binding, sv: cents(c.n), pv: m.current(x.binding.parent, x.binding.src) };
        };
      } else if (c.first === 'reading') {
        const val = m.vtotal() + cents(c.n * 10);
        field = `w: createFormCompletion(input: { formId: "${formId}", answers: { v: "${m.veh.uid}", o: ${dec(val)} } }) { uid status }`;
        apply = () => m.veh.readings.push(val);
      } else if (c.first === 'deleteLog') {
        if (!m.logs.length || m.logs.some((l) => l.uid === '?')) return;
        const log = m.logs[c.n % m.logs.length]!;
        field = `w: deleteFlightLog(id: "${log.uid}") { uid status }`;
        apply = () => (m.logs = m.logs.filter((l) => l !== log));
      } else if (c.first === 'remove') {
        const self = m.comps[c.c]!;
        if (!self.parent) return;
        field = `w: removeComponent(id: "${self.uid}") { uid status }`;
        apply = () => {
          const now = self.counters.map((x) => m.reading(c.c, x.key).value);
          self.counters.forEach((x, n) => {
            x.value = now[n]!;
            x.binding = null;
          });
          self.parent = null;
        };
      } else if (c.first === 'install') {
        const self = m.comps[c.c]!;
        if (self.parent || self.deleted) return;
        const parent: Parent = { type: 'aircraft', i: c.ac };
        field = `w: installComponent(id: "${self.uid}", input: { parentType: aircraft, parentUid: "${m.ac[c.ac]!.uid}", mappings: [{ counterKey: "hours", sourceKey: "hobbs" }, { counterKey: "landings", sourceKey: "landings" }, { counterKey: "sinceOverhaul", sourceKey: "hobbs" }] }) { uid status }`;
        apply = () => {
          const now = self.counters.map((x) => m.reading(c.c, x.key).value);
          const src = ['hobbs', 'landings', 'hobbs'];
          self.counters.forEach((x, n) => {
            x.value = now[n]!;
            x.binding = { parent, src: src[n]!, pv: m.current(parent, src[n]!), sv: now[n]! };
          });
          self.parent = parent;
        };
      }
      const doc = `mutation { ${field} c1: completeScheduleItem(id: "${it.uid}") { uid status } ${c.twice && it.recurring ? `c2: completeScheduleItem(id: "${it.uid}") { uid status }` : ''} }`;
      bump('comboRun');
      const r = await gql(doc);
      expect(r.body.errors, `${line} ${doc} -> ${JSON.stringify(r.body)}`).toBeUndefined();
      apply();
      if (c.first === 'log') m.logs[m.logs.length - 1]!.uid = r.body.data.w.uid;
      const times = c.twice && it.recurring ? 2 : 1;
      for (let n = 0; n < times; n++) {
        const tv = m.live(it.asset, it.trackingItem!);
        it.lastDate = m.clock;
        it.lastValue = tv;
        if (!it.recurring) it.active = false;
        else {
          if (it.interval !== null) it.dueAt = tv + it.interval;
          if (it.cal !== null && it.calRec !== null) it.cal = addDays(m.today(), it.calRec);
        }
      }
      break;
    }
    case 'tick': {
      m.clock += c.minutes * 60_000;
      setClock(m.clock);
      break;
    }
    case 'log': {
      const a = m.ac[c.ac]!;
      const values: Partial<Record<AcKey, bigint>> = { hobbs: cents(c.hobbs) };
      if (c.landings !== undefined) values.landings = BigInt(c.landings) * SCALE;
      if (c.tacho !== undefined && c.ac === 1) values.tacho = cents(c.tacho);
      const ti = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, num(v!)]));
      const body = { timeDate: `2026-05-${String(c.day).padStart(2, '0')}T09:30:00Z`, pilot: 'acme-pilot', aircraftId: a.uid, aircraftRegistration: a.reg, startLocation: 'A', endLocation: 'B', pax: 1, trackingItems: ti };
      const r = await writeResult(c.via, () => api('POST', '/flight-logs', body), `mutation($i: CreateFlightLogInput!) { createFlightLog(input: $i) { uid status } }`, { i: body }, 'createFlightLog');
      expect(r.status === 201 || r.status === 200, `${line} -> ${JSON.stringify(r.body)}`).toBe(true);
      m.logs.push({ uid: r.body.uid, ac: c.ac, values });
      break;
    }
    case 'batch': {
      const bodies = c.items.map((x) => {
        const values: Partial<Record<AcKey, bigint>> = { hobbs: cents(x.hobbs) };
        if (x.landings !== undefined) values.landings = BigInt(x.landings) * SCALE;
        if (x.tacho !== undefined && x.ac === 1) values.tacho = cents(x.tacho);
        const a = m.ac[x.ac]!;
        return { values, ac: x.ac, body: { timeDate: '2026-05-02T10:00:00Z', pilot: 'acme-pilot', aircraftId: a.uid, aircraftRegistration: a.reg, startLocation: 'A', endLocation: 'B', pax: null, ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, num(v!)])) } };
      });
      const r = await api('POST', '/flight-logs/batch', { items: bodies.map((b) => b.body) });
      expectStatus(r, 200);
      expect(r.body.errors, line).toEqual([]);
      r.body.results.forEach((res: any, n: number) => m.logs.push({ uid: res.uid, ac: bodies[n]!.ac, values: bodies[n]!.values }));
      break;
    }
    case 'edit': {
      if (!m.logs.length) return;
      const log = m.logs[c.at % m.logs.length]!;
      const target = c.to ?? log.ac;
      const patch: Record<string, unknown> = {};
      const kept = { ...log.values };
      if (c.hobbs !== undefined) {
        patch.hobbs = c.hobbs === null ? null : num(cents(c.hobbs));
        if (c.hobbs === null) delete kept.hobbs;
        else kept.hobbs = cents(c.hobbs);
      }
      if (c.landings !== undefined) {
        patch.landings = c.landings;
        if (c.landings === null) delete kept.landings;
        else kept.landings = BigInt(c.landings) * SCALE;
      }
      if (target !== log.ac) {
        patch.aircraftId = m.ac[target]!.uid;
        if (target === 0 && kept.tacho !== undefined) {
          patch.tacho = null;
          delete kept.tacho;
        }
      }
      if (c.day !== undefined) patch.timeDate = `2026-06-${String(c.day).padStart(2, '0')}T08:00:00+10:00`;
      if (!Object.keys(patch).length) return;
      const tracking = Object.fromEntries(Object.entries(patch).filter(([k]) => ['hobbs', 'landings', 'tacho'].includes(k)));
      const core = Object.fromEntries(Object.entries(patch).filter(([k]) => !['hobbs', 'landings', 'tacho'].includes(k)));
      const input = { ...core, ...(Object.keys(tracking).length ? { trackingItems: tracking } : {}) };
      const r = await writeResult(c.via, () => api('PATCH', `/flight-logs/${log.uid}`, input), `mutation($id: ID!, $i: UpdateFlightLogInput!) { updateFlightLog(id: $id, input: $i) { uid status } }`, { id: log.uid, i: input }, 'updateFlightLog');
      expect(r.status, `${line} ${JSON.stringify(input)} -> ${JSON.stringify(r.body)}`).toBe(200);
      log.ac = target;
      log.values = kept;
      break;
    }
    case 'delete': {
      if (!m.logs.length) return;
      const log = m.logs[c.at % m.logs.length]!;
      const r = c.batch ? await api('POST', '/flight-logs/batch-delete', { ids: [log.uid] }) : await api('DELETE', `/flight-logs/${log.uid}`);
      expectStatus(r, 200);
      if (c.batch) expect(r.body.errors, line).toEqual([]);
      m.logs = m.logs.filter((l) => l !== log);
      break;
    }
    case 'initial': {
      const a = m.ac[c.ac]!;
      const v = c.key === 'hobbs' ? cents(c.value) : BigInt(c.value % 20000) * SCALE;
      const r = await api('PATCH', `/aircraft/${a.uid}`, { initialValues: { [c.key]: num(v) } }, admin);
      expectStatus(r, 200);
      a.initial[c.key] = v;
      break;
    }
    case 'install': {
      const self = m.comps[c.c]!;
      if (self.parent) return;
      let parent: Parent;
      if (c.parent < 2) parent = { type: 'aircraft', i: c.parent };
      else if (c.parent === 5) parent = { type: 'vehicle', i: 0 };
      else {
        const pi = (c.parent - 2) % 3;
        if (pi === c.c || m.above(pi).includes(c.c)) return; // refusals are covered elsewhere
        parent = { type: 'component', i: pi };
      }
      const keys: CKey[] = ['hours', 'landings', 'sinceOverhaul'];
      const mappings: { counterKey: string; sourceKey: string }[] = [];
      keys.forEach((k, n) => {
        const ch = c.map[n]!;
        if (ch === 'omit') return;
        let src: string;
        if (parent.type === 'vehicle') src = 'odometer';
        else if (parent.type === 'aircraft') src = k === 'landings' ? (ch === 'alt' ? 'hobbs' : 'landings') : ch === 'alt' && parent.i === 1 ? 'tacho' : 'hobbs';
        else src = k === 'landings' ? (ch === 'alt' ? 'hours' : 'landings') : ch === 'alt' ? 'landings' : 'hours';
        mappings.push({ counterKey: k, sourceKey: src });
      });
      const parentUid = parent.type === 'aircraft' ? m.ac[parent.i]!.uid : parent.type === 'vehicle' ? m.veh.uid : m.comps[parent.i]!.uid;
      if (self.deleted || (parent.type === 'component' && m.comps[parent.i]!.deleted)) return;
      const r = await api('POST', `/components/${self.uid}/install`, { parentType: parent.type, parentUid, mappings });
      expectStatus(r, 200);
      const now = self.counters.map((x) => m.reading(c.c, x.key).value);
      const by = new Map(mappings.map((x) => [x.counterKey, x.sourceKey]));
      const pnow = new Map(mappings.map((x) => [x.sourceKey, m.current(parent, x.sourceKey)]));
      self.counters.forEach((x, n) => {
        const src = by.get(x.key);
        x.value = now[n]!;
        x.binding = src ? { parent, src, pv: pnow.get(src)!, sv: now[n]! } : null;
      });
      self.parent = parent;
      break;
    }
    case 'remove': {
      const self = m.comps[c.c]!;
      if (!self.parent) return;
      const r = await api('POST', `/components/${self.uid}/remove`, {});
      expectStatus(r, 200);
      const now = self.counters.map((x) => m.reading(c.c, x.key).value);
      self.counters.forEach((x, n) => {
        x.value = now[n]!;
        x.binding = null;
      });
      self.parent = null;
      break;
    }
    case 'reset': {
      const self = m.comps[c.c]!;
      const v = cents(c.value);
      const r = await api('POST', `/components/${self.uid}/counters/reset`, { counterKey: 'sinceOverhaul', newValue: num(v) });
      expectStatus(r, 200);
      const x = self.counters[2]!;
      x.value = v;
      if (x.binding) x.binding = { ...x.binding, sv: v, pv: m.current(x.binding.parent, x.binding.src) };
      break;
    }
    case 'create': {
      const asset = assetOf(c.asset);
      const keys = m.keysOf(asset);
      const key = keys[c.key % keys.length]!;
      const cur = m.live(asset, key);
      const dueAt = cur + cents(c.dueOff);
      const it: Omit<Item, 'uid'> = {
        name: c.name,
        asset,
        trackingItem: key,
        dueAt,
        recurring: c.recurring,
        interval: c.interval === undefined ? null : cents(c.interval),
        cal: c.calOff === undefined ? null : addDays(m.today(), c.calOff),
        calRec: c.calRec ?? null,
        active: true,
        lastDate: null,
        lastValue: null,
      };
      const body: Record<string, unknown> = {
        name: c.name,
        type: 'Inspection',
        relatedTo: asset.type === 'aircraft' ? m.ac[asset.i]!.uid : asset.type === 'vehicle' ? m.veh.uid : m.comps[asset.i]!.uid,
        relatedToType: asset.type,
        recurring: c.recurring,
        trackingItem: key,
        dueAtInterval: num(dueAt),
        ...(it.interval !== null ? { recurringInterval: num(it.interval) } : {}),
        ...(it.cal !== null ? { calendarDateDue: it.cal } : {}),
        ...(it.calRec !== null ? { calendarRecurring: it.calRec } : {}),
      };
      const r = await writeResult(c.via, () => api('POST', '/schedule-items', body), `mutation($i: CreateScheduleItemInput!) { createScheduleItem(input: $i) { uid status } }`, { i: body }, 'createScheduleItem');
      if (!thresholdsValid(it) || (asset.type === 'component' && m.comps[asset.i]!.deleted)) {
        expect(r.status, `${line} should be refused -> ${JSON.stringify(r.body)}`).toBe(400);
        return;
      }
      expect([200, 201], `${line} -> ${JSON.stringify(r.body)}`).toContain(r.status);
      m.items.push({ uid: r.body.uid, ...it });
      bump('createOk');
      break;
    }
    case 'complete': {
      if (!m.items.length) return;
      const it = m.items[c.at % m.items.length]!;
      const body: Record<string, unknown> = {};
      let tv: bigint | null = null;
      if (c.tv !== undefined) {
        tv = (it.trackingItem ? m.live(it.asset, it.trackingItem) : 0n) + cents(c.tv);
        body.trackingValue = num(tv);
      } else if (it.trackingItem !== null && it.dueAt !== null) tv = m.live(it.asset, it.trackingItem);
      const as = c.as ?? 'owner';
      const tz = m.zone(as);
      const key = as === 'owner' ? env.a.key : pilotKey;
      let at = m.clock;
      let date = m.today(as);
      let future = false;
      if (c.when.kind === 'date') {
        date = addDays(m.today(as), -c.when.back);
        at = startOfDay(date, tz);
        body.completedAt = date;
        future = c.when.back < 0;
      } else if (c.when.kind === 'time') {
        at = Math.floor(m.clock / 1000) * 1000 + c.when.minutes * 60_000;
        body.completedAt = new Date(at).toISOString();
        date = localDate(at, tz);
        future = at > m.clock + 5 * 60_000;
      }
      const r = await writeResult(
        c.via === 'graphql' && as === 'pilot' ? 'rest' : c.via,
        () => api('POST', `/schedule-items/${it.uid}/complete`, Object.keys(body).length ? body : undefined, key),
        `mutation($id: ID!, $i: CompleteScheduleItemInput) { completeScheduleItem(id: $id, input: $i) { uid status } }`,
        { id: it.uid, i: Object.keys(body).length ? body : null },
        'completeScheduleItem',
      );
      if (!it.active) {
        expect(r.status, `${line} inactive -> ${JSON.stringify(r.body)}`).toBe(409);
        return;
      }
      if (future) {
        expect(r.status, `${line} future -> ${JSON.stringify(r.body)}`).toBe(400);
        return;
      }
      expect([200, 201], `${line} -> ${JSON.stringify(r.body)}\n${trace.join('\n')}`).toContain(r.status);
      bump('completeOk');
      it.lastDate = at;
      it.lastValue = tv;
      if (!it.recurring) it.active = false;
      else {
        if (it.trackingItem !== null && it.dueAt !== null && it.interval !== null) it.dueAt = tv! + it.interval;
        if (it.cal !== null && it.calRec !== null) it.cal = addDays(date, it.calRec);
      }
      // the completion record
      const list = await api('GET', `/schedule-completions?scheduleItemId=${it.uid}&limit=500`);
      const last = list.body.data.find((x: any) => x.uid === r.body.uid) ?? {};
      expect({ uid: last.uid, completedAt: last.completedAt, trackingValue: last.trackingValue == null ? null : dec(micro(last.trackingValue)) }, line).toEqual({
        uid: r.body.uid,
        completedAt: new Date(at).toISOString(),
        trackingValue: tv === null ? null : dec(tv),
      });
      break;
    }
    case 'patch': {
      if (!m.items.length) return;
      const it = m.items[c.at % m.items.length]!;
      const next = { ...it };
      const body: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(c.p)) {
        if (k === 'dueAtInterval') {
          const base = next.trackingItem ? m.live(next.asset, next.trackingItem) : 0n;
          next.dueAt = base + cents(v as number);
          body.dueAtInterval = num(next.dueAt);
          if (!next.trackingItem) {
            next.trackingItem = m.keysOf(next.asset)[0]!;
            body.trackingItem = next.trackingItem;
          }
        } else if (k === 'recurringInterval') {
          next.interval = v === null ? null : cents(v as number);
          body.recurringInterval = v === null ? null : num(next.interval!);
        } else if (k === 'calendarDateDue') {
          next.cal = v === null ? null : addDays(m.today(), v as number);
          body.calendarDateDue = v === null ? null : (v as number) % 2 ? `${next.cal}T23:30:00-05:00` : next.cal;
        } else if (k === 'calendarRecurring') {
          next.calRec = v as number | null;
          body.calendarRecurring = v;
        } else if (k === 'recurring') {
          next.recurring = v as boolean;
          body.recurring = v;
        } else if (k === 'trackingItem') {
          const keys = m.keysOf(next.asset);
          next.trackingItem = keys[(v as number) % keys.length]!;
          body.trackingItem = next.trackingItem;
          if (next.dueAt === null) {
            next.dueAt = m.live(next.asset, next.trackingItem) + 10n * SCALE;
            body.dueAtInterval = num(next.dueAt);
          }
        } else if (k === 'lastCarriedOutDate') {
          const as = (c.p.lcoAs as 'owner' | 'pilot') ?? 'owner';
          const d = addDays(m.today(as), -(v as number));
          next.lastDate = startOfDay(d, m.zone(as));
          body.lastCarriedOutDate = d;
        } else if (k === 'lastCarriedOutValue') {
          next.lastValue = cents(v as number);
          body.lastCarriedOutValue = num(next.lastValue);
        } else if (k === 'dropUsage') {
          next.trackingItem = null;
          next.dueAt = null;
          next.interval = null;
          body.trackingItem = null;
          body.dueAtInterval = null;
          body.recurringInterval = null;
          delete body.dueAtInterval;
          body.dueAtInterval = null;
        }
      }
      const r = await api('PATCH', `/schedule-items/${it.uid}`, body, c.p.lcoAs === 'pilot' ? pilotKey : env.a.key);
      const assetGone = it.asset.type === 'component' && m.comps[it.asset.i]!.deleted && next.trackingItem !== it.trackingItem;
      if (!thresholdsValid(next) || assetGone) {
        expect(r.status, `${line} ${JSON.stringify(body)} should be refused -> ${JSON.stringify(r.body)}`).toBe(400);
        return;
      }
      expect(r.status, `${line} ${JSON.stringify(body)} -> ${JSON.stringify(r.body)}\n${trace.join('\n')}`).toBe(200);
      Object.assign(it, next);
      break;
    }
    case 'deactivate': {
      if (!m.items.length) return;
      const it = m.items[c.at % m.items.length]!;
      const r = await api('DELETE', `/schedule-items/${it.uid}`);
      expect(r.status, line).toBe(it.active ? 200 : 409);
      it.active = false;
      break;
    }
    case 'restore': {
      if (!m.items.length) return;
      const it = m.items[c.at % m.items.length]!;
      const r = await api('POST', `/schedule-items/${it.uid}/restore`);
      const gone = it.asset.type === 'component' && m.comps[it.asset.i]!.deleted;
      expect(r.status, `${line} ${JSON.stringify(r.body)}`).toBe(it.active || gone ? 409 : 200);
      if (!gone) it.active = true;
      break;
    }
  }
}

describe('maintenance figures model', () => {
  it('aircraft totals, counters and schedule figures follow the documented rules', async () => {
    await fc.assert(
      fc.asyncProperty(
        start,
        fc.array(fc.record({ hobbs: fc.integer({ min: 0, max: 500_000 }), landings: fc.integer({ min: 0, max: 5000 }) }), { minLength: 2, maxLength: 2 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 900 }), fc.integer({ min: 0, max: 20_000 })), { minLength: 3, maxLength: 3 }),
        fc.array(
          fc.record({ asset: fc.nat(5), key: fc.nat(2), dueOff: fc.integer({ min: -50, max: 1500 }), recurring: fc.boolean(), interval: fc.integer({ min: 1, max: 3000 }), cal: opt(fc.integer({ min: -5, max: 30 })), calRec: fc.integer({ min: 1, max: 400 }) }).map(
            (x): Cmd => strip({ k: 'create', asset: x.asset, key: x.key, dueOff: x.dueOff, recurring: x.recurring, interval: x.interval, calOff: x.cal, calRec: x.cal === undefined ? undefined : x.calRec, name: 'Seed', via: 'rest' }),
          ),
          { minLength: 3, maxLength: 4 },
        ),
        fc.array(cmd, { minLength: Math.min(10, STEPS), maxLength: STEPS, size: 'max' }),
        fc.constantFrom('America/New_York', 'Pacific/Auckland', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'AEST', 'UTC-03:30', 'CET'),
        async (t0, init, cinit, seeds, rest, companyTz) => {
          const cmds = [...seeds, ...rest];
          trace = [`start ${new Date(t0).toISOString()} init ${JSON.stringify(init)} cinit ${JSON.stringify(cinit)}`];
          trace.push(`companyTz ${companyTz}`);
          const m = await setupRun(t0, init, cinit, companyTz);
          for (const c of cmds) {
            trace.push(JSON.stringify(c));
            await step(m, c);
            bump(c.k);
            await check(m, `after ${JSON.stringify(c)}`);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, verbose: 1 },
    );
  }, 3_000_000);
});
