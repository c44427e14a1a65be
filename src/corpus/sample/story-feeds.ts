// Feeds in the sample: the GitHub notification stream of acme-corp/procurement-portal
// (issue #142, PR #145, issue #151, CI failures) and The Supply Chain Brief newsletter.

import { escapeHtml } from '../encode.js';
import { type SampleMessage, single } from './kit.js';
import { laura } from './people.js';

const GH = { org: 'acme-corp', repo: 'procurement-portal' };
const GITHUB_EVENTS: readonly {
  n: number;
  pr: boolean;
  title: string;
  who: string;
  at: string;
  text: string;
}[] = [
  {
    n: 142,
    pr: false,
    title: 'Delivery schedule import rejects CSV with semicolons',
    who: 'marco-rossi',
    at: '2024-04-02 08:14 +0000',
    text: 'Importing delivery-schedule-PO-7731.csv exported from Excel (Italian locale) fails with "expected 4 columns, got 1". Excel writes semicolons as the separator in it-IT.',
  },
  {
    n: 142,
    pr: false,
    title: 'Delivery schedule import rejects CSV with semicolons',
    who: 'priya-patel',
    at: '2024-04-02 10:40 +0000',
    text: 'Same with the German export from Nordwind. We should sniff the delimiter instead of assuming commas.',
  },
  {
    n: 142,
    pr: false,
    title: 'Delivery schedule import rejects CSV with semicolons',
    who: 'dev-jlee',
    at: '2024-04-03 14:05 +0000',
    text: 'I can reproduce this on main. Taking it; the parser already supports a delimiter option, we just never pass it.',
  },
  {
    n: 145,
    pr: true,
    title: 'Fix CSV delimiter detection in schedule import',
    who: 'dev-jlee',
    at: '2024-04-04 09:30 +0000',
    text: 'Fixes #142. Detects the delimiter from the header line (comma, semicolon or tab) and adds fixtures for it-IT and de-DE exports.',
  },
  {
    n: 145,
    pr: true,
    title: 'Fix CSV delimiter detection in schedule import',
    who: 'priya-patel',
    at: '2024-04-04 13:12 +0000',
    text: 'Could you add a test for a file with a BOM? The SAP export starts with one.',
  },
  {
    n: 145,
    pr: true,
    title: 'Fix CSV delimiter detection in schedule import',
    who: 'dev-jlee',
    at: '2024-04-05 08:01 +0000',
    text: 'Added a BOM test and stripped it before sniffing. Ready for another look.',
  },
  {
    n: 145,
    pr: true,
    title: 'Fix CSV delimiter detection in schedule import',
    who: 'priya-patel',
    at: '2024-04-05 09:20 +0000',
    text: 'LGTM, approved.',
  },
  {
    n: 145,
    pr: true,
    title: 'Fix CSV delimiter detection in schedule import',
    who: 'dev-jlee',
    at: '2024-04-05 09:45 +0000',
    text: 'Merged #145 into main.',
  },
  {
    n: 151,
    pr: false,
    title: 'Budget dashboard shows Q2 numbers in the Q3 view',
    who: 'priya-patel',
    at: '2024-07-09 15:30 +0000',
    text: 'After the Q3 budget decision the dashboard still shows the Q2 totals ($2.38M plan). The quarter filter seems to use the fiscal calendar of last year.',
  },
  {
    n: 151,
    pr: false,
    title: 'Budget dashboard shows Q2 numbers in the Q3 view',
    who: 'dev-jlee',
    at: '2024-07-10 11:00 +0000',
    text: 'Root cause is a timezone conversion in the quarter boundary: 2024-07-01T00:00 in Chicago is still Q2 in UTC. Fix coming.',
  },
];

export function githubStream(): SampleMessage[] {
  const out: SampleMessage[] = [];
  GITHUB_EVENTS.forEach((e, i) => {
    const kind = e.pr ? 'pull' : 'issues';
    const root = `${GH.org}/${GH.repo}/${kind}/${e.n}@github.com`;
    // The first event of an issue or PR is its opening mail; later ones are comments on it.
    const opens = GITHUB_EVENTS.findIndex((x) => x.n === e.n) === i;
    const url = `https://github.com/${GH.org}/${GH.repo}/${kind}/${e.n}#issuecomment-${2040000000 + i}`;
    const text = `${e.text}\n\n—\nReply to this email directly, view it on GitHub:\n${url}\nYou are receiving this because you are subscribed to this thread.\n`;
    const html = `<p dir="auto">${escapeHtml(e.text)}</p>\n<p style="font-size:small;color:#666;">&mdash;<br />Reply to this email directly, <a href="${url}">view it on GitHub</a>.<img src="https://github.com/notifications/beacon/AAB${i}XYZ.gif" height="1" width="1" alt="" /></p>\n`;
    out.push(
      single(
        {
          from: { name: e.who, address: 'notifications@github.com' },
          to: [{ name: `${GH.org}/${GH.repo}`, address: `${GH.repo}@noreply.github.com` }],
          cc: [{ name: 'Laura Bianchi', address: laura.address }],
          replyTo: { name: `${GH.org}/${GH.repo}`, address: `reply+ABCDEF${e.n}${i}@reply.github.com` },
          subject: `${opens ? '' : 'Re: '}[${GH.org}/${GH.repo}] ${e.title} (${e.pr ? 'PR' : 'Issue'} #${e.n})`,
          at: e.at,
          messageId: opens ? root : `${GH.org}/${GH.repo}/${kind}/${e.n}/c${2040000000 + i}@github.com`,
          inReplyTo: opens ? null : root,
          references: opens ? [] : [root],
          charset: 'utf-8',
          transferEncoding: 'quoted-printable',
          text,
          html,
          extra: [
            `List-ID: ${GH.org}/${GH.repo} <${GH.repo}.${GH.org}.github.com>`,
            `List-Unsubscribe: <https://github.com/notifications/unsubscribe/AAB${e.n}>`,
            'X-GitHub-Reason: subscribed',
            `X-GitHub-Sender: ${e.who}`,
            'Precedence: list',
          ],
        },
        {
          threadKey: `gh-${e.n}`,
          kind: 'notification',
          language: 'en',
          folder: i < 8 ? 'Archive' : 'INBOX',
          where: i < 5 ? 'mbox' : 'maildir',
        },
      ),
    );
  });
  const ci = ['2024-04-04 09:41 +0000', '2024-07-10 11:20 +0000'];
  ci.forEach((when, i) => {
    const text = `Run failed: CI - ${i === 0 ? 'fix-csv-delimiter' : 'main'} (${i === 0 ? 'a1c93e7' : '5be0f21'})\n\nJob "test (20.x)" failed: 1 failing test in src/import/schedule.test.ts.\n\nView workflow run: https://github.com/${GH.org}/${GH.repo}/actions/runs/${9120000 + i}\n`;
    out.push(
      single(
        {
          from: { name: 'GitHub', address: 'noreply@github.com' },
          to: [laura],
          subject: `[${GH.org}/${GH.repo}] Run failed: CI - ${i === 0 ? 'fix-csv-delimiter' : 'main'}`,
          at: when,
          messageId: `${GH.org}/${GH.repo}/check-suites/${24000 + i}@github.com`,
          charset: 'utf-8',
          transferEncoding: '7bit',
          text,
          html: null,
        },
        { threadKey: `gh-ci-${i}`, kind: 'notification', language: 'en' },
      ),
    );
  });
  return out;
}

export function newsletter(
  issue: number,
  at: string,
  headline: string,
  stories: readonly [string, string][],
): SampleMessage {
  const link = (i: number): string => `https://click.supplychainbrief.com/ls/click?upn=SCB${issue}x${i}`;
  const unsub = `https://supplychainbrief.com/unsubscribe?u=acme-lb-${issue}`;
  let html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>The Supply Chain Brief</title></head><body style="margin:0;background:#f4f4f4"><div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHtml(headline)} &zwnj;&nbsp;&zwnj;&nbsp;&zwnj;&nbsp;</div><table role="presentation" width="600" align="center" bgcolor="#ffffff">`;
  let text = `The Supply Chain Brief - issue #${issue}\n\n${headline}\n\n`;
  stories.forEach(([title, body], i) => {
    html += `<tr><td style="padding:16px 32px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:24px;color:#333"><h2 style="font-size:20px;margin:0 0 8px 0">${escapeHtml(title)}</h2><p>${escapeHtml(body)}</p><a href="${link(i)}">Read more &rarr;</a></td></tr>`;
    text += `${title}\n\n${body}\n\nRead more: ${link(i)}\n\n`;
  });
  html += `<tr><td style="padding:24px 32px;font-size:12px;color:#888">You are receiving this email because you subscribed to The Supply Chain Brief.<br><a href="${unsub}">Unsubscribe</a> &middot; 548 Market St, San Francisco, CA 94104</td></tr></table><img src="https://click.supplychainbrief.com/open/SCB${issue}.gif" width="1" height="1" alt="" style="display:none"></body></html>\n`;
  text += `--\nYou are receiving this email because you subscribed to The Supply Chain Brief.\nUnsubscribe: ${unsub}\n`;
  return single(
    {
      from: { name: 'The Supply Chain Brief', address: 'digest@supplychainbrief.com' },
      to: [laura],
      subject: `${headline} | The Supply Chain Brief #${issue}`,
      at,
      messageId: `scb-${issue}.${at.slice(0, 10)}@mail.supplychainbrief.com`,
      charset: 'utf-8',
      transferEncoding: 'quoted-printable',
      text,
      html,
      extra: [
        'List-Id: The Supply Chain Brief <weekly.supplychainbrief.com>',
        `List-Unsubscribe: <${unsub}>, <mailto:unsubscribe@supplychainbrief.com?subject=unsubscribe>`,
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'Precedence: bulk',
      ],
    },
    { threadKey: `scb-${issue}`, kind: 'newsletter', language: 'en', folder: 'INBOX', flags: '' },
  );
}
