import { z } from 'zod';
import { fieldErrorsFromZod, type FieldError } from '../errors.js';
import { isReadRoute, type RouteSpec } from '../rest/contract.js';
import { OPERATION_GUIDANCE, TAG_GUIDANCE } from './guidance.js';

/**
 * MCP tools derived from the REST route declarations (src/rest/routes.ts): one tool per operation, so a new route
 * cannot be forgotten. The input schema is JSON Schema from the route's own zod schemas (path and query parameters
 * at the top level, the JSON body under `body`); a call runs the route through the same REST façade, services and
 * checks, so results and error messages are those of REST. Annotations follow the HTTP method and the operation.
 */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  outputSchema?: Record<string, unknown> & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  route: RouteSpec;
}

const jsonSchema = (s: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _s, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return rest;
};

/**
 * The tool's outputSchema (MCP wants an object schema at the top): an object response as it is; a union of
 * object responses (e.g. a page or a projected page, one aggregate form or the other) typed as an object with
 * the same anyOf; any other response as `{ data: <response> }`, which is how the result is wrapped (server.ts).
 */
function outputSchema(response: Record<string, unknown>): NonNullable<ToolDef['outputSchema']> {
  if (response.type === 'object') return response as NonNullable<ToolDef['outputSchema']>;
  const branches = (response.anyOf ?? response.oneOf) as Record<string, unknown>[] | undefined;
  if (branches?.length && branches.every((b) => b.type === 'object')) return { type: 'object', ...response };
  const { $defs, ...data } = response;
  return { type: 'object', properties: { data }, required: ['data'], ...($defs ? { $defs } : {}) };
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
    if (v !== undefined && v !== null && !['string', 'number', 'boolean'].includes(typeof v)) {
      errors.push({ path: `/query/${k}`, message: `${k} must be a string, a number or a boolean` });
    }
  }
  return errors.length ? { detail: 'invalid query parameter', errors } : undefined;
}

/** Writes that take something away or cannot be undone by repeating them. */
const DESTRUCTIVE = /^(delete|batchDelete|remove|reset)/i;

const HOW: Record<string, string> = {
  GET: 'Reads data; changes nothing.',
  POST: 'Creates or runs something; calling it twice does it twice.',
  PATCH: 'Changes only the fields given; the same call again answers no_changes.',
  DELETE: 'Deletes (soft-deletes where the resource can be restored).',
};

export function buildTools(routes: RouteSpec[]): ToolDef[] {
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
      properties.body = { ...jsonSchema(r.body, 'input'), description: `The JSON request body (${r.method} ${r.path})` };
      if (!r.optionalBody) required.push('body');
    }
    const response = jsonSchema(r.response, 'output');
    const readOnly = isReadRoute(r);
    const destructive = r.method === 'DELETE' || DESTRUCTIVE.test(r.operationId);
    const errors = r.errors.length ? ` Errors come back as tool errors with the REST problem detail (HTTP ${r.errors.join(', ')}).` : '';
    return {
      name: r.operationId,
      title: r.summary,
      description: [
        `${r.summary}. ${restOnly(r)} ${OPERATION_GUIDANCE[r.operationId] ?? ''}`,
        `${readOnly ? HOW.GET : HOW[r.method]} Same as REST ${r.method} /api/v1${r.path}.${errors}`,
        TAG_GUIDANCE[r.tag] ? `About ${r.tag.toLowerCase()}: ${TAG_GUIDANCE[r.tag]}` : '',
      ]
        .map((p) => p.replace(/\s+/g, ' ').replace(/\.\./g, '.').trim())
        .filter(Boolean)
        .join('\n\n'),
      inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
      outputSchema: outputSchema(response),
      annotations: {
        title: r.summary,
        readOnlyHint: readOnly,
        destructiveHint: !readOnly && destructive,
        idempotentHint: readOnly || r.method === 'PATCH' || r.method === 'DELETE',
        openWorldHint: false,
      },
      route: r,
    };
  });
}

/** The façade request a tool call stands for: the path with its parameters, the query string, the JSON body. */
export function toolRequest(tool: ToolDef, args: Record<string, unknown>, origin: string, apiBase: string): Request {
  const r = tool.route;
  const path = r.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(args[name] ?? '')));
  const url = new URL(origin + apiBase + path);
  for (const key of Object.keys(r.query?.shape ?? {})) {
    const v = args[key];
    if (v !== undefined && v !== null) url.searchParams.set(key, String(v));
  }
  const hasBody = r.body && args.body !== undefined;
  return new Request(url, {
    method: r.method,
    headers: { accept: 'application/json', ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? JSON.stringify(args.body) : undefined,
  });
}
