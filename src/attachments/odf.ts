// OpenDocument text (ODT, ODS, ODP) from content.xml: paragraphs and headings as lines,
// spreadsheet rows as tab-separated cells under their sheet name, one block per slide.
import type { ExtractContext, FormatResult } from './types.js';
import { tidy, walkXml } from './xml-text.js';
import { openPackage } from './zip-reader.js';

/** Subtrees whose text is not document content (ODF 1.3 part 3: deleted changes, form controls). */
const SKIPPED = new Set(['text:tracked-changes', 'office:forms', 'text:sequence-decls']);

export function extractOdf(content: Buffer, context: ExtractContext): FormatResult {
  const xml = openPackage(content, context.limits).text('content.xml');
  if (xml === null) throw new Error('missing part content.xml');
  let text = '';
  let skipping = 0;
  let cellDepth = 0;
  let truncated = false;
  walkXml(xml, {
    open(name, attributes) {
      if (SKIPPED.has(name)) skipping++;
      if (skipping > 0) return;
      if (name === 'text:s') text += ' '.repeat(Math.min(Number(attributes['text:c'] ?? 1) || 1, 100));
      else if (name === 'text:tab') text += '\t';
      else if (name === 'text:line-break') text += '\n';
      else if (name === 'table:table-cell') cellDepth++;
      else if (name === 'table:table' && attributes['table:name']) text += `\n${attributes['table:name']}\n`;
    },
    close(name) {
      if (SKIPPED.has(name)) skipping--;
      if (skipping > 0) return;
      // Inside a cell a paragraph ends with a space, so one row stays one line.
      if (name === 'text:p' || name === 'text:h') text += cellDepth > 0 ? ' ' : '\n';
      else if (name === 'table:table-cell') {
        cellDepth--;
        text = `${text.trimEnd()}\t`;
      } else if (name === 'table:table-row') text = `${text.replace(/\t+$/, '')}\n`;
      else if (name === 'draw:page') text += '\n\n';
    },
    text(chunk) {
      if (skipping > 0 || truncated) return;
      text += chunk;
      if (text.length > context.limits.maxTextChars) truncated = true;
    },
  });
  return { text: tidy(text), truncated };
}
