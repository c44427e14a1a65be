// Verdicts from Authentication-Results (RFC 8601). Only the topmost header counts: it is the
// one the receiving MTA added; lower ones came with the message and anyone could forge them.

import type { AuthVerdicts } from '../core/types.js';
import { stripComments } from './comments.js';

const METHODS = ['dmarc', 'spf', 'dkim'] as const;

/** Reads dmarc=, spf= and dkim= from the first Authentication-Results value; 'pass' wins among several dkim. */
export function parseAuthenticationResults(headerValues: readonly string[]): AuthVerdicts {
  const top = headerValues[0];
  if (top === undefined) return {};
  // Comments carry copies of other verdicts ("arc=pass (i=1 spf=pass ...)"), never the MTA's own.
  const value = stripComments(top);
  const found: Record<string, string[]> = { dmarc: [], spf: [], dkim: [] };
  const pattern = /(?:^|[\s;])(dmarc|spf|dkim)\s*=\s*([a-z]+)/gi;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
    found[(match[1] as string).toLowerCase()]?.push((match[2] as string).toLowerCase());
  }
  const verdicts: { dmarc?: string; spf?: string; dkim?: string } = {};
  for (const method of METHODS) {
    const results = found[method] ?? [];
    if (results.length === 0) continue;
    verdicts[method] = method === 'dkim' && results.includes('pass') ? 'pass' : (results[0] as string);
  }
  return verdicts;
}
