import { createGraphQLError } from '@graphql-tools/utils';
import type { Plugin } from 'graphql-yoga';
import { parseJson } from '../lib/json-numbers.js';

/** What the app hands Yoga besides the request: the JSON body it already read under BODY_LIMIT_BYTES (src/app.ts). */
export interface ReadBody {
  graphqlBody?: string;
}

/**
 * Yoga's request parser for a body the app has read: GraphQL over HTTP takes only `application/json` bodies, which
 * the app reads itself under its limit (a 413 problem past it). Handing Yoga that text, instead of a new Request
 * around it that Yoga reads again through a stream, saves each GraphQL request two web streams and a Request. The
 * answers are Yoga's own for a JSON body (graphql-yoga's post-json parser): invalid JSON, or JSON that is not an
 * object, is a 400 with the same message and extensions; test/graphql.test.ts pins them. Needs Yoga's own body
 * limit off (`maxRequestBodySize: false`): it would read the request's body, which the app has already read.
 */
export function useReadBody(): Plugin<Record<string, never>, ReadBody> {
  return {
    onRequestParse({ request, serverContext, setRequestParser }) {
      const text = serverContext.graphqlBody;
      // read here only: Yoga merges the server context into the GraphQL context, where nothing should hold the body
      delete serverContext.graphqlBody;
      // a GET's variables too, numbers as written (graphql-yoga's GET parser, with parseJson for its JSON.parse)
      if (request.method === 'GET') setRequestParser(() => urlParams(request.url));
      if (text === undefined || request.method !== 'POST') return;
      setRequestParser(() => jsonParams(text));
    },
  };
}

/** A GET's parameters; `variables` or `extensions` that is not JSON is a 400 naming it (Yoga's own parser let it be a 500). */
function urlParams(url: string) {
  const params = new URLSearchParams(url.substring(url.indexOf('?') + 1));
  const json = (name: 'variables' | 'extensions') => {
    const text = params.get(name) || undefined;
    if (text === undefined) return undefined;
    try {
      return parseJson(text) as Record<string, unknown>;
    } catch (e) {
      throw badRequest(`the ${name} parameter is not valid JSON: ${(e as Error).message}`);
    }
  };
  return { operationName: params.get('operationName') || undefined, query: params.get('query') || undefined, variables: json('variables'), extensions: json('extensions') };
}

const badRequest = (message: string, http: Record<string, unknown> = { status: 400 }, more: Record<string, unknown> = {}) =>
  createGraphQLError(message, { extensions: { http, code: 'BAD_REQUEST', ...more } });

function jsonParams(text: string) {
  let body: unknown;
  try {
    body = parseJson(text); // numbers as written (src/lib/json-numbers.ts)
  } catch (e) {
    const err = e as Error;
    throw badRequest('POST body sent invalid JSON.', { spec: true, status: 400 }, { originalError: { name: err.name, message: err.message } });
  }
  if (body == null) throw badRequest(`POST body is expected to be object but received ${body}`);
  if (typeof body !== 'object') throw badRequest(`POST body is expected to be object but received ${typeof body}`);
  return body as Record<string, unknown>;
}
