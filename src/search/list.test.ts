import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMessages } from './index.js';
import { openTestArchive, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
});
afterAll(() => archive.close());

const ids = (params: Record<string, unknown>): string[] =>
  listMessages(archive.db, { limit: 100, ...params }).messages.map((m) => m.messageId);

describe('filtered lists', () => {
  it('match identifier filters by prefix, every filter required', () => {
    expect(ids({ from: 'stripe.com' })).toEqual([
      'stripe-4472@mail.stripe.com',
      'phish-1@stripe-billing.example',
      'stripe-4471@mail.stripe.com',
    ]);
    expect(ids({ from: 'noreply@github' })).toEqual(['pr-812@github.com']);
    expect(ids({ from: 'tom', to: 'maria', subject: 'bud' })).toEqual(['budget-2@acme.io']);
    expect(ids({ subject: 'jose' })).toEqual([]);
    expect(ids({ from: 'jose' })).toEqual(['es-0301@ejemplo.es']);
  });

  it('are chronological, newest first unless ascending', () => {
    const newest = listMessages(archive.db, { limit: 100 }).messages.map((m) => m.timestamp);
    expect(newest).toEqual([...newest].sort().reverse());
    const oldest = listMessages(archive.db, { limit: 100, ascending: true }).messages.map((m) => m.timestamp);
    expect(oldest).toEqual([...newest].reverse());
    const item = listMessages(archive.db, { limit: 1 }).messages[0] as unknown as Record<string, unknown>;
    expect(item).not.toHaveProperty('score');
    expect(item).not.toHaveProperty('highlights');
  });

  it('hide spam and trash unless asked for, and never hide unauthenticated mail from explicit filters', () => {
    expect(ids({})).not.toContain('spam-1@promo.example');
    expect(ids({})).not.toContain('trash-1@acme.io');
    expect(ids({ includeSpam: true })).toContain('spam-1@promo.example');
    expect(ids({ includeTrash: true })).toContain('trash-1@acme.io');
    expect(ids({ labels: ['spam'] })).toEqual(['spam-1@promo.example']);
    expect(ids({ labels: ['Trash'] })).toEqual(['trash-1@acme.io']);
    expect(ids({ from: 'stripe.com' })).toContain('phish-1@stripe-billing.example');
  });

  it('filter by dates, attachments and thread', () => {
    // Same date: the later row first.
    const ties = ['tie-a@birds.example', 'tie-b@birds.example'].sort(
      (a, b) => archive.rowidOf(b) - archive.rowidOf(a),
    );
    expect(ids({ after: '2024-05-01', before: '2024-05-12' })).toEqual([
      ...ties,
      'stripe-4472@mail.stripe.com',
    ]);
    expect(ids({ hasAttachment: true })).toEqual([
      'contract-terms@northwind.example',
      'statement-0331@acme.io',
    ]);
    expect(ids({ hasAttachment: false })).not.toContain('statement-0331@acme.io');
    const threadId = listMessages(archive.db, { from: 'tom', subject: 'budget review' }).messages[0]
      ?.threadId as string;
    expect(ids({ threadId, ascending: true })).toEqual(['budget-1@acme.io', 'budget-2@acme.io']);
  });

  it('page by keyset at any depth, bound to the filters', () => {
    const all = ids({ to: 'maria' });
    const paged: string[] = [];
    let token: string | null = null;
    do {
      const page = listMessages(archive.db, {
        to: 'maria',
        limit: 3,
        ...(token ? { pageToken: token } : {}),
      });
      paged.push(...page.messages.map((m) => m.messageId));
      token = page.nextPageToken;
    } while (token !== null);
    expect(paged).toEqual(all);
    const first = listMessages(archive.db, { to: 'maria', limit: 3 }).nextPageToken as string;
    expect(() => listMessages(archive.db, { to: 'tom', limit: 3, pageToken: first })).toThrow(
      /another query/,
    );
  });
});
