/**
 * The Response every answer of the app is made with: @whatwg-node/fetch's, the one graphql-yoga answers with and
 * @whatwg-node/server is built for. The server writes such a response's body to the socket as it is (a JSON string
 * in one write, its status line's reason phrase filled in from the status), where a native (undici) Response's body
 * is a stream it pumps chunk by chunk; and its headers can be added to in place (src/app.ts), so no response is
 * rebuilt around its body. In-process callers (tests, the MCP and CLI adapters) read it as any Response.
 */
export { Response } from '@whatwg-node/fetch';
