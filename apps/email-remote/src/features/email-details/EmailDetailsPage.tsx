import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { errorDetail, getEmailDetails, isNotFound, loadFailure, reprocessEmail, useSession, type EmailDetails } from '@ejdesk/api-client';
import { downloadCsv, downloadXlsx, exportFiles, type ExportColumn } from '@ejdesk/export';
import { Button, Card, ErrorState, formatDateTime, LoadingState, Page } from '@ejdesk/ui';
import { EmailProduce } from './EmailProduce.tsx';
import { SafeEmailHtml } from './SafeEmailHtml.tsx';
import styles from './email-details.module.css';

/** The fields operators know from the original (docs/screens.md), in order; also the columns of both exports. */
const fields: (ExportColumn<EmailDetails> & { kind?: 'text' | 'html' | 'date' })[] = [
  { header: 'Email ID', value: 'id' },
  { header: 'Subject', value: 'subject' },
  { header: 'Email Body', value: 'email_body', kind: 'text' },
  { header: 'Email Body (HTML)', value: 'email_body_html', kind: 'html' },
  { header: 'From', value: 'from_email' },
  { header: 'To', value: 'to_email' },
  { header: 'Received Date', value: 'date_time_of_email', kind: 'date' },
  { header: 'Created At', value: 'create_at', kind: 'date' },
  { header: 'Last Updated', value: 'update_at', kind: 'date' },
];

/** The category in the dashboard's words. */
const categoryNames: Record<string, string> = {
  processed: 'processed',
  ej_not_found: 'EJ not found',
  ignored: 'ignored',
  same_subject: 'same subject line',
  same_subject_processing: 'processed along with the subject line',
};

/**
 * An admin's Reprocess: the email is extracted again from its stored message under today's rules;
 * the result (its category, and why when it failed or was ignored) shows beside the button.
 */
function ReprocessButton({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const reprocess = useMutation({
    mutationFn: () => reprocessEmail(id),
    // Everything may have changed: the lists, the counts, this email.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const result = reprocess.data;
  return (
    <>
      <Button onClick={() => reprocess.mutate()} loading={reprocess.isPending}>
        Reprocess
      </Button>
      <span className={styles.reprocessed} role="status">
        {result
          ? result.processed
            ? `Processed again: ${categoryNames[result.category] ?? result.category}.${result.processing_error ? ` ${result.processing_error}` : ''}`
            : result.detail
          : reprocess.isError
            ? `Not reprocessed: ${errorDetail(reprocess.error) ?? 'the server did not answer'}.`
            : ''}
      </span>
    </>
  );
}

export function EmailDetailsPage() {
  const { id = '' } = useParams();
  const isAdmin = useSession((s) => s.role === 'admin');
  const query = useQuery({
    queryKey: ['email-details', id],
    queryFn: () => getEmailDetails(id),
  });
  if (query.isPending) return <LoadingState label="Loading email details..." />;
  if (query.isError && isNotFound(query.error)) return <ErrorState message={`Email ${id} was not found: it may have been removed, or the link is wrong.`} />;
  if (query.isError) return <ErrorState message={loadFailure('email', query.error)} onRetry={() => void query.refetch()} />;
  const email = query.data;
  const { csv, xlsx, sheet } = exportFiles.emailDetails;
  return (
    <Page
      title="Email Details"
      actions={
        <>
          {isAdmin && <ReprocessButton id={id} />}
          <Button onClick={() => downloadCsv(csv, [email], fields)}>Export to CSV</Button>
          <Button onClick={() => void downloadXlsx(xlsx, sheet, [email], fields)}>Export to Excel</Button>
        </>
      }
    >
      <Card>
        <dl className={styles.fields}>
          {fields.map((field) => {
            const value = email[field.value as keyof EmailDetails];
            return (
              <div key={field.header} className={styles.field}>
                <dt>{field.header}</dt>
                <dd>
                  {field.kind === 'html' ? (
                    <SafeEmailHtml html={String(value)} title={`Email body of ${email.subject}`} />
                  ) : field.kind === 'text' ? (
                    <pre className={styles.body}>{String(value)}</pre>
                  ) : field.kind === 'date' ? (
                    formatDateTime(String(value))
                  ) : (
                    String(value)
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      </Card>
      <EmailProduce id={id} />
    </Page>
  );
}
