import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Response } from './response.js';

/**
 * The operator console (console/, docs/decisions/0008-operator-console.md): a single-page app built by
 * scripts/build-console.mjs into dist/console, served here at `/console`. It is a client of the GraphQL API like any
 * other (the key is entered in the browser and sent as a bearer header); this module only serves files:
 * `/console/assets/<file>` (content-hashed names, cached for good) and index.html for every other path under
 * `/console` (the app routes in the browser). The page's CSP allows scripts and styles from this origin only.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** The package's root: the nearest directory above this module (src/http or a dist/ chunk) with a package.json. */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** Where the built console lives. */
export const CONSOLE_DIR = path.join(packageRoot(), 'dist', 'console');

/**
 * Whether the console is present (built): the switch for `GET /` (docs/contract/gaps.md §16: redirect to
 * `/console` when it is, `/docs` otherwise).
 */
export function consoleAvailable(dir = CONSOLE_DIR): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Answers a GET or HEAD under `/console`; null when the console is not built (the caller answers 404) or for
 * another method.
 */
export async function serveConsole(request: Request, pathname: string, dir = CONSOLE_DIR): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (pathname.startsWith('/console/assets/')) {
    const name = pathname.slice('/console/assets/'.length);
    const type = TYPES[path.extname(name)];
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.') || !type) return null;
    const body = await fs.promises.readFile(path.join(dir, 'assets', name)).catch(() => null);
    if (!body) return null;
    return new Response(request.method === 'HEAD' ? null : body, {
      headers: { 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable', ...SECURITY_HEADERS },
    });
  }
  const html = await fs.promises.readFile(path.join(dir, 'index.html')).catch(() => null);
  if (!html) return null;
  return new Response(request.method === 'HEAD' ? null : html, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': CSP, ...SECURITY_HEADERS },
  });
}
