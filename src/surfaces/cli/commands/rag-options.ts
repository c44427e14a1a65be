// Option parsers shared by the RAG verbs (retrieve, ask, embed).

import { MailsiftError } from '../../../core/errors.js';

export function positiveInt(param: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new MailsiftError('invalid_argument', `${param} must be a positive integer, got '${value}'`, {
        param,
      });
    return n;
  };
}
