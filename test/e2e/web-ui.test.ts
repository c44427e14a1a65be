// The web UI in a real browser: Debian's Chromium driven by playwright-core against the built
// `mailsift serve` (keys on) over the bundled sample (inbox demo) and a hostile message (inbox
// lab) whose subject, sender, body, attachment name and text and HTML carry <script>, onerror=
// and javascript: payloads that set window.__pwned, and remote images. One browser for the file;
// every page's requests are watched, and any that would leave loopback is recorded and aborted.

import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../temp.js';
import { runCli, startCli, waitForOutput } from './cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HOSTILE_ID = 'hostile-1@hostile.example';
const CSP =
  "default-src 'self'; img-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe('web UI in Chromium (built serve with keys, sample and hostile inboxes)', () => {
  let server: ChildProcess;
  let base = '';
  let fullKey = '';
  let demoKey = '';
  let browser: Browser;
  /** Signed in with the key that sees every inbox. */
  let context: BrowserContext;
  let page: Page;
  /** Requests that would have left loopback, from any context. */
  const outside: string[] = [];
  const dialogs: string[] = [];

  const cli = (...args: string[]) => {
    const result = runCli(args);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.trim();
  };

  async function newContext(): Promise<BrowserContext> {
    const made = await browser.newContext();
    await made.route('**/*', (route) => {
      const target = new URL(route.request().url());
      if (target.origin === base) return route.continue();
      outside.push(target.href);
      return route.abort();
    });
    made.on('page', (p) =>
      p.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      }),
    );
    return made;
  }

  async function signIn(target: Page, key: string): Promise<number | undefined> {
    await target.goto(`${base}/signin`);
    await target.getByLabel('API key').fill(key);
    const [response] = await Promise.all([
      target.waitForResponse((r) => r.request().method() === 'POST'),
      target.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await target.waitForLoadState();
    return response.status();
  }

  const pwned = (target: Page): Promise<unknown> => target.evaluate('window.__pwned ?? null');

  beforeAll(async () => {
    const db = join(tempDir('mailsift-web-'), 'a.db');
    cli(
      'ingest',
      join(ROOT, 'sample', 'Maildir'),
      join(ROOT, 'sample', 'archive.mbox'),
      '--inbox',
      'demo',
      '--db',
      db,
    );
    cli('ingest', join(ROOT, 'test', 'fixtures', 'web', 'hostile'), '--inbox', 'lab', '--db', db);
    fullKey = cli('keys', 'create', '--name', 'all', '--db', db);
    demoKey = cli('keys', 'create', '--inbox', 'demo', '--name', 'demo-only', '--db', db);
    server = startCli(['serve', '--db', db, '--port', '0', '--quiet']);
    base = await waitForOutput(server, /serving (http:\/\/\S+)/, 30_000);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
    context = await newContext();
    page = await context.newPage();
    expect(await signIn(page, fullKey)).toBe(303);
  });

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });

  it('asks for a key: a wrong one is refused, a right one opens an HttpOnly, SameSite=Strict session that holds no key', async () => {
    const fresh = await newContext();
    const p = await fresh.newPage();
    await p.goto(`${base}/?q=INV-4471`);
    expect(new URL(p.url()).pathname).toBe('/signin');
    await p.getByLabel('API key').fill('msk_not-a-key');
    const [refused] = await Promise.all([
      p.waitForResponse((r) => r.request().method() === 'POST'),
      p.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    expect(await p.getByRole('alert').textContent()).toContain('Unknown or revoked API key');
    expect(await fresh.cookies()).toEqual([]);
    await p.getByLabel('API key').fill(fullKey);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL(`${base}/?q=INV-4471`);
    const [cookie] = await fresh.cookies();
    expect(cookie).toMatchObject({ name: 'mailsift_session', httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.value).not.toContain(fullKey.slice(4, 20));
    // Signing out ends the session in this browser.
    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.waitForURL(/\/signin/);
    await p.goto(`${base}/status`);
    expect(new URL(p.url()).pathname).toBe('/signin');
    await fresh.close();
  });

  it('searches, opens a result, goes to its thread and back; `/` focuses the search box', async () => {
    await page.goto(`${base}/`);
    await page.locator('body').press('/');
    expect(await page.locator('#q:focus').count()).toBe(1);
    const box = page.getByRole('searchbox', { name: 'Search mail' });
    await box.fill('INV-4471');
    await box.press('Enter');
    await page.waitForURL(/[?&]q=INV-4471/);
    expect(await page.locator('ol.results strong').first().textContent()).toBe('INV-4471');
    await page.getByRole('link', { name: 'Fwd: Your receipt from CloudNorth Hosting #2817-4471' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Fwd: Your receipt from CloudNorth Hosting #2817-4471',
    );
    await page.getByRole('link', { name: 'Thread', exact: true }).click();
    await page.waitForURL(/\/t\/demo\//);
    const open = page.locator('.tree > details[open]');
    expect(await open.count()).toBe(1);
    expect(await open.getByRole('link').first().textContent()).toContain('Fwd: Your receipt');
    await page.goBack();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Fwd: Your receipt');
    await page.goBack();
    expect(await page.getByRole('searchbox', { name: 'Search mail' }).inputValue()).toBe('INV-4471');
  });

  it('pages through the chronological list by page tokens, without repeats', async () => {
    await page.goto(`${base}/`);
    const links = () =>
      page.locator('ol.results > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const first = await links();
    expect(first).toHaveLength(20);
    await page.getByRole('link', { name: 'Next page' }).click();
    const second = await links();
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((h) => first.includes(h))).toEqual([]);
    await page.getByRole('link', { name: 'First page' }).click();
    expect(await links()).toEqual(first);
  });

  it('filters the list by sender and attachment, in the URL', async () => {
    await page.goto(`${base}/`);
    await page.locator('summary', { hasText: 'Filters' }).click();
    await page.getByLabel('From').fill('stripe.com');
    await page.getByLabel('Has attachment').check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/from=stripe.com/);
    expect(page.url()).toContain('attachment=1');
    const metas = await page.locator('ol.results .meta').allTextContents();
    expect(metas.length).toBeGreaterThan(1);
    for (const meta of metas) {
      expect(meta).toContain('stripe.com');
      expect(meta).toMatch(/attachment/);
    }
  });

  it('asks without a model: the answer says how it was found, and a citation opens the cited passage', async () => {
    await page.goto(`${base}/ask`);
    await page
      .getByRole('textbox', { name: 'Question' })
      .fill('who asked Priya to book the CloudNorth receipt');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('heading', { name: 'Answer' }).waitFor();
    expect(await page.getByRole('note').first().textContent()).toContain('may be wrong');
    expect(await page.locator('.provenance').textContent()).toMatch(/Retrieval: keyword[\s\S]*Filters: none/);
    const source = page.locator('ol.sources > li').first();
    const subject = (await source.getByRole('link').textContent()) ?? '';
    const quote = ((await source.locator('blockquote').textContent()) ?? '').slice(0, 20);
    await page.locator('.answer a').first().click();
    await page.waitForURL(/#cite$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(subject);
    const mark = page.locator('mark#cite');
    expect(await mark.isVisible()).toBe(true);
    expect((await mark.textContent())?.replace(/\s+/g, ' ')).toContain(quote.replace(/\s+/g, ' ').trim());
  });

  it('a key scoped to demo cannot open a message of lab by URL, nor its inbox', async () => {
    const scoped = await newContext();
    const p = await scoped.newPage();
    expect(await signIn(p, demoKey)).toBe(303);
    const message = await p.goto(`${base}/m/lab/${encodeURIComponent(HOSTILE_ID)}`);
    expect(message?.status()).toBe(404);
    const inbox = await p.goto(`${base}/?q=zebracorn&inbox=lab`);
    expect(inbox?.status()).toBe(404);
    const attachment = await p.goto(`${base}/m/lab/${encodeURIComponent(HOSTILE_ID)}/original`);
    expect(attachment?.status()).toBe(404);
    // The same URL opens for the key that sees every inbox.
    expect((await page.goto(`${base}/m/lab/${encodeURIComponent(HOSTILE_ID)}`))?.status()).toBe(200);
    await scoped.close();
  });

  it('shows the hostile message as text on every page: nothing runs, nothing remote loads', async () => {
    const visits = [
      `/?q=zebracorn&inbox=lab`,
      `/?q=zebracorn&inbox=lab&kind=threads`,
      `/?inbox=lab`,
      `/m/lab/${encodeURIComponent(HOSTILE_ID)}`,
      `/m/lab/${encodeURIComponent(HOSTILE_ID)}/original`,
      `/t/lab/${encodeURIComponent(HOSTILE_ID)}`,
      `/status?inbox=lab`,
    ];
    for (const visit of visits) {
      const response = await page.goto(`${base}${visit}`);
      expect(response?.headers()['content-security-policy'], visit).toBe(CSP);
      expect(await pwned(page), visit).toBeNull();
      expect(
        await page.locator('a[href^="javascript:" i], [onerror], [onload], iframe, img').count(),
        visit,
      ).toBe(0);
    }
    await page.goto(`${base}/m/lab/${encodeURIComponent(HOSTILE_ID)}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Zebracorn <script>window.__pwned='subject'</script><img src=x onerror="window.__pwned='subject-img'"> javascript:alert(1)`,
    );
    expect(await page.locator('.authored').first().textContent()).toContain(
      `<script>window.__pwned="body-script"</script>`,
    );
    await page.getByText('Extracted text').click();
    expect(await page.locator('pre').first().textContent()).toContain(
      '<script>window.__pwned="attachment-text"</script>',
    );
    const download = page.getByRole('link', { name: `<img src=x onerror=window.__pwned='filename'>.txt` });
    expect(await download.count()).toBe(1);
    const bytes = await page.request.get(`${base}${await download.getAttribute('href')}`);
    expect(bytes.headers()['content-security-policy']).toBe('sandbox');
    expect(bytes.headers()['content-disposition']).toMatch(/^attachment;/);
    expect(await pwned(page)).toBeNull();
    expect(dialogs).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('refuses a POST without the session CSRF token, and one from another origin', async () => {
    const form = { question: 'anything', inbox: 'demo' };
    const missing = await page.request.post(`${base}/ask`, { form });
    expect(missing.status()).toBe(400);
    await page.goto(`${base}/ask`);
    const csrf = (await page.locator('input[name=csrf]').first().getAttribute('value')) ?? '';
    const foreign = await page.request.post(`${base}/ask`, {
      form: { ...form, csrf },
      headers: { Origin: 'http://evil.example' },
    });
    expect(foreign.status()).toBe(400);
    const good = await page.request.post(`${base}/ask`, { form: { ...form, csrf } });
    expect(good.status()).toBe(200);
  });
});
