// What `npm run ui:screens` and `npm run bench:ui` share: an archive of the bundled sample (and
// the hostile fixture message, to show it inert), the built `mailsift serve` with keys on, and
// Debian's Chromium signed in to it with a fresh key.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { createKey } from '../src/auth/index.js';
import { Mailsift } from '../src/engine.js';
import { CLI_BIN } from './measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';

/** Builds an archive at `path` from the bundled sample (inbox demo) and the hostile fixture (inbox lab). */
export async function sampleArchive(path: string): Promise<void> {
  const engine = Mailsift.open(path);
  try {
    const sample = join(ROOT, 'sample');
    await engine.ingest([join(sample, 'Maildir'), join(sample, 'archive.mbox')], { inbox: 'demo' });
    await engine.ingest([join(ROOT, 'test', 'fixtures', 'web', 'hostile')], { inbox: 'lab' });
  } finally {
    engine.close();
  }
}

export interface UiServer {
  readonly url: string;
  readonly browser: Browser;
  /** A browser context signed in with a key that sees every inbox. */
  readonly context: BrowserContext;
  /** The session cookie header, for requests made outside the browser. */
  readonly cookie: string;
  /** The key the browser signed in with, for the API. */
  readonly key: string;
  close(): Promise<void>;
}

function serving(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /serving (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

/** Serves `archive` (keys on, a loopback port) and signs a headless Chromium in with a new key. */
export async function startUi(archive: string): Promise<UiServer> {
  const engine = Mailsift.open(archive);
  const { key } = createKey(engine.archive.db, { name: 'web-ui bench' });
  engine.close();
  const server = spawn(process.execPath, [CLI_BIN, 'serve', '--db', archive, '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await serving(server);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/signin`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/`);
  await page.close();
  const session = (await context.cookies()).find((c) => c.name === 'mailsift_session');
  return {
    url,
    browser,
    context,
    cookie: `mailsift_session=${session?.value ?? ''}`,
    key,
    async close() {
      await browser.close();
      server.kill('SIGTERM');
      await once(server, 'exit');
    },
  };
}
