import { z } from 'zod';
import { isReadRoute, type RouteSpec } from '../rest/contract.js';

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
      description: `${r.summary}. ${r.description ?? ''} ${readOnly ? HOW.GET : HOW[r.method]} Same as REST ${r.method} /api/v1${r.path}.${errors}`
        .replace(/\s+/g, ' ')
        .replace(/\.\./g, '.')
        .trim(),
      inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
      ...(response.type === 'object' ? { outputSchema: response as ToolDef['outputSchema'] } : {}),
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
