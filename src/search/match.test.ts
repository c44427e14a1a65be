import { describe, expect, it } from 'vitest';
import { parseQuery } from '../analysis/index.js';
import { EXACT_TEXT_COLUMNS } from '../index/index.js';
import { exactMatch, fuzzyMatch } from './match.js';

describe('fuzzyMatch', () => {
  it('ranks on the postings: the exact phrases plus each typo variant as a text word', () => {
    const groups = parseQuery('recieved contract');
    const fuzzy = fuzzyMatch(groups, new Map([[0, ['received', 'receive']]]));
    const exact = exactMatch(groups);
    expect(fuzzy.exact).toEqual(exact);
    const variants = ['received', 'receive'].map((term) => ({
      term,
      prefix: false,
      columns: EXACT_TEXT_COLUMNS,
    }));
    const own = exact.groups?.[0] ?? [];
    expect(own.length).toBeGreaterThan(0);
    expect(fuzzy.groups?.[0]).toHaveLength(own.length + variants.length);
    expect(fuzzy.groups?.[0]).toEqual(expect.arrayContaining([...own, ...variants]));
    // A group without variants keeps the exact phrases.
    expect(fuzzy.groups?.[1]).toEqual(exact.groups?.[1]);
    // FTS5's form leaves the exact matches out itself.
    expect(fuzzy.expression).toContain(`NOT (${exact.expression})`);
  });
});
