// Setting a dispute's status as an operator: the status, the outcome once resolved, and a note that
// says why (required: it is the history's and the audit log's record). The server's 400 is shown
// under the form as it said it; what was typed stays.
import { useId, useState, type FormEvent } from 'react';
import { errorDetail, failureReason, type DisputeOutcome, type DisputeStatus, type StatusChange } from '@ejdesk/api-client';
import { Button, ChoiceField, TextAreaField } from '@ejdesk/ui';
import { outcomeLabels, statusLabels } from './clock.tsx';
import styles from './disputes.module.css';

const statusOptions = (Object.keys(statusLabels) as DisputeStatus[]).map((value) => ({ value, label: statusLabels[value] }));
const outcomeOptions = (Object.keys(outcomeLabels) as DisputeOutcome[]).map((value) => ({ value, label: outcomeLabels[value] }));

export function StatusForm(props: { initial: DisputeStatus; submitLabel: string; busy: boolean; error: unknown; onSubmit: (change: StatusChange) => void }) {
  const [status, setStatus] = useState<DisputeStatus>(props.initial);
  const [outcome, setOutcome] = useState<DisputeOutcome>('credited');
  const [note, setNote] = useState('');
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit({ status, outcome: status === 'resolved' ? outcome : null, note });
  };
  const problem = props.error ? (errorDetail(props.error) ?? failureReason(props.error)) : null;
  return (
    <form className={styles.statusForm} aria-label="Set the status" onSubmit={submit}>
      <ChoiceField label="Status" name="status" value={status} options={statusOptions} onChange={(v) => setStatus(v as DisputeStatus)} />
      {status === 'resolved' && (
        <ChoiceField label="Outcome" name="outcome" value={outcome} options={outcomeOptions} onChange={(v) => setOutcome(v as DisputeOutcome)} />
      )}
      <TextAreaField
        label="Note"
        name="note"
        required
        maxLength={2000}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        placeholder="Why: what the MSP said, what the EJ shows, what was done"
        aria-describedby={problem ? errorId : undefined}
      />
      {problem && (
        <p id={errorId} className="ej-form-error" role="alert">
          {problem}
        </p>
      )}
      <Button type="submit" variant="primary" loading={props.busy} disabled={!note.trim()}>
        {props.submitLabel}
      </Button>
    </form>
  );
}
