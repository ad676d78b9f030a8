import { createHash } from 'node:crypto';

/** The /docs page: Swagger UI over /api/v1/openapi.json, from assets this service serves itself (no CDN). */
const PROBLEM_CODES: [string, number, string][] = [
  ['validation_error', 400, 'A field is missing, wrongly typed or not allowed; `errors` lists each one with a JSON Pointer `path`.'],
  ['bad_request', 400, 'Malformed JSON, an empty body or a bad query parameter.'],
  ['unauthorized', 401, 'Missing, malformed, unknown or revoked API key (`WWW-Authenticate: Bearer`).'],
  ['forbidden', 403, 'The API key\u2019s scope does not reach the operation: a read-only key (`read`) and an operation that writes, or an operation that manages the company (API keys, users, aircraft, settings, the audit log) and a key that is not `admin`.'],
  ['not_found', 404, 'No such record in your company (records of other companies are never visible).'],
  ['method_not_allowed', 405, 'The path exists but not with this method (`Allow` lists the methods).'],
  ['conflict', 409, 'A uniqueness or state conflict.'],
  ['payload_too_large', 413, 'The body is over the size limit (1 MiB by default).'],
  ['unsupported_media_type', 415, 'The body is not `application/json`.'],
  ['idempotency_mismatch', 422, 'The `Idempotency-Key` was used before with another request body.'],
  ['idempotency_outcome_lost', 422, 'The request first sent with this `Idempotency-Key` committed its write, but its server process stopped before storing the answer: it is not run again; read the records back.'],
  ['rate_limited', 429, 'Too many requests for this API key (or failed authentications from this address); see `Retry-After` and `RateLimit`.'],
  ['headers_too_large', 431, 'The request line and headers are over the 16 KB limit.'],
  ['internal_error', 500, 'An unexpected error; it has been logged.'],
  ['service_unavailable', 503, 'A store the service needs cannot be reached (the rate limit\'s Redis, `REDIS_URL`); retry after `Retry-After` seconds.'],
];

/** The table's texts are written with `code` spans, as in the Markdown docs; the page shows them as <code>. */
const html = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!).replace(/`([^`]+)`/g, '<code>$1</code>');

/**
 * Swagger UI's start: the document served here; `tryItOutEnabled` so an operation's example can be sent at once;
 * no validator badge (Swagger UI would fetch it from a third-party host). A key typed into Authorize lasts as long
 * as the page (`persistAuthorization` off: it was kept in the browser's localStorage for good, where the console
 * keeps its key for the tab's session only and GraphiQL keeps none).
 */
const START = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false, validatorUrl: null, tryItOutEnabled: true, displayRequestDuration: true });`;

/**
 * What the page may load: its own scripts, styles and the document, nothing from another host (the inline start
 * script by its hash; Swagger UI sets inline styles, its images are data: URLs).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(START).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function docsHtml(): string {
  const rows = PROBLEM_CODES.map(
    ([code, status, text]) => `<tr id="problem-${code}"><td><code>${code}</code></td><td>${status}</td><td>${html(text)}</td></tr>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fleet Ops API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>body{margin:0;font-family:system-ui,sans-serif} .problems{max-width:1460px;margin:0 auto;padding:0 20px 40px}
.problems table{border-collapse:collapse} .problems td,.problems th{border:1px solid #ddd;padding:4px 8px;text-align:left}</style>
</head>
<body>
<div id="swagger-ui"></div>
<section class="problems">
<h2>Errors</h2>
<p>Every error is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and <code>code</code>.
GraphQL is served at <code>/graphql</code> with the same bearer key; its errors carry the same <code>code</code> in <code>extensions</code>.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>${START}</script>
</body>
</html>`;
}
