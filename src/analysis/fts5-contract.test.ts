// The contract with the search layer: every term we emit survives FTS5's tokenizer
// (`unicode61 remove_diacritics 0 tokenchars '_'`) as exactly one, unchanged token.

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { identifierAnalyzer, textAnalyzer } from './analyzers.js';
import { parseQuery } from './query.js';

const SAMPLES = [
  'Re: Rechnung INV-4471 für Straße 5 — bitte an billing@stripe.com (v2.3.1) überweisen.',
  'Ёлка, счёт №42 и ΟΔΟΣ Αθήνα; İstanbul ıspanak Œuvre Ærø Łódź ǉubljana ½ m² ４４７１',
  'नमस्ते दुनिया ٤٤٧١ 請查收發票 𝐈𝐧𝐯𝐨𝐢𝐜𝐞 Jose\u0301 ﬁnance snake_case_name',
];

function fts5Terms(text: string): string[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = "unicode61 remove_diacritics 0 tokenchars '_'");
             CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');`);
    db.prepare('INSERT INTO t (x) VALUES (?)').run(text);
    return (db.prepare('SELECT term FROM v').all() as { term: string }[]).map((row) => row.term).sort();
  } finally {
    db.close();
  }
}

describe('terms are single FTS5 tokens', () => {
  it('for text and identifier analyzers in every language', () => {
    for (const sample of SAMPLES) {
      for (const analyzer of [
        identifierAnalyzer(),
        textAnalyzer(null),
        textAnalyzer('de'),
        textAnalyzer('ru'),
      ]) {
        const terms = [...new Set(analyzer.analyze(sample, 'document').map((t) => t.term))].sort();
        expect(fts5Terms(terms.join(' '))).toEqual(terms);
      }
    }
  });

  it('for query parts, compounds and stems', () => {
    for (const sample of SAMPLES) {
      const terms = new Set<string>();
      for (const group of parseQuery(sample, { languages: ['en', 'de', 'fr', 'ru'] })) {
        for (const part of group.parts) terms.add(part);
        if (group.compound !== null) terms.add(group.compound);
        for (const stems of group.stems) for (const stem of stems) terms.add(stem);
      }
      const sorted = [...terms].sort();
      expect(fts5Terms(sorted.join(' '))).toEqual(sorted);
    }
  });
});
