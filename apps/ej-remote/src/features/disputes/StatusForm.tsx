// Setting a dispute's status as an operator: the status, the outcome once resolved, and a note that
// says why (required: it is the history's and the audit log's record). The server's 400 is shown
// under the form as it said it; what was typed stays. For many disputes nothing is chosen for the
// operator, and above `confirmAbove` the count is typed before the button acts.
import { useId, useState, type FormEvent } from 'react';
import { errorDetail, failureReason, type DisputeOutcome, type DisputeStatus, type StatusChange } from '@ejdesk/api-client';
import { Button, ChoiceField, TextAreaField, TextField } from '@ejdesk/ui';
import { outcomeLabels, statusLabels } from './clock.tsx';
import styles from './disputes.module.css';

const statusOptions = (Object.keys(statusLabels) as DisputeStatus[]).map((value) => ({ value, label: statusLabels[value] }));
const outcomeOptions = (Object.keys(outcomeLabels) as DisputeOutcome[]).map((value) => ({ value, label: outcomeLabels[value] }));
const choose = { value: '', label: 'Choose…' };
/** Above this many disputes, the count is typed to confirm a change of them all. */
const confirmAbove = 1000;

/** A count as the operator may type it: '12,345' or '12345'. */
const typedCount = (text: string) => (/^\s*\d{1,3}(,?\d{3})*\s*$/.test(text) ? Number(text.replace(/[\s,]/g, '')) : NaN);

export function StatusForm(props: {
  /** The status shown first; null: none, the operator chooses (and the outcome too). */
  initial: DisputeStatus | null;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (change: StatusChange, then?: 'next') => void;
  /** How many disputes the change is for: above 1,000 the operator types it to confirm. */
  count?: number;
  /** A second button that saves and moves on to the list's next dispute. */
  andNext?: boolean;
}) {
  const [status, setStatus] = useState<DisputeStatus | ''>(props.initial ?? '');
  const [outcome, setOutcome] = useState<DisputeOutcome | ''>(props.initial === null ? '' : 'credited');
  const [note, setNote] = useState('');
  const [typed, setTyped] = useState('');
  const errorId = useId();
  const mustType = props.count !== undefined && props.count > confirmAbove;
  const ready = status !== '' && (status !== 'resolved' || outcome !== '') && note.trim() !== '' && (!mustType || typedCount(typed) === props.count);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    const then = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'next' ? 'next' : undefined;
    props.onSubmit({ status, outcome: status === 'resolved' && outcome !== '' ? outcome : null, note }, then);
  };
  const problem = props.error ? (errorDetail(props.error) ?? failureReason(props.error)) : null;
  return (
    <form className={styles.statusForm} aria-label="Set the status" onSubmit={submit}>
      <ChoiceField
        label="Status"
        name="status"
        value={status}
        options={status === '' ? [choose, ...statusOptions] : statusOptions}
        onChange={(v) => setStatus(v as DisputeStatus)}
      />
      {status === 'resolved' && (
        <ChoiceField
          label="Outcome"
          name="outcome"
          value={outcome}
          options={outcome === '' ? [choose, ...outcomeOptions] : outcomeOptions}
          onChange={(v) => setOutcome(v as DisputeOutcome)}
        />
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
      {mustType && (
        <TextField
          label={`Type ${props.count!.toLocaleString('en-US')} to confirm`}
          name="confirm"
          inputMode="numeric"
          autoComplete="off"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      )}
      <div className={styles.formButtons}>
        <Button type="submit" variant="primary" loading={props.busy} disabled={!ready}>
          {props.submitLabel}
        </Button>
        {props.andNext && (
          <Button type="submit" value="next" disabled={!ready || props.busy}>
            Save and next
          </Button>
        )}
      </div>
    </form>
  );
}
