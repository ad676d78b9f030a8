import { z } from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../context.js';
import { ValidationError, fieldErrorsFromZod, type FieldError } from '../errors.js';
import { problemFromError, type Problem } from '../http/problem.js';
import type { RouteSpec } from '../rest/contract.js';
import { OPERATION_GUIDANCE, TAG_GUIDANCE } from './guidance.js';

/**
 * MCP tools generated from the REST route registry: one tool per route, so a new route is a new tool without any
 * edit here. A tool is a thin adapter: its arguments become the route's path parameters, query parameters and
 * JSON body, and the call is dispatched in-process to the REST façade with the caller's RequestContext, so the
 * same services, validation and error messages apply. The answer comes back as structuredContent (success) or as
 * a tool error carrying the problem details (failure).
 */

type JsonSchema = Record<string, any>;

/** How the tool's flat arguments map onto the route. */
export interface ToolSpec {
  tool: Tool;
  route: RouteSpec;
  paramKeys: string[];
  queryKeys: string[];
  /** flat: the body's properties are top-level arguments; nested: the body is the `body` argument. */
  body: 'none' | 'flat' | 'nested';
  /** The response is not an object: structuredContent is `{ data: <response> }`. */
  wrapped: boolean;
}

/** `listFlightLogs` -> `list_flight_logs` (tool names are snake_case; REST operationIds are camelCase). */
export function toolName(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .toLowerCase();
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

const isPlainObjectSchema = (s: JsonSchema) =>
  s.type === 'object' && !s.anyOf && !s.oneOf && !s.allOf && !s.$ref && typeof s.properties === 'object';

/** Drops `required` below the top level: with a `fields` projection, items carry only the fields asked for. */
function withoutNestedRequired(s: JsonSchema, top = true): JsonSchema {
  if (Array.isArray(s)) return s.map((x) => withoutNestedRequired(x, false)) as never;
  if (!s || typeof s !== 'object') return s;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'required' && !top) continue;
    out[k] = v && typeof v === 'object' ? withoutNestedRequired(v, false) : v;
  }
  return out;
}

/** A sentence about a route's alternates (e.g. CSV) only applies to REST: tools always answer JSON. */
function forModel(text: string | undefined, route: RouteSpec): string {
  if (!text) return '';
  let t = text.trim();
  if (route.alternates) t = t.split(/(?<=\.)\s+/).filter((s) => !/Accept:/.test(s)).join(' ');
  return t;
}

function describe(route: RouteSpec, spec: Omit<ToolSpec, 'tool'>, readOnly: boolean, destructive: boolean): string {
  const parts: string[] = [];
  const summary = route.summary.replace(/\.?$/, '.');
  parts.push(summary);
  const desc = forModel(route.description, route);
  if (desc) parts.push(desc.replace(/\.?$/, '.'));
  if (OPERATION_GUIDANCE[route.operationId]) parts.push(OPERATION_GUIDANCE[route.operationId]);
  if (TAG_GUIDANCE[route.tag]) parts.push(`About ${route.tag.toLowerCase()}: ${TAG_GUIDANCE[route.tag]}`);
  const args: string[] = [];
  if (spec.paramKeys.length) args.push(`${spec.paramKeys.join(', ')} identif${spec.paramKeys.length > 1 ? 'y' : 'ies'} the record`);
  if (spec.queryKeys.length) args.push(`optional filters/options: ${spec.queryKeys.join(', ')}`);
  if (spec.body === 'flat') args.push('the other arguments are the fields of the request body');
  if (spec.body === 'nested') args.push('`body` is the request body');
  if (args.length) parts.push(`Arguments: ${args.join('; ')}.`);
  parts.push(
    readOnly
      ? 'Read-only.'
      : destructive
        ? 'Changes data: deletes, removes or resets something; confirm with the user first.'
        : 'Changes data.',
  );
  if (spec.wrapped) parts.push('The result is returned as { data: ... }.');
  parts.push(
    'On failure the tool result is an error whose text gives the reason and, for invalid input, each invalid field ' +
      'as a JSON Pointer (e.g. /pax, /query/limit, /path/id) with a message; nothing is changed when a call fails.',
  );
  parts.push(`(REST equivalent: ${route.method} /api/v1${route.path}.)`);
  return parts.join('\n\n');
}

const DESTRUCTIVE = /^(delete|remove|reset|batchDelete)/;

export function buildTool(route: RouteSpec): ToolSpec {
  const name = toolName(route.operationId);
  const params = route.params ? jsonSchema(route.params, 'input') : undefined;
  const query = route.query ? jsonSchema(route.query, 'input') : undefined;
  const body = route.body ? jsonSchema(route.body, 'input') : undefined;
  const paramKeys = Object.keys(params?.properties ?? {});
  const queryKeys = Object.keys(query?.properties ?? {});

  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const defs: Record<string, JsonSchema> = {};
  const addDefs = (s?: JsonSchema) => {
    for (const [k, v] of Object.entries(s?.$defs ?? {})) {
      if (k in defs && JSON.stringify(defs[k]) !== JSON.stringify(v)) throw new Error(`tool ${name}: two schemas named ${k}`);
      defs[k] = v as JsonSchema;
    }
  };
  for (const s of [params, query, body]) addDefs(s);
  for (const k of paramKeys) properties[k] = params!.properties[k];
  required.push(...((params?.required as string[]) ?? []));
  for (const k of queryKeys) {
    if (k in properties) throw new Error(`tool ${name}: ${k} is both a path and a query parameter`);
    properties[k] = query!.properties[k];
  }

  let bodyMode: ToolSpec['body'] = 'none';
  let additionalProperties: unknown = false;
  if (body) {
    const collides = isPlainObjectSchema(body) && Object.keys(body.properties).some((k) => k in properties || k === 'body');
    if (isPlainObjectSchema(body) && !collides) {
      bodyMode = 'flat';
      Object.assign(properties, body.properties);
      if (!route.optionalBody) required.push(...((body.required as string[]) ?? []));
      additionalProperties = body.additionalProperties ?? true;
    } else {
      bodyMode = 'nested';
      const { $defs: _d, ...rest } = body;
      properties.body = rest;
      if (!route.optionalBody) required.push('body');
    }
  }
  const inputSchema: JsonSchema = { type: 'object', properties };
  if (required.length) inputSchema.required = required;
  if (bodyMode === 'flat' && body?.description) inputSchema.description = body.description;
  inputSchema.additionalProperties = additionalProperties;
  if (Object.keys(defs).length) inputSchema.$defs = defs;
  if (bodyMode === 'flat') for (const k of Object.keys(properties)) delete (properties[k] as JsonSchema).$defs;

  let output = jsonSchema(route.response, 'output');
  const wrapped = output.type !== 'object';
  if (wrapped) {
    const { $defs, ...inner } = output;
    output = { type: 'object', properties: { data: inner }, required: ['data'], ...($defs ? { $defs } : {}) };
  }
  if (queryKeys.includes('fields')) output = withoutNestedRequired(output);

  const readOnlyHint = route.method === 'GET';
  const destructiveHint = route.method === 'DELETE' || DESTRUCTIVE.test(route.operationId);
  const idempotentHint = route.method === 'GET' || route.method === 'PATCH' || route.method === 'DELETE';
  const partial = { route, paramKeys, queryKeys, body: bodyMode, wrapped };
  return {
    ...partial,
    tool: {
      name,
      title: route.summary,
      description: describe(route, partial, readOnlyHint, destructiveHint),
      inputSchema: inputSchema as Tool['inputSchema'],
      outputSchema: output as Tool['outputSchema'],
      annotations: { title: route.summary, readOnlyHint, destructiveHint: readOnlyHint ? false : destructiveHint, idempotentHint, openWorldHint: false },
    },
  };
}

export function buildTools(routes: RouteSpec[]): ToolSpec[] {
  const tools = routes.map(buildTool);
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.tool.name)) throw new Error(`two REST routes give the MCP tool name ${t.tool.name}`);
    seen.add(t.tool.name);
  }
  return tools;
}

/** Runs a REST route in-process (the façade's handler): same checks, services and problem details. */
export type Dispatch = (request: Request, url: URL, ctx: RequestContext) => Promise<Response>;

const invalid = (message: string, errors: FieldError[]) => problemResult(problemFromError(new ValidationError(message, errors)));

export function problemResult(problem: Problem): CallToolResult {
  const lines = [`${problem.title} (${problem.status} ${problem.code}): ${problem.detail}`];
  for (const e of problem.errors ?? []) lines.push(`- ${e.path || '(body)'}: ${e.message}`);
  return {
    isError: true,
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(problem) },
    ],
  };
}

export function successResult(value: unknown, wrapped: boolean): CallToolResult {
  const structured = (wrapped ? { data: value } : value) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Path plus query string of the route for these arguments, and the JSON body; or a tool error. */
export function toRequest(
  spec: ToolSpec,
  args: Record<string, unknown>,
  basePath: string,
): { ok: true; url: URL; init: RequestInit } | { ok: false; result: CallToolResult } {
  const { route } = spec;
  const params: Record<string, unknown> = {};
  for (const k of spec.paramKeys) {
    const v = args[k];
    params[k] = typeof v === 'number' ? String(v) : v;
  }
  if (route.params) {
    const p = route.params.safeParse(params);
    if (!p.success) return { ok: false, result: invalid('invalid path parameter', fieldErrorsFromZod(p.error.issues, '/path')) };
  }
  let path = route.path;
  for (const k of spec.paramKeys) path = path.replace(`{${k}}`, encodeURIComponent(String(params[k])));
  const url = new URL(`http://fleetops.mcp${basePath}${path}`);
  for (const k of spec.queryKeys) {
    const v = args[k];
    if (v === undefined || v === null) continue;
    if (!['string', 'number', 'boolean'].includes(typeof v)) {
      return { ok: false, result: invalid('invalid query parameter', [{ path: `/query/${k}`, message: `${k} must be a string, number or boolean` }]) };
    }
    url.searchParams.set(k, String(v));
  }

  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (!spec.paramKeys.includes(k) && !spec.queryKeys.includes(k)) rest[k] = v;
  let body: unknown;
  if (spec.body === 'flat') {
    if (Object.keys(rest).length || !route.optionalBody) body = rest;
  } else if (spec.body === 'nested') {
    const { body: b, ...others } = rest;
    if (Object.keys(others).length) return { ok: false, result: unknownArgs(Object.keys(others)) };
    body = b;
  } else if (Object.keys(rest).length) {
    return { ok: false, result: unknownArgs(Object.keys(rest)) };
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { ok: true, url, init: { method: route.method, headers, body: body === undefined ? undefined : JSON.stringify(body) } };
}

function unknownArgs(keys: string[]): CallToolResult {
  return invalid(
    `invalid request: unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`,
    keys.map((k) => ({ path: `/${k}`, message: `unknown field: ${k}` })),
  );
}

/** Calls the tool: dispatches the route in-process and maps the answer to a tool result. */
export async function callTool(
  spec: ToolSpec,
  args: Record<string, unknown> | undefined,
  ctx: RequestContext,
  dispatch: Dispatch,
  basePath: string,
): Promise<CallToolResult> {
  const req = toRequest(spec, args ?? {}, basePath);
  if (!req.ok) return req.result;
  const res = await dispatch(new Request(req.url, req.init), req.url, ctx);
  const text = await res.text();
  if (res.status >= 400) {
    let problem: Problem;
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      problem = { type: 'about:blank', title: 'Error', status: res.status, detail: text || res.statusText, code: 'error' };
    }
    return problemResult(problem);
  }
  return successResult(text ? JSON.parse(text) : null, spec.wrapped);
}
