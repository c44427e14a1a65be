// The command-line flags of the backlog drains (watch's cycles, the servers' background drain),
// apart from the drains themselves: every command's flags load with the CLI, the drains only
// with the commands that run them.

import { type Command, Option } from 'commander';
import { parseDuration } from '../../health/duration.js';
import { positiveInteger } from './arguments.js';

// Per pass, so a large backlog holds back neither a watch cycle's next sync nor a server's CPU
// for long: 1,000 chunks take about a minute with the in-process MiniLM (15 chunks/s here) and
// 16 requests to a server; 10 summaries about two minutes with the local SmolLM2 (~1,500-token
// prompts at 160-190 tokens/s).
const DRAIN_LIMITS = { maxChunks: 1000, maxSummaries: 10 } as const;

export interface DrainLimitFlags {
  maxChunks: number;
  maxSummaries: number;
}

/** --max-chunks and --max-summaries, one definition for watch (`per cycle`) and the servers. */
export function withDrainLimitFlags(command: Command, per: string): Command {
  return command
    .option(
      '--max-chunks <n>',
      `chunks embedded ${per}`,
      positiveInteger('--max-chunks'),
      DRAIN_LIMITS.maxChunks,
    )
    .option(
      '--max-summaries <n>',
      `thread summaries written by the LLM ${per}, and as many decisions validated`,
      positiveInteger('--max-summaries'),
      DRAIN_LIMITS.maxSummaries,
    );
}

export interface BackgroundDrainFlags extends DrainLimitFlags {
  drain: boolean;
  /** Milliseconds. */
  drainInterval: number;
}

const DEFAULT_INTERVAL = '30s';

/** --no-drain, --drain-interval and the pass limits, one definition for serve and mcp. */
export function withBackgroundDrainFlags(command: Command): Command {
  return withDrainLimitFlags(command, 'per background pass')
    .option('--no-drain', 'do not embed or summarise in the background (run mailsift embed or watch instead)')
    .addOption(
      new Option(
        '--drain-interval <duration>',
        'background drain: rest when nothing waits, and the first retry of a failing embedder (doubling)',
      )
        .argParser((value: string) => parseDuration(value, '--drain-interval') * 1000)
        .default(parseDuration(DEFAULT_INTERVAL, '--drain-interval') * 1000, DEFAULT_INTERVAL),
    );
}
