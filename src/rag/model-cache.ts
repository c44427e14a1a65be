// The model cache: where scripts/fetch-model.sh and scripts/fetch-lexicon.sh put what they
// fetch, one folder each (MAILSIFT_MODEL_CACHE, default ~/.cache/mailsift/models).

import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache's folder for `name` (a model, or `lexicon`). */
export function modelCacheDir(env: NodeJS.ProcessEnv, name: string): string {
  const cache = env.MAILSIFT_MODEL_CACHE || join(env.HOME || homedir(), '.cache', 'mailsift', 'models');
  return join(cache, name);
}
