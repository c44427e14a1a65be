// Decisions: what a thread settled, with verbatim evidence (issue 46). Rules extract them
// (extract.ts); a table kept in step with the store holds them (table.ts).

export {
  type DecisionJson,
  type DecisionsJson,
  decisionsJson,
  type FindDecisionsOptions,
  type FoundDecisions,
  findDecisions,
  threadDecisions,
} from './archive.js';
export { syncDecisions } from './derive.js';
export { extractDecisions, keySentence, MIN_CONFIDENCE } from './extract.js';
export { checkDecisions, type DecisionCheck, rebuildDecisions } from './maintenance.js';
export {
  DECISION_PARAMS,
  DEFAULT_DECISION_LIMIT,
  type DecisionParams,
  MAX_DECISION_LIMIT,
} from './params.js';
export { ensureDecisionTables } from './schema.js';
export { decisionsIndexHook } from './table.js';
export { decisionThread } from './thread.js';
export {
  DECISION_KINDS,
  type DecisionEvidence,
  type DecisionKind,
  type DecisionMessage,
  type DecisionRecord,
  type DecisionThread,
  EVIDENCE_ROLES,
  type EvidenceRole,
} from './types.js';
