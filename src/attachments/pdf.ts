// PDF text via unpdf's bundled pdf.js, page by page so extraction stops once the text
// budget is spent instead of decoding a 2,000-page scan it will throw away.
import { type getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import type { ExtractContext, FormatResult } from './types.js';
import { SkipExtraction } from './types.js';

/** Same spacing rules as unpdf's extractText({ mergePages: true }). */
const normalize = (text: string): string =>
  text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');

export async function extractPdf(content: Buffer, context: ExtractContext): Promise<FormatResult> {
  // pdf.js's own Unicode normalisation (ligatures such as "ﬁ" to "fi", so "office" is found),
  // run once per page instead of on every text item.
  const { getDocument, normalizeUnicode } = await getResolvedPDFJS();
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // unpdf's getDocumentProxy with its options, less its search for pdfjs-dist's font and
    // CMap folders on every call (an import.meta.resolve that throws: only unpdf's bundled
    // pdf.js is installed). isEvalSupported: false keeps font programs from being compiled
    // to JS (CVE-2024-4367). The data is a copy: pdf.js takes its buffer over.
    pdf = await getDocument({
      data: new Uint8Array(content),
      isEvalSupported: false,
      useSystemFonts: true,
      verbosity: 0,
    }).promise;
  } catch (error) {
    // pdf.js asks for a password whenever the empty user password does not open the file.
    if ((error as { name?: string }).name === 'PasswordException') throw new SkipExtraction('encrypted');
    throw error;
  }
  try {
    const pages: string[] = [];
    let size = 0;
    let truncated = false;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (size > context.limits.maxTextChars) {
        truncated = true;
        break;
      }
      const page = await pdf.getPage(n);
      const content = await page.getTextContent({ disableNormalization: true });
      let raw = '';
      for (const item of content.items) if ('str' in item) raw += item.str + (item.hasEOL ? '\n' : '');
      page.cleanup();
      const text = normalizeUnicode(raw);
      pages.push(text);
      size += text.length + 1;
    }
    return { text: normalize(pages.join('\n')).trim(), truncated };
  } finally {
    await pdf.destroy();
  }
}
