// Bundles the compiled CLI (dist/src, written by tsc) into dist/cli: the `mailsift` bin.
//
// Why: an agent calls the CLI in a loop, and Node 20's ES module loader spent ~90 ms of CPU
// of every `mailsift search` resolving, reading and linking the ~125 modules a command loads
// (issue 48). One bundle, split at the dynamic imports that keep heavy code out of the reading
// commands, loads a handful of files instead. It is CommonJS so that the bin can compile its
// chunks from V8's code cache (src/surfaces/cli/code-cache.ts): Node 20 can do that only for
// scripts, and Node 22's compile cache for modules does not exist on 20.
//
// Dependencies stay external (native addons, their own lazy loading, licences kept apart).
// The worker threads' scripts are entries of their own with their source names, and every
// file sits flat in dist/cli, so `new URL('./prepare-worker.js', import.meta.url)` finds its
// worker from whichever chunk asks, as it does in dist/src.

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  mailsift: 'surfaces/cli/bin.js',
  'prepare-worker': 'pipeline/prepare-worker.js',
  'rank-worker': 'search/rank-worker.js',
  'read-ahead-worker': 'source/read-ahead-worker.js',
  worker: 'attachments/worker.js',
};

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
// Written aside and swapped in by two renames: a CLI started meanwhile (a test, a bench) finds
// the old bundle or the new one, never half of one.
const next = `${out}.${process.pid}`;
const old = `${out}.${process.pid}.old`;
mkdirSync(next, { recursive: true });
// The package is ESM; these .js files are CommonJS.
writeFileSync(join(next, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
await bundle.write({
  dir: next,
  format: 'cjs',
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  sourcemap: true,
});
await bundle.close();
if (existsSync(out)) renameSync(out, old);
renameSync(next, out);
// Retried: a CLI run may be writing its code cache in the old one meanwhile.
rmSync(old, { recursive: true, force: true, maxRetries: 5 });
