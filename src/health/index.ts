// Pipeline health: checks per inbox and source, thresholds and their loader, alert
// transitions with webhook delivery, the watch loop, and Prometheus metrics.

export { type Alert, AlertTracker, type WebhookOptions, WebhookSender } from './alerts.js';
export {
  type BacklogSeries,
  backlogGrowingSeconds,
  type EmbedderProbe,
  ensureHealthTables,
  recordBacklogSample,
  type SummaryProbe,
} from './backlog.js';
export {
  type CheckName,
  type CheckStatus,
  checkHealth,
  eachCheck,
  type HealthCheck,
  type HealthOptions,
  type HealthReport,
  type InboxHealth,
  reasonGroup,
  type ScopedCheck,
  type SourceHealth,
  worst,
} from './checks.js';
export { parseDuration } from './duration.js';
export { MailsiftMetrics } from './metrics.js';
export {
  DEFAULT_THRESHOLDS,
  type HealthConfigSources,
  type HealthThresholds,
  loadHealthThresholds,
} from './thresholds.js';
export {
  type BacklogDrain,
  type CycleResult,
  recordedSources,
  type SyncPlan,
  startWatch,
  type Watcher,
  type WatchOptions,
  watchCycle,
} from './watch.js';
