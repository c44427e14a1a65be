// Cleaning stored mail again: a message an older cleaner split differently is stored with
// the current rules' parts and re-indexed (keyword postings, RAG chunks); the rest is untouched.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { CLEANER_VERSION } from '../clean/index.js';
import { Mailsift } from '../engine.js';
import { checkHealth, DEFAULT_THRESHOLDS } from '../health/index.js';
import { checkIndex, reindex } from '../index/index.js';
import { syncChunks } from '../rag/index.js';
import { deflateText } from './compress.js';

const opened: Mailsift[] = [];

/** The status check of the 'work' inbox's cleaner version. */
const cleanerCheck = (engine: Mailsift) =>
  checkHealth(engine, DEFAULT_THRESHOLDS, new Date(), { consistency: false }).inboxes[0]?.checks.find(
    (c) => c.name === 'cleaner',
  );
afterEach(() => {
  for (const engine of opened.splice(0)) engine.close();
});

/** A supplier's reply whose client appends a card without a sign-off. */
const carded = [
  'Message-ID: <KP20240612A@kestrelpack.com>',
  'From: "Mike Dorsey" <mdorsey@kestrelpack.com>',
  'To: "Laura Bianchi" <laura.bianchi@acme-corp.com>',
  'Subject: PO-8812 corrugated cartons',
  'Date: Wed, 12 Jun 2024 15:20:00 -0400',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Hi Laura,',
  '',
  'Our corrugator went down on Monday with a cracked drive shaft, so the 40,000 cartons',
  'will now ship around July 19 rather than June 28.',
  '',
  'Mike Dorsey',
  'Account Manager',
  'Kestrel Packaging Inc. | 2200 Industrial Pkwy, Dayton OH',
  '(937) 555-0144',
  '',
].join('\r\n');

const plain = [
  'Message-ID: <CAH7Lb2q0JUN13kp@mail.gmail.com>',
  'From: "Laura Bianchi" <laura.bianchi@acme-corp.com>',
  'To: "Mike Dorsey" <mdorsey@kestrelpack.com>',
  'Subject: Re: PO-8812 corrugated cartons',
  'Date: Thu, 13 Jun 2024 09:02:00 +0200',
  'In-Reply-To: <KP20240612A@kestrelpack.com>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Hi Mike,',
  '',
  'ok, please ship the first 10,000 from Ohio as a partial delivery.',
  '',
  'Laura',
  '',
].join('\r\n');

describe('reclean', () => {
  it('stores and re-indexes only the messages the current rules clean differently', async () => {
    const dir = tempDir('mailsift-reclean-');
    writeFileSync(join(dir, 'carded.eml'), carded);
    writeFileSync(join(dir, 'plain.eml'), plain);
    const engine = Mailsift.open(':memory:');
    opened.push(engine);
    await engine.ingest([dir], { inbox: 'work', workers: 0 });
    const db = engine.archive.db;
    const current = engine.getMessage('KP20240612A@kestrelpack.com').cleaned;
    expect(current.signature).toContain('Dayton OH');

    // What an older cleaner stored: the card as part of what Mike wrote, indexed as such.
    const old = { ...current, authored: `${current.authored}\n\n${current.signature}`, signature: '' };
    db.prepare("UPDATE messages SET body = ? WHERE message_id = 'KP20240612A@kestrelpack.com'").run(
      deflateText(JSON.stringify(old)),
    );
    // ...in an inbox made by that build, which status asks to clean again.
    db.prepare("UPDATE inboxes SET cleaner = 1 WHERE name = 'work'").run();
    reindex(db);
    syncChunks(db);
    expect(cleanerCheck(engine)).toMatchObject({ status: 'warn', value: 1 });
    expect(cleanerCheck(engine)?.message).toContain('mailsift reclean --inbox work');
    expect(engine.searchMessages({ q: 'Dayton', inbox: 'work' }).messages).toHaveLength(1);
    expect(db.prepare('SELECT count(*) FROM rag_dirty_threads').pluck().get()).toBe(0);

    const report = await engine.reclean({ inbox: 'work' });
    expect(report).toEqual({ messages: 2, changed: 1, failures: [] });
    expect(engine.getMessage('KP20240612A@kestrelpack.com').cleaned).toEqual(current);
    // A card is not what the author wrote: its words leave the authored text's index.
    expect(engine.searchMessages({ q: 'Dayton', inbox: 'work' }).messages).toHaveLength(0);
    expect(engine.searchMessages({ q: 'corrugator', inbox: 'work' }).messages).toHaveLength(1);
    expect(checkIndex(db, { deep: true })).toEqual({ ok: true, problems: [] });
    // The thread's chunks are rebuilt by the RAG backlog.
    expect(db.prepare('SELECT count(*) FROM rag_dirty_threads').pluck().get()).toBe(1);

    expect(cleanerCheck(engine)).toMatchObject({ status: 'ok', value: Number(CLEANER_VERSION) });

    expect(await engine.reclean()).toEqual({ messages: 2, changed: 0, failures: [] });
    await expect(engine.reclean({ inbox: 'home' })).rejects.toThrow(/home/);
  });
});
