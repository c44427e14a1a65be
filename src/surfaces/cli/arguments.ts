// Argument parsers for CLI options: a bad value is a typed error naming the option.

import { MailsiftError } from '../../core/errors.js';

export function nonNegativeInteger(option: string): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) {
      throw new MailsiftError(
        'invalid_argument',
        `${option} must be a non-negative integer, got '${value}'`,
        {
          param: option,
        },
      );
    }
    return number;
  };
}

export function positiveInteger(option: string): (value: string) => number {
  const parse = nonNegativeInteger(option);
  return (value) => {
    const number = parse(value);
    if (number === 0) {
      throw new MailsiftError('invalid_argument', `${option} must be a positive integer, got '${value}'`, {
        param: option,
      });
    }
    return number;
  };
}
