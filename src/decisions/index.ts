// Decisions: what a thread settled, with verbatim evidence (issue 46, rules only; computed
// on demand, no table yet).

export {
  DEFAULT_THREAD_LIMIT,
  decisionThread,
  type FindDecisionsOptions,
  type FoundDecisions,
  findDecisions,
} from './archive.js';
export { extractDecisions, keySentence, MIN_CONFIDENCE } from './extract.js';
export type {
  DecisionEvidence,
  DecisionKind,
  DecisionMessage,
  DecisionRecord,
  DecisionThread,
  EvidenceRole,
} from './types.js';
