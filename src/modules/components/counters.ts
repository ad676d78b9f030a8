import { INHERITED_NAMES } from '../../lib/keys.js';

/**
 * Component counter arithmetic (docs/contract/api-v1.md §2.15, docs/contract/gaps.md §3 "Components"): pure functions, no database.
 *
 * A counter is either unbound (its own `value`, frozen) or bound to one source of its parent (an aircraft or
 * vehicle maintenance item, or a `sinceNew` counter of a parent component). A bound counter's value is
 *
 *     selfValue + (parent's current value of sourceKey - parentValue)
 *
 * recomputed on every read from the parent's live value, never accumulated. A component parent's value is itself
 * computed the same way, recursively. When the difference is negative (the source went backwards, e.g. a flight
 * log was deleted) the value is clamped to selfValue and flagged `sourceDecreased`, not corrected.
 *
 * All arithmetic is done on integer micro-units (6 decimal places), so sums and differences of decimal figures
 * are exact (1200.5 + 0.1 - 0.3 never drifts to 1200.3000000000002).
 */
export const COUNTER_UNITS = ['hours', 'cycles', 'landings', 'distance'] as const;
/** Most counters a component has (a real part has a handful; each one is evaluated on every read). */
export const COUNTERS_MAX = 100;
export const COUNTER_BASES = ['sinceNew', 'sinceEvent'] as const;
export const PARENT_TYPES = ['aircraft', 'vehicle', 'component'] as const;

export type CounterUnit = (typeof COUNTER_UNITS)[number];
export type CounterBasis = (typeof COUNTER_BASES)[number];
export type ParentType = (typeof PARENT_TYPES)[number];
export type AssetParentType = Exclude<ParentType, 'component'>;

export interface CounterBinding {
  parentUid: string;
  parentType: ParentType;
  sourceKey: string;
  /** the parent's value of sourceKey when bound */
  parentValue: number;
  /** the counter's own value when bound */
  selfValue: number;
  /** ISO 8601 */
  boundAt: string;
  sourceDisplayText?: string;
  sourcePrecision?: number;
}

/** A counter as stored in `Component.counters`: `value` is its own (frozen) value; while bound it equals selfValue. */
export interface StoredCounter {
  key: string;
  displayText: string;
  unit: CounterUnit;
  precision: number;
  basis: CounterBasis;
  value: number;
  binding: CounterBinding | null;
}

export interface CounterReading {
  value: number;
  sourceDecreased: boolean;
}

/** Readings of one component's counters, by key. */
export type Readings = Record<string, CounterReading>;

const SCALE = 1_000_000;

/** A number in integer micro-units (6 decimal places, half away from zero). */
export function toMicro(n: number): number {
  const m = Math.round(Math.abs(n) * SCALE);
  return n < 0 ? -m : m;
}

export function fromMicro(m: number): number {
  return m / SCALE;
}

/** A number rounded to 6 decimal places: the exact decimal the counters work with. */
export function exact(n: number): number {
  return fromMicro(toMicro(n)) || 0;
}

/** The current reading of a counter, given the parent's current value of its source (undefined: not available). */
export function readCounter(c: StoredCounter, parentCurrent: number | undefined): CounterReading {
  if (!c.binding) return { value: exact(c.value), sourceDecreased: false };
  const self = toMicro(c.binding.selfValue);
  // the source is gone (parent or key no longer there): the counter holds its value at binding
  if (parentCurrent === undefined || !Number.isFinite(parentCurrent)) return { value: fromMicro(self), sourceDecreased: false };
  const diff = toMicro(parentCurrent) - toMicro(c.binding.parentValue);
  if (diff < 0) return { value: fromMicro(self), sourceDecreased: true };
  return { value: fromMicro(self + diff), sourceDecreased: false };
}

export interface TreeNode {
  uid: string;
  counters: StoredCounter[];
}

/** The live values of an aircraft's or vehicle's number items, by key (undefined when there is no such asset). */
export type AssetValues = (type: AssetParentType, uid: string) => Record<string, number> | undefined;

/**
 * Readings of the given components. `nodes` must hold every component a binding on the way up refers to (a
 * missing one reads as an unavailable source). Each component is evaluated once (memoised), so a list of N
 * components sharing ancestors costs one evaluation per distinct component.
 */
export function evaluateTree(
  nodes: ReadonlyMap<string, TreeNode>,
  assetValues: AssetValues,
  uids: Iterable<string> = nodes.keys(),
): Map<string, Readings> {
  const memo = new Map<string, Readings>();
  const visiting = new Set<string>();

  const evaluate = (uid: string): Readings | undefined => {
    const done = memo.get(uid);
    if (done) return done;
    const node = nodes.get(uid);
    if (!node || visiting.has(uid)) return undefined; // unknown, or a cycle in corrupt data
    visiting.add(uid);
    const out: Readings = {};
    for (const c of node.counters) {
      let parentCurrent: number | undefined;
      if (c.binding) {
        const b = c.binding;
        parentCurrent =
          b.parentType === 'component' ? evaluate(b.parentUid)?.[b.sourceKey]?.value : assetValues(b.parentType, b.parentUid)?.[b.sourceKey];
      }
      out[c.key] = readCounter(c, parentCurrent);
    }
    visiting.delete(uid);
    memo.set(uid, out);
    return out;
  };

  const result = new Map<string, Readings>();
  for (const uid of uids) {
    const r = evaluate(uid);
    if (r) result.set(uid, r);
  }
  return result;
}

export interface Source {
  parentType: ParentType;
  parentUid: string;
  key: string;
  /** the parent's current value of the source */
  value: number;
  displayText?: string;
  precision?: number;
}

/** Binds a counter to a source from now on: it continues from `current` and follows the source's increase. */
export function bindCounter(c: StoredCounter, current: number, source: Source, at: Date): StoredCounter {
  const self = exact(current);
  return {
    ...c,
    value: self,
    binding: {
      parentUid: source.parentUid,
      parentType: source.parentType,
      sourceKey: source.key,
      parentValue: exact(source.value),
      selfValue: self,
      boundAt: at.toISOString(),
      ...(source.displayText !== undefined ? { sourceDisplayText: source.displayText } : {}),
      ...(source.precision !== undefined ? { sourcePrecision: source.precision } : {}),
    },
  };
}

/** Freezes a counter at its current value (removal, or an install without a mapping for it). */
export function freezeCounter(c: StoredCounter, current: number): StoredCounter {
  return { ...c, value: exact(current), binding: null };
}

/**
 * Resets a counter to `newValue`. A bound counter is re-bound from now: selfValue = newValue and parentValue =
 * the parent's current value (kept when the source is unavailable).
 */
export function resetCounter(c: StoredCounter, newValue: number, parentCurrent: number | undefined, at: Date): StoredCounter {
  const v = exact(newValue);
  if (!c.binding) return { ...c, value: v };
  return {
    ...c,
    value: v,
    binding: {
      ...c.binding,
      selfValue: v,
      parentValue: parentCurrent === undefined ? c.binding.parentValue : exact(parentCurrent),
      boundAt: at.toISOString(),
    },
  };
}

/** Display precision: a fitted counter shows its source's precision, otherwise its own. */
export function effectivePrecision(c: StoredCounter): number {
  return c.binding?.sourcePrecision ?? c.precision;
}

export const DEFAULT_PRECISION: Record<CounterUnit, number> = { hours: 1, cycles: 0, landings: 0, distance: 0 };

/** Longest derived counter key (before a collision suffix). */
const KEY_MAX = 60;

/**
 * The counter key for a display text: camelCase of its words (`Hours since overhaul` → `hoursSinceOverhaul`,
 * `TSO (hrs)` → `tsoHrs`), `counter` when no letters or digits remain, prefixed with `counter` when it would start
 * with a digit; `2`, `3`, ... is appended until it is not in `taken`.
 */
export function deriveKey(displayText: string, taken: ReadonlySet<string>): string {
  let base = camelCaseWords(displayText, KEY_MAX);
  if (!base) base = 'counter';
  else if (isDigit(base.charCodeAt(0))) base = ('counter' + base).slice(0, KEY_MAX);
  // a counter's key is a key of its readings: never a name every object has (`toString`, src/lib/keys.ts)
  if (!taken.has(base) && !INHERITED_NAMES.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Combining diacritical marks, which NFKD splits off accented letters: dropped, so `é` counts as `e`. */
const isMark = (c: number) => c >= 0x300 && c <= 0x36f;

/**
 * The first `max` characters of the camelCase of a text's words. Words are runs of ASCII letters and digits
 * (accents dropped, anything else separates); a word also ends before a capital that follows a lower-case letter
 * or a digit (`tsoHours`, `v2Hours`), and before the last capital of a run that a lower-case letter follows
 * (`TSOHours` → `TSO Hours`). One pass over the text, and no further than `max` characters of output need: the
 * text is user input, so no backtracking regular expression (src/lib/text.ts).
 */
function camelCaseWords(text: string, max: number): string {
  const s = text.normalize('NFKD');
  let out = '';
  let word = '';
  let prev = 0; // the last letter or digit of the current word
  const flush = () => {
    if (!word) return;
    const w = word.toLowerCase();
    out += out ? w.charAt(0).toUpperCase() + w.slice(1) : w;
    word = '';
  };
  /** Is the next letter or digit after position i (marks skipped) a lower-case letter? */
  const lowerNext = (i: number) => {
    let j = i + 1;
    while (j < s.length && isMark(s.charCodeAt(j))) j++;
    return j < s.length && isLower(s.charCodeAt(j));
  };
  for (let i = 0; i < s.length && out.length + word.length <= max; i++) {
    const c = s.charCodeAt(i);
    if (isMark(c)) continue;
    if (!isUpper(c) && !isLower(c) && !isDigit(c)) {
      flush();
      continue;
    }
    if (word && isUpper(c) && (isLower(prev) || isDigit(prev) || (isUpper(prev) && lowerNext(i)))) flush();
    word += s[i];
    prev = c;
  }
  flush();
  return out.slice(0, max);
}

/**
 * The unit of an aircraft or vehicle maintenance item, which declares none: guessed from its key and display
 * text (landings; cycles/starts; odometer/km/miles/distance), `hours` otherwise (hobbs, tacho, airframe time, ...).
 */
export function guessUnit(key: string, displayText: string): CounterUnit {
  const s = `${key} ${displayText}`.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  if (/landing/.test(s)) return 'landings';
  if (/cycle|start|\bcyc\b/.test(s)) return 'cycles';
  if (/odometer|kilomet|\bkms?\b|mile|\bmi\b|distance/.test(s)) return 'distance';
  return 'hours';
}

/** Counters as stored (the JSON column), tolerating missing fields. */
export function asCounters(json: unknown): StoredCounter[] {
  if (!Array.isArray(json)) return [];
  const out: StoredCounter[] = [];
  for (const c of json) {
    if (!isRecord(c) || typeof c.key !== 'string') continue;
    const unit = COUNTER_UNITS.find((u) => u === c.unit);
    out.push({
      key: c.key,
      displayText: typeof c.displayText === 'string' ? c.displayText : c.key,
      unit: unit ?? 'hours',
      // an unknown unit's precision is 0; a missing one's that of hours
      precision: typeof c.precision === 'number' ? c.precision : unit ? DEFAULT_PRECISION[unit] : c.unit == null ? DEFAULT_PRECISION.hours : 0,
      basis: c.basis === 'sinceEvent' ? 'sinceEvent' : 'sinceNew',
      value: typeof c.value === 'number' ? c.value : 0,
      binding: asBinding(c.binding),
    });
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored binding (as bindCounter writes it), or null for anything else. */
function asBinding(b: unknown): CounterBinding | null {
  if (!isRecord(b)) return null;
  const parentType = PARENT_TYPES.find((t) => t === b.parentType);
  const { parentUid, sourceKey, parentValue, selfValue, boundAt, sourceDisplayText, sourcePrecision } = b;
  if (!parentType || typeof parentUid !== 'string' || typeof sourceKey !== 'string' || typeof boundAt !== 'string') return null;
  if (typeof parentValue !== 'number' || typeof selfValue !== 'number') return null;
  return {
    parentUid,
    parentType,
    sourceKey,
    parentValue,
    selfValue,
    boundAt,
    ...(typeof sourceDisplayText === 'string' ? { sourceDisplayText } : {}),
    ...(typeof sourcePrecision === 'number' ? { sourcePrecision } : {}),
  };
}
