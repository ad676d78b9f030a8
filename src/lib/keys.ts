import type { z } from 'zod';
import type { FieldError } from '../errors.js';

/**
 * How a body's fields outside `allowed` are refused. Each is a 400 with a message of its own so a client learns
 * why the field is wrong, not only that it is (docs/api-notes.md "Components" and "Maintenance schedule" list the
 * server-controlled fields and the ones only a dedicated operation changes).
 */
export interface KeyRules {
  /** Fields the server sets. */
  serverControlled?: readonly string[];
  /** Fields refused with their own message, e.g. ones only another operation may change. */
  refused?: Readonly<Record<string, string>>;
  /** What the object is, for any other field: "x is not a field of <noun>". */
  noun?: string;
}

/**
 * One error per field of `raw` that is not in `allowed`. A field whose value is `undefined` counts as absent:
 * neither JSON nor GraphQL input can carry one, only in-process callers that build bodies with optional spreads.
 */
export function checkKeys(raw: Record<string, unknown>, allowed: readonly string[], rules: KeyRules = {}, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(raw)) {
    if (allowed.includes(key) || raw[key] === undefined) continue;
    const path = `${prefix}/${key}`;
    // own properties only: a body may carry keys such as `constructor`, which every object inherits
    const own = rules.refused && Object.hasOwn(rules.refused, key) ? rules.refused[key] : undefined;
    if (rules.serverControlled?.includes(key)) errors.push({ path, message: `${key} is set by the server and must not be sent` });
    else if (own !== undefined) errors.push({ path, message: own });
    else errors.push({ path, message: `${key} is not a field of ${rules.noun ?? 'this body'}` });
  }
  return errors;
}

/** The fields of `raw` that are in `keys` (own properties only): what a schema is given once checkKeys has reported the rest. */
export function pickKeys(raw: Record<string, unknown>, keys: readonly string[] | ReadonlySet<string>): Record<string, unknown> {
  const has = Array.isArray(keys) ? (k: string) => keys.includes(k) : (k: string) => (keys as ReadonlySet<string>).has(k);
  return Object.fromEntries(Object.entries(raw).filter(([k]) => has(k)));
}

/** The fields `keys` of T, an absent (optional) one as null. */
export type RowFields<T, K extends keyof T> = { -readonly [P in K]-?: undefined extends T[P] ? Exclude<T[P], undefined> | null : T[P] };

/**
 * The fields `keys` of a checked input as a row stores them: an absent optional field is null, so a write sets it to
 * nothing rather than leaving it as it was (an import's upsert, a create).
 */
export function rowFields<T extends object, const K extends keyof T>(value: T, keys: readonly K[]): RowFields<T, K> {
  const row: Partial<Record<K, unknown>> = {};
  for (const k of keys) row[k] = value[k] ?? null;
  // TypeScript does not follow a mapped type through a loop: the loop above sets every key as RowFields says
  return row as RowFields<T, K>;
}

/**
 * The names every JavaScript object answers to (`constructor`, `toString`, `valueOf`, `__proto__`, ...). A name a
 * user chooses that becomes a key of the service's objects (a tracking key, a form field's answer key) cannot be one
 * of them: `totals.toString` would be a function where a figure belongs, and JSON's `__proto__` is dropped by a copy.
 */
export const INHERITED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** `schema`, refusing the names of INHERITED_NAMES as `what` ("a tracking key"): "toString cannot be a tracking key". */
export const notInherited = <S extends z.ZodString>(schema: S, what: string) =>
  schema.refine((name) => !INHERITED_NAMES.has(name), { error: (iss) => `${String(iss.input)} cannot be ${what}: it is a reserved name` });
