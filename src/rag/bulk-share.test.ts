import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';
import { bulkIsMinority } from './bulk-share.js';
import { retrieve } from './retrieve.js';

interface Letter {
  readonly id: string;
  readonly from: string;
  readonly body: string;
  readonly list?: boolean;
}

function writeFolder(root: string, name: string, letters: readonly Letter[]): string {
  const folder = join(root, name);
  mkdirSync(folder, { recursive: true });
  letters.forEach((l, i) => {
    const headers = [
      `From: ${l.from}`,
      'To: team@example.org',
      `Subject: Notes ${i + 1}`,
      `Date: Mon, ${String(i + 1).padStart(2, '0')} Jun 2025 10:00:00 +0000`,
      `Message-ID: <${l.id}@example.org>`,
      ...(l.list ? ['List-Id: Gearworks discussion <gearworks.lists.example.org>'] : []),
      'Content-Type: text/plain; charset=utf-8',
    ];
    writeFileSync(
      join(folder, `${String(i + 1).padStart(2, '0')}.eml`),
      `${headers.join('\r\n')}\r\n\r\n${l.body}\r\n`,
    );
  });
  return folder;
}

const OTHER_TOPICS = [
  'the harvest festival moves to the old barn this year',
  'please bring folding chairs and a thermos of tea',
  'the choir rehearses on thursday evenings from now on',
  'library books are due back before the summer break',
  'the bakery on the corner sells rye bread again',
  'a new bicycle rack stands beside the station entrance',
];

/**
 * Two messages about the question, the bulk one a little nearer by its words (one word
 * twice), among six others on other topics that are all bulk (`list`) or none.
 */
const pairAmong = (prefix: string, othersBulk: boolean): Letter[] => [
  ...OTHER_TOPICS.map((body, i) => ({
    id: `${prefix}-other-${i}`,
    from: `member${i}@example.net`,
    body,
    list: othersBulk,
  })),
  {
    id: `${prefix}-list`,
    from: 'digest@gearworks.example.org',
    body: 'gearbox torque calibration, and again the gearbox torque calibration',
    list: true,
  },
  { id: `${prefix}-direct`, from: 'mara@example.net', body: 'gearbox torque calibration' },
];

describe('bulk mail is discounted only where it is a minority', () => {
  it('ranks a list message by its words in a list archive, and below correspondence in a mailbox', async () => {
    const root = tempDir('mailsift-bulk-');
    const engine = Mailsift.open(join(root, 'archive.db'));
    await engine.ingest([writeFolder(root, 'list-archive', pairAmong('a', true))], {
      inbox: 'lists',
      workers: 0,
    });
    await engine.ingest([writeFolder(root, 'mailbox', pairAmong('m', false))], { inbox: 'mail', workers: 0 });
    const db = engine.archive.db;
    const inboxId = (name: string): number =>
      db.prepare('SELECT id FROM inboxes WHERE name = ?').pluck().get(name) as number;
    expect(bulkIsMinority(db, [inboxId('lists')])).toBe(false);
    expect(bulkIsMinority(db, [inboxId('mail')])).toBe(true);
    // Both inboxes: 8 bulk of 16, not a minority.
    expect(bulkIsMinority(db, [inboxId('lists'), inboxId('mail')])).toBe(false);

    const first = async (inbox: string): Promise<string | undefined> =>
      (await retrieve(engine, 'gearbox torque calibration', { inbox, mode: 'keyword' })).messages[0]
        ?.messageId;
    expect(await first('lists')).toBe('a-list@example.org');
    expect(await first('mail')).toBe('m-direct@example.org');
    engine.close();
  });
});
