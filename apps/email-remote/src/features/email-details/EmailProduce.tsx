// What an email brought and produced, so a record leads back to its mail and the mail on to its
// work: its attachments (each a download), the files extracted from it (each opening its rows),
// how many EJ records of each kind it gave, and the disputes of its dispute records (each opening
// its story, its status a word as on the EJ table).
import { useQuery } from '@tanstack/react-query';
import { downloadAttachment, fileKindScreens, getEmailProduce, loadFailure, type FileKindName } from '@ejdesk/api-client';
import { disputeStatusText, saveFile } from '@ejdesk/export';
import { Button, ErrorState, formatCount, notify, Panel, TextLink } from '@ejdesk/ui';
import styles from './email-details.module.css';

/** 12.3 KB, 4.5 MB: a size as people read it. */
const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`;

export function EmailProduce({ id }: { id: string }) {
  const produce = useQuery({ queryKey: ['email-produce', id], queryFn: ({ signal }) => getEmailProduce(id, signal) });
  if (produce.isPending) return null;
  if (produce.isError) return <ErrorState message={loadFailure('what this email produced', produce.error)} onRetry={() => void produce.refetch()} />;
  const p = produce.data;
  const download = async (index: number, name: string) => {
    try {
      saveFile(name, await downloadAttachment(id, index), 'application/octet-stream');
    } catch {
      notify.error(`${name} could not be downloaded. Please try again.`);
    }
  };
  const records = [
    [p.records.dispute, 'dispute'],
    [p.records.overage, 'overage'],
    [p.records.succeeding, 'succeeding'],
  ] as const;
  return (
    <div className={styles.produce}>
      <Panel title={`Attachments (${p.attachments.length})`}>
        {p.attachments_problem ? (
          <p className={styles.muted}>{p.attachments_problem}</p>
        ) : p.attachments.length === 0 ? (
          <p className={styles.muted}>This email came with no attachment.</p>
        ) : (
          <ul className={styles.produceList}>
            {p.attachments.map((a) => (
              <li key={a.index}>
                <span className={styles.produceName}>{a.file_name}</span>
                <span className={styles.muted}>{sizeText(a.size)}</span>
                <Button size="small" onClick={() => void download(a.index, a.file_name)} aria-label={`Download ${a.file_name}`}>
                  Download
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <Panel title="What it produced">
        <p>
          {records.some(([n]) => n > 0)
            ? records
                .filter(([n]) => n > 0)
                .map(([n, kind]) => `${formatCount(n)} ${kind} ${n === 1 ? 'record' : 'records'}`)
                .join(', ')
            : 'No EJ record.'}
        </p>
        {p.files.length > 0 && (
          <ul className={styles.produceList} aria-label="Files extracted">
            {p.files.map((f) => (
              <li key={f.id}>
                <TextLink to={`${fileKindScreens[f.kind as FileKindName]}/${f.id}`}>{f.name}</TextLink>
                <span className={styles.muted}>
                  {formatCount(f.rows)} {f.rows === 1 ? 'row' : 'rows'}
                </span>
              </li>
            ))}
          </ul>
        )}
        {p.disputes_total > 0 && (
          <>
            <h3 className={styles.produceHeading}>
              Disputes ({formatCount(p.disputes_total)}
              {p.disputes_total > p.disputes.length ? `, the first ${p.disputes.length} shown` : ''})
            </h3>
            <ul className={styles.produceList} aria-label="Disputes">
              {p.disputes.map((d) => (
                <li key={d.id}>
                  <TextLink to={`/disputes/${d.id}`}>
                    ATM {d.atm_id} / {d.txt_no}
                  </TextLink>
                  <span>
                    {disputeStatusText(d)}
                    {d.status !== 'resolved' && d.overdue_days > 0 ? `, ${d.overdue_days} days late` : ''}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </Panel>
    </div>
  );
}
