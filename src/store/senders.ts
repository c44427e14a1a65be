// The senders table: distinct (inbox, address, name) with their message counts, derived
// from messages: counted by MessageStore.insert, and by a trigger on delete (schema
// migrations 3 and 6). Checked and rebuilt with the indexes.

import type { Db } from './archive.js';

const COUNTED = `SELECT inbox_id, from_address AS address, from_name AS name, count(*) AS messages
  FROM messages GROUP BY inbox_id, from_address, from_name`;

/** Problems where the senders table disagrees with the messages it is derived from. */
export function checkSenders(db: Db): string[] {
  const SENDERS = 'SELECT inbox_id, address, name, messages FROM senders';
  const wrong = db
    .prepare(
      `SELECT count(*) FROM (SELECT 1 FROM (
         ${SENDERS} EXCEPT ${COUNTED}
         UNION ALL
         SELECT * FROM (${COUNTED} EXCEPT ${SENDERS})
       ) GROUP BY inbox_id, address, name)`,
    )
    .pluck()
    .get() as number;
  return wrong === 0 ? [] : [`senders table disagrees with messages for ${wrong} sender(s): run reindex`];
}

/** Recounts the senders table from messages (call inside a transaction). */
export function rebuildSenders(db: Db): void {
  db.prepare('DELETE FROM senders').run();
  db.prepare(`INSERT INTO senders (inbox_id, address, name, messages) ${COUNTED}`).run();
}
