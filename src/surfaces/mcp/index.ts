// The MCP server: AgentMail-compatible tools over stdio and streamable HTTP.

export { compact, createMcpServer } from './tools.js';
export { handleMcpHttp, serveMcpStdio } from './transports.js';
