// The status page: what `mailsift status` and `/v1/health` report, limited to the inboxes the
// key sees: counts, sources with their last sync, failures with reasons, backlogs, and every
// health check with its verdict.

import type { HealthCheck, HealthReport, InboxHealth } from '../../../health/index.js';
import type { ArchiveStats } from '../../../store/index.js';
import { type Html, html, time } from '../html.js';
import { layout } from '../layout.js';
import type { WebView } from '../view.js';

function checks(list: readonly HealthCheck[]): Html {
  return html`${list.map(
    (c) =>
      html`<tr><td>${c.name}</td><td class="status-${c.status}">${c.status}</td><td>${c.message}</td></tr>`,
  )}`;
}

const backlog = (n: number | null): string => (n === null ? 'not configured' : String(n));

/** A source's last failed run (a sync that could not connect or log in), or none. */
function lastError(source: ArchiveStats['perInbox'][number]['sources'][number] | undefined): Html | string {
  if (!source?.lastError) return 'none';
  return html`${source.lastErrorAt ? html`${time(source.lastErrorAt)}: ` : ''}${source.lastError}`;
}

function inboxSection(stats: ArchiveStats, health: InboxHealth | undefined, name: string): Html {
  const counts = stats.perInbox.find((i) => i.inbox === name);
  const failures = stats.failureList.filter((f) => f.inbox === name);
  return html`<section aria-labelledby="inbox-${name}">
<h2 id="inbox-${name}">Inbox ${name}</h2>
<table><tbody>
<tr><th scope="row">Messages</th><td>${counts?.messages ?? 0}</td></tr>
<tr><th scope="row">Threads</th><td>${counts?.threads ?? 0}</td></tr>
<tr><th scope="row">Duplicates, variants</th><td>${counts?.duplicates ?? 0}, ${counts?.variants ?? 0}</td></tr>
<tr><th scope="row">Failed messages</th><td>${counts?.failures ?? 0}</td></tr>
<tr><th scope="row">Not yet indexed</th><td>${health?.unindexed ?? 0}</td></tr>
<tr><th scope="row">Embedding backlog</th><td>${backlog(health?.embeddingBacklog ?? null)}</td></tr>
<tr><th scope="row">Summary backlog</th><td>${backlog(health?.summaryBacklog ?? null)}</td></tr>
</tbody></table>
<h3>Sources</h3>
${
  (health?.sources.length ?? 0) === 0
    ? html`<p class="dim">No source recorded.</p>`
    : html`<table><thead><tr><th>Path</th><th>Kind</th><th>Last sync</th><th>Stored</th><th>Failed</th><th>Last error</th></tr></thead><tbody>${health?.sources.map(
        (s) =>
          html`<tr><td>${s.path}</td><td>${s.kind}</td><td>${s.lastSyncAt ? time(s.lastSyncAt) : 'never completed'}</td><td>${s.stored}</td><td>${s.failed}</td><td>${lastError(counts?.sources.find((r) => r.path === s.path))}</td></tr>`,
      )}</tbody></table>`
}
<h3>Failures</h3>
${
  failures.length === 0
    ? html`<p class="dim">None.</p>`
    : html`<table><thead><tr><th>When</th><th>Where</th><th>Reason</th></tr></thead><tbody>${failures.map(
        (f) => html`<tr><td>${time(f.at)}</td><td>${f.location}</td><td>${f.reason}</td></tr>`,
      )}</tbody></table>`
}
<h3>Checks</h3>
<table><tbody>${checks([...(health?.checks ?? []), ...(health?.sources.flatMap((s) => s.checks) ?? [])])}</tbody></table>
</section>`;
}

export function statusPage(view: WebView, stats: ArchiveStats, report: HealthReport): Html {
  const everything = view.api.principal.inboxes === null;
  const body = html`<h1>Status</h1>
<p>Checked ${time(report.checkedAt)}.</p>
${
  everything
    ? html`<h2>Archive</h2><table><tbody>
<tr><th scope="row">Attachments waiting for text extraction</th><td>${stats.pendingAttachments}</td></tr>
${checks(report.checks)}
</tbody></table>`
    : ''
}
${view.inboxes.map((name) =>
  inboxSection(
    stats,
    report.inboxes.find((i) => i.inbox === name),
    name,
  ),
)}`;
  return layout(view, 'Status', body);
}
