// npm run ui:screens -- <dir>: screenshots of every page of the web UI, at a desktop and a
// narrow (phone) width, over the bundled sample (and the hostile fixture message), for review.
// Writes <dir>/<page>-desktop.png and <dir>/<page>-narrow.png.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { sampleArchive, startUi } from './ui-support.js';

const SIZES = { desktop: { width: 1280, height: 900 }, narrow: { width: 390, height: 844 } } as const;

/** Each page by name: where it is, and what to do there before the picture. */
const PAGES: ReadonlyArray<{
  readonly name: string;
  readonly path: string;
  readonly act?: (p: Page) => Promise<void>;
}> = [
  { name: 'search-latest', path: '/' },
  { name: 'search-results', path: '/?q=INV-4471' },
  { name: 'search-threads', path: '/?q=budget&kind=threads' },
  {
    name: 'search-filters',
    path: '/?from=stripe.com&attachment=1',
  },
  { name: 'message', path: '/m/demo/CAH7Lb2q0fwd4471%40mail.gmail.com' },
  { name: 'message-hostile', path: '/m/lab/hostile-1%40hostile.example' },
  { name: 'original', path: '/m/demo/CAH7Lb2q0fwd4471%40mail.gmail.com/original' },
  { name: 'thread', path: '/t/demo/CAp%2BwISZL9R4t3fTdOTz7LAlSb9rUBh7Qacpsc8TQq7x2z%40mail.gmail.com' },
  {
    name: 'ask-answer',
    path: '/ask',
    act: async (p) => {
      await p.getByRole('textbox', { name: 'Question' }).fill('what was the amount of invoice INV-4471');
      await p.getByRole('button', { name: 'Ask' }).click();
      await p.getByRole('heading', { name: 'Answer' }).waitFor();
    },
  },
  { name: 'status', path: '/status' },
];

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: npm run ui:screens -- <dir>\n');
    process.exitCode = 2;
    return;
  }
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'mailsift-screens-'));
  const archive = join(scratch, 'archive.db');
  await sampleArchive(archive);
  const ui = await startUi(archive);
  try {
    for (const [size, viewport] of Object.entries(SIZES)) {
      const page = await ui.context.newPage();
      await page.setViewportSize(viewport);
      for (const { name, path, act } of PAGES) {
        await page.goto(`${ui.url}${path}`);
        await act?.(page);
        await page.screenshot({ path: join(dir, `${name}-${size}.png`), fullPage: true });
      }
      await page.close();
    }
    // Sign-in last: signing out ends the session the other pages used.
    const page = await ui.context.newPage();
    await page.goto(`${ui.url}/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(dir, `signin-${size}.png`), fullPage: true });
    }
    process.stdout.write(`wrote ${(PAGES.length + 1) * 2} screenshots to ${dir}\n`);
  } finally {
    await ui.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
