// RFC 5322 3.2.2 comments: "(...)", nestable, with backslash escapes. Removed in one linear
// pass: the obvious replace-innermost-until-stable loop is quadratic on 50,000 nested parens.

/** Replaces every comment (nested ones included) with a space. An unclosed comment runs to the end. */
export function stripComments(value: string): string {
  if (!value.includes('(')) return value;
  let out = '';
  let depth = 0;
  let runStart = 0;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (depth > 0 && char === '\\') {
      i++;
    } else if (char === '(') {
      if (depth === 0) out += `${value.slice(runStart, i)} `;
      depth++;
    } else if (char === ')' && depth > 0) {
      depth--;
      if (depth === 0) runStart = i + 1;
    }
  }
  return depth === 0 ? out + value.slice(runStart) : out;
}
