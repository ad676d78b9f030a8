import {
  getNullableType,
  getOperationAST,
  isInputObjectType,
  isListType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';

type Check = (value: unknown) => boolean;

/**
 * graphql-jit (0.8.9) takes a list where an input object is expected, as a variable or inside one, as if it were the
 * object (`[]` as `{}`), where graphql-js refuses it ("Expected type ... to be an object"): `PUT /settings/alerts`
 * with the body `[]` saved empty settings. This answers, for a document, whether variables hold such a list; an
 * operation compiled by graphql-jit whose variables do is run by graphql-js instead, which refuses them in its own
 * words before anything runs (src/graphql/executor.ts, src/graphql/compiled-queries.ts). Null when no variable of
 * the document can hold an input object, so most calls check nothing.
 */
export function listAsObjectCheck(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): ((variables: Record<string, unknown>) => boolean) | null {
  const memo = new Map<GraphQLInputType, Check>();
  const checks = perVariable(schema, document, operationName, (type) => checkOf(type, memo));
  if (!checks.length) return null;
  return (variables) => checks.some(([name, check]) => Object.hasOwn(variables, name) && variables[name] != null && check(variables[name]));
}

/** For each variable of the document's operation, what `of` makes of its type, where it makes something. */
function perVariable<T>(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, of: (type: GraphQLInputType) => T | null): [string, T][] {
  const out: [string, T][] = [];
  for (const def of getOperationAST(document, operationName)?.variableDefinitions ?? []) {
    const type = typeFromAST(schema, def.type) as GraphQLInputType | undefined;
    const made = type && of(type);
    if (made) out.push([def.variable.name.value, made]);
  }
  return out;
}

/** Whether a value given for `type` holds a list where an input object belongs; null when `type` holds none. */
function checkOf(type: GraphQLInputType, memo: Map<GraphQLInputType, Check>): Check | null {
  const t = getNullableType(type);
  if (isListType(t)) {
    const item = checkOf(t.ofType, memo);
    // a single value given for a list is coerced as a list of one
    return item && ((v) => (Array.isArray(v) ? v.some((x) => x != null && item(x)) : item(v)));
  }
  if (!isInputObjectType(t)) return null;
  const known = memo.get(t);
  if (known) return known;
  let fields: [string, Check][] = [];
  const check: Check = (v) => Array.isArray(v) || (typeof v === 'object' && v !== null && fields.some(([k, c]) => Object.hasOwn(v, k) && (v as Record<string, unknown>)[k] != null && c((v as Record<string, unknown>)[k])));
  // set before the fields are read: an input type may hold itself
  memo.set(t, check);
  fields = Object.values(t.getFields()).flatMap((f): [string, Check][] => {
    const c = checkOf(f.type, memo);
    return c ? [[f.name, c]] : [];
  });
  return check;
}

/** Where a value holds a single value given for a list: its JSON Pointer within the value, or null. */
type Find = (value: unknown) => string | null;

/**
 * GraphQL's input coercion takes a single value given for a list as a list of one (`"a"` as `["a"]`); a GraphQL
 * client may rely on it. A REST body or an MCP tool's arguments are JSON, where a list is an array
 * (docs/decisions/0005-one-input-contract.md): the channels that send JSON as variables (src/graphql/executor.ts)
 * refuse such a value instead of letting it be wrapped. This answers, for a document, where variables hold one: the
 * variable's name and the value's JSON Pointer within it. Null when no variable of the document can hold a list.
 */
export function singleForListCheck(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): ((variables: Record<string, unknown>) => { variable: string; pointer: string } | null) | null {
  const memo = new Map<GraphQLInputType, Find>();
  const finds = perVariable(schema, document, operationName, (type) => findOf(type, memo));
  if (!finds.length) return null;
  return (variables) => {
    for (const [variable, find] of finds) {
      const value = variables[variable];
      if (value == null) continue;
      const pointer = find(value);
      if (pointer !== null) return { variable, pointer };
    }
    return null;
  };
}

/** Where a value given for `type` holds a single value for a list; null when `type` holds no list. */
function findOf(type: GraphQLInputType, memo: Map<GraphQLInputType, Find>): Find | null {
  const t = getNullableType(type);
  if (isListType(t)) {
    const item = findOf(t.ofType, memo);
    return (v) => {
      if (!Array.isArray(v)) return '';
      if (!item) return null;
      for (const [i, x] of v.entries()) {
        const at = x == null ? null : item(x);
        if (at !== null) return `/${i}${at}`;
      }
      return null;
    };
  }
  if (!isInputObjectType(t)) return null;
  const known = memo.get(t);
  if (known) return known;
  let fields: [string, Find][] = [];
  // an array where the object belongs is another mistake, refused by GraphQL itself (and listAsObjectCheck above)
  const find: Find = (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    for (const [k, f] of fields) {
      const x = (v as Record<string, unknown>)[k];
      if (!Object.hasOwn(v, k) || x == null) continue;
      const at = f(x);
      if (at !== null) return `/${k}${at}`;
    }
    return null;
  };
  memo.set(t, find);
  fields = Object.values(t.getFields()).flatMap((f): [string, Find][] => {
    const c = findOf(f.type, memo);
    return c ? [[f.name, c]] : [];
  });
  return find;
}
