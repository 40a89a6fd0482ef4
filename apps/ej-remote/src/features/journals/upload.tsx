// A journal sent to the desk from the console: dropped anywhere on the screen (JournalDrop) or
// chosen with the file button (for keyboards), one upload at a time with its progress, and what the
// API answered said in words: a new journal, one it already had (the same SHA-256), or not a
// journal with the API's reason. Lists and disputes are loaded anew after each: a journal may give
// waiting disputes their verdicts.
import { useCallback, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { failureReason, uploadJournal, type JournalUpload } from '@ejdesk/api-client';
import { formatShortDate, TextLink } from '@ejdesk/ui';
import styles from './journals.module.css';

type Upload =
  | { key: number; name: string; state: 'sending'; share: number }
  | { key: number; name: string; state: 'done'; answer: JournalUpload }
  | { key: number; name: string; state: 'refused'; reason: string };

/** The uploads of a screen: send files one after another, and what became of each. */
export function useJournalUploads() {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const next = useRef(0);
  const queue = useRef(Promise.resolve());
  const change = (key: number, upload: Upload) => setUploads((now) => now.map((u) => (u.key === key ? upload : u)));
  const send = useCallback(
    (files: readonly File[]) => {
      for (const file of files) {
        const key = next.current++;
        setUploads((now) => [{ key, name: file.name, state: 'sending' as const, share: 0 }, ...now].slice(0, 20));
        queue.current = queue.current.then(async () => {
          try {
            const answer = await uploadJournal(file, file.name, { onProgress: (share) => change(key, { key, name: file.name, state: 'sending', share }) });
            change(key, { key, name: file.name, state: 'done', answer });
            void queryClient.invalidateQueries({ queryKey: ['journals'] });
            void queryClient.invalidateQueries({ queryKey: ['dispute'] });
            void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
          } catch (error) {
            change(key, { key, name: file.name, state: 'refused', reason: failureReason(error) });
          }
        });
      }
    },
    [queryClient],
  );
  return { uploads, send };
}

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/** A screen a journal may be dropped on: while a file is dragged over it, it says what a drop does. */
export function JournalDrop({ onFiles, children }: { onFiles: (files: File[]) => void; children: ReactNode }) {
  const [over, setOver] = useState(false);
  return (
    <div
      className={styles.drop}
      data-dragging={over || undefined}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(false);
        onFiles([...event.dataTransfer.files]);
      }}
    >
      {children}
      {over && (
        <div className={styles.dropHint} aria-hidden="true">
          Drop the journal to upload it
        </div>
      )}
    </div>
  );
}

function answerText({ created, journal }: JournalUpload): string {
  const about = [
    journal.family.toUpperCase(),
    journal.atm_id ? `ATM ${journal.atm_id}` : 'ATM not stated',
    journal.day ? formatShortDate(journal.day) : 'day not stated',
  ]
    .concat(`${journal.transaction_count.toLocaleString('en-US')} transactions`)
    .join(', ');
  return created ? `New journal: ${about}.` : `Already had this journal (the same SHA-256, stored as ${journal.file_name}): ${about}.`;
}

/** The file button and what became of each upload; `compact` for a panel. */
export function JournalUploader({ uploads, onFiles, compact }: { uploads: Upload[]; onFiles: (files: File[]) => void; compact?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  return (
    <div className={styles.uploader}>
      <div className={styles.uploadRow}>
        <button type="button" className="ej-button ej-button--secondary" aria-describedby={hintId} onClick={() => input.current?.click()}>
          Upload a journal…
        </button>
        <span id={hintId} className="ej-note">
          {compact
            ? 'or drop a journal file on this page.'
            : 'or drop journal files anywhere on this screen (.txt, .jrn, .log, any name: the content says what it is).'}
        </span>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Journal files to upload"
          onChange={(event) => {
            onFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      <ul className={styles.uploads} aria-live="polite" aria-label="Uploads">
        {uploads.map((upload) => (
          <li key={upload.key} className={styles[upload.state]}>
            <strong>{upload.name}</strong>{' '}
            {upload.state === 'sending' && (
              <>
                <progress max={1} value={upload.share} aria-label={`Uploading ${upload.name}`} /> Uploading… {Math.round(upload.share * 100)}%
              </>
            )}
            {upload.state === 'done' && (
              <>
                {answerText(upload.answer)} <TextLink to={`/journals/${upload.answer.journal.id}`}>Open the journal</TextLink>
              </>
            )}
            {upload.state === 'refused' && <span role="alert">Not stored: {upload.reason}.</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
