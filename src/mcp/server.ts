import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { MethodNotAllowedError } from '../errors.js';
import type { RouteSpec } from '../rest/contract.js';
import { buildTools, callTool, toolName, type Dispatch, type ToolSpec } from './tools.js';

/**
 * The MCP server at /mcp (Streamable HTTP, stateless): every POST gets a fresh server and transport bound to the
 * caller's RequestContext (authenticated and rate limited by the app like REST), answers with JSON, and is closed.
 * Tools mirror the REST routes (src/mcp/tools.ts); resources and prompts help a model use them.
 */
export interface McpOptions {
  routes: RouteSpec[];
  dispatch: Dispatch;
  basePath: string;
  version: string;
  bodyLimitBytes: number;
}

const INSTRUCTIONS =
  'Fleet Ops keeps an operator\u2019s aircraft, flight logs, users, vehicles, components and maintenance schedule. ' +
  'Every tool mirrors one operation of the REST API /api/v1 and applies the same rules; every record is scoped to ' +
  'the company of the API key. Before logging a flight, read the aircraft (resource fleetops://aircraft/{id} or ' +
  'get_aircraft) for its tracking item keys and current totals. Ids are the records\u2019 uid strings.';

export function createMcpHandler(opts: McpOptions) {
  const tools = buildTools(opts.routes);
  const byName = new Map(tools.map((t) => [t.tool.name, t]));
  const byOperation = new Map(tools.map((t) => [t.route.operationId, t]));

  function server(ctx: RequestContext): McpServer {
    const mcp = new McpServer(
      { name: 'fleetops', title: 'Fleet Ops', version: opts.version },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    );
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((t) => t.tool) }));
    mcp.server.setRequestHandler(CallToolRequestSchema, async (req) => {
      const spec = byName.get(req.params.name);
      if (!spec) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${req.params.name}`);
      return callTool(spec, req.params.arguments, ctx, opts.dispatch, opts.basePath);
    });
    registerResources(mcp, ctx, byOperation, opts);
    registerPrompts(mcp);
    return mcp;
  }

  return async function handle(request: Request, ctx: RequestContext): Promise<Response> {
    // stateless: no server-to-client stream (GET) and no session to end (DELETE)
    if (request.method !== 'POST') throw new MethodNotAllowedError(`${request.method} is not allowed on /mcp`, ['POST']);
    const mcp = server(ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: opts.bodyLimitBytes,
    });
    await mcp.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await mcp.close();
    }
  };
}

/** A route's JSON answer, or undefined for 404; other failures become a JSON-RPC error. */
async function read(spec: ToolSpec | undefined, args: Record<string, unknown>, ctx: RequestContext, opts: McpOptions) {
  if (!spec) throw new McpError(ErrorCode.InternalError, 'this resource is not available');
  const result = await callTool(spec, args, ctx, opts.dispatch, opts.basePath);
  if (result.isError) {
    const problem = JSON.parse((result.content[1] as { text: string }).text) as { status: number; detail: string };
    if (problem.status === 404) return undefined;
    throw new McpError(ErrorCode.InvalidParams, problem.detail);
  }
  const s = result.structuredContent as Record<string, unknown>;
  return spec.wrapped ? s.data : s;
}

const RESOURCE_NOT_FOUND = -32002;

function registerResources(mcp: McpServer, ctx: RequestContext, ops: Map<string, ToolSpec>, opts: McpOptions) {
  const getAircraft = ops.get('getAircraft');
  const listAircraft = ops.get('listAircraft');
  if (getAircraft) {
    mcp.registerResource(
      'aircraft',
      new ResourceTemplate('fleetops://aircraft/{id}', {
        list: listAircraft
          ? async () => {
              const list = (await read(listAircraft, {}, ctx, opts)) as { data: Array<Record<string, any>> };
              return {
                resources: list.data.map((a) => ({
                  uri: `fleetops://aircraft/${encodeURIComponent(a.uid)}`,
                  name: `${a.registration}`,
                  title: `${a.registration} (${a.type}) tracking and totals`,
                  mimeType: 'application/json',
                })),
              };
            }
          : undefined,
      }),
      {
        title: 'Aircraft tracking fields and current totals',
        description:
          'One aircraft: uid, registration, its maintenance tracking items (values that accumulate into totals, e.g. ' +
          'hobbs, landings) and log tracking items (per-flight values), and its current totals and initial values. ' +
          'Read it before logging a flight: tracking values in a flight log are keyed by these item keys.',
        mimeType: 'application/json',
      },
      async (uri, variables) => {
        const id = decodeURIComponent(String(variables.id));
        const a = (await read(getAircraft, { id }, ctx, opts)) as Record<string, unknown> | undefined;
        if (!a) throw new McpError(RESOURCE_NOT_FOUND, `aircraft ${JSON.stringify(id)} not found`, { uri: uri.href });
        const view = {
          uid: a.uid,
          registration: a.registration,
          type: a.type,
          status: a.status,
          maintenanceTrackingItems: a.maintenanceTrackingItems,
          logTrackingItems: a.logTrackingItems,
          totals: a.totals ?? {},
          initialValues: a.initialValues ?? {},
        };
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(view, null, 2) }] };
      },
    );
  }
  const status = ops.get('getMaintenanceStatus');
  if (status) {
    mcp.registerResource(
      'maintenance-status',
      'fleetops://maintenance-status',
      {
        title: 'Maintenance status',
        description:
          'Every active maintenance schedule item with how far it is from due (overdue first), for all aircraft, ' +
          'vehicles and components; the same as the get_maintenance_status tool without filters.',
        mimeType: 'application/json',
      },
      async (uri) => {
        const s = await read(status, {}, ctx, opts);
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(s, null, 2) }] };
      },
    );
  }
}

function registerPrompts(mcp: McpServer) {
  mcp.registerPrompt(
    'log-flight',
    {
      title: 'Log a flight',
      description: 'Record one flight in the flight log of an aircraft and check that its totals moved.',
      argsSchema: {
        aircraft: z.string().optional().describe('Aircraft uid or registration, if known'),
        details: z.string().optional().describe('What is known about the flight: date, pilot, route, hours, landings, ...'),
      },
    },
    ({ aircraft, details }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Log a flight in Fleet Ops${aircraft ? ` for aircraft ${aircraft}` : ''}.`,
              details ? `Flight details: ${details}` : 'Ask me for any detail you need.',
              'Steps: find the aircraft (list_aircraft, or read fleetops://aircraft/{id}) and note its uid, registration, ' +
                'maintenance and log tracking item keys and current totals; find the pilot\u2019s user uid (list_users); ' +
                `call ${toolName('createFlightLog')} with timeDate (ISO 8601), pilot, aircraftId, aircraftRegistration, ` +
                'startLocation, endLocation, pax and one value per tracking item flown in this flight (amounts flown, not ' +
                'new totals); if the tool answers an error, fix the fields it names and retry; finally read the aircraft ' +
                'again and report the new totals.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
  mcp.registerPrompt(
    'due-next-30-days',
    {
      title: 'What is due in the next 30 days',
      description: 'Maintenance that is overdue or falls due within 30 days, per aircraft, vehicle and component.',
    },
    () => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `What maintenance is overdue or due in the next 30 days? Call ${toolName('getMaintenanceStatus')} with ` +
              'dueWithinDays=30 and summarise the items grouped by aircraft, vehicle or component (name or registration), ' +
              'overdue items first, each with what is due (date and/or tracked total) and how much remains.',
          },
        },
      ],
    }),
  );
}
