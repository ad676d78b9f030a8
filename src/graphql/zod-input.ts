import type { EnumRef, InputObjectRef, SchemaTypes } from '@pothos/core';
import type { z } from 'zod';
import { graphqlHints } from '../lib/graphql-hint.js';
import { builder as appBuilder } from './builder.js';

/**
 * GraphQL input types derived from the services' zod schemas: an operation's input is defined once, as the
 * service's zod schema, and its GraphQL input type is read off it here.
 *
 * Every derived field is nullable: presence and null are zod's to decide, so a missing required field reaches the
 * service and fails there with the same message and JSON path as on REST. A field zod requires says so in its
 * description. A zod type this walker does not know is a start-up error naming the path, never a silent mapping.
 */

/** A zod 4 schema as this walker reads it (zod's internals: `_zod.def`, `_zod.optin`, `_zod.bag`). */
type AnyZod = z.core.$ZodType;

/** What a derived input object holds: the raw input, for the service's zod schema to check. */
export type ZodInputShape = { [key: string]: unknown };

export interface InputFromZodOptions {
  /** Description of the input type; default: the schema's own `.describe()` text. */
  description?: string;
  /** Names of nested object schemas (matched by identity); unnamed ones are `${parentName}${PascalCase(key)}`. */
  names?: ReadonlyMap<AnyZod, string>;
  /** Enum refs to reuse: a zod enum becomes the ref with the same set of (internal) values, else String. */
  enums?: readonly EnumRef<SchemaTypes, unknown, unknown>[];
}

/** Thrown at schema build for a zod type with no GraphQL input mapping. */
export class ZodInputError extends Error {
  constructor(path: string, message: string) {
    super(`inputFromZod: ${path}: ${message}`);
    this.name = 'ZodInputError';
  }
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Wrappers that change presence, null or the output but not the input's type: looked through. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);
/** Zod types whose input is any JSON as far as GraphQL can tell: the `JSON` scalar; zod decides. */
const AS_JSON = new Set(['record', 'unknown', 'any', 'union', 'intersection']);

type Scalar = 'String' | 'Int' | 'Float' | 'Boolean' | 'JSON' | 'DateTime' | 'ID';
const HINT_SCALARS = new Set<string>(['String', 'Int', 'Float', 'Boolean', 'ID']);
/** A derived GraphQL input type: a scalar, an enum, an input object or a list of one. */
type TypeSpec =
  | { kind: 'named'; ref: Scalar | EnumRef<SchemaTypes, unknown, unknown> | InputObjectRef<SchemaTypes, ZodInputShape> }
  | { kind: 'list'; of: TypeSpec; itemsNonNull: boolean };
interface FieldPlan {
  type: TypeSpec;
  description?: string;
}

interface Unwrapped {
  core: AnyZod;
  description?: string;
  /** A GraphQL type named by `typedAs` (src/lib/graphql-hint.ts): a scalar, or an enum of the caller's by name. */
  hint?: string;
  /** A wrapper lets null (or a missing value) through: list elements of this schema stay nullable. */
  nullable: boolean;
}

const defOf = (s: AnyZod) => s._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
const describedAs = (s: AnyZod): string | undefined => (s as { description?: string }).description ?? undefined;
const pascal = (key: string) => key.replace(/(^|[_\-\s]+)([a-zA-Z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** Looks through presence/null wrappers, pipes (their input side) and lazy schemas; keeps the outermost description. */
function unwrap(schema: AnyZod): Unwrapped {
  let s = schema;
  let description: string | undefined;
  let hint: string | undefined;
  let nullable = false;
  for (let depth = 0; depth < 100; depth++) {
    description ??= describedAs(s);
    hint ??= graphqlHints.get(s as z.ZodType)?.graphql;
    const def = defOf(s);
    if (WRAPPERS.has(def.type)) {
      if (def.type === 'optional' || def.type === 'nullable' || def.type === 'catch') nullable = true;
      s = def.innerType as AnyZod;
    } else if (def.type === 'pipe') {
      s = def.in as AnyZod;
    } else if (def.type === 'lazy') {
      s = (s._zod as unknown as { innerType: AnyZod }).innerType; // zod's cached getter result: one schema object
    } else {
      return { core: s, description, hint, nullable };
    }
  }
  throw new ZodInputError('(schema)', 'wrappers nested more than 100 deep');
}

/** Int when zod says integer and its bounds fit 32-bit signed, else Float. */
function numberScalar(s: AnyZod): 'Int' | 'Float' {
  // zod classic exposes the folded checks; the bag is the core fallback (third-party checks write there)
  const n = s as { isInt?: boolean; minValue?: number | null; maxValue?: number | null };
  const bag = s._zod.bag as { format?: string; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number };
  const isInt = n.isInt ?? (bag.format?.includes('int') || false);
  const min = Math.max(n.minValue ?? bag.minimum ?? -Infinity, bag.exclusiveMinimum ?? -Infinity);
  const max = Math.min(n.maxValue ?? bag.maximum ?? Infinity, bag.exclusiveMaximum ?? Infinity);
  return isInt && min >= INT32_MIN && max <= INT32_MAX ? 'Int' : 'Float';
}

function scalarOfValues(values: readonly unknown[], path: string, what: string): Scalar {
  if (values.length === 0) throw new ZodInputError(path, `${what} without values`);
  if (values.every((v) => typeof v === 'string')) return 'String';
  if (values.every((v) => typeof v === 'boolean')) return 'Boolean';
  if (values.every((v) => typeof v === 'number')) {
    return values.every((v) => Number.isInteger(v) && (v as number) >= INT32_MIN && (v as number) <= INT32_MAX) ? 'Int' : 'Float';
  }
  if (values.some((v) => v === null || v === undefined || typeof v === 'bigint')) {
    throw new ZodInputError(path, `${what} ${values.map(String).join(', ')}: null, undefined or bigint has no GraphQL input type`);
  }
  return 'JSON';
}

function enumValues(ref: EnumRef<SchemaTypes, unknown, unknown>): Set<unknown> {
  let values = new Set<unknown>();
  ref.onConfig((config) => {
    const map = (config as { values?: Record<string, { value?: unknown }> }).values ?? {};
    values = new Set(Object.entries(map).map(([name, v]) => (v.value === undefined ? name : v.value)));
  });
  return values;
}

/** The derived-type cache of one builder: one GraphQL type per zod object schema (by identity). */
type Cache = WeakMap<AnyZod, InputObjectRef<SchemaTypes, ZodInputShape>>;
const caches = new WeakMap<object, Cache>();

/**
 * An `inputFromZod` for a given Pothos builder (tests use a throwaway one; the app uses `inputFromZod` below).
 * Needs the builder to have the `JSON` scalar (and `DateTime` if a schema uses `z.date()`).
 */
export function makeInputFromZod<Types extends SchemaTypes>(builder: PothosSchemaTypes.SchemaBuilder<Types>) {
  const cache: Cache = caches.get(builder) ?? new WeakMap();
  caches.set(builder, cache);

  function derive(opts: InputFromZodOptions) {
    const enums = (opts.enums ?? []).map((ref) => ({ ref, values: enumValues(ref) }));

    function typeOf(schema: AnyZod, path: string, nameHint: string): { type: TypeSpec; u: Unwrapped; note?: string } {
      const u = unwrap(schema);
      const def = defOf(u.core);
      const named = (ref: Scalar | EnumRef<SchemaTypes, unknown, unknown> | InputObjectRef<SchemaTypes, ZodInputShape>) =>
        ({ kind: 'named', ref }) as const;
      if (u.hint) {
        if (HINT_SCALARS.has(u.hint)) return { type: named(u.hint as Scalar), u };
        const byName = enums.find((e) => (e.ref as { name?: string }).name === u.hint);
        if (!byName) throw new ZodInputError(path, `typedAs names "${u.hint}", which is neither a scalar nor one of the enums passed in`);
        return { type: named(byName.ref), u };
      }
      switch (def.type) {
        case 'string':
        case 'template_literal':
          return { type: named('String'), u };
        case 'boolean':
          return { type: named('Boolean'), u };
        case 'number':
          return { type: named(numberScalar(u.core)), u };
        case 'date':
          return { type: named('DateTime'), u };
        case 'literal':
          return { type: named(scalarOfValues(def.values as unknown[], path, 'literal')), u };
        case 'enum': {
          const values = Object.values(def.entries as Record<string, unknown>);
          const match = enums.find((e) => e.values.size === values.length && values.every((v) => e.values.has(v)));
          if (match) return { type: named(match.ref), u };
          const scalar = scalarOfValues(values, path, 'enum');
          return { type: named(scalar), u, note: `One of: ${values.join(', ')}.` };
        }
        case 'array': {
          const el = typeOf(def.element as AnyZod, `${path}[]`, nameHint);
          const itemsNonNull = !el.u.nullable && !(el.type.kind === 'named' && el.type.ref === 'JSON');
          return { type: { kind: 'list', of: el.type, itemsNonNull }, u };
        }
        case 'object': {
          const catchall = def.catchall as AnyZod | undefined;
          // strip (no catchall) and strict (never) refuse nothing GraphQL would take; loose/catchall maps are JSON
          if (catchall && defOf(catchall).type !== 'never') return { type: named('JSON'), u };
          return { type: named(objectRef(u.core, opts.names?.get(u.core) ?? nameHint, path, undefined)), u };
        }
        case 'transform': // a bare transform (z.preprocess's input side) takes anything
          return { type: named('JSON'), u };
        default:
          if (AS_JSON.has(def.type)) return { type: named('JSON'), u };
          throw new ZodInputError(path, `zod type "${def.type}" has no GraphQL input mapping`);
      }
    }

    function objectRef(schema: AnyZod, typeName: string, path: string, description: string | undefined) {
      const cached = cache.get(schema);
      if (cached && (cached.name === typeName || path !== '')) return cached;
      if (!GRAPHQL_NAME.test(typeName)) throw new ZodInputError(path || '(root)', `"${typeName}" is not a GraphQL type name`);
      const shape = defOf(schema).shape as Record<string, AnyZod>;
      const keys = Object.keys(shape);
      if (keys.length === 0) throw new ZodInputError(path || '(root)', 'an object without fields has no GraphQL input type');

      const ref = builder.inputRef<ZodInputShape>(typeName);
      cache.set(schema, ref as never); // before the fields, so a recursive (lazy) schema finds it
      let plans: Record<string, FieldPlan>;
      try {
        plans = planFields(shape, typeName, path);
      } catch (e) {
        cache.delete(schema);
        throw e;
      }
      ref.implement({
        description: description ?? describedAs(schema),
        fields: (t) =>
          Object.fromEntries(
            Object.entries(plans).map(([key, plan]) => [key, t.field({ type: toRef(t, plan.type), required: false, description: plan.description })]),
          ) as never,
      });
      return ref as unknown as InputObjectRef<SchemaTypes, ZodInputShape>;
    }

    /** Each field's GraphQL type and description (nullable; "Required." where zod requires it). */
    function planFields(shape: Record<string, AnyZod>, typeName: string, path: string): Record<string, FieldPlan> {
      const plans: Record<string, FieldPlan> = {};
      for (const key of Object.keys(shape)) {
        const fieldPath = `${path}/${key}`;
        if (!GRAPHQL_NAME.test(key) || key.startsWith('__')) throw new ZodInputError(fieldPath, `"${key}" is not a GraphQL field name`);
        const field = shape[key];
        const { type, u, note } = typeOf(field, fieldPath, `${typeName}${pascal(key)}`);
        const required = field._zod.optin === undefined;
        // "Required." follows a sentence: a description without a full stop gets one first
        const parts = [u.description, note].filter(Boolean) as string[];
        if (required) parts.push('Required.');
        const text = parts.map((t, i) => (i < parts.length - 1 && !/[.!?]$/.test(t) ? `${t}.` : t)).join(' ');
        plans[key] = { type, description: text || undefined };
      }
      return plans;
    }

    return { objectRef, planFields };
  }

  /** A derived type as a Pothos type reference (lists built with the field or argument builder `t`). */
  function toRef(t: { listRef: (...a: never[]) => unknown }, spec: TypeSpec): never {
    return (spec.kind === 'named' ? spec.ref : (t.listRef as (r: unknown, o: unknown) => unknown)(toRef(t, spec.of), { required: spec.itemsNonNull })) as never;
  }

  function inputFromZod<S extends z.ZodType>(name: string, schema: S, opts: InputFromZodOptions = {}): InputObjectRef<Types, ZodInputShape> {
    const { objectRef } = derive(opts);

    const root = unwrap(schema as AnyZod);
    const rootDef = defOf(root.core);
    if (rootDef.type !== 'object') throw new ZodInputError('(root)', `an input type needs a zod object, got "${rootDef.type}"`);
    const catchall = rootDef.catchall as AnyZod | undefined;
    if (catchall && defOf(catchall).type !== 'never') {
      throw new ZodInputError('(root)', 'a loose or catchall object has no input object type (use the JSON scalar)');
    }
    return objectRef(root.core, name, '', opts.description ?? root.description) as unknown as InputObjectRef<Types, ZodInputShape>;
  }

  /**
   * The arguments of a query field, derived from the service's filter schema (the one REST checks its query
   * parameters with): one nullable argument per key, `Name` the prefix of any nested input type.
   */
  function argsFromZod<S extends z.ZodType>(
    t: { arg: (o: { type: never; required: false; description?: string }) => unknown; listRef: (...a: never[]) => unknown },
    name: string,
    schema: S,
    opts: InputFromZodOptions = {},
  ): Record<string, never> {
    const root = unwrap(schema as AnyZod);
    if (defOf(root.core).type !== 'object') throw new ZodInputError('(root)', `arguments need a zod object, got "${defOf(root.core).type}"`);
    const plans = derive(opts).planFields(defOf(root.core).shape as Record<string, AnyZod>, name, '');
    return Object.fromEntries(
      Object.entries(plans).map(([key, plan]) => [key, t.arg({ type: toRef(t, plan.type), required: false, description: plan.description }) as never]),
    );
  }

  return { inputFromZod, argsFromZod };
}

/** Derives a GraphQL input object type (on the app's builder) from a service's zod object schema. */
export const { inputFromZod, argsFromZod } = makeInputFromZod(appBuilder);
