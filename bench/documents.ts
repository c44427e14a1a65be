// Business documents the benchmarks attach: deterministic prose, and PDFs shaped like the
// ones mail carries (a few pages of text plus embedded binary) or text-dense worst cases.
import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { makePdf } from '../src/attachments/fixtures.js';

const WORDS =
  'delivery schedule invoice penalty clause supplier warehouse pallet racking contract amendment payment terms freight customs quarterly review signed agreement'.split(
    ' ',
  );

/** Deterministic prose: line n of a document, ~90 characters. */
export function line(n: number): string {
  const words: string[] = [];
  for (let i = 0; words.join(' ').length < 85; i++)
    words.push(WORDS[(n * 7 + i * 13) % WORDS.length] as string);
  return `${n}. ${words.join(' ')}`;
}

export const lines = (count: number, from = 0): string[] =>
  Array.from({ length: count }, (_, i) => line(from + i));

/** A text-dense PDF of about `bytes`: pdf-lib leaves content streams uncompressed, so it is many pages of text. */
export async function denseTextPdf(bytes: number): Promise<Buffer> {
  const onePage = (await makePdf([lines(55)])).length;
  const pages = Math.max(1, Math.round(bytes / (onePage * 0.97)));
  return makePdf(Array.from({ length: pages }, (_, p) => lines(55, p * 55)));
}

/**
 * A typical business PDF of about `bytes`: `pages` pages of text plus embedded binary (logo,
 * fonts), modelled by attaching incompressible bytes, which text extraction never decodes.
 * Documents with different `firstLine`s differ in text as well as in bytes.
 */
export async function typicalPdf(pages: number, bytes: number, firstLine = 0): Promise<Buffer> {
  const pdf = await PDFDocument.load(
    await makePdf(Array.from({ length: pages }, (_, p) => lines(55, firstLine + p * 55))),
  );
  await pdf.attach(randomBytes(Math.max(0, bytes - 26_000)), 'logo.bin', {
    mimeType: 'application/octet-stream',
  });
  return Buffer.from(await pdf.save());
}
