// winmail.dat (TNEF) placeholder until the attribute-stream reader lands.
import type { FormatResult } from './types.js';
import { SkipExtraction } from './types.js';

export function extractTnef(): FormatResult {
  throw new SkipExtraction('tnef not supported');
}
