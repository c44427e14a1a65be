// `npm run bench`: every benchmark in turn, each in its own process so one's heap and peak
// RSS never colour the next. Arguments (e.g. `--messages 20000`) are passed to each.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHMARKS = [
  'ingest',
  'ingest-statements',
  'ingest-pages',
  'ingest-stages',
  'clean',
  'search',
  'cli',
  'http',
  'attachments',
  'attachments-ingest',
  'rag',
] as const;

const passThrough = process.argv.slice(2);
const failed: string[] = [];
for (const name of BENCHMARKS) {
  const script = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  console.log(`\n=== bench:${name} ===`);
  const run = spawnSync(process.execPath, [script, ...passThrough], { stdio: 'inherit' });
  if (run.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nbenchmarks that failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
