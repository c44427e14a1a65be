// node:crypto, loaded on first use. The modules every command loads with the store (thread
// ids, the keyword index's checksums and secrets, decision records) hash only while writing,
// and loading crypto was ~12 ms of a CLI command that only reads (`show`, ~120 ms in all).

import { createRequire } from 'node:module';

let crypto: typeof import('node:crypto') | undefined;

export function nodeCrypto(): typeof import('node:crypto') {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto;
}
