// The bench:rag archive: hand-written story threads (the answers of the question set), the
// bundled sample's stories, and generated background mail up to the requested size, all for
// one mailbox owner. Deterministic: the same size writes the same messages.

import { makePdf } from '../src/attachments/fixtures.js';
import { buildSample, generateCorpus, writeMaildir } from '../src/corpus/index.js';
import { OWNER, type Post, type SampleMessage, Thread } from '../src/corpus/sample/kit.js';
import { englishStories } from './rag-stories-en.js';
import { foreignStories } from './rag-stories-intl.js';

export interface StoryPdf {
  readonly filename: string;
  readonly pages: ReadonlyArray<readonly string[]>;
}

export interface StoryPost extends Omit<Post, 'attachments' | 'id'> {
  readonly id: string;
  readonly pdf?: StoryPdf;
}

export interface StoryThread {
  readonly key: string;
  readonly subject: string;
  readonly lang: 'en' | 'it' | 'ru';
  readonly posts: readonly StoryPost[];
}

/** What a story message says, for checking that a paraphrase question shares none of it. */
export interface StoryRecord {
  readonly messageId: string;
  readonly threadKey: string;
  readonly subject: string;
  readonly body: string;
  readonly attachmentText: string;
}

export const STORY_START = new Date('2024-01-01T00:00:00Z');
export const STORY_END = new Date('2025-06-20T00:00:00Z');
/** "Now" for the questions' relative dates ("last October" is October 2024). */
export const QUESTION_NOW = new Date('2025-06-30T12:00:00Z');

export function storyThreads(): StoryThread[] {
  return [...englishStories(), ...foreignStories()];
}

/** What each story message says, without composing the messages. */
export function storyRecords(): StoryRecord[] {
  return storyThreads().flatMap((story) =>
    story.posts.map((post) => ({
      messageId: post.id,
      threadKey: story.key,
      subject: post.subject ?? story.subject,
      body: post.body,
      attachmentText: post.pdf ? post.pdf.pages.flat().join('\n') : '',
    })),
  );
}

async function storyMessages(): Promise<SampleMessage[]> {
  const messages: SampleMessage[] = [];
  for (const story of storyThreads()) {
    const thread = new Thread(story.key, story.subject, story.lang);
    for (const post of story.posts) {
      const attachments = post.pdf
        ? [
            {
              filename: post.pdf.filename,
              contentType: 'application/pdf',
              content: await makePdf(post.pdf.pages),
            },
          ]
        : undefined;
      messages.push(thread.post({ ...post, ...(attachments ? { attachments } : {}) }));
    }
  }
  return messages;
}

/**
 * Writes the archive's Maildir: the stories, the sample's stories, and background mail
 * from the bulk generator filling the rest of `total`, in date order.
 */
export async function writeRagMaildir(
  dir: string,
  total: number,
): Promise<{ messages: number; stories: number }> {
  const sample = buildSample().filter((m) => m.origin === 'story');
  const stories = [...sample, ...(await storyMessages())];
  const background = [
    ...generateCorpus({
      seed: 8,
      messages: Math.max(0, total - stories.length),
      startDate: STORY_START,
      endDate: STORY_END,
      inboxDomain: 'acme-corp.com',
      owner: OWNER,
    }),
  ];
  const all = [...stories, ...background].sort((a, b) => a.date.getTime() - b.date.getTime());
  await writeMaildir(dir, all);
  return { messages: all.length, stories: stories.length };
}
