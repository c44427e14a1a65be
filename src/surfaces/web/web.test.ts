// The web UI without a browser: the pieces that keep mail inert (escaping, `**` fragments,
// the CSP on every page), sessions that cannot be forged or outlive their key, redirects that
// stay on this site, and the API's routes left as they were beside the pages.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../../auth/index.js';
import { indexSecret } from '../../index/index.js';
import { createApp } from '../http/app.js';
import { DECISION_FIXTURES, type FixtureArchive, fixtureArchive } from '../http/test-support.js';
import { fragment } from './html.js';
import { CONTENT_SECURITY_POLICY } from './index.js';
import { findQuote } from './pages/message.js';
import { csrfToken, csrfValid, localPath, SESSION_MS, sessionKeyId, sessionValue } from './session.js';

describe('web UI building blocks', () => {
  it('bolds `**` runs of a fragment and escapes every piece of it', async () => {
    expect(String(await fragment('a **<b>x</b>** "c" & <script>'))).toBe(
      'a <strong>&lt;b&gt;x&lt;/b&gt;</strong> &quot;c&quot; &amp; &lt;script&gt;',
    );
  });

  it('finds a quote whatever its whitespace and trailing ellipsis, and nothing for another text', () => {
    const body = 'Hello team,\n\nthe budget   for Q3\nis approved (option B).\nThanks';
    const found = findQuote(body, 'the budget for Q3 is approved (option B)....');
    expect(found && body.slice(found.start, found.end)).toBe('the budget   for Q3\nis approved (option B).');
    expect(findQuote(body, 'rejected outright')).toBeNull();
    expect(findQuote(body, '   ')).toBeNull();
  });

  it('accepts its own session until it expires, and nothing altered', () => {
    const now = 1_700_000_000_000;
    const value = sessionValue('s3cret', 'key_abc123', now);
    expect(sessionKeyId('s3cret', value, now + 1000)).toBe('key_abc123');
    expect(sessionKeyId('s3cret', value, now + SESSION_MS + 1)).toBeNull();
    expect(sessionKeyId('other', value, now)).toBeNull();
    expect(sessionKeyId('s3cret', value.replace('key_abc123', 'key_abc124'), now)).toBeNull();
    const [id, , tag] = value.split('.');
    expect(sessionKeyId('s3cret', `${id}.${now + SESSION_MS * 100}.${tag}`, now)).toBeNull();
    expect(sessionKeyId('s3cret', undefined, now)).toBeNull();
  });

  it('binds CSRF tokens to the session', () => {
    const token = csrfToken('s3cret', 'session-a');
    expect(csrfValid('s3cret', 'session-a', token)).toBe(true);
    expect(csrfValid('s3cret', 'session-b', token)).toBe(false);
    expect(csrfValid('s3cret', null, token)).toBe(false);
    expect(csrfValid('s3cret', 'session-a', undefined)).toBe(false);
  });

  it('redirects only to a path of this site', () => {
    expect(localPath('/?q=x')).toBe('/?q=x');
    for (const bad of [
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      42,
    ])
      expect(localPath(bad)).toBe('/');
  });
});

describe('web UI without keys (--no-auth)', () => {
  let archive: FixtureArchive;
  beforeAll(async () => {
    archive = await fixtureArchive();
  });
  afterAll(() => archive.close());

  it('serves every inbox to the local user, without sign-in or sign-out', async () => {
    const app = createApp({ engine: archive.engine, auth: false });
    const page = await app.request('/?inbox=other');
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('Sign out');
    const signin = await app.request('/signin?next=/status');
    expect(signin.status).toBe(303);
    expect(signin.headers.get('location')).toBe('/status');
  });

  it("shows each source's last error on the status page, escaped", async () => {
    const db = archive.engine.archive.db;
    const path = db.prepare('SELECT path FROM sources ORDER BY id LIMIT 1').pluck().get() as string;
    db.prepare('UPDATE sources SET last_error = ?, last_error_at = ? WHERE path = ?').run(
      'login refused for <b>me</b>',
      Date.parse('2026-12-01T10:00:00Z'),
      path,
    );
    const page = await (await createApp({ engine: archive.engine, auth: false }).request('/status')).text();
    const row = page.split('<tr>').find((r) => r.includes(`<td>${path}</td>`));
    expect(row).toContain('2026-12-01 10:00');
    expect(row).toContain('login refused for &lt;b&gt;me&lt;/b&gt;');
    db.prepare('UPDATE sources SET last_error = NULL, last_error_at = NULL WHERE path = ?').run(path);
  });
});

describe('web UI thread page: decisions', () => {
  let archive: FixtureArchive;
  beforeAll(async () => {
    archive = await fixtureArchive({ team: DECISION_FIXTURES });
  });
  afterAll(() => archive.close());

  it('shows the thread’s decisions first, quotes linked to their messages, the LLM’s statement escaped', async () => {
    const app = createApp({ engine: archive.engine, auth: false });
    const page = async () =>
      (await app.request(`/t/team/${encodeURIComponent('cache-1@orbit-labs.example')}`)).text();
    const before = await page();
    const section = before.slice(
      before.indexOf('<section class="decisions">'),
      before.indexOf('<div class="tree">'),
    );
    expect(section).toContain('<h2>Decisions</h2>');
    expect(section.match(/<span class="badge">(standing|superseded)<\/span>/g)).toEqual([
      '<span class="badge">standing</span>',
      '<span class="badge">superseded</span>',
    ]);
    // Each quote links to its message's entry in the tree below.
    const linked = [...section.matchAll(/<a href="#m(\d+)">/g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(0);
    for (const index of linked) expect(before).toMatch(new RegExp(`<details class="d\\d" id="m${index}"`));
    expect(section).toMatch(/<a href="#m\d+">agreement<\/a>: <q>/);
    // An LLM's phrasing is untrusted text like the mail it read.
    const db = archive.engine.archive.db;
    db.prepare(
      "UPDATE decisions SET phrased = '<img src=x onerror=alert(1)> went ahead' WHERE evidence LIKE '%cache-4@%'",
    ).run();
    const after = await page();
    expect(after).toContain('&lt;img src=x onerror=alert(1)&gt; went ahead');
    expect(after).not.toContain('<img src=x');
    expect(after).toContain('<span class="badge">phrased by the LLM</span>');
  });
});

describe('web UI routes (fixture archive, keys on)', () => {
  let archive: FixtureArchive;
  let app: ReturnType<typeof createApp>;
  let acme: { id: string; key: string };

  beforeAll(async () => {
    archive = await fixtureArchive();
    app = createApp({ engine: archive.engine, auth: true });
    acme = createKey(archive.engine.archive.db, { inboxes: ['acme'] });
  });
  afterAll(() => archive.close());

  const session = (keyId: string) =>
    `mailsift_session=${sessionValue(indexSecret(archive.engine.archive.db), keyId)}`;

  it('sends a visitor without a session to sign in, with the CSP on the page', async () => {
    const response = await app.request('/?q=invoice');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2F%3Fq%3Dinvoice');
    const signin = await app.request('/signin');
    expect(signin.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('serves every page with the CSP to a session, and ends the session with its key', async () => {
    const key = createKey(archive.engine.archive.db, { inboxes: ['acme'] });
    const cookie = session(key.id);
    const mixed = await app.request('/?q=invoice&from=northwind', { headers: { cookie } });
    expect(await mixed.text()).toContain('apply to the chronological list: clear the search box');
    for (const path of ['/', '/?q=invoice', '/?from=northwind&kind=threads', '/ask', '/status']) {
      const response = await app.request(path, { headers: { cookie } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
    }
    revokeKey(archive.engine.archive.db, key.id);
    expect((await app.request('/', { headers: { cookie } })).status).toBe(303);
  });

  it('answers 404 for an inbox the key does not see, as the API does', async () => {
    const cookie = session(acme.id);
    expect((await app.request('/?inbox=other', { headers: { cookie } })).status).toBe(404);
    expect((await app.request('/ask?inbox=other', { headers: { cookie } })).status).toBe(404);
  });

  it('shows a reply with its quoted history folded and a slash in its Message-ID', async () => {
    const cookie = session(acme.id);
    const reply = await (
      await app.request('/m/acme/reply-88%40acme.example', { headers: { cookie } })
    ).text();
    expect(reply).toContain('<h1>Re: Q3 freight report</h1>');
    expect(reply).toMatch(/<div class="text authored">Thanks Dana\. Can you send the delay reasons/);
    expect(reply).toMatch(/<details class="part"><summary>Quoted history<\/summary><div class="text">On Tue/);
    const report = await app.request(
      `/m/acme/${encodeURIComponent('report/2024-q3%final@northwind.example')}`,
      {
        headers: { cookie },
      },
    );
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('<h1>Q3 freight report</h1>');
    // The thread opens at the message it was reached from, the others folded.
    const thread = await (
      await app.request('/t/acme/reply-88%40acme.example?open=reply-88%40acme.example', {
        headers: { cookie },
      })
    ).text();
    expect(thread.match(/<details class="d\d" id="m\d+" open>/g)).toHaveLength(1);
    expect(thread).toMatch(/<details class="d1" id="m1" open>/);
  });

  it('leaves the API as it was: a bearer key, JSON errors, no cookie accepted', async () => {
    const cookie = session(acme.id);
    const api = await app.request('/v1/inboxes', { headers: { cookie } });
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const ok = await app.request('/v1/inboxes', { headers: { authorization: `Bearer ${acme.key}` } });
    expect(ok.status).toBe(200);
  });
});
