// One spec, two readers: the search layer validates with its own code, the HTTP API and MCP
// with the zod schemas built from the spec. On every value here both accept, or both reject
// with the same code and the same parameter named.

import { describe, expect, it } from 'vitest';
import { isMailsiftError } from '../../core/errors.js';
import { validateListParams, validateSearchParams } from '../../search/params.js';
import { listParamsSchema, parseWith, searchParamsSchema } from './param-schemas.js';

type Verdict = 'ok' | { code: string; param: string | undefined };

function verdict(check: () => unknown): Verdict {
  try {
    check();
    return 'ok';
  } catch (error) {
    if (!isMailsiftError(error)) throw error;
    return { code: error.code, param: error.param };
  }
}

const SEARCH: Array<[string, unknown]> = [
  ['a query alone', { q: 'invoice' }],
  ['an empty query', { q: '' }],
  [
    'every field',
    { q: 'x', inbox: 'work', limit: 100, pageToken: 't', explain: true, recency: { maxBoost: 2 } },
  ],
  ['dates as strings and as Dates', { q: 'x', before: '2024-05-01', after: new Date(0) }],
  ['no query', { limit: 5 }],
  ['a query too long', { q: 'x'.repeat(1001) }],
  ['a query that is not a string', { q: 42 }],
  ['an unknown field', { q: 'x', sort: 'date' }],
  ['a limit of 0', { q: 'x', limit: 0 }],
  ['a limit above the maximum', { q: 'x', limit: 101 }],
  ['a fractional limit', { q: 'x', limit: 2.5 }],
  ['a limit that is not a number', { q: 'x', limit: Number.NaN }],
  ['an empty inbox name', { q: 'x', inbox: '' }],
  ['explain as a string', { q: 'x', explain: 'yes' }],
  ['a date that is a number', { q: 'x', before: 1714521600000 }],
  ['a recency boost above 2', { q: 'x', recency: { maxBoost: 3 } }],
  ['a half-life of 0', { q: 'x', recency: { halfLifeDays: 0 } }],
  ['recency as a number', { q: 'x', recency: 1.5 }],
  ['an unknown recency field', { q: 'x', recency: { boost: 1 } }],
];

const LIST: Array<[string, unknown]> = [
  ['no filter', {}],
  [
    'every filter',
    { from: 'a', to: 'b', subject: 'c', labels: ['x', 'y'], hasAttachment: true, ascending: false },
  ],
  ['labels with an empty one', { labels: ['inbox', ''] }],
  ['labels as a string', { labels: 'inbox' }],
  ['an attachment type too long', { attachmentType: 'x'.repeat(128) }],
  ['an empty sender', { from: '' }],
  ['includeSpam as a number', { includeSpam: 1 }],
  ['an unknown field', { folder: 'inbox' }],
];

describe('search and list parameters: the search layer and the HTTP schemas agree', () => {
  it.each(SEARCH)('search: %s', (_name, params) => {
    const zod = verdict(() => parseWith(searchParamsSchema, params));
    expect(verdict(() => validateSearchParams(params))).toEqual(zod);
  });

  it.each(LIST)('list: %s', (_name, params) => {
    const zod = verdict(() => parseWith(listParamsSchema, params));
    expect(verdict(() => validateListParams(params))).toEqual(zod);
  });

  it('rejects what is not an object as a whole', () => {
    for (const params of [null, 'q=x', ['x']])
      expect(verdict(() => validateSearchParams(params))).toEqual({
        code: 'invalid_argument',
        param: 'params',
      });
  });
});
