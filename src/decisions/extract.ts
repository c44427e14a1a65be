// Rules-based decision extraction over one thread's tree (issue 46, first slice).
//
// A decision is a settlement found in the structure of the exchange, not in one sentence:
// a reply by someone other than the author of the message it answers that settles it
// ("agreed", "Acked-by:", "applied, thanks", "NAK", "good point, will fix"). The message
// answered is the proposal; its key sentence, qualified by the settling line, is the
// statement. Up the reply chain, the proposer's earlier proposals and the others'
// objections join the evidence; a settled reply that is itself settled by the next reply
// folds into that later decision ("then PostgreSQL 16" → "agreed"). A later decision on the
// same matter that says it revises ("instead", "change of plan", "вместо") supersedes it.
// Every quote is a line (or the sentence of a line) of the message's authored text, and a
// candidate whose quote is not found verbatim there is dropped.

import { HEDGE, OBJECTION, PROPOSAL, prose, REQUEST, REVISION, type SettleKind, settleCue } from './cues.js';
import type {
  DecisionEvidence,
  DecisionKind,
  DecisionMessage,
  DecisionRecord,
  DecisionThread,
} from './types.js';

/** Below this a candidate is not reported. */
export const MIN_CONFIDENCE = 0.6;
/** How far above a settling reply its proposal is looked for (past the settler's own messages). */
const MAX_CLIMB = 3;
/** Quotes are cut to this many characters (at a word edge, so still verbatim). */
const MAX_QUOTE = 240;

interface Settlement {
  readonly message: DecisionMessage;
  readonly line: string;
  readonly kind: SettleKind;
  readonly weight: number;
}

interface Candidate {
  readonly proposal: DecisionMessage;
  readonly reject: boolean;
  readonly settlements: Settlement[];
  readonly extraProposals: DecisionMessage[];
}

const who = (message: DecisionMessage): string => message.from?.address || message.from?.name || '';
const displayName = (message: DecisionMessage): string =>
  message.from?.name || message.from?.address || 'unknown sender';

export function extractDecisions(thread: DecisionThread): DecisionRecord[] {
  const byId = new Map(thread.messages.map((m) => [m.messageId, m]));
  const parentOf = (m: DecisionMessage): DecisionMessage | undefined =>
    m.parentId === null ? undefined : byId.get(m.parentId);

  // 1. Settling replies, each attached to the message it settles.
  const candidates = new Map<string, Candidate>();
  for (const reply of thread.messages) {
    const hit = settleCue(reply.authored);
    if (!hit) continue;
    let proposal = parentOf(reply);
    let distance = 1;
    while (proposal && who(proposal) === who(reply) && distance <= MAX_CLIMB) {
      proposal = parentOf(proposal);
      distance++;
    }
    if (!proposal || who(proposal) === who(reply) || prose(proposal.authored).length === 0) continue;
    const reject = hit.cue.kind === 'reject';
    let weight = hit.cue.strength + (distance === 1 ? 0.1 : -0.1 * (distance - 1));
    if (HEDGE.test(hit.line) && !reject) weight -= 0.25;
    const key = `${proposal.messageId}\u0000${reject}`;
    const candidate = candidates.get(key) ?? { proposal, reject, settlements: [], extraProposals: [] };
    candidate.settlements.push({ message: reply, line: hit.line, kind: hit.cue.kind, weight });
    candidates.set(key, candidate);
  }

  // 2. A settled proposal that is itself settled by the next reply folds into that decision.
  const byProposal = new Map(
    [...candidates.values()].filter((c) => !c.reject).map((c) => [c.proposal.messageId, c]),
  );
  for (const [key, candidate] of candidates) {
    if (candidate.reject || candidate.settlements.length !== 1) continue;
    const settler = candidate.settlements[0]?.message;
    const later = settler && byProposal.get(settler.messageId);
    if (!later || later === candidate) continue;
    later.extraProposals.push(candidate.proposal, ...candidate.extraProposals);
    candidates.delete(key);
  }

  // 3. Records, with their quotes checked.
  const records: Array<{ record: Mutable<DecisionRecord>; proposal: DecisionMessage }> = [];
  for (const candidate of candidates.values()) {
    const record = toRecord(thread, candidate, parentOf);
    if (record) records.push({ record, proposal: candidate.proposal });
  }

  // 4. A later decision that revises an earlier one on the same matter supersedes it.
  records.sort((a, b) => a.record.decidedAt.getTime() - b.record.decidedAt.getTime());
  for (let i = 0; i < records.length; i++) {
    const later = records[i];
    if (!later || later.record.kind === 'request-rejection') continue;
    const line = revisionLine(later.proposal);
    if (!line) continue;
    for (let j = i - 1; j >= 0; j--) {
      const earlier = records[j];
      if (!earlier || earlier.record.status === 'superseded') continue;
      // Same matter: the revision answers, at some depth, the earlier proposal (siblings, such
      // as the patches of one series under their cover letter, are separate matters).
      if (!isDescendant(later.proposal, earlier.proposal, parentOf)) continue;
      earlier.record.status = 'superseded';
      earlier.record.supersededBy = later.proposal.messageId;
      later.record.kind = 'revision';
      later.record.evidence = later.record.evidence.map((e) =>
        e.messageId === later.proposal.messageId && e.role === 'proposal' ? { ...e, role: 'revision' } : e,
      );
      break;
    }
  }
  return records
    .map((r) => r.record as DecisionRecord)
    .sort((a, b) => a.decidedAt.getTime() - b.decidedAt.getTime());
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function toRecord(
  thread: DecisionThread,
  candidate: Candidate,
  parentOf: (m: DecisionMessage) => DecisionMessage | undefined,
): Mutable<DecisionRecord> | null {
  const { proposal, reject } = candidate;
  const settlers = new Map<string, Settlement>();
  for (const s of candidate.settlements) {
    const previous = settlers.get(who(s.message));
    if (!previous || s.weight > previous.weight) settlers.set(who(s.message), s);
  }
  const settlements = [...settlers.values()].sort(
    (a, b) => a.message.date.getTime() - b.message.date.getTime(),
  );
  const strongest = Math.max(...settlements.map((s) => s.weight));
  const confidence = Math.min(0.97, strongest + 0.05 * (settlements.length - 1));
  if (confidence < MIN_CONFIDENCE) return null;

  const key = keySentence(proposal);
  const evidence: DecisionEvidence[] = [];
  const add = (message: DecisionMessage, quote: string, role: DecisionEvidence['role']): boolean => {
    if (quote === '' || !message.authored.includes(quote)) return false;
    if (!evidence.some((e) => e.messageId === message.messageId))
      evidence.push({ messageId: message.messageId, quote, role });
    return true;
  };

  // The chain above the proposal: the proposer's earlier proposals, the others' objections.
  const chain: DecisionMessage[] = [];
  for (let m = parentOf(proposal), n = 0; m && n < 6; m = parentOf(m), n++) chain.unshift(m);
  for (const m of [...candidate.extraProposals].reverse()) if (!chain.includes(m)) chain.push(m);
  chain.sort((a, b) => a.date.getTime() - b.date.getTime());
  for (const m of chain) {
    if (who(m) === who(proposal) || candidate.extraProposals.includes(m)) {
      const line = cueLine(m, PROPOSAL);
      if (line) add(m, line, 'proposal');
    } else {
      const line = cueLine(m, OBJECTION) ?? questionLine(m);
      if (line) add(m, line, 'objection');
    }
  }
  if (!add(proposal, key, 'proposal')) return null;
  // Replies to the proposal that object before it was settled.
  const decidedAt = settlements[settlements.length - 1]?.message.date ?? proposal.date;
  for (const m of thread.messages) {
    if (m.parentId !== proposal.messageId || who(m) === who(proposal) || settlers.has(who(m))) continue;
    if (m.date.getTime() > decidedAt.getTime()) continue;
    const line = cueLine(m, OBJECTION);
    if (line) add(m, line, 'objection');
  }
  for (const s of settlements) if (!add(s.message, s.line, 'agreement')) return null;

  const participants = [
    ...new Set(
      [proposal, ...chain, ...settlements.map((s) => s.message)]
        .filter((m) => evidence.some((e) => e.messageId === m.messageId))
        .map(displayName),
    ),
  ];
  const last = settlements[settlements.length - 1];
  const verb = reject
    ? 'rejected'
    : last?.kind === 'apply'
      ? 'applied'
      : last?.kind === 'trailer'
        ? 'acked'
        : 'agreed';
  const core = /^[\w-]+-by:/i.test(key) ? stripSubject(proposal.subject) : key;
  const statement = `${reject ? 'Rejected: ' : ''}${core} — ${verb} by ${settlements.map((s) => displayName(s.message)).join(', ')}: "${last?.line ?? ''}"`;
  return {
    inbox: thread.inbox,
    threadId: thread.threadId,
    statement,
    kind: kindOf(candidate, key, parentOf),
    evidence,
    participants,
    decidedAt,
    confidence: Math.round(confidence * 100) / 100,
    status: 'standing',
    supersededBy: null,
    method: 'rules',
  };
}

function kindOf(
  candidate: Candidate,
  key: string,
  parentOf: (m: DecisionMessage) => DecisionMessage | undefined,
): DecisionKind {
  if (candidate.reject) return 'request-rejection';
  const asked = parentOf(candidate.proposal);
  const settlers = new Set(candidate.settlements.map((s) => who(s.message)));
  if (asked && settlers.has(who(asked)) && asked.authored.includes('?')) return 'question-resolution';
  if (REQUEST.test(key) && (/\?\s*$/.test(key) || /^(?:please|could|can|would)\b/i.test(key)))
    return 'request-approval';
  return 'proposal-agreement';
}

const GREETING =
  /^(?:hi|hello|hey|dear|all|folks|ciao|salve|hallo|moin|bonjour|salut|hola|olá|oi|hoi|привет|здравствуйте|коллеги)(?![\p{L}])[^.!?]{0,40}[,!:]?$/iu;
const TRAILER = /^[A-Z][\w-]*-by:/i;

/** The proposal's key sentence: the sentence with a proposal cue, else its first substantive one. */
export function keySentence(message: DecisionMessage): string {
  const lines = prose(message.authored).filter((l) => !GREETING.test(l) && !/^>/.test(l));
  const substantive = lines.filter((l) => !TRAILER.test(l) && /\p{L}{2}/u.test(l) && l.length >= 12);
  const cued = cueLine(message, PROPOSAL);
  if (cued) return cued;
  const first = substantive[0];
  if (first) return sentenceAt(first, 0);
  return cut(lines.find((l) => TRAILER.test(l)) ?? lines[0] ?? '');
}

/** The sentence of the first line carrying `cue`, or null. */
function cueLine(message: DecisionMessage, cue: RegExp): string | null {
  for (const line of prose(message.authored)) {
    if (TRAILER.test(line) || GREETING.test(line)) continue;
    const match = cue.exec(line);
    if (match) return sentenceAt(line, match.index);
  }
  return null;
}

function questionLine(message: DecisionMessage): string | null {
  for (const line of prose(message.authored)) {
    const at = line.indexOf('?');
    if (at > 0) return sentenceAt(line, at - 1);
  }
  return null;
}

/** The sentence of `line` holding position `at` (no break after a number: "am 18. April"), cut to MAX_QUOTE characters. */
function sentenceAt(line: string, at: number): string {
  let start = 0;
  for (const match of line.matchAll(/(?<!\p{N})[.!?]\s+(?=\S)/gu)) {
    const end = (match.index ?? 0) + match[0].length;
    if (end <= at) start = end;
    else return cut(line.slice(start, (match.index ?? 0) + 1));
  }
  return cut(line.slice(start));
}

function cut(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= MAX_QUOTE) return trimmed;
  const head = trimmed.slice(0, MAX_QUOTE);
  const space = head.lastIndexOf(' ');
  return space > MAX_QUOTE / 2 ? head.slice(0, space) : head;
}

function revisionLine(message: DecisionMessage): string | null {
  return cueLine(message, REVISION);
}

function isDescendant(
  message: DecisionMessage,
  ancestor: DecisionMessage,
  parentOf: (m: DecisionMessage) => DecisionMessage | undefined,
): boolean {
  for (let m = parentOf(message), n = 0; m && n < 64; m = parentOf(m), n++) if (m === ancestor) return true;
  return false;
}

/** A subject without reply prefixes and a leading [PATCH …] tag. */
function stripSubject(subject: string): string {
  return subject
    .replace(/^(?:\s*(?:re|aw|sv|fwd?|r|ответ|отв)\s*(?:\[\d+\])?:\s*)+/i, '')
    .replace(/^\s*\[[^\]]*\]\s*/, '')
    .trim();
}
