// The bundled sample mailbox: hand-written stories plus generated background mail for the
// same owner, split between a Maildir++ tree and a Google Takeout mbox with some overlap.

import { generateCorpus } from '../generator.js';
import { beginSample, OWNER, type SampleMessage, type Where } from './kit.js';
import { budgetStory } from './story-budget.js';
import { internationalStory } from './story-intl.js';
import { servicesStory } from './story-services.js';
import { supplierStory } from './story-supplier.js';

export type { SampleMessage, Where } from './kit.js';
export { OWNER as SAMPLE_OWNER } from './kit.js';

/** Generated background messages drawn around the stories (before the size filter). */
const BACKGROUND = 275;
/** Background messages above this size (big generated attachments) are left out to keep the bundle small. */
const MAX_BACKGROUND_BYTES = 30_000;

function background(): SampleMessage[] {
  const out: SampleMessage[] = [];
  let i = 0;
  for (const m of generateCorpus({
    seed: 2024,
    messages: BACKGROUND,
    startDate: new Date('2024-01-02T00:00:00Z'),
    endDate: new Date('2024-09-30T00:00:00Z'),
    inboxDomain: 'acme-corp.com',
    owner: OWNER,
  })) {
    if (m.bytes.length > MAX_BACKGROUND_BYTES) continue;
    // Most background mail lives in the Maildir, a quarter only in the older Takeout export,
    // and every twentieth message in both, as happens when one mailbox is exported twice.
    const where: Where = i % 20 === 7 ? 'both' : i % 4 === 1 ? 'mbox' : 'maildir';
    out.push({ ...m, where, origin: 'background' });
    i++;
  }
  return out;
}

/** Google Takeout's X-Gmail-Labels for a sample message. */
export function takeoutLabels(m: SampleMessage): string[] {
  const labels = [m.folder === 'INBOX' ? 'Inbox' : m.folder === 'Archive' ? 'Archived' : m.folder];
  if (m.kind === 'newsletter') labels.push('Category Promotions');
  if (m.kind === 'notification' || m.kind === 'receipt') labels.push('Category Updates');
  if (m.flags.includes('F')) labels.push('Starred');
  labels.push(m.flags.includes('S') ? 'Opened' : 'Unread');
  return labels;
}

/** Every sample message in date order; the same on every run. */
export function buildSample(): SampleMessage[] {
  beginSample();
  const all = [
    ...supplierStory(),
    ...budgetStory(),
    ...internationalStory(),
    ...servicesStory(),
    ...background(),
  ];
  return all.sort((a, b) => a.date.getTime() - b.date.getTime());
}
