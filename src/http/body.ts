import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.js';
import { parseJson } from '../lib/json-numbers.js';

/**
 * Reads a JSON request body: 415 unless the media type is application/json (or +json), 413 over the limit (by
 * Content-Length, and by the bytes actually read), 400 for malformed JSON. With `optional`, an empty body (whatever
 * its Content-Type) is no body: undefined.
 */
export async function readJsonBody(request: Request, limitBytes: number, opts: { optional?: boolean } = {}): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const json = type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
  const unsupported = () =>
    new UnsupportedMediaTypeError(
      `the request body must be application/json (got ${type ? JSON.stringify(type) : 'no Content-Type'})`,
    );
  if (!json && !opts.optional) throw unsupported();
  const text = await readBodyText(request, limitBytes);
  if (text.trim() === '' && opts.optional) return undefined;
  if (!json) throw unsupported();
  if (text.trim() === '') throw new BadRequestError('the request body is empty; send a JSON object');
  // depth, NUL and inexact numbers are the operation's to check (src/graphql/policy.ts), whatever the channel:
  // JSON.parse itself takes any depth without recursing
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    throw new BadRequestError(`malformed JSON: ${(e as Error).message}`);
  }
  return value;
}

/** The request's body as text, read under the limit (413 past it, by Content-Length and by the bytes read). */
export async function readBodyText(request: Request, limitBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limitBytes) {
    throw new PayloadTooLargeError(`the request body is over the ${limitBytes}-byte limit`);
  }
  return readLimited(request, limitBytes);
}

/** The request with its body read under the limit (413 past it), for handlers that read bodies themselves. */
export async function withLimitedBody(request: Request, limitBytes: number): Promise<Request> {
  if (!request.body) return request;
  const text = await readBodyText(request, limitBytes);
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return new Request(request.url, { method: request.method, headers, body: text, signal: request.signal });
}

async function readLimited(request: Request, limitBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(`the request body is over the ${limitBytes}-byte limit`);
    }
    chunks.push(value);
  }
  // fatal: bytes that are not UTF-8 are a 400, never text with U+FFFD in their place (stored as such, while a lone
  // surrogate in the same field is refused on every channel)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new BadRequestError('the request body is not UTF-8 text: send JSON as UTF-8');
  }
}
