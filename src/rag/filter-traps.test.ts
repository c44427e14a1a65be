// Filters only narrow when the question asks them to (test/fixtures/rag/traps): a product
// name a build robot's address also carries, people the question is about rather than people
// who wrote, a year that is the topic; and what does anchor a filter (a sender asked for, a
// date asked for), with the unfiltered ranking below a filter that leaves the page thin.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { extractFilters } from './filters.js';
import { retrieve } from './retrieve.js';
import { openFixtureArchive } from './test-helpers.js';

const NOW = new Date('2024-03-01T12:00:00Z');

describe('filters that only narrow when asked', () => {
  let engine: Mailsift;
  let inbox: number;
  beforeAll(async () => {
    ({ engine } = await openFixtureArchive('traps'));
    inbox = (engine.archive.db.prepare("SELECT id FROM inboxes WHERE name = 'work'").get() as { id: number })
      .id;
  });
  afterAll(() => engine.close());
  const filters = (q: string) => extractFilters(engine.archive.db, q, [inbox], NOW);
  const ask = (q: string) => retrieve(engine, q, { inbox: 'work', now: NOW });
  const ids = (result: Awaited<ReturnType<typeof ask>>) => result.messages.map((m) => m.messageId);

  it('a product word that a sender address carries raises that sender, never filters by it', async () => {
    const question = 'when does the Falcon release ship?';
    expect(filters(question)).toMatchObject({ people: [], boosted: ['falcon-builds@ci.kestrel.example'] });
    const result = await ask(question);
    expect(ids(result).slice(0, 3)).toContain('falcon-date@kestrel.example');
    expect(result.filters.applied).toEqual([]);
  });

  it("people the question is about are soft: the board's answer from someone else is found", async () => {
    const question = "what did the board decide about Dana's and Luis's Lyon warehouse proposal?";
    expect(filters(question)).toMatchObject({
      people: [],
      boosted: ['dana.whitfield@kestrel.example', 'luis.ortega@kestrel.example'],
    });
    expect(ids(await ask(question)).slice(0, 3)).toContain('board-0112@kestrel.example');
  });

  it('a year that is the topic sets no date range', async () => {
    const question = 'what was the conclusion of the audit of 2019?';
    expect(filters(question)).toMatchObject({ after: null, before: null });
    expect(ids(await ask(question))[0]).toBe('audit-findings@kestrel.example');
  });

  it('a sender asked for is a hard filter: "from X", "X wrote", "X\'s mail", "according to X"', () => {
    const dana = ['dana.whitfield@kestrel.example'];
    expect(filters('mail from Dana about the warehouse').people).toEqual(dana);
    expect(filters('what did Dana write about the warehouse?').people).toEqual(dana);
    expect(filters("Dana's mail about the warehouse").people).toEqual(dana);
    expect(filters('according to Dana Whitfield, when does Falcon ship?')).toMatchObject({
      people: dana,
      boosted: ['falcon-builds@ci.kestrel.example'],
    });
  });

  it('a date asked for is a hard filter, down to the day', () => {
    expect(filters('what was sent before 5 January about the release?')).toMatchObject({
      before: Date.UTC(2024, 0, 5),
      after: null,
    });
    expect(filters('anything since 10 December 2023 about Lyon?')).toMatchObject({
      after: Date.UTC(2023, 11, 10),
      before: null,
    });
  });

  it('a hard filter that leaves the page thin is followed by the unfiltered ranking, and says so', async () => {
    // Only three office notes were sent in 2019: the audit's conclusion (January 2020) follows them.
    const result = await ask('what did the audit conclude in 2019?');
    expect(result.filters.applied).toEqual(['after 2019-01-01', 'before 2020-01-01']);
    expect(ids(result)).toContain('audit-findings@kestrel.example');
    expect(result.notes.some((n) => /left \d messages; unfiltered results follow them/.test(n))).toBe(true);
    // A filter that holds enough messages stays as it is.
    const sent = await retrieve(engine, 'what did Priya write?', { inbox: 'work', now: NOW, limit: 2 });
    expect(sent.filters.applied).toEqual(['from priya.raman@kestrel.example']);
    expect(sent.notes.filter((n) => n.includes('unfiltered'))).toEqual([]);
  });
});
