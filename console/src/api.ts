import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { ClientError, GraphQLClient } from 'graphql-request';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/**
 * The console's only way to the server: GraphQL at /graphql with the API key the user signed in with, kept in
 * sessionStorage (gone when the browser session ends). Operations are the typed documents codegen makes from
 * console/operations/*.graphql.
 */
const KEY = 'fleetops.console.key';

export const session = {
  get key(): string | null {
    return sessionStorage.getItem(KEY);
  },
  signIn(key: string) {
    sessionStorage.setItem(KEY, key);
  },
  signOut() {
    sessionStorage.removeItem(KEY);
  },
};

/** A mistake reported by the API at a place in the input (JSON Pointer, e.g. /trackingItems/hobbs). */
export interface FieldError {
  path: string;
  message: string;
}

/** What went wrong, as the API said it: the message, the error code and the per-field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** Fired when the server refuses the key (unknown, revoked): the app goes back to the sign-in page. */
export const UNAUTHORIZED_EVENT = 'fleetops:unauthorized';

/** A refusal's words from its body: its text (or the object, should the client have read it). */
function problemOf(body: unknown): { detail?: string; title?: string; error?: string } | null {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  // a problem+json answer's detail and title; `error`, as a proxy in front of the server may answer
  const { detail, title, error } = value as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { detail: text(detail), title: text(title), error: text(error) };
}

function toApiError(e: unknown): ApiError {
  if (e instanceof ClientError) {
    const status = e.response.status;
    const errors = (e.response.errors ?? []) as { message: string; extensions?: { code?: string; errors?: FieldError[] } }[];
    if (status === 401 || errors.some((x) => x.extensions?.code === 'UNAUTHORIZED')) {
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
      return new ApiError('The API key was refused (unknown or revoked). Sign in again.', 'UNAUTHORIZED');
    }
    // the server answers problem+json outside GraphQL (rate limit, body too large): graphql-request does not read
    // that media type as JSON, so its text arrives as the response's `body`
    if (!errors.length) {
      const body = problemOf((e.response as unknown as { body?: unknown }).body);
      return new ApiError(body?.detail ?? body?.title ?? body?.error ?? `The server answered ${status}.`, String(status));
    }
    const first = errors[0];
    return new ApiError(
      errors.map((x) => x.message).join('; '),
      first.extensions?.code,
      errors.flatMap((x) => x.extensions?.errors ?? []),
    );
  }
  if (e instanceof ApiError) return e;
  return new ApiError('The server could not be reached: check the connection and try again.', 'NETWORK');
}

/**
 * A form's input (or one of its values) as the person typed it, sent as the operation's input type. Deliberately
 * unchecked here: a blank required field goes as null and the server's one check answers it with the API's own
 * messages, shown at the field (issue 26: "the same messages as the API for mistakes"). The one place the console
 * widens a type of data it sends.
 */
export function asTyped<T>(values: unknown): T {
  return values as T;
}

/** Runs one typed operation; throws ApiError. */
export async function gql<R, V extends Record<string, unknown>>(doc: TypedDocumentNode<R, V>, variables?: V, key = session.key): Promise<R> {
  const client = new GraphQLClient(new URL('/graphql', location.origin).href, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  try {
    return await client.request<R, Record<string, unknown>>(doc as TypedDocumentNode<R, Record<string, unknown>>, variables ?? {});
  } catch (e) {
    throw toApiError(e);
  }
}

export interface QueryState<R> {
  data?: R;
  error?: ApiError;
  loading: boolean;
  /** Runs the query again (after a write, or on a Refresh button). */
  reload(): void;
}

/** Runs a query when mounted and whenever its variables change; a late answer to older variables is dropped. */
export function useQuery<R, V extends Record<string, unknown>>(doc: TypedDocumentNode<R, V>, variables: V, opts: { skip?: boolean } = {}): QueryState<R> {
  const [state, setState] = useState<{ data?: R; error?: ApiError; loading: boolean }>({ loading: !opts.skip });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const vars = JSON.stringify(variables);
  useEffect(() => {
    if (opts.skip) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    gql(doc, JSON.parse(vars) as V).then(
      (data) => mine === seq.current && setState({ data, loading: false }),
      (error: ApiError) => mine === seq.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, [doc, vars, tick, opts.skip]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Field errors keyed by the field they name: `/trackingItems/hobbs` → `trackingItems.hobbs`, `/answers/odometer` → `answers.odometer`. */
export function errorsByField(error: ApiError | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const fe of error?.fieldErrors ?? []) {
    const key = fe.path.replace(/^\//, '').split('/').map(decodePointer).join('.');
    out[key] = out[key] ? `${out[key]}; ${fe.message}` : fe.message;
  }
  return out;
}

const decodePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
