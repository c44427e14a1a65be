// The parse stage: raw RFC 5322 bytes to ParsedMessage, plus the header helpers other stages
// (dedupe, thread, surfaces) reuse on ids and authentication verdicts, and the raw MIME walk
// the attachment drain uses to find one part without a full parse.

export { parseAuthenticationResults } from './auth-results.js';
export { normalizeMessageId, parseMessageIdList } from './message-id.js';
export { isBodyLeaf, leafContent, walkMime } from './mime-walk.js';
export { type ParseOptions, parseMessage } from './parse-message.js';
