import type { ArgumentRef, InputFieldMap, EnumRef, InputFieldRef, InputFieldsFromShape, InputObjectRef, SchemaTypes } from '@pothos/core';
import { z } from 'zod';
import { builder } from './builder.js';
import { graphqlTypes } from '../lib/graphql-hint.js';
import { serviceCheck, type ServiceCheck } from './validation.js';

/**
 * GraphQL inputs derived from the services' zod schemas (docs/decisions/0007-defined-once.md): an operation's input
 * is defined once, as the service's zod schema; its GraphQL input type is read off the schema's JSON Schema (zod's
 * public `z.toJSONSchema`, input side), and Pothos' validation plugin runs the schema itself on what GraphQL
 * coerced, so a resolver receives the schema's checked, typed output and the service does not parse again.
 *
 * Mapping rules (each a start-up error when it cannot apply, naming the path):
 * - a property the schema requires and that cannot be null is non-null; everything else is nullable (a field that
 *   is required but may be null, such as a flight log's `pax`, is nullable: GraphQL cannot say "present, maybe null");
 * - string → String, integer → Int when its bounds fit 32 bits (else Float), number → Float, boolean → Boolean;
 *   a `graphql` name given with `typedAs` (src/lib/graphql-hint.ts) wins (ID, Int for query-string numbers, ...);
 * - a schema registered with an `id` in `graphqlTypes` is a named type: an enum (one GraphQL enum per id, shared
 *   with the output types that use it) or a nested input object; other enums are String (values in the description);
 * - arrays are lists; objects with declared properties and no other keys are nested input objects named after
 *   their parent and key; maps, unions and unknown values are `JSON` (an unconstrained value, which null is one
 *   of, is nullable even where required: a list of them is `[JSON]`).
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  $ref?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  graphql?: string;
  graphqlId?: string;
  default?: unknown;
};

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : SchemaTypes;
type NamedInput = 'String' | 'Int' | 'Float' | 'Boolean' | 'ID' | 'JSON' | EnumRef<Types, string, string> | InputObjectRef<Types, unknown>;
interface FieldPlan {
  named: NamedInput;
  list: null | { itemsNullable: boolean };
  nullable: boolean;
  description?: string;
}

export class InputSchemaError extends Error {
  constructor(path: string, message: string) {
    super(`GraphQL input ${path}: ${message}`);
    this.name = 'InputSchemaError';
  }
}

const INT32 = 2_147_483_647;
const SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID', 'JSON']);
const pascal = (key: string) => key.replace(/(^|[_\-\s]+)([a-zA-Z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** The extension of a GraphQL input type that holds its service check. */
export const SERVICE_CHECK = 'fleetopsServiceCheck';
/** The service check of an input type derived by inputFromSchema, if it is one. */
export const checkOf = (type: { extensions?: Record<string, unknown> | null }) =>
  type.extensions?.[SERVICE_CHECK] as ServiceCheck<z.ZodType, unknown> | undefined;

const enums = new Map<string, EnumRef<Types, string, string>>();
const inputs = new Map<string, InputObjectRef<Types, unknown>>();

/** The GraphQL enum of a zod enum registered with an id (one per id, shared by inputs and outputs). */
export function enumOf<const V extends string>(schema: z.ZodType<V>, description?: string): EnumRef<Types, V, V> {
  const id = graphqlTypes.get(schema)?.id;
  // a z.enum's values (its public `options`); any other schema is refused
  const values = schema instanceof z.ZodEnum ? schema.options.map(String) : undefined;
  if (!id || !values) throw new InputSchemaError('enum', 'enumOf needs a z.enum registered with an id (typedAs)');
  return enumNamed(id, values, description) as unknown as EnumRef<Types, V, V>;
}

function enumNamed(id: string, values: readonly string[], description?: string): EnumRef<Types, string, string> {
  let ref = enums.get(id);
  if (!ref) {
    ref = builder.enumType(id, { values: values as string[], ...(description ? { description } : {}) }) as EnumRef<Types, string, string>;
    enums.set(id, ref);
  }
  return ref;
}

/** The schema's JSON Schema (input side), with what `graphqlTypes` says of a node as `graphql` / `graphqlId`. */
const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      // the hook gives zod's core type; the registry is keyed by the same objects as classic schemas
      const meta = graphqlTypes.get(ctx.zodSchema as unknown as z.ZodType);
      if (meta?.graphql) (ctx.jsonSchema as JsonSchema).graphql = meta.graphql;
      if (meta?.id) (ctx.jsonSchema as JsonSchema).graphqlId = meta.id;
    },
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };

/** `anyOf: [X, {type: 'null'}]` and `type: [T, 'null']` are X / T that may be null. */
function withoutNull(s: JsonSchema): { core: JsonSchema; nullable: boolean } {
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const rest = branches.filter((b) => b.type !== 'null');
    if (rest.length < branches.length && rest.length === 1) {
      const inner = withoutNull({ ...rest[0], description: rest[0].description ?? s.description, graphql: rest[0].graphql ?? s.graphql, graphqlId: rest[0].graphqlId ?? s.graphqlId });
      return { core: inner.core, nullable: true };
    }
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const types = s.type.filter((t) => t !== 'null');
    return { core: { ...s, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { core: s, nullable: false };
}

function plan(path: string, schema: JsonSchema, defs: Record<string, JsonSchema>, requiredHere: boolean): FieldPlan {
  const { core, nullable } = withoutNull(schema);
  const description = schema.description ?? core.description;
  const isNullable = nullable || !requiredHere;
  const named = (n: NamedInput): FieldPlan => ({ named: n, list: null, nullable: isNullable, description });
  if (core.graphql) {
    if (!SCALARS.has(core.graphql)) {
      const e = enums.get(core.graphql) ?? inputs.get(core.graphql);
      if (!e) throw new InputSchemaError(path, `typedAs names ${core.graphql}, which is neither a scalar nor a known type`);
      return named(e);
    }
    return named(core.graphql as NamedInput);
  }
  if (core.$ref) {
    const id = core.$ref.replace(/^#\/\$defs\//, '');
    const def = defs[id];
    if (!def) throw new InputSchemaError(path, `unresolved reference ${core.$ref}`);
    if (def.enum) return named(enumNamed(id, def.enum as string[]));
    return named(inputObject(id, def, defs, path));
  }
  if (core.graphqlId) {
    if (core.enum) return named(enumNamed(core.graphqlId, core.enum as string[]));
    if (core.type === 'object' && core.properties) return named(inputObject(core.graphqlId, core, defs, path));
    throw new InputSchemaError(path, `${core.graphqlId} names a schema that is neither an enum nor an object`);
  }
  if (core.enum) {
    return { ...named('String'), description: [description && (/[.!?]$/.test(description) ? description : `${description}.`), `One of: ${core.enum.join(', ')}.`].filter(Boolean).join(' ') };
  }
  if (core.type === 'array') {
    if (!core.items) return named('JSON');
    const item = plan(`${path}[]`, core.items, defs, true);
    if (item.list) return named('JSON'); // lists of lists: JSON
    return { named: item.named, list: { itemsNullable: item.nullable }, nullable: isNullable, description };
  }
  if (core.type === 'object') {
    const keepsOthers = core.additionalProperties !== undefined && core.additionalProperties !== false;
    if (!core.properties || keepsOthers) return named('JSON');
    return named(inputObject(pascal(path.replace(/\[\]/g, '').split('.').join('_')), core, defs, path));
  }
  if (core.type === 'string') return named('String');
  if (core.type === 'boolean') return named('Boolean');
  if (core.type === 'integer') {
    const fits = core.minimum !== undefined && core.maximum !== undefined && core.minimum >= -INT32 - 1 && core.maximum <= INT32;
    return named(fits ? 'Int' : 'Float');
  }
  if (core.type === 'number') return named('Float');
  // any value (z.unknown(), e.g. a list's items): null is one of them
  if (core.type === undefined && !core.anyOf && !core.oneOf) return { ...named('JSON'), nullable: true };
  if (core.anyOf || core.oneOf || Array.isArray(core.type) || core.type === undefined) return named('JSON');
  throw new InputSchemaError(path, `no GraphQL input for JSON Schema type ${JSON.stringify(core.type)}`);
}

function fieldsOf(typeName: string, schema: JsonSchema, defs: Record<string, JsonSchema>) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, prop]) => [key, plan(`${typeName}.${key}`, prop, defs, required.has(key))] as const);
}

type FieldMaker = {
  field(options: { type: unknown; required: unknown; description?: string }): InputFieldRef<Types, unknown> | ArgumentRef<Types, unknown>;
};

function makeField(t: FieldMaker, p: FieldPlan) {
  const description = p.description;
  if (p.list) return t.field({ type: [p.named], required: { list: !p.nullable, items: !p.list.itemsNullable }, description });
  return t.field({ type: p.named, required: !p.nullable, description });
}

function inputObject(name: string, schema: JsonSchema, defs: Record<string, JsonSchema>, path: string, extra?: { description?: string; check?: ServiceCheck<z.ZodType, unknown> }) {
  const existing = inputs.get(name);
  if (existing) return existing;
  if (!schema.properties) throw new InputSchemaError(path, 'an input object needs declared properties');
  const planned = fieldsOf(name, schema, defs);
  const ref = builder.inputType(name, {
    description: extra?.description ?? schema.description,
    // the check of a top-level input, for explaining what GraphQL's coercion refused (src/graphql/policy.ts)
    ...(extra?.check ? { extensions: { [SERVICE_CHECK]: extra.check } } : {}),
    // the fields are planned at run time from JSON Schema, so Pothos' per-field option types cannot be inferred
    fields: (t) => Object.fromEntries(planned.map(([key, p]) => [key, makeField(t as unknown as FieldMaker, p)])) as InputFieldMap,
  }) as unknown as InputObjectRef<Types, unknown>;
  inputs.set(name, ref);
  return ref;
}

/**
 * The GraphQL input type of a service's schema. Resolvers receive `z.output` of the schema: Pothos' validation
 * plugin runs the schema on the coerced input, and a failure is the service's ValidationError (src/graphql/validation.ts).
 */
export function inputFromSchema<S extends z.ZodType, T>(name: string, check: ServiceCheck<S, T>, description?: string): InputObjectRef<Types, T> {
  const json = toJson(check.schema);
  const ref = inputObject(name, json, json.$defs ?? {}, name, { description: description ?? json.description, check: check as ServiceCheck<z.ZodType, unknown> });
  // the ref is built untyped (inputObject: fields planned at run time); T is what the service check's parse returns
  return ref.validate(check) as unknown as InputObjectRef<Types, T>;
}

/**
 * Field arguments from a list's filter schema (the schema REST checks query parameters with): every argument is
 * optional but those named in `required` (path parameters, such as the form of a delivery log), and the resolver
 * receives the schema's checked output (`what` names the query in a refusal). Pothos' validation checks the field's
 * whole arguments, so every argument of the field is in the schema.
 */
export function argsFromSchema<S extends z.ZodObject>(
  t: Pick<PothosSchemaTypes.RootFieldBuilder<Types, unknown>, 'arg' | 'validate'>,
  name: string,
  schema: S,
  what: string,
  required: readonly string[] = [],
): InputFieldsFromShape<Types, z.output<S>, 'Arg'> {
  const json = toJson(schema);
  const planned = fieldsOf(name, { ...json, required: (json.required ?? []).filter((k) => required.includes(k)) }, json.$defs ?? {});
  const args = Object.fromEntries(planned.map(([key, p]) => [key, makeField({ field: (o) => t.arg(o as Parameters<typeof t.arg>[0]) }, p)]));
  // an argument sent as null is one not sent: the filter schemas speak of absent values
  const check = serviceCheck(`${what} query`, schema);
  const withoutNulls = serviceCheck(`${what} query`, schema, (raw) =>
    check.parse(Object.fromEntries(Object.entries(raw as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined))),
  );
  return t.validate(args as InputFieldMap, withoutNulls) as InputFieldsFromShape<Types, z.output<S>, 'Arg'>;
}
