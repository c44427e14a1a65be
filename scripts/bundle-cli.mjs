// Bundles the compiled CLI (dist/src, written by tsc) into dist/cli: the `mailsift` bin.
//
// Why: an agent calls the CLI in a loop, and Node 20's ES module loader spent ~90 ms of CPU
// of every `mailsift search` resolving, reading and linking the ~125 modules a command loads
// (issue 48; Node 22's compile cache does not exist on 20). One bundle, split at the dynamic
// imports that keep heavy code out of the reading commands, loads a handful of files instead.
//
// Dependencies stay external (native addons, their own lazy loading, licences kept apart).
// The worker threads' scripts are entries of their own with their source names, and every
// file sits flat in dist/cli, so `new URL('./prepare-worker.js', import.meta.url)` finds its
// worker from whichever chunk asks, as it does in dist/src.

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { rolldown } from 'rolldown';

const root = join(import.meta.dirname, '..');
const compiled = join(root, 'dist', 'src');
const out = join(root, 'dist', 'cli');

const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const packages = Object.keys(dependencies);
const isExternal = (id) =>
  id.startsWith('node:') || packages.some((name) => id === name || id.startsWith(`${name}/`));

const entries = {
  mailsift: 'surfaces/cli/main.js',
  'prepare-worker': 'pipeline/prepare-worker.js',
  'rank-worker': 'search/rank-worker.js',
  'read-ahead-worker': 'source/read-ahead-worker.js',
  worker: 'attachments/worker.js',
};

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(compiled, file)])),
  platform: 'node',
  external: isExternal,
  // A bare import that is not a dependency would be inlined from node_modules unseen.
  onLog(level, log, handler) {
    if (log.code === 'UNRESOLVED_IMPORT') throw new Error(`bundle-cli: ${log.message}`);
    handler(level, log);
  },
});
await bundle.write({
  dir: out,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  sourcemap: true,
});
await bundle.close();
