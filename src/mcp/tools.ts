import { z } from 'zod';
import { fieldErrorsFromZod, type FieldError } from '../errors.js';
import { isReadRoute, type RouteSpec } from '../rest/contract.js';
import { OPERATION_GUIDANCE } from './guidance.js';
import type { RouteInput } from '../rest/facade.js';
import { InexactNumber, inexactMessage } from '../lib/json-numbers.js';
import { faultFieldMessage, findFault } from '../lib/input-faults.js';

/**
 * MCP tools derived from the REST route declarations (src/rest/routes.ts): one tool per operation, so a new route
 * cannot be forgotten. The input schema is JSON Schema from the route's own zod schemas (path and query parameters
 * at the top level, the JSON body under `body`); a call runs the route through the same REST façade, services and
 * checks, so results and error messages are those of REST. Annotations follow the HTTP method and the operation.
 */
export interface ToolDef {
  name: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  route: RouteSpec;
}

const rawJsonSchema = (s: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _s, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
};
const jsonSchema = (s: z.ZodType, io: 'input' | 'output') => compact(rawJsonSchema(s, io)) as Record<string, unknown>;

/** Keywords an assistant does not need to build a call: the service checks them and says what is wrong. */
const CHECKED_BY_THE_SERVICE = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'propertyNames', 'exclusiveMinimum', 'exclusiveMaximum', 'minimum', 'maximum', 'format', '$schema']);

/**
 * A tool's input schema as small as it can be and still say what to send: the names, types, enums, which are
 * required, and the descriptions; bounds and patterns are left to the service's answer (issue 27: the tool list is
 * context an assistant pays for). `X or null` becomes a type list.
 */
function compact(node: unknown, depth = 0, required = false): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, depth));
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  const branches = o.anyOf as Record<string, unknown>[] | undefined;
  // `X or null` of an optional field is X: null is what an optional field takes to be cleared on update (the
  // instructions say so). A required field that takes null (a flight log's pax) keeps it, as a type list.
  if (branches?.length === 2 && branches.some((b) => b.type === 'null')) {
    const other = compact(branches.find((b) => b.type !== 'null'), depth) as Record<string, unknown>;
    const { anyOf: _a, ...rest } = o;
    const kept = required && typeof other.type === 'string' ? { ...other, type: [other.type, 'null'] } : other;
    return { ...(compact(rest, depth) as object), ...kept };
  }
  if (branches?.length === 2 && branches.some((b) => b.type === 'string') && branches.some((b) => b.type === 'number' || b.type === 'integer')) {
    const { anyOf: _a, ...rest } = o;
    const number = branches.find((b) => b.type !== 'string')!.type as string;
    // a number a query string may also carry as text (limit=50) is a number to an assistant; a body field that
    // takes either (a schedule item's lastCarriedOutValue) says so
    return { ...(compact(rest, depth) as object), type: depth <= 1 ? number : [number, 'string'] };
  }
  if (Array.isArray(o.type) && o.type.includes('null') && o.type.length === 2 && !required) {
    return compact({ ...o, type: o.type.find((t) => t !== 'null') }, depth);
  }
  // below the body's own fields, an object or a list of objects is named by its type and description only: its
  // full shape is in the resource fleetops://openapi (the server's instructions say so)
  if (depth >= 2 && (o.type === 'object' || (o.type === 'array' && (o.items as { type?: unknown } | undefined)?.type === 'object'))) {
    return { type: o.type, ...(o.description ? { description: o.description } : {}) };
  }
  const requiredHere = new Set(Array.isArray(o.required) ? (o.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (CHECKED_BY_THE_SERVICE.has(k) || (k === 'additionalProperties' && v === false && depth > 0)) continue;
    if (k === 'description' && depth > 3) continue; // inside a field's own object: its name says enough
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as object).map(([p, x]) => [p, compact(x, depth + 1, requiredHere.has(p))]))
        : compact(v, depth + 1);
  }
  return out;
}

/** A route's description without what concerns REST only (other media types chosen by the Accept header). */
function restOnly(r: RouteSpec): string {
  const text = r.description ?? '';
  if (!r.alternates) return text;
  return text
    .split(/(?<=\.)\s+/)
    .filter((sentence) => !/Accept:|text\/csv/.test(sentence))
    .join(' ');
}

/**
 * Argument checks the route's own schemas cannot make once the call is a URL: path parameters are checked with
 * the route's params schema (an empty id would reach another route), and query parameters must be scalars. The
 * errors are those REST gives for a bad path or query parameter.
 */
export function argumentErrors(tool: ToolDef, args: Record<string, unknown>): { detail: string; errors: FieldError[] } | undefined {
  const r = tool.route;
  // text REST could not carry in a URL (NUL, a lone surrogate) is refused at the parameter, as REST names it,
  // before the route's own checks (the operation's policy would name only the value, not where it came from)
  const faults: FieldError[] = [];
  for (const [where, shape] of [['path', r.params?.shape], ['query', r.query?.shape]] as const) {
    for (const k of Object.keys(shape ?? {})) {
      const fault = typeof args[k] === 'string' ? findFault(args[k]) : null;
      if (fault) faults.push({ path: `/${where}/${k}`, message: faultFieldMessage(fault) });
    }
  }
  if (faults.length) {
    const [, where, name] = faults[0]!.path.split('/');
    return { detail: `invalid ${where} parameter ${name}: it ${faults[0]!.message}`, errors: faults };
  }
  if (r.params) {
    const values = Object.fromEntries(
      Object.keys(r.params.shape).map((k) => [k, typeof args[k] === 'number' ? String(args[k]) : args[k]]),
    );
    const p = r.params.safeParse(values);
    if (!p.success) return { detail: 'invalid path parameter', errors: fieldErrorsFromZod(p.error.issues, '/path') };
  }
  const errors: FieldError[] = [];
  for (const k of Object.keys(r.query?.shape ?? {})) {
    const v = args[k];
    if (v instanceof InexactNumber) errors.push({ path: `/query/${k}`, message: inexactMessage(v.text) });
    else if (v !== undefined && v !== null && !['string', 'number', 'boolean'].includes(typeof v)) {
      errors.push({ path: `/query/${k}`, message: `${k} must be a string, a number or a boolean` });
    }
  }
  return errors.length ? { detail: 'invalid query parameter', errors } : undefined;
}

/** Writes that take something away or cannot be undone by repeating them. */
const DESTRUCTIVE = /^(delete|batchDelete|remove|reset)/i;


/**
 * The tools, one per route. They declare no output schema: a result is the route's REST answer, whose shape is in
 * the OpenAPI document (the resource fleetops://openapi). Declaring it on every tool made the list four times the
 * size an assistant can afford, for shapes it reads from the results themselves (issue 27).
 */
/** A description's sentences, split where a sentence ends (not after "e.g." or "i.e."). */
const sentences = (text: string) => text.split(/(?<!\b(?:e\.g|i\.e))(?<=\.)\s+(?=[A-Z0-9`"(])/);

/**
 * Said in the server's instructions, so not on each tool: the refusals a tool can answer (a tool error says which
 * and why), the fields the server sets, and what a list's date filters mean.
 */
const REFUSAL = /^(?:400|403|404|409)\b|\b(?:is|answers|are) (?:a )?(?:400|409)\b/;
/** How lists page (limit, nextCursor, the 1,000 cap): said once in the instructions. */
const PAGING = /^(?:Without `limit` at most|Page with `limit`)/;
const SERVER_SET = /server-controlled|set by the server|must not be sent/;
const SAID_IN_INSTRUCTIONS = new Set(['startDate', 'endDate', 'limit', 'cursor']);
const without = (text: string, rule: RegExp) => sentences(text).filter((x) => !rule.test(x)).join(' ');

/**
 * A query flag takes true/false or the strings "true"/"false" (a REST query string is text); a tool's arguments are
 * JSON, so the flag is said as a boolean only.
 */
function plainBoolean(schema: unknown): unknown {
  const s = schema as { anyOf?: { type?: string; enum?: unknown[] }[] } | null;
  const any = s?.anyOf;
  if (!any || any.length !== 2 || any[0].type !== 'boolean' || any[1].type !== 'string' || any[1].enum?.join() !== 'true,false') return schema;
  const { anyOf: _drop, ...rest } = s as Record<string, unknown>;
  return { ...rest, type: 'boolean' };
}

export function buildTools(all: RouteSpec[]): ToolDef[] {
  // API key management is never a tool (docs/contract/gaps.md §12)
  const routes = all.filter((r) => r.mcp !== false);
  // said once: a body another tool takes already is named by that tool; a field's description, by its first tool
  const bodies = new Map<string, string>();
  const described = new Set<string>();
  const sayOnce = (node: unknown, key = ''): unknown => {
    if (Array.isArray(node)) return node.map((n) => sayOnce(n));
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'properties' && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v).map(([p, x]) => [p, sayOnce(x, p)]));
      else if (k === 'description' && typeof v === 'string') {
        const text = without(v, SERVER_SET);
        const id = `${key}\u0000${text}`;
        if (text && !(key && (described.has(id) || SAID_IN_INSTRUCTIONS.has(key)))) out[k] = text;
        described.add(id);
      } else out[k] = sayOnce(v);
    }
    return out;
  };
  const namedBody = (schema: Record<string, unknown>): Record<string, unknown> => {
    const items = schema.items as Record<string, unknown> | undefined;
    const same = (x: Record<string, unknown>) => bodies.get(JSON.stringify(x));
    if (schema.type === 'object' && schema.properties) {
      const properties = Object.fromEntries(
        Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(([k, v]) => {
          const it = v.items as Record<string, unknown> | undefined;
          const tool = it ? same(it) : undefined;
          return [k, tool ? { ...v, items: { type: 'object', description: `a ${tool} body` } } : v];
        }),
      );
      return { ...schema, properties };
    }
    const tool = items ? same(items) : undefined;
    return tool ? { ...schema, items: { type: 'object', description: `a ${tool} body` } } : schema;
  };
  const names = new Set(routes.map((r) => r.operationId));
  // an update's body is the create body's fields, each optional: the instructions say so once (updateX of createX),
  // and the body is not spelt out again
  const createOf = (r: RouteSpec) => {
    const create = r.method === 'PATCH' && r.operationId.startsWith('update') ? `create${r.operationId.slice('update'.length)}` : '';
    return names.has(create) ? create : null;
  };
  return routes.map((r) => {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const part of [r.params, r.query]) {
      if (!part) continue;
      const js = jsonSchema(part, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      Object.assign(properties, js.properties ?? {});
      if (part === r.params) required.push(...(js.required ?? Object.keys(js.properties ?? {})));
    }
    if (r.body) {
      const body = compact(rawJsonSchema(r.body, 'input'), 1) as Record<string, unknown>;
      const create = createOf(r);
      properties.body = create
        ? { type: 'object' }
        : sayOnce(namedBody(body));
      if (!bodies.has(JSON.stringify(body))) bodies.set(JSON.stringify(body), r.operationId);
      if (!r.optionalBody) required.push('body');
    }
    for (const [k, v] of Object.entries(properties)) if (k !== 'body') properties[k] = sayOnce(plainBoolean(v), k);
    const readOnly = isReadRoute(r);
    const destructive = r.method === 'DELETE' || DESTRUCTIVE.test(r.operationId);
    return {
      name: r.operationId,
      // only what this tool adds: what all tools share (the domain, errors, idempotency) is in the server's instructions
      description: (`${without(without(restOnly(r), REFUSAL), PAGING).replace(/\s*Admin keys only\.\s*/, ' ').trim() || `${r.summary}.`} ${OPERATION_GUIDANCE[r.operationId] ?? ''}`).replace(/\s+/g, ' ').replace(/\.\./g, '.').trim(),
      inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
      // hints that differ from MCP's defaults (not read-only, destructive, not idempotent); that no tool reaches beyond
      // this service (MCP's openWorldHint: false) is said once, in the instructions
      annotations: readOnly
        ? { readOnlyHint: true }
        : { ...(destructive ? {} : { destructiveHint: false }), ...(r.method === 'PUT' || r.method === 'PATCH' || r.method === 'DELETE' ? { idempotentHint: true } : {}) },
      route: r,
    };
  });
}

/** The route call a tool call stands for: path parameters, query parameters and the body, from the arguments. */
export function toolInput(tool: ToolDef, args: Record<string, unknown>): RouteInput {
  const r = tool.route;
  const params: Record<string, string> = {};
  for (const name of Object.keys(r.params?.shape ?? {})) if (args[name] !== undefined && args[name] !== null) params[name] = String(args[name]);
  // a query value as REST receives it: text (`partNumber: 12345` is `?partNumber=12345`, which a text filter takes)
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(r.query?.shape ?? {})) {
    const v = args[key];
    if (v !== undefined && v !== null) query[key] = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  }
  return { params, query, body: r.body ? args.body : undefined };
}
