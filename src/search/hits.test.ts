import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMessages, searchThreads } from './search.js';
import { openTestArchive, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
});
afterAll(() => archive.close());

describe('hits kept between requests', () => {
  it('show a label given to their message after they were built', () => {
    const [first] = searchMessages(archive.db, { q: 'invoice' }).messages;
    expect(first?.labels).not.toContain('important');
    const rowid = archive.rowidOf(first?.messageId as string);
    archive.db
      .prepare("INSERT INTO message_labels (message_rowid, label) VALUES (?, 'important')")
      .run(rowid);
    const [again] = searchMessages(archive.db, { q: 'invoice' }).messages;
    expect(again?.messageId).toBe(first?.messageId);
    expect(again?.labels).toContain('important');
  });

  it('reuse the item built for a kept message, frozen, until the message changes', () => {
    const first = searchMessages(archive.db, { q: 'invoice' }).messages[0];
    const again = searchMessages(archive.db, { q: 'invoice' }).messages[0];
    if (!first || !again) throw new Error('no message found by "invoice"');
    expect(again.messageId).toBe(first.messageId);
    // The same recipients array: the item was built once, not per request, and is frozen,
    // so no caller can change what the next request is given.
    expect(again.to).toBe(first.to);
    expect(() => (first.to as string[]).push('x@y.example')).toThrow(TypeError);
    expect(() => (first.labels as string[]).push('mine')).toThrow(TypeError);
  });

  it('show the highlights of the query asked, not of another query that found the same message', () => {
    const [byInvoice] = searchMessages(archive.db, { q: 'invoice' }).messages;
    const subject = byInvoice?.subject
      .split(/\s+/)
      .find((w) => /^\p{L}{4,}$/u.test(w) && !/invoice/i.test(w));
    expect(subject).toBeDefined();
    const other = searchMessages(archive.db, { q: subject as string }).messages.find(
      (m) => m.messageId === byInvoice?.messageId,
    );
    expect(other?.highlights.subject?.join(' ')).toContain(`**${subject}**`);
    expect(other?.highlights.subject?.join(' ')).not.toMatch(/\*\*invoice\*\*/i);
  });

  it("give a thread's new size once a message moves into it", () => {
    const threads = searchThreads(archive.db, { q: 're' }).threads;
    const [a, b] = threads as [(typeof threads)[0], (typeof threads)[0]];
    expect(b).toBeDefined();
    const moved = archive.db
      .prepare('SELECT id FROM messages WHERE thread_id = ? LIMIT 1')
      .pluck()
      .get(b.threadId) as number;
    archive.db.prepare('UPDATE messages SET thread_id = ? WHERE id = ?').run(a.threadId, moved);
    const after = searchThreads(archive.db, { q: 're' }).threads.find((t) => t.threadId === a.threadId);
    expect(after?.messageCount).toBe(a.messageCount + 1);
  });
});
