// Decisions: what a thread settled, with verbatim evidence (issue 46, rules only; computed
// on demand, no table yet).

export {
  type DecisionJson,
  type DecisionsJson,
  decisionsJson,
  decisionThread,
  type FindDecisionsOptions,
  type FoundDecisions,
  findDecisions,
  threadDecisions,
} from './archive.js';
export { extractDecisions, keySentence, MIN_CONFIDENCE } from './extract.js';
export { DECISION_PARAMS, DEFAULT_THREAD_LIMIT, type DecisionParams, MAX_THREAD_LIMIT } from './params.js';
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
