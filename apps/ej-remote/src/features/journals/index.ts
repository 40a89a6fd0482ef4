// What the journals feature offers the others: the upload (a screen to drop a journal on, the
// file button and its answers) and journal evidence in words (a verdict, how a dispute matched).
export { JournalDrop, JournalUploader, useJournalUploads } from './upload.tsx';
export { matchLabels, VerdictBadge, verdictText } from './words.tsx';
