import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { RequestContext } from '../context.js';
import type { RouteSpec } from '../rest/contract.js';
import type { RestFacade } from '../rest/facade.js';
import type { buildOpenApi } from '../rest/openapi.js';
import { asTrackingMap } from '../modules/tracking/schema.js';
import { AppError, BadRequestError, ForbiddenError, MethodNotAllowedError, ReportedError, ValidationError } from '../errors.js';
import { INTERNAL_ERROR, problemFromError } from '../http/problem.js';
import { databaseError } from '../db/errors.js';
import { reportUnexpected } from '../lib/unexpected.js';
import { argumentErrors, buildTools, toolInput, type ToolDef } from './tools.js';
import { INSTRUCTIONS } from './guidance.js';
import { InexactBodyError, parseJson } from '../lib/json-numbers.js';
import type { GraphQLSchema } from 'graphql';
import { forbiddenMessage, mayCall, requiredScopeOf } from '../auth/scopes.js';
import { useUnits } from '../graphql/policy.js';

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
  /** The REST façade: each tool call runs its route's operation (one operation per call, charged as one). */
  rest: RestFacade;
  /** The OpenAPI document (built on first use), served as the resource fleetops://openapi (every tool's body and answer in full). */
  openapi: () => ReturnType<typeof buildOpenApi>;
  /** The GraphQL schema: which scope a tool's field needs (src/auth/scopes.ts). */
  schema: GraphQLSchema;
}

/** MCP's code for a resource that does not exist (the specification's resources section). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * JSON-RPC's code for a refusal that is not about the request's parameters (a key's scope, the rate limit): one of
 * the codes JSON-RPC leaves to the server (-32000 to -32099), with the problem+json as its `data`.
 */
export const REFUSED = -32000;

/** A failure as the JSON-RPC error a client gets: domain errors keep their words, nothing internal is shown. */
function mcpError(e: unknown, uri: string, ctx: RequestContext): McpError {
  if (e instanceof McpError) return e;
  const known = databaseError(e);
  if (known instanceof AppError) {
    if (known.status === 404) return new McpError(RESOURCE_NOT_FOUND, `resource not found: ${uri}`, { uri });
    // a 5xx the service answered (an outage it names): in its words, logged where it arose
    if (known.status >= 500) return new McpError(ErrorCode.InternalError, known.message);
    const problem = problemFromError(known);
    return new McpError(known.status === 400 ? ErrorCode.InvalidParams : REFUSED, known.message, problem);
  }
  reportUnexpected(e, { channel: 'mcp', uri }, ctx.request.log);
  return new McpError(ErrorCode.InternalError, 'internal error: it has been logged');
}

/**
 * The request schemas the handlers are registered with: the method alone. The SDK parses a request with the schema
 * it was registered with before the handler runs, and answers a failed parse as an internal error (-32603) in zod's
 * words (modelcontextprotocol/typescript-sdk#2284); with these, each handler checks its parameters with the
 * specification's schema and answers a mistake as invalid params (-32602) naming the parameter. (For tools/call the
 * SDK's own check of the parameters runs first, as invalid params too.)
 */
const methodOnly = <M extends string>(method: M) => z.object({ method: z.literal(method), params: z.unknown().optional() });

function paramsOf<S extends z.ZodType>(schema: S, request: unknown): z.output<S> {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.filter((k) => k !== 'params').join('.');
  throw new McpError(ErrorCode.InvalidParams, `invalid params${where ? ` (${where})` : ''}: ${issue.message}`);
}

export function createMcpHandler(opts: McpOptions) {
  const tools = buildTools(opts.routes);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const requiredOf = new Map(tools.map((t) => [t.name, requiredScopeOf(opts.schema, t.route.field)]));
  const listed = tools.map(({ route: _r, ...t }) => t);

  /**
   * Why the call is refused before its operation runs, or null: the key's scope first, whatever the arguments, as
   * the operation decides it (decision 0006), then the arguments the tool does not take or lacks, at the JSON
   * Pointers REST gives them (`/query/<name>` on a route without a body, `/path/<name>`), then their checks.
   */
  function refusalOf(tool: ToolDef, args: Record<string, unknown>, ctx: RequestContext): ReturnType<typeof problemFromError> | null {
    const required = requiredOf.get(tool.name)!;
    if (!mayCall(ctx.actor.scope, required)) return problemFromError(new ForbiddenError(forbiddenMessage(ctx.actor.scope, required, tool.route.field.split('.')[1])));
    const known = new Set(Object.keys(tool.inputSchema.properties as object));
    const inPath = new Set(Object.keys(tool.route.params?.shape ?? {}));
    const unknown = Object.keys(args).filter((k) => !known.has(k));
    // a body sent as null is a body: the route refuses it in its own words, as it refuses a REST request's `null`
    const missing = ((tool.inputSchema.required as string[] | undefined) ?? []).filter((k) => args[k] === undefined || (args[k] === null && k !== 'body'));
    if (unknown.length || missing.length) {
      const errors = [
        ...unknown.map((k) => ({ path: tool.route.body ? `/${k}` : `/query/${k}`, message: `unknown argument ${k} (arguments: ${[...known].join(', ') || 'none'})` })),
        ...missing.map((k) => ({ path: inPath.has(k) ? `/path/${k}` : `/${k}`, message: `${k} is required` })),
      ];
      return problemFromError(new ValidationError(`invalid arguments: ${errors.map((e) => e.message).join('; ')}`, errors));
    }
    const invalid = argumentErrors(tool, args);
    return invalid ? problemFromError(new ValidationError(invalid.detail, invalid.errors)) : null;
  }

  async function callTool(tool: ToolDef, args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult> {
    const refused = refusalOf(tool, args, ctx);
    if (refused) {
      // a refused call costs a unit of the rate limit as any call does (its operation would have used it): a batch
      // of N calls costs N, as N REST requests would
      const limited = await useUnits(ctx, 1);
      return toolError(limited ? problemFromError(limited) : refused);
    }
    let answer;
    try {
      answer = await opts.rest.invoke(tool.route, toolInput(tool, args), ctx);
    } catch (e) {
      const known = databaseError(e);
      if (known) return toolError(problemFromError(known));
      // as REST answers it (a 500 problem, the error logged): nothing internal reaches the assistant
      reportUnexpected(e, { channel: 'mcp', tool: tool.name }, ctx.request.log);
      return toolError(problemFromError(INTERNAL_ERROR));
    }
    if (answer.problem) return toolError(answer.problem);
    const body = answer.body;
    const structured = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { data: body };
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

  /** A read the resources make, run as its route's operation (so it is charged and scoped like a tool call). */
  async function read(operationId: string, args: Record<string, unknown>, ctx: RequestContext): Promise<any> {
    const tool = byName.get(operationId);
    if (!tool) throw new Error(`no route ${operationId}`);
    const answer = await opts.rest.invoke(tool.route, toolInput(tool, args), ctx);
    if (answer.problem) {
      const p = answer.problem;
      throw new ReportedError(p.status, p.code, p.title, p.detail, p.errors);
    }
    return answer.body;
  }

  async function aircraftResource(ctx: RequestContext, uid: string) {
    const a = await read('getAircraft', { id: uid }, ctx);
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

  function server(ctx: RequestContext): Server {
    const s = new Server(
      { name: 'fleetops', title: 'Fleet Ops', version: opts.version },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions: INSTRUCTIONS,
      },
    );
    // a key sees the tools it may call: a read key no write tool, only an admin key the company's management
    s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed.filter((t) => mayCall(ctx.actor.scope, requiredOf.get(t.name)!)) }));
    s.setRequestHandler(methodOnly('tools/call'), async (request) => {
      const req = paramsOf(CallToolRequestSchema, request);
      const tool = byName.get(req.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(req.params.name)}: tools/list names them`);
      return callTool(tool, (req.params.arguments ?? {}) as Record<string, unknown>, ctx);
    });
    s.setRequestHandler(ListResourcesRequestSchema, async () => {
      let aircraft: { uid: string; registration: string }[];
      try {
        aircraft = (await read('listAircraft', {}, ctx)).data;
      } catch (e) {
        // a refusal (the rate limit) answered as resources/read answers it: its problem+json as the error's data
        throw mcpError(e, 'fleetops://aircraft', ctx);
      }
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
            uri: 'fleetops://openapi',
            name: 'OpenAPI document',
            title: 'The REST API\u2019s OpenAPI 3.1 document: every tool\u2019s body and answer in full',
            mimeType: 'application/json',
          },
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
    s.setRequestHandler(methodOnly('resources/read'), async (request) => {
      const uri = paramsOf(ReadResourceRequestSchema, request).params.uri;
      if (uri.includes('\u0000') || uri.length > 2048) throw new McpError(ErrorCode.InvalidParams, 'invalid resource URI');
      const m = /^fleetops:\/\/aircraft\/([^/]+)$/.exec(uri);
      let value: unknown;
      try {
        if (m) {
          let id: string;
          try {
            id = decodeURIComponent(m[1]);
          } catch {
            throw new McpError(ErrorCode.InvalidParams, 'invalid resource URI: bad percent-encoding');
          }
          value = await aircraftResource(ctx, id);
        } else if (uri === 'fleetops://forms/field-schema') value = await read('getFormFieldSchema', {}, ctx);
        else if (uri === 'fleetops://openapi') value = opts.openapi();
        else if (uri === 'fleetops://maintenance-status' && byName.has('getMaintenanceStatus')) value = await read('getMaintenanceStatus', {}, ctx);
        else throw new McpError(RESOURCE_NOT_FOUND, `resource not found: ${uri}`, { uri });
      } catch (e) {
        throw mcpError(e, uri, ctx);
      }
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
    s.setRequestHandler(methodOnly('prompts/get'), async (request) => {
      const req = paramsOf(GetPromptRequestSchema, request);
      if (req.params.name === 'log-flight') {
        const id = req.params.arguments?.aircraftId?.trim();
        if (!id) throw new McpError(ErrorCode.InvalidParams, 'the prompt log-flight needs the argument aircraftId (the aircraft uid)');
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
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${JSON.stringify(req.params.name)}: prompts/list names them`);
    });
    return s;
  }

  /**
   * The body is read here, once, and handed to the transport (its documented `parsedBody`), its numbers as written
   * (src/lib/json-numbers.ts: one the double would round is refused at its path, as on every channel); a body that is
   * not JSON goes to the transport as it came, for its parse error.
   * With an `Idempotency-Key`, which names one write, a JSON-RPC batch may hold at most one call of a tool that writes
   * (the calls of a batch run together, and each would claim the same key: the second is refused as in progress,
   * and again on every retry). A 400 before anything runs.
   */
  async function readMessages(request: Request, oneWrite: boolean): Promise<{ request: Request; json?: unknown }> {
    const text = await request.text();
    let json: unknown;
    try {
      json = parseJson(text);
    } catch (e) {
      if (e instanceof InexactBodyError) throw new BadRequestError(e.message);
      return { request: new Request(request, { body: text }) };
    }
    if (!oneWrite) return { request, json };
    const writes = (Array.isArray(json) ? json : [json]).filter((m) => {
      if (!m || typeof m !== 'object' || (m as { method?: unknown }).method !== 'tools/call') return false;
      const tool = byName.get(String((m as { params?: { name?: unknown } }).params?.name));
      return !!tool && requiredOf.get(tool.name) !== 'read';
    });
    if (writes.length > 1) {
      throw new BadRequestError(
        `an Idempotency-Key covers one write, and this batch calls ${writes.length} tools that write: send each write as its own request with its own key`,
      );
    }
    return { request, json };
  }

  return {
    tools,
    async handle(request: Request, ctx: RequestContext): Promise<Response> {
      // Stateless: no stream of server messages to GET and no session to DELETE. A 405 tells clients so (the SDK
      // client then stops asking); a GET stream that ends at once would have them reconnect every second.
      if (request.method !== 'POST') throw new MethodNotAllowedError(`${request.method} is not allowed on /mcp: send JSON-RPC by POST`, ['POST']);
      const parsedBody = await readMessages(request, ctx.request.idempotencyKey !== undefined);
      const s = server(ctx);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await s.connect(transport);
      try {
        return await transport.handleRequest(parsedBody ? parsedBody.request : request, parsedBody?.json !== undefined ? { parsedBody: parsedBody.json } : undefined);
      } finally {
        void s.close();
      }
    },
  };
}
