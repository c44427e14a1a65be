// Types for the one function of libmime 5.6.4 (mailparser's MIME word codec) used here; the
// package ships none.

declare module 'libmime' {
  const libmime: {
    /** Decodes RFC 2047 encoded words (`=?iso-8859-1?q?J=F6rg?=`) in a header text (a method: call it on the object). */
    decodeWords(text: string): string;
  };
  export default libmime;
}
