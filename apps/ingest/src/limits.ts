// Bounds that keep one hostile message from costing more than a few hundred MB or a few seconds.
const MB = 1024 * 1024;

export const limits = {
  /** Larger messages keep only their headers (the raw source is not fetched or stored). */
  messageBytes: 80 * MB,
  /** Larger attachments are stored as a failure, not parsed. */
  attachmentBytes: 25 * MB,
  unzippedEntryBytes: 25 * MB,
  unzippedTotalBytes: 60 * MB,
  zipEntries: 200,
  /** Archives inside archives, e.g. an xlsx inside a zip. */
  zipDepth: 2,
  /** Messages inside messages (forwarded, S/MIME, TNEF) opened this deep. */
  wrapDepth: 3,
  rowsPerTable: 20_000,
  textLines: 50_000,
  pdfPages: 200,
  htmlBytes: 5 * MB,
  /**
   * A subject or a cell longer than this is cut: far beyond what mail systems send, and short
   * enough that the indexes finding rows by them (btree entries are bounded) always take them.
   */
  textChars: 4000,
  mb: (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`,
};
