// The lists that differ only in data, by the names the API and the screens share: the API registers
// these paths, the client requests them, and a remote asks for "the unread list" or "the text
// files", never for a URL. Paths are under /api.

/** The seven file kinds (docs/api.md): each kind's base path. */
export const fileKindPaths = {
  text: '/scrape/text/email/data',
  missing: '/scrape/text/missing/data',
  missing_txn: '/scrape/text/missing/txn/data',
  between_successful: '/scrape/text/successful/between/data',
  excel: '/scrape/excel/email/data',
  pdf: '/scrape/pdf/email/data',
  other: '/scrape/other/email/data',
} as const;
export type FileKindName = keyof typeof fileKindPaths;

/** Each file kind's screen in the console: its list, and a file's rows at `${screen}/${id}`. */
export const fileKindScreens: Record<FileKindName, string> = {
  text: '/text-email-data',
  missing: '/missing-data',
  missing_txn: '/missing-txn-data',
  between_successful: '/between-successful-data',
  excel: '/excel-email-data',
  pdf: '/pdf-email-data',
  other: '/other-email-data',
};

/** The email lists: the seven category lists and All Email, each a paginated list of emails. */
export const emailListPaths = {
  ej_not_found: '/scrape/ejs/not/found/email/',
  ignored: '/scrape/ejs/ignore/email/data/',
  read: '/scrape/ejs/read/email/',
  same_subject: '/scrape/ejs/same/subject/email/',
  same_subject_processing: '/scrape/ejs/same/subject/email/processing/',
  unread: '/scrape/ejs/un/read/email/',
  total: '/scrape/ejs/total/email/',
  all: '/scrape/email/to/json/pagination/',
} as const;
export type EmailListName = keyof typeof emailListPaths;

/** A contract path as the API's scrape routes register it (they are mounted at /api/scrape). */
export const underScrape = (path: string) => path.replace(/^\/scrape/, '');

/** Journals and the evidence they give disputes: the API serves these paths, the console asks for them by name. */
export const journalPaths = {
  /** GET the Journals list (paginated, filtered); POST a journal (multipart `file`). */
  journals: '/journals/',
  journal: (id: number) => `/journals/${id}/`,
  lines: (id: number) => `/journals/${id}/lines/`,
  evidencePdf: (disputeId: number) => `/disputes/${disputeId}/evidence.pdf`,
  /** POST the list's filters (or ids): a ZIP of the disputes' evidence packs. */
  evidenceZip: '/disputes/evidence.zip',
  applySuggestion: (disputeId: number) => `/disputes/${disputeId}/apply-suggestion/`,
  /** POST ids or the list's filters. */
  applySuggestions: '/disputes/apply-suggestion/',
} as const;
