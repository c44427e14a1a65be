// The HTTP API: a Hono app over the engine with API-key auth and inbox scopes, the
// operations it shares with the MCP server, and the OpenAPI document generated from its schemas.

export { RequestActivity } from './activity.js';
export { MailApi, type MailService, type Params, type ThreadItem, type ThreadList } from './api.js';
export { type AppOptions, createApp, type LogLine, MAX_BODY_BYTES, type McpHttpHandler } from './app.js';
export { type InboxList, type InboxSummary, listInboxes } from './inboxes.js';
export { openApiDocument } from './openapi.js';
export { PROVIDER_DEADLINES, type ProviderDeadlines, type RagProviders } from './rag-providers.js';
export { answerSchema, askBodySchema, retrievalSchema, retrieveBodySchema } from './rag-schemas.js';
export { toolInputs } from './schemas.js';
export { checkAuthHost, isLoopback, type RunningServer, type ServeOptions, startServer } from './server.js';
