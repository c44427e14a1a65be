// The shapes of decision extraction: one thread's messages as the extractor reads them
// (parent links, dates, senders, authored text only) and the decision records it returns.

/** A message of a thread as the extractor sees it. */
export interface DecisionMessage {
  readonly messageId: string;
  /** The message this one replies to, when that message is in the thread; else null. */
  readonly parentId: string | null;
  readonly date: Date;
  readonly from: { readonly name: string; readonly address: string } | null;
  readonly subject: string;
  /** What the author wrote: no quoted history, signature, disclaimer or footer. */
  readonly authored: string;
}

export interface DecisionThread {
  readonly inbox: string;
  readonly threadId: string;
  /** In tree order (a parent before its replies), as `loadThread` returns them. */
  readonly messages: readonly DecisionMessage[];
}

// Values as well as types: the HTTP and MCP response schemas enumerate them.
export const EVIDENCE_ROLES = ['proposal', 'objection', 'agreement', 'revision'] as const;
export type EvidenceRole = (typeof EVIDENCE_ROLES)[number];

export interface DecisionEvidence {
  readonly messageId: string;
  /** Verbatim from that message's authored text (checked when the record is made). */
  readonly quote: string;
  readonly role: EvidenceRole;
}

export const DECISION_KINDS = [
  'proposal-agreement',
  'question-resolution',
  'request-approval',
  'request-rejection',
  'revision',
] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

export interface DecisionRecord {
  readonly inbox: string;
  readonly threadId: string;
  /** Extractive: the proposal's key sentence, qualified by how it was settled. */
  readonly statement: string;
  readonly kind: DecisionKind;
  readonly evidence: readonly DecisionEvidence[];
  /** Everyone whose message is evidence, proposer first. */
  readonly participants: readonly string[];
  /** The date of the (last) settling message. */
  readonly decidedAt: Date;
  /** 0..1: the cue's strength, who said it and where. */
  readonly confidence: number;
  readonly status: 'standing' | 'superseded';
  /** The proposal message of the later decision that superseded this one. */
  readonly supersededBy: string | null;
  /** 'llm' once the configured LLM validated the record and phrased its statement. */
  readonly method: 'rules' | 'llm';
}
