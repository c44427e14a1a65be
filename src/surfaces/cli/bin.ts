#!/usr/bin/env node
// The `mailsift` bin: compiles the bundled CLI's chunks with V8's code cache (code-cache.ts),
// then runs the CLI. Unbundled (dist/src), the modules are ES modules and compile as usual.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheCompiledCode, commandOf } from './code-cache.js';

const dir = dirname(fileURLToPath(import.meta.url));
cacheCompiledCode({
  dir,
  // Beside the bundle by default; elsewhere when it is read-only (a system-wide install).
  cacheDir: process.env.MAILSIFT_CODE_CACHE_DIR || join(dir, '.code-cache'),
  command: commandOf(process.argv.slice(2)),
});
// Not awaited: a CommonJS bundle has no top-level await, and main.ts reports its own errors.
void import('./main.js');
