// Decision questions in retrieval, on the invented threads of test/fixtures/decisions: which
// questions ask what was decided (in the languages the filters read), and the decisions'
// evidence fused into the ranking, where the settling reply shares no word with the question.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailsift } from '../engine.js';
import { ask as askQuestion } from './answer.js';
import { isDecisionQuestion } from './decision-question.js';
import { type RetrievalResult, retrieve } from './retrieve.js';
import { openFixtureArchive } from './test-helpers.js';

describe('isDecisionQuestion', () => {
  it('reads questions about what was decided, agreed, chosen or concluded in eight languages', () => {
    const asked = [
      'What was decided about the database?',
      'Did they agree on the cache TTL?',
      'Which database was chosen for billing?',
      'What was the conclusion on >= versus ==?',
      'Which timestamp did they settle on?',
      'How did the argument end up changing the scripts?',
      'Was the uapi change rejected?',
      'Cosa è stato deciso sul database?',
      'Quale database hanno scelto?',
      'Was wurde über die Datenbank entschieden?',
      'Haben sie sich auf PostgreSQL geeinigt?',
      "Qu'a-t-on décidé pour la base de données ?",
      'Quelle base a été choisie ?',
      '¿Qué se acordó sobre la base de datos?',
      'Qual banco de dados foi escolhido?',
      'Wat is er besloten over de database?',
      'Что решили насчёт базы данных?',
      'О чём договорились на встрече?',
    ];
    expect(asked.filter((q) => !isDecisionQuestion(q))).toEqual([]);
  });

  it('leaves other questions, and words that only start like a decision, alone', () => {
    const other = [
      'What did Maria write about MongoDB?',
      'According to Ivan, which version runs in production?',
      'Who is eligible for the on-call bonus?',
      'Согласно Ивану, какая версия работает?',
      'When is the next release?',
      'Welche Version läuft in Produktion?',
      'How long do the confidentiality obligations last in the Ferri agreement?',
    ];
    expect(other.filter((q) => isDecisionQuestion(q))).toEqual([]);
  });
});

describe('retrieval of a decision question', () => {
  let engine: Mailsift;
  beforeAll(async () => {
    ({ engine } = await openFixtureArchive('decision-thread', 'infra'));
  });
  afterAll(() => engine.close());

  const ask = (question: string) => retrieve(engine, question, { inbox: 'infra' });
  const local = (result: RetrievalResult): string[] =>
    result.messages.map((m) => m.messageId.split('@')[0] ?? '');

  it('brings the reply that settled the matter, which shares no word with the question, to the head', async () => {
    const result = await ask('What was the conclusion about moving the nightly backups to Frankfurt?');
    // sync-4 ("Sounds good, let's do it.") settles Lena's proposal (sync-1, sync-3).
    expect(local(result).slice(0, 3).sort()).toEqual(['sync-1', 'sync-3', 'sync-4']);
    expect(result.decisions?.map((d) => [d.status, d.messageIds.map((id) => id.split('@')[0])])).toEqual([
      ['standing', ['sync-1', 'sync-3', 'sync-4']],
    ]);
    expect(result.decisions?.[0]?.statement).toContain('agreed by Omar Haddad');
    expect(result.notes).toContain(
      'a question about a decision: 1 decisions found in the 10 best threads; their 3 evidence messages joined the ranking',
    );
  });

  it('has ask cite the settling reply among its first passages', async () => {
    const answer = await askQuestion(
      engine,
      'What was the conclusion about moving the nightly backups to Frankfurt?',
      {
        inbox: 'infra',
      },
    );
    expect(answer.citations.map((c) => c.messageId.split('@')[0])).toEqual(['sync-1', 'sync-3', 'sync-4']);
  });

  it('ranks a question that asks no decision by its words alone, without decisions', async () => {
    const result = await ask('Why move the nightly backups to Frankfurt?');
    expect(local(result).slice(0, 3)).not.toContain('sync-4');
    expect(result.decisions).toBeUndefined();
    expect(result.notes.join(' ')).not.toContain('decision');
  });
});
