// The two ways in: streamable HTTP at /mcp (stateless, one server per request, scoped to
// the request's API key) and stdio for a local agent that spawned `mailsift mcp`.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { MailService, McpHttpHandler, RequestActivity } from '../http/index.js';
import { createMcpServer } from './tools.js';

/**
 * Stateless: no session survives the request, so scopes are re-checked on every call and
 * the server keeps no per-client state to leak or exhaust.
 */
export const handleMcpHttp: McpHttpHandler = async (api, request, body) => {
  const server = createMcpServer(api);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
};

/**
 * Serves MCP on stdin/stdout until the client closes the pipe; resolves then. `activity` hears
 * each tool call, so the process's background drain can wait for a quiet moment.
 */
export async function serveMcpStdio(api: MailService, activity?: RequestActivity): Promise<void> {
  const server = createMcpServer(api, activity);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  await closed;
}
