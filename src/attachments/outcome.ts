// Constructors for Extraction results, shared by the dispatcher, containers and the pool.
import type { SniffedType } from './sniff.js';
import type { Extraction } from './types.js';

export function skipped(type: SniffedType, reason: string): Extraction {
  return {
    status: 'skipped',
    reason,
    detectedType: type.contentType,
    format: type.format,
    text: '',
    truncated: false,
  };
}

export function failed(type: SniffedType, reason: string): Extraction {
  return {
    status: 'failed',
    reason,
    detectedType: type.contentType,
    format: type.format,
    text: '',
    truncated: false,
  };
}

/** Container text: each child under a `== name ==` line, so a file's name is searchable with its text. */
export function childBlock(name: string, extraction: Extraction): string {
  return extraction.text ? `== ${name} ==\n${extraction.text}` : `== ${name} ==`;
}
