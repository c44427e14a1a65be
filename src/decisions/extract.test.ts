import { describe, expect, it } from 'vitest';
import { extractDecisions, keySentence } from './extract.js';
import type { DecisionMessage, DecisionThread } from './types.js';

let clock = Date.parse('2024-03-04T09:00:00Z');
function message(
  id: string,
  from: string,
  authored: string,
  parentId: string | null = null,
): DecisionMessage {
  clock += 3_600_000;
  return {
    messageId: id,
    parentId,
    date: new Date(clock),
    from: { name: from, address: `${from.toLowerCase()}@example.org` },
    subject: 'Re: topic',
    authored,
  };
}
const thread = (...messages: DecisionMessage[]): DecisionThread => ({
  inbox: 'team',
  threadId: 't1',
  messages,
});

describe('extractDecisions', () => {
  it('follows proposal, objection, counter-proposal and agreement to one decision', () => {
    const [decision, ...rest] = extractDecisions(
      thread(
        message('p1', 'Alexei', 'Hi all,\nI propose PostgreSQL for the billing service.'),
        message('o1', 'Maria', 'Why not MongoDB? The invoices are documents.', 'p1'),
        message('s1', 'Ivan', 'We already know Postgres well.', 'o1'),
        message('p2', 'Alexei', "Then let's go with PostgreSQL 16.", 's1'),
        message('a1', 'Maria', 'Agreed.', 'p2'),
      ),
    );
    expect(rest).toEqual([]);
    expect(decision).toMatchObject({
      statement: expect.stringContaining("Then let's go with PostgreSQL 16."),
      kind: 'proposal-agreement',
      status: 'standing',
      method: 'rules',
      participants: ['Alexei', 'Maria'],
    });
    expect(decision?.evidence.map((e) => [e.messageId, e.role])).toEqual([
      ['p1', 'proposal'],
      ['o1', 'objection'],
      ['p2', 'proposal'],
      ['a1', 'agreement'],
    ]);
    expect(decision?.decidedAt.getTime()).toBe(clock);
  });

  it('merges an ack and a maintainer apply on a patch; quotes are verbatim lines', () => {
    const patch = message(
      'patch',
      'Nora',
      'Drop the unused spare slot from struct ringbuf.\n\nSigned-off-by: Nora <nora@example.org>\n---\ndiff --git a/x.c b/x.c\n+++ b/x.c\n-\tvoid *spare;',
    );
    const [decision] = extractDecisions(
      thread(
        patch,
        message('ack', 'Tomas', 'Acked-by: Tomas <tomas@example.org>', 'patch'),
        message('apply', 'Kai', 'Applied, thanks.', 'patch'),
      ),
    );
    expect(decision?.evidence.map((e) => e.quote)).toEqual([
      'Drop the unused spare slot from struct ringbuf.',
      'Acked-by: Tomas <tomas@example.org>',
      'Applied, thanks.',
    ]);
    expect(decision?.statement).toContain('applied by Tomas, Kai');
    expect(decision?.confidence).toBeGreaterThan(0.9);
  });

  it('reads a NAK as a rejection, and "ACK" as agreement', () => {
    const nak = extractDecisions(
      thread(
        message('p', 'Nora', 'Rename the timeout field.'),
        message('n', 'Kai', 'NAK, this is uapi.', 'p'),
      ),
    );
    expect(nak.map((d) => [d.kind, d.statement.startsWith('Rejected: ')])).toEqual([
      ['request-rejection', true],
    ]);
    const ack = extractDecisions(
      thread(message('p', 'Nora', 'Rename the timeout field.'), message('n', 'Kai', 'Ack.', 'p')),
    );
    expect(ack.map((d) => d.kind)).toEqual(['proposal-agreement']);
  });

  it('finds no decision in an unanswered proposal, a question, a self-agreement or a negated cue', () => {
    const none = (...messages: DecisionMessage[]) =>
      expect(extractDecisions(thread(...messages))).toEqual([]);
    none(message('p', 'Ivan', 'I propose we move the standup to 10:00.'));
    none(message('p', 'Ivan', 'I propose 10:00.'), message('q', 'Maria', 'Which time zone?', 'p'));
    none(message('p', 'Ivan', 'I propose 10:00.'), message('s', 'Ivan', 'Agreed, as I said.', 'p'));
    none(message('p', 'Ivan', 'I propose 10:00.'), message('q', 'Maria', 'Sounds good?', 'p'));
    none(
      message('p', 'Ivan', 'I propose 10:00.'),
      message('q', 'Maria', "I don't think that makes sense.", 'p'),
    );
  });

  it('marks an earlier decision superseded by a revision further down its branch', () => {
    const decisions = extractDecisions(
      thread(
        message('p1', 'Alexei', "Let's use Redis for the session cache."),
        message('a1', 'Ivan', 'Sounds good.', 'p1'),
        message('p2', 'Alexei', 'Change of plan: we use Memcached instead of Redis.', 'a1'),
        message('a2', 'Maria', 'OK, fine by me.', 'p2'),
      ),
    );
    expect(decisions.map((d) => [d.status, d.kind, d.supersededBy])).toEqual([
      ['superseded', 'proposal-agreement', 'p2'],
      ['standing', 'revision', null],
    ]);
    expect(decisions[1]?.evidence.find((e) => e.messageId === 'p2')?.role).toBe('revision');
  });

  it('keeps sibling decisions (one series under a cover letter) standing', () => {
    const decisions = extractDecisions(
      thread(
        message('cover', 'Joe', 'This series removes unnecessary semicolons.'),
        message('p1', 'Joe', 'Remove the semicolon after the switch in foo.c', 'cover'),
        message('a1', 'Dave', 'Applied.', 'p1'),
        message('p2', 'Joe', 'Remove the semicolon in bar.c instead of the macro', 'cover'),
        message('a2', 'Greg', 'Applied, thanks.', 'p2'),
      ),
    );
    expect(decisions.map((d) => d.status)).toEqual(['standing', 'standing']);
  });

  it('reads agreement and refusal in other languages, refusals before the agreement they contain', () => {
    const settle = (text: string) =>
      extractDecisions(
        thread(message('p', 'Anna', 'Propongo di spostare il rilascio.'), message('r', 'Luca', text, 'p')),
      )[0]?.kind;
    expect(settle("Sono d'accordo.")).toBe('proposal-agreement');
    expect(settle("Non sono d'accordo.")).toBe('request-rejection');
    expect(settle('Согласен, переносим.')).toBe('proposal-agreement');
    expect(settle('Не согласен.')).toBe('request-rejection');
    expect(settle("Pas d'accord.")).toBe('request-rejection');
    expect(settle('Klingt gut, machen wir so.')).toBe('proposal-agreement');
    expect(settle('De acuerdo.')).toBe('proposal-agreement');
    expect(settle('Concordo.')).toBe('proposal-agreement');
    expect(settle('Akkoord.')).toBe('proposal-agreement');
  });

  it('calls an answered question that the asker accepts a question resolution', () => {
    const [decision] = extractDecisions(
      thread(
        message('q', 'Ann', 'Should the cache be per user or global?'),
        message('r', 'Bob', 'Per user: a global one leaks sessions between tenants.', 'q'),
        message('a', 'Ann', 'Good point, will do.', 'r'),
      ),
    );
    expect(decision?.kind).toBe('question-resolution');
  });

  it('drops a candidate whose quote is not verbatim in its authored text', () => {
    // The agreement line is found in the trimmed text; a message whose authored text is
    // changed after the cue was read cannot be quoted, so no record is made.
    const agreement = message('a', 'Maria', 'Agreed.', 'p');
    const tampered = { ...agreement, authored: 'Agreed.' };
    Object.defineProperty(tampered, 'authored', {
      get: (() => {
        let reads = 0;
        return () => (reads++ === 0 ? 'Agreed.' : 'agreed');
      })(),
    });
    expect(extractDecisions(thread(message('p', 'Ivan', 'I propose 10:00.'), tampered))).toEqual([]);
  });

  it('takes a key sentence past greetings, without breaking after a number', () => {
    expect(
      keySentence(
        message('k', 'Jonas', 'Hallo zusammen,\nIch schlage vor, die Schulung auf den 18. April zu legen.'),
      ),
    ).toBe('Ich schlage vor, die Schulung auf den 18. April zu legen.');
  });
});
