// A thread as the extractor reads it, from a thread as the store loads it (loadThread: tree
// order, with depth); each message's authored text is the cleaned part the store keeps.

import type { ThreadEntry } from '../store/index.js';
import type { DecisionMessage, DecisionThread } from './types.js';

/** A loaded thread as the extractor reads it: each entry's parent is the nearest shallower entry before it. */
export function decisionThread(
  inbox: string,
  threadId: string,
  entries: readonly ThreadEntry[],
): DecisionThread {
  const messages: DecisionMessage[] = [];
  const lastAtDepth: string[] = [];
  for (const { message, depth } of entries) {
    if (message.variantOf !== null) continue;
    lastAtDepth[depth] = message.messageId;
    lastAtDepth.length = depth + 1;
    messages.push({
      messageId: message.messageId,
      parentId: depth > 0 ? (lastAtDepth[depth - 1] ?? null) : null,
      date: message.date,
      from: message.from,
      subject: message.subject,
      authored: message.cleaned.authored,
    });
  }
  return { inbox, threadId, messages };
}
