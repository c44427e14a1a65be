// Every limit mailsift puts on untrusted input, in one place so the stages that enforce
// them cannot drift apart. Each number carries the reason it is what it is.

export const LIMITS = {
  /**
   * Largest message we read into memory. Real mail tops out around 50 MB (Gmail's and
   * Outlook's send limits plus base64 overhead); anything bigger is recorded as a failure.
   */
  maxMessageBytes: 64 * 1024 * 1024,
  /**
   * Header block size. RFC 5322 sets no limit, but real headers stay under a few hundred KB
   * even for long Received chains; 1 MB keeps a 50 MB single-line header from reaching the
   * MIME parser, which would otherwise scan it repeatedly.
   */
  maxHeaderBytes: 1024 * 1024,
  /** One header line (unfolded). Long References lines reach ~30 KB; 256 KB is ample. */
  maxHeaderLineBytes: 256 * 1024,
  /**
   * MIME nesting depth. Legitimate mail nests 3–6 levels (mixed > related > alternative,
   * forwarded message/rfc822 inside); 20 stops recursion bombs long before stack limits.
   */
  maxMimeDepth: 20,
  /** MIME parts per message. Newsletters with inline images reach ~100; 1,000 is generous. */
  maxMimeParts: 1000,
  /** Decoded size of one attachment kept in the store. Larger ones keep metadata only. */
  maxAttachmentBytes: 32 * 1024 * 1024,
  /**
   * References kept per message. JWZ needs the parent chain; the newest ~100 ids carry the
   * whole useful structure, and a 10,000-entry list would make threading quadratic.
   */
  maxReferences: 100,
  /** Length of one Message-ID. RFC 5322 has none; real ones stay under 250 characters. */
  maxMessageIdLength: 998,
  /** Steps taken when walking up a thread tree: loop protection for corrupt links. */
  maxThreadDepth: 10_000,
  /** Body characters handed to the cleaning stage; beyond this, the rest stays stored but unsplit. */
  maxCleanChars: 2 * 1024 * 1024,
  /**
   * Largest HTML given the DOM treatment (quote containers, hidden-element pruning).
   * Parsing plus html-to-text costs about 1 ms per KB on dense markup, so 128 KB keeps the
   * worst case near 150 ms; Gmail clips messages at 102 KB, so real mail HTML nearly always
   * fits. Larger HTML is flattened by a linear tag stripper.
   */
  maxDomHtmlChars: 128 * 1024,
  /** HTML characters flattened; larger HTML is truncated before parsing (DOM cost is linear but large). */
  maxHtmlChars: 4 * 1024 * 1024,
} as const;

export type Limits = typeof LIMITS;
