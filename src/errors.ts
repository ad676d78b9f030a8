import { z } from 'zod';

// Clear messages for the commonest zod issues, everywhere: a missing field says so by name.
z.config({
  customError: (iss) => {
    const name = iss.path?.length ? String(iss.path[iss.path.length - 1]) : 'value';
    if (iss.code === 'invalid_type' && iss.input === undefined) return `${name} is required`;
    if (iss.code === 'invalid_type') return `${name} must be ${iss.expected === 'object' ? 'an object' : iss.expected === 'array' ? 'an array' : `a ${iss.expected}`}`;
    if (iss.code === 'unrecognized_keys') return `unknown field${iss.keys.length > 1 ? 's' : ''}: ${iss.keys.join(', ')}`;
    // text of a bounded length (a blank name, which the trim made empty, was "Too small: expected string to have >=1
    // characters"); a schema's own message, where it gives one, is kept
    if (iss.code === 'too_small' && iss.origin === 'string') {
      return Number(iss.minimum) === 1 ? `${name} must not be empty` : `${name} must be at least ${iss.minimum} characters`;
    }
    if (iss.code === 'too_big' && iss.origin === 'string') return `${name} must be at most ${iss.maximum} characters`;
    if (iss.code === 'too_small' && iss.origin === 'array') return `${name} must hold at least ${iss.minimum} item${Number(iss.minimum) === 1 ? '' : 's'}`;
    if (iss.code === 'too_big' && iss.origin === 'array') return `${name} must hold at most ${iss.maximum} item${Number(iss.maximum) === 1 ? '' : 's'}`;
    return undefined;
  },
});

/**
 * Domain errors. Services throw these; every channel maps them the same way: REST to RFC 9457 problem+json with
 * the status below, GraphQL to an error whose extensions carry `code`, `status` and `errors`.
 */
export interface FieldError {
  /** JSON Pointer into the input, e.g. `/trackingItems/hobbs` */
  path: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
  readonly errors?: FieldError[];
  constructor(message: string, errors?: FieldError[]) {
    super(message);
    this.errors = errors;
  }
}

/**
 * The base class of one kind of domain error: its HTTP status, its code (the problem type's name, GraphQL's
 * extensions.code) and its title.
 */
export function errorKind<S extends number, C extends string>(status: S, code: C, title: string) {
  return class extends AppError {
    readonly status = status;
    readonly code = code;
    readonly title = title;
  };
}

export class ValidationError extends errorKind(400, 'validation_error', 'Validation failed') {
  constructor(message: string, errors?: FieldError[]) {
    super(message, errors ?? [{ path: '', message }]);
  }
}

export class BadRequestError extends errorKind(400, 'bad_request', 'Bad request') {}

export class UnauthorizedError extends errorKind(401, 'unauthorized', 'Unauthorized') {}

export class ForbiddenError extends errorKind(403, 'forbidden', 'Forbidden') {}

export class NotFoundError extends errorKind(404, 'not_found', 'Not found') {
  constructor(resource: string, id?: string) {
    super(id === undefined ? `${resource} not found` : `${resource} ${JSON.stringify(id)} not found`);
  }
}

export class ConflictError extends errorKind(409, 'conflict', 'Conflict') {}

/** A 409 for one field whose value another record holds already (a uid, an email, a registration). */
export function takenError(field: string, message: string): ConflictError {
  return new ConflictError(message, [{ path: jsonPointer([field]), message }]);
}

export class PayloadTooLargeError extends errorKind(413, 'payload_too_large', 'Payload too large') {}

export class UnsupportedMediaTypeError extends errorKind(415, 'unsupported_media_type', 'Unsupported media type') {}

export class MethodNotAllowedError extends errorKind(405, 'method_not_allowed', 'Method not allowed') {
  constructor(
    message: string,
    readonly allow: string[],
  ) {
    super(message);
  }
}

/** A store the service needs for the request cannot be reached (the rate limit's Redis): retry after `retryAfterSeconds`. */
export class ServiceUnavailableError extends errorKind(503, 'service_unavailable', 'Service unavailable') {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class RateLimitedError extends errorKind(429, 'rate_limited', 'Too many requests') {
  /** The limiter's RateLimit headers, set by the limiter that refused (src/http/rate-limit.ts). */
  headers: Record<string, string> = {};
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * A domain error known by its status, code and words only, as a client was told it (a stored idempotent result
 * replayed, a route's answer passed on): every channel maps it as it would the original.
 */
export class ReportedError extends AppError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    message: string,
    errors?: FieldError[],
  ) {
    super(message, errors);
  }
}

/** The JSON Pointer (RFC 6901) of a path of keys and indexes, e.g. `['a/b', 0]` → `/a~1b/0`. */
export const jsonPointer = (path: ReadonlyArray<PropertyKey>) => path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

/** Turns zod issues into FieldErrors with JSON Pointer paths. */
export function fieldErrorsFromZod(
  issues: ReadonlyArray<ZodIssueLike>,
  prefix = '',
): FieldError[] {
  const pointer = (path: ReadonlyArray<PropertyKey>) => prefix + jsonPointer(path);
  return issues.flatMap((i) =>
    // an unknown key is reported at its own path, not at the object holding it
    i.code === 'unrecognized_keys' && i.keys?.length
      ? i.keys.map((k) => ({ path: pointer([...i.path, k]), message: `unknown field: ${k}` }))
      : // a map's key refused by its key schema: that schema's message ("toString cannot be a tracking key"), not
        // zod's "Invalid key in record", at the key's path
        i.code === 'invalid_key' && i.issues?.length
        ? i.issues.map((inner) => ({ path: pointer(i.path), message: inner.message }))
        : [{ path: pointer(i.path), message: i.message }],
  );
}
type ZodIssueLike = { path: ReadonlyArray<PropertyKey>; message: string; code?: string; keys?: string[]; issues?: ReadonlyArray<{ message: string }> };

/** Puts `error` at its path: it replaces what was reported there (a clearer message for the same field), else adds. */
export function putFieldError(errors: FieldError[], error: FieldError): void {
  const at = errors.findIndex((e) => e.path === error.path);
  if (at >= 0) errors[at] = error;
  else errors.push(error);
}

/** One line for an error, with each field error's path (batch results, CLI output). */
export function oneLineMessage(e: AppError): string {
  const details = (e.errors ?? []).filter((f) => !e.message.includes(f.message));
  return details.length ? `${e.message}: ${details.map((f) => `${f.path || '/'} ${f.message}`).join('; ')}` : e.message;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Throws the 400 for an invalid `what`: the detail names its one bad field, or how many there are. */
export function invalid(what: string, errors: FieldError[]): never {
  const summary = errors.length === 1 ? `${errors[0].path || 'body'}: ${errors[0].message}` : `${errors.length} invalid fields`;
  throw new ValidationError(`invalid ${what}: ${summary}`, errors);
}
