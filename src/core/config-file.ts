// The optional mailsift.config.json that surfaces read (the engine reads no config):
// found through MAILSIFT_CONFIG or the working directory, parsed as one JSON object.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MailsiftError } from './errors.js';

export interface ConfigSources {
  readonly env?: NodeJS.ProcessEnv;
  /** Config file; default MAILSIFT_CONFIG, else ./mailsift.config.json when it exists. */
  readonly configPath?: string;
  readonly cwd?: string;
}

export interface ConfigFile {
  readonly path: string;
  /** The file's top-level object; empty when no file was named and none exists. */
  readonly data: Record<string, unknown>;
}

/** Reads the config file. A file named explicitly must exist; the default one may be absent. */
export function readConfigFile(sources: ConfigSources = {}): ConfigFile {
  const env = sources.env ?? process.env;
  const explicit = sources.configPath ?? env.MAILSIFT_CONFIG;
  const path = resolve(sources.cwd ?? process.cwd(), explicit ?? 'mailsift.config.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (explicit === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT')
      return { path, data: {} };
    throw new MailsiftError('not_found', `cannot read config file ${path}`, { param: path, cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new MailsiftError('bad_format', `config file ${path} is not valid JSON`, {
      param: path,
      cause: error,
    });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new MailsiftError('bad_format', `config file ${path} must hold one JSON object`, { param: path });
  }
  return { path, data: data as Record<string, unknown> };
}
