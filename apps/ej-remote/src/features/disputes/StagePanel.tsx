// A dispute's life on its page: the clocks it runs side by side (the TAT rule's and its network's
// rule sets', running ones first, nearest deadline first), its stage and network, and the form an
// operator moves the stage with (a note always; closed asks the outcome and who bears the cost).
import { useId, useState, type FormEvent } from 'react';
import { errorDetail, failureReason, type DisputeClock, type DisputeOutcome, type DisputeStage, type DisputeStory, type StageChange } from '@ejdesk/api-client';
import { Button, ChoiceField, formatShortDate, Panel, TextAreaField, TextField } from '@ejdesk/ui';
import { outcomeLabels } from './clock.tsx';
import styles from './disputes.module.css';

export const stageLabels: Record<DisputeStage, string> = {
  complaint: 'Complaint',
  chargeback_raised: 'Chargeback raised',
  representment: 'Representment',
  accepted: 'Accepted (credit adjustment)',
  pre_arbitration: 'Pre-arbitration',
  arbitration: 'Arbitration',
  closed: 'Closed',
};

const clockStateWords = (c: DisputeClock) => {
  switch (c.state) {
    case 'running':
      return c.days_left === 0 ? 'Due today' : `${c.days_left} ${c.days_left === 1 ? 'day' : 'days'} left`;
    case 'breached':
      return `Breached, ${-c.days_left!} ${c.days_left === -1 ? 'day' : 'days'} late`;
    case 'met':
      return `Met on ${formatShortDate(c.stopped_on)}`;
    case 'missed':
      return `Missed: done ${formatShortDate(c.stopped_on)}`;
  }
};

/** The clocks as a table: which, whose, from when, due when, and where it stands. */
export function ClocksPanel({ story }: { story: DisputeStory }) {
  return (
    <Panel title={`Clocks (${story.clocks.length})`}>
      {story.clocks.length === 0 ? (
        <p className={styles.muted}>No clock runs: no TAT rule covers it, and no active rule set is of its network ({story.network || 'none known'}).</p>
      ) : (
        <table className="ej-small-table">
          <caption className="ej-visually-hidden">The dispute&apos;s clocks, the running ones first, nearest deadline first</caption>
          <thead>
            <tr>
              <th scope="col">Clock</th>
              <th scope="col">Rules</th>
              <th scope="col">Whose</th>
              <th scope="col">Started</th>
              <th scope="col">Due</th>
              <th scope="col">Where it stands</th>
            </tr>
          </thead>
          <tbody>
            {story.clocks.map((c) => (
              <tr key={c.key} data-state={c.state}>
                <th scope="row">{c.name}</th>
                <td>{c.rule_set}</td>
                <td>{c.party === 'bank' ? 'The bank' : c.party === 'issuer' ? 'Issuer' : 'Acquirer'}</td>
                <td>{formatShortDate(c.started_on)}</td>
                <td>{formatShortDate(c.due_on)}</td>
                <td className={styles[`clock_${c.state}`]}>{clockStateWords(c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}

const stageOptions = (Object.keys(stageLabels) as DisputeStage[]).map((value) => ({ value, label: stageLabels[value] }));
const outcomeOptions = (Object.keys(outcomeLabels) as DisputeOutcome[]).map((value) => ({ value, label: outcomeLabels[value] }));
const bearerOptions = [
  { value: 'issuer', label: 'The issuer' },
  { value: 'acquirer', label: 'The acquirer (its delay caused the penalty)' },
];

/** The stage form: the stage, closed's outcome and cost bearer, the note; and the network. */
export function StageForm(props: {
  story: DisputeStory;
  busy: boolean;
  error: unknown;
  onStage: (change: StageChange) => void;
  onNetwork: (network: string) => void;
}) {
  const [stage, setStage] = useState<DisputeStage>(props.story.stage);
  const [outcome, setOutcome] = useState<DisputeOutcome>('credited');
  const [bearer, setBearer] = useState<'issuer' | 'acquirer'>(
    props.story.clocks.some((c) => c.party === 'acquirer' && c.state === 'missed') ? 'acquirer' : 'issuer',
  );
  const [note, setNote] = useState('');
  const [network, setNetwork] = useState(props.story.network);
  const errorId = useId();
  const closing = stage === 'closed';
  const ready = stage !== props.story.stage && note.trim() !== '';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (ready) props.onStage({ stage, note, ...(closing && { outcome, cost_bearer: bearer }) });
  };
  const problem = props.error ? (errorDetail(props.error) ?? failureReason(props.error)) : null;
  return (
    <>
      <form className={styles.statusForm} aria-label="Set the stage" onSubmit={submit}>
        <ChoiceField label="Stage" name="stage" value={stage} options={stageOptions} onChange={(v) => setStage(v as DisputeStage)} />
        {closing && (
          <>
            <ChoiceField label="Outcome" name="stage-outcome" value={outcome} options={outcomeOptions} onChange={(v) => setOutcome(v as DisputeOutcome)} />
            <ChoiceField
              label="Who bears the cost"
              name="cost-bearer"
              value={bearer}
              options={bearerOptions}
              onChange={(v) => setBearer(v as 'issuer' | 'acquirer')}
            />
          </>
        )}
        <TextAreaField
          label="Note"
          name="stage-note"
          required
          maxLength={2000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="Why: the chargeback reference, what the acquirer said"
          aria-describedby={problem ? errorId : undefined}
        />
        {problem && (
          <p id={errorId} className="ej-form-error" role="alert">
            {problem}
          </p>
        )}
        <div className={styles.formButtons}>
          <Button type="submit" variant="primary" loading={props.busy} disabled={!ready}>
            Save stage
          </Button>
        </div>
      </form>
      <form
        className={styles.networkForm}
        aria-label="Set the network"
        onSubmit={(event) => {
          event.preventDefault();
          props.onNetwork(network.trim());
        }}
      >
        <TextField
          label="Network"
          name="network"
          value={network}
          maxLength={40}
          list="ej-networks"
          hint="NFS, Visa, Mastercard: its rule sets' clocks run"
          onChange={(e) => setNetwork(e.target.value)}
        />
        <datalist id="ej-networks">
          <option value="NFS" />
          <option value="Visa" />
          <option value="Mastercard" />
        </datalist>
        <Button type="submit" disabled={network.trim() === props.story.network || props.busy}>
          Save network
        </Button>
      </form>
    </>
  );
}
