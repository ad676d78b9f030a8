import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../context.js';
import type { RouteSpec } from '../rest/contract.js';
import { asTrackingMap } from '../modules/tracking/schema.js';
import { MethodNotAllowedError, ValidationError } from '../errors.js';
import { problemFromError } from '../http/problem.js';
import { argumentErrors, buildTools, toolRequest, type ToolDef } from './tools.js';

/**
 * The MCP channel at /mcp (docs/contract/gaps.md §8; docs/mcp.md): Streamable HTTP, stateless (a server per request, bound to the
 * caller's RequestContext: the same bearer key, company scope and rate limit as REST). Tools mirror the REST
 * operations (tools.ts) and run through the REST façade; resources give an aircraft's tracking fields and totals
 * and the form field schema; prompts guide logging a flight and planning the next 30 days of maintenance.
 */
export interface McpOptions {
  routes: RouteSpec[];
  apiBase: string;
  version: string;
  /** The REST façade (request → response) the tools run through. */
  rest: (request: Request, url: URL, ctx: RequestContext) => Promise<Response>;
}

export function createMcpHandler(opts: McpOptions) {
  const tools = buildTools(opts.routes);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map(({ route: _r, ...t }) => t);

  async function callTool(tool: ToolDef, args: Record<string, unknown>, ctx: RequestContext, origin: string): Promise<CallToolResult> {
    const known = new Set(Object.keys(tool.inputSchema.properties as object));
    const unknown = Object.keys(args).filter((k) => !known.has(k));
    const missing = ((tool.inputSchema.required as string[] | undefined) ?? []).filter((k) => args[k] === undefined || args[k] === null);
    if (unknown.length || missing.length) {
      const errors = [
        ...unknown.map((k) => ({ path: `/${k}`, message: `unknown argument ${k} (arguments: ${[...known].join(', ') || 'none'})` })),
        ...missing.map((k) => ({ path: `/${k}`, message: `${k} is required` })),
      ];
      return toolError({ status: 400, code: 'validation_error', detail: `invalid arguments: ${errors.map((e) => e.message).join('; ')}`, errors });
    }
    const invalid = argumentErrors(tool, args);
    if (invalid) return toolError(problemFromError(new ValidationError(invalid.detail, invalid.errors)));
    const request = toolRequest(tool, args, origin, opts.apiBase);
    const res = await opts.rest(request, new URL(request.url), ctx);
    const text = await res.text();
    const body = text ? JSON.parse(text) : {};
    if (res.status >= 400) return toolError(body);
    const structured = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : { data: body };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }

  function toolError(problem: { status?: number; code?: string; detail?: string; errors?: { path: string; message: string }[] }): CallToolResult {
    const fields = (problem.errors ?? []).map((e) => `${e.path || '/'}: ${e.message}`);
    return {
      isError: true,
      content: [
        { type: 'text', text: `${problem.detail ?? 'request failed'}${fields.length ? `\n${fields.join('\n')}` : ''}` },
        { type: 'text', text: JSON.stringify(problem) },
      ],
    };
  }

  async function aircraftResource(ctx: RequestContext, uid: string) {
    const a = await ctx.services.aircraft.get(uid);
    const items = (kind: 'maintenance' | 'log', map: unknown) =>
      Object.entries(asTrackingMap(map)).map(([key, item]) => ({ key, kind, ...item }));
    return {
      uid: a.uid,
      registration: a.registration,
      type: a.type,
      status: a.status,
      trackingFields: [...items('maintenance', a.maintenanceTrackingItems), ...items('log', a.logTrackingItems)],
      totals: a.totals,
      howToLog:
        'createFlightLog takes timeDate, pilot, aircraftId, aircraftRegistration, startLocation, endLocation and the tracking values above as extra body keys; maintenance values add to the totals.',
    };
  }

  function server(ctx: RequestContext, origin: string): Server {
    const s = new Server(
      { name: 'fleetops', title: 'Fleet Ops', version: opts.version },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions:
          'Fleet Ops: aircraft, flight logs (hours and landings accumulate into airworthiness totals), vehicles, components, the maintenance schedule, inspection forms and aggregation, for one company. Read fleetops://aircraft/{id} before logging a flight; exact figures matter.',
      },
    );
    s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
    s.setRequestHandler(CallToolRequestSchema, async (req) => {
      const tool = byName.get(req.params.name);
      if (!tool) return toolError({ status: 404, code: 'not_found', detail: `no tool ${req.params.name}` });
      return callTool(tool, (req.params.arguments ?? {}) as Record<string, unknown>, ctx, origin);
    });
    s.setRequestHandler(ListResourcesRequestSchema, async () => {
      const aircraft = await ctx.services.aircraft.list();
      return {
        resources: [
          ...aircraft.map((a) => ({
            uri: `fleetops://aircraft/${encodeURIComponent(a.uid)}`,
            name: `aircraft ${a.registration}`,
            title: `${a.registration}: tracking fields and totals`,
            mimeType: 'application/json',
          })),
          { uri: 'fleetops://forms/field-schema', name: 'form field schema', title: 'The field types of forms', mimeType: 'application/json' },
          {
            uri: 'fleetops://maintenance-status',
            name: 'maintenance status',
            title: 'Maintenance status: what is overdue or coming due',
            description: 'Every active schedule item with its due point and what remains, most urgent first (getMaintenanceStatus without filters).',
            mimeType: 'application/json',
          },
        ],
      };
    });
    s.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: [
        {
          uriTemplate: 'fleetops://aircraft/{id}',
          name: 'aircraft',
          title: 'An aircraft\u2019s tracking fields and current totals',
          description: 'Read before logging a flight: which tracking values the aircraft takes and its current totals.',
          mimeType: 'application/json',
        },
      ],
    }));
    s.setRequestHandler(ReadResourceRequestSchema, async (req) => {
      const uri = req.params.uri;
      const m = /^fleetops:\/\/aircraft\/([^/]+)$/.exec(uri);
      let value: unknown;
      if (m) value = await aircraftResource(ctx, decodeURIComponent(m[1]));
      else if (uri === 'fleetops://forms/field-schema') value = ctx.services.forms.fieldSchema();
      else if (uri === 'fleetops://maintenance-status' && byName.has('getMaintenanceStatus')) {
        const r = await callTool(byName.get('getMaintenanceStatus')!, {}, ctx, origin);
        if (r.isError) throw new Error((r.content[0] as { text: string }).text);
        value = r.structuredContent;
      }
      else throw new Error(`unknown resource ${uri}`);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
    });
    s.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: [
        {
          name: 'log-flight',
          title: 'Log a flight',
          description: 'Record a flight so that the aircraft\u2019s hours and landings move exactly.',
          arguments: [{ name: 'aircraftId', description: 'The aircraft uid', required: true }, { name: 'details', description: 'What you know about the flight' }],
        },
        { name: 'due-next-30-days', title: 'What is due in the next 30 days', description: 'Maintenance due within 30 days or overdue, most urgent first.' },
      ],
    }));
    s.setRequestHandler(GetPromptRequestSchema, async (req) => {
      if (req.params.name === 'log-flight') {
        const id = req.params.arguments?.aircraftId ?? '';
        const details = req.params.arguments?.details ?? '';
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Log a flight for aircraft ${id}. First read the resource fleetops://aircraft/${id} for its registration, tracking fields and totals. Then call createFlightLog with body {timeDate (ISO 8601 UTC), pilot (user uid), aircraftId, aircraftRegistration, startLocation, endLocation, and each tracking value as its own key}. Use exact figures; do not guess hours. Afterwards read the resource again and report the new totals.${details ? ` Flight details: ${details}` : ''}`,
              },
            },
          ],
        };
      }
      if (req.params.name === 'due-next-30-days') {
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: 'List the maintenance due in the next 30 days: call getMaintenanceStatus with dueWithinDays 30 (overdue items come first), then summarise per aircraft and vehicle: item, what it is due on (remaining hours or days), and what is already overdue.',
              },
            },
          ],
        };
      }
      throw new Error(`unknown prompt ${req.params.name}`);
    });
    return s;
  }

  return {
    tools,
    async handle(request: Request, ctx: RequestContext): Promise<Response> {
      // Stateless: no stream of server messages to GET and no session to DELETE. A 405 tells clients so (the SDK
      // client then stops asking); a GET stream that ends at once would have them reconnect every second.
      if (request.method !== 'POST') throw new MethodNotAllowedError(`${request.method} is not allowed on /mcp: send JSON-RPC by POST`, ['POST']);
      const s = server(ctx, new URL(request.url).origin);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await s.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        void s.close();
      }
    },
  };
}
