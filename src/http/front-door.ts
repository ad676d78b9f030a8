import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { shouldRenderGraphiQL } from 'graphql-yoga';
import { Response } from './response.js';

/**
 * The front door (docs/contract/gaps.md §16; docs/api-notes.md "The front door"): what a person who opens the
 * service in a browser gets. `GET /` sends a browser to the operator console when this app serves one, else to the
 * API docs; other clients get a small JSON index of the entry points. `GET /graphql` from a browser is GraphiQL,
 * from this service's own assets (no third-party host), under a CSP that allows nothing else.
 */

/** A client that takes HTML before anything else: a browser navigating, not `fetch` or curl. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return /\btext\/html\b/.test(accept);
}

export function homeResponse(request: Request, opts: { consolePath?: string; version: string }): Response {
  const target = opts.consolePath ?? '/docs';
  if (wantsHtml(request)) return new Response(null, { status: 302, headers: { location: target, 'cache-control': 'no-store' } });
  return Response.json(
    {
      name: 'Fleet Ops',
      version: opts.version,
      links: {
        ...(opts.consolePath ? { console: opts.consolePath } : {}),
        docs: '/docs',
        openapi: '/api/v1/openapi.json',
        rest: '/api/v1',
        graphql: '/graphql',
        mcp: '/mcp',
        health: '/healthz',
      },
    },
    { headers: { 'cache-control': 'no-store' } },
  );
}

/** `GET /graphql` asking for HTML: GraphiQL (graphql-yoga's own test for it). */
export const isGraphiQLRequest = (request: Request): boolean => shouldRenderGraphiQL(request);

const DEFAULT_QUERY = `# Paste your API key into the Authorization header below (Headers tab), then run this query.
query Fleet {
  aircraftList {
    count
    data {
      uid
      registration
      model
      totals
    }
  }
}
`;

let graphiql: Promise<{ html: string; csp: string }> | undefined;

/**
 * The GraphiQL page (@graphql-yoga/render-graphiql: GraphiQL and its editor bundled into one page, fonts and icons
 * as data: URLs, the editor's workers made from blob: URLs), rendered once on first use. Its one inline script is
 * allowed by its hash; the editor adds styles at run time, so inline styles are allowed; nothing may be loaded
 * from or sent to another origin.
 */
export function graphiqlResponse(): Promise<Response> {
  graphiql ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => {
    const html = renderGraphiQL({
      title: 'Fleet Ops GraphQL',
      endpoint: '/graphql',
      defaultQuery: DEFAULT_QUERY,
      headers: JSON.stringify({ Authorization: 'Bearer <your API key>' }, null, 2),
      shouldPersistHeaders: false,
      isHeadersEditorEnabled: true,
      defaultEditorToolsVisibility: 'headers',
    });
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    if (scripts.length !== 1) throw new Error(`GraphiQL page: expected one inline script, found ${scripts.length}`);
    const hash = createHash('sha256').update(scripts[0]).digest('base64');
    const csp = [
      "default-src 'none'",
      `script-src 'sha256-${hash}'`,
      "style-src 'unsafe-inline'",
      'img-src data:',
      'font-src data:',
      'worker-src blob:',
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    return { html, csp };
  });
  return graphiql.then(
    ({ html, csp }) =>
      new Response(html, {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': csp,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-cache',
        },
      }),
  );
}

/** HTTP reason phrases: `fetch`'s `statusText` and the status line carry one for every status, ours included. */
const EXTRA_REASONS: Record<number, string> = { 499: 'Client Closed Request' };
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? EXTRA_REASONS[status] ?? 'Unknown';
}
