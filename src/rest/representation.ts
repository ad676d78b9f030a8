import {
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
} from 'graphql';
import { z } from 'zod';

/**
 * The REST representation of a resource, derived from its GraphQL object type (docs/decisions/0007-defined-once.md):
 * the Pothos object is the one output definition; the REST body, the OpenAPI response schema and the MCP output
 * schema are read off it. Field extensions say where REST differs from GraphQL:
 * - `rest: false`: not part of the REST body (relations for GraphQL clients); left out of the route's operation;
 * - `rest: 'nullable'`: present as null when empty (the contract's "X or null, required", e.g. a log's `pax`);
 *   every other nullable field is left out when empty (the contract's optional fields);
 * - `rest: 'spread'`: a map whose entries are the object's own keys (a flight log's tracking values, a form's
 *   further keys);
 * - `schema`: the zod schema of a `JSON` field's value, for the documents.
 * An object type's `restName` extension (`restNamed(name)`) names its OpenAPI component where the REST contract
 * names the resource otherwise (a completion is a `CompletedForm` in docs/contract/api-v1.md §2.9).
 */
export type RestMode = false | 'nullable' | 'spread';
export interface RestExtensions {
  rest?: RestMode;
  schema?: z.ZodType;
}

export const REST_HIDDEN = { rest: false } as const;
export const REST_NULLABLE = { rest: 'nullable' } as const;
export const restSpread = (schema?: z.ZodType) => ({ rest: 'spread' as const, ...(schema ? { schema } : {}) });
export const jsonOf = (schema: z.ZodType) => ({ schema });

const extOf = (f: GraphQLField<unknown, unknown>) => (f.extensions ?? {}) as RestExtensions;

export const restNamed = (restName: string) => ({ restName });
/**
 * The key order of an object type's REST body where the contract shows one (a page is `{data, count, nextCursor}`);
 * other fields follow in the schema's order. GraphQL sorts fields by name, and clients may compare bodies as text.
 */
export const restOrder = (...keys: string[]) => ({ restOrder: keys });
export const REST_PAGE = restOrder('data', 'count', 'nextCursor');
const orderOf = (type: GraphQLObjectType): string[] => {
  const keys = type.extensions?.restOrder;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
};
const componentName = (type: GraphQLObjectType) => {
  const name = type.extensions?.restName;
  return typeof name === 'string' ? name : type.name;
};

type Present = (value: unknown) => unknown;
const presenters = new Map<string, Present>();
/** A leaf (scalar, enum) or a list of leaves: GraphQL's value is the REST value, not copied. */
const AS_IS: Present = (v) => v;

/** The REST body of an operation's data for a field of this type (the data as GraphQL serialised it). */
export function presenterFor(type: GraphQLOutputType): Present {
  if (isNonNullType(type)) return presenterFor(type.ofType);
  if (isListType(type)) {
    const item = presenterFor(type.ofType);
    return item === AS_IS ? AS_IS : (v) => (Array.isArray(v) ? v.map(item) : v);
  }
  if (!isObjectType(type)) return AS_IS;
  const cached = presenters.get(type.name);
  if (cached) return cached;
  // set before the fields are compiled: a type reachable from itself presents through this entry
  let compiled: Present | undefined;
  const lazy: Present = (v) => compiled!(v);
  presenters.set(type.name, lazy);
  const order = orderOf(type);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const fields = Object.values(type.getFields())
    .filter((f) => extOf(f).rest !== false)
    .sort((a, b) => rank(a.name) - rank(b.name)); // stable: unlisted fields keep the schema's order
  const plan = fields.map((f) => ({
    name: f.name,
    mode: extOf(f).rest,
    omitNull: !isNonNullType(f.type) && extOf(f).rest !== 'nullable',
    present: presenterFor(f.type),
  }));
  compiled = (v) => {
    if (v === null || typeof v !== 'object') return v;
    const src = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    let spreads: unknown[] | undefined;
    for (const p of plan) {
      if (!(p.name in src)) continue;
      const x = src[p.name];
      if (p.mode === 'spread') (spreads ??= []).push(x);
      else if (x === null || x === undefined) {
        if (!p.omitNull) out[p.name] = null;
      } else out[p.name] = p.present === AS_IS ? x : p.present(x);
    }
    if (spreads) for (const s of spreads) if (s && typeof s === 'object') Object.assign(out, s);
    return out;
  };
  presenters.set(type.name, compiled);
  return compiled;
}

type Json = Record<string, unknown>;

/**
 * JSON Schema (2020-12) of the REST representation of a GraphQL output type; object types become named components
 * (`#/components/schemas/<TypeName>`). `zodSchema` turns a JSON field's zod schema into JSON Schema (with the
 * document's own references).
 */
export function schemaFor(type: GraphQLOutputType, components: Record<string, Json>, zodSchema: (s: z.ZodType) => Json): Json {
  if (isNonNullType(type)) return schemaFor(type.ofType, components, zodSchema);
  if (type instanceof GraphQLList) return { type: 'array', items: itemSchema(type.ofType, components, zodSchema) };
  if (type instanceof GraphQLEnumType) return { type: 'string', enum: type.getValues().map((v) => v.value) };
  if (type instanceof GraphQLScalarType) return scalarSchema(type.name);
  if (type instanceof GraphQLObjectType) {
    const id = componentName(type);
    if (!components[id]) {
      components[id] = {}; // reserved: a type reachable from itself refers to its own component
      const properties: Json = {};
      const required: string[] = [];
      let additional: Json | undefined;
      for (const f of Object.values(type.getFields())) {
        const ext = extOf(f);
        if (ext.rest === false) continue;
        const value = ext.schema ? zodSchema(ext.schema) : schemaFor(f.type, components, zodSchema);
        if (ext.rest === 'spread') {
          additional = (value.additionalProperties as Json | undefined) ?? {};
          continue;
        }
        const nonNull = isNonNullType(f.type);
        const described = f.description ? { ...value, description: f.description } : value;
        properties[f.name] = nonNull || ext.rest !== 'nullable' ? described : { anyOf: [described, { type: 'null' }], ...(f.description ? { description: f.description } : {}) };
        if (nonNull || ext.rest === 'nullable') required.push(f.name);
      }
      components[id] = {
        type: 'object',
        ...(type.description ? { description: type.description } : {}),
        properties,
        ...(required.length ? { required } : {}),
        ...(additional ? { additionalProperties: additional } : {}),
      };
    }
    return { $ref: `#/components/schemas/${id}` };
  }
  return {};
}

function itemSchema(type: GraphQLOutputType, components: Record<string, Json>, zodSchema: (s: z.ZodType) => Json): Json {
  return schemaFor(type, components, zodSchema);
}

function scalarSchema(name: string): Json {
  switch (name) {
    case 'ID':
    case 'String':
      return { type: 'string' };
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    default:
      return {}; // JSON: any value
  }
}

/** The type a route's root field answers with, by name (`Query.aircraft` → Aircraft!). */
export function fieldType(root: GraphQLObjectType | null | undefined, field: string): GraphQLOutputType {
  const f = root?.getFields()[field];
  if (!f) throw new Error(`no GraphQL field ${root?.name}.${field}`);
  return f.type;
}

export const namedTypeOf = getNamedType;
export { GraphQLNonNull };
