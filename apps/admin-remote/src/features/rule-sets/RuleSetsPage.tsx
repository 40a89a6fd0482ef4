// /rule-sets: the networks' and regulators' rule sets (NPCI NFS, Visa, Regulation E, PSD2), each
// with its clocks as written and where they come from, switched on or off by an admin. A dispute
// runs the clocks of the active sets of its network; the TAT Rules list is the RBI's, with penalties.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorDetail, listRuleSets, loadFailure, setRuleSetActive, type RuleSet } from '@ejdesk/api-client';
import { Button, ErrorState, LoadingState, notify, Page, Panel } from '@ejdesk/ui';
import styles from './rule-sets.module.css';

const startWords: Record<string, string> = {
  transaction: 'the transaction day',
  complaint: 'the complaint day',
  chargeback_raised: 'the chargeback',
  representment: 'the representment',
  pre_arbitration: 'the pre-arbitration',
  arbitration: 'the arbitration',
};

const windowWords = (c: RuleSet['clocks'][number]) =>
  `${c.days} ${c.day_kind === 'working' ? `business day${c.days === 1 ? '' : 's'}${c.calendar ? ` (${c.calendar} holidays off)` : ''}` : `day${c.days === 1 ? '' : 's'}`} from ${startWords[c.starts_on] ?? c.starts_on}`;

function RuleSetPanel({ set }: { set: RuleSet }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => setRuleSetActive(set.id, !set.active),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['rule-sets'] });
      notify.success(`${saved.name} is ${saved.active ? 'on: its clocks run' : 'off: its clocks no longer run'}.`);
    },
    onError: (error) => notify.error(`${set.name} could not be changed: ${errorDetail(error) ?? 'the server did not answer'}.`),
  });
  return (
    <Panel
      title={`${set.name}${set.network ? ` (network ${set.network})` : ' (every dispute)'}: ${set.active ? 'on' : 'off'}`}
      actions={
        <Button onClick={() => toggle.mutate()} loading={toggle.isPending}>
          {set.active ? `Turn ${set.name} off` : `Turn ${set.name} on`}
        </Button>
      }
    >
      <p className={styles.source}>{set.source}</p>
      <table className="ej-small-table">
        <caption className="ej-visually-hidden">The clocks of {set.name}</caption>
        <thead>
          <tr>
            <th scope="col">Clock</th>
            <th scope="col">Whose</th>
            <th scope="col">Window</th>
          </tr>
        </thead>
        <tbody>
          {set.clocks.map((c) => (
            <tr key={c.key}>
              <th scope="row">{c.name}</th>
              <td>{c.party === 'bank' ? 'The bank' : c.party === 'issuer' ? 'Issuer' : 'Acquirer'}</td>
              <td>{windowWords(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function RuleSetsPage() {
  const sets = useQuery({ queryKey: ['rule-sets'], queryFn: listRuleSets });
  if (sets.isPending) return <LoadingState />;
  if (sets.isError)
    return (
      <Page title="Rule Sets">
        <ErrorState message={loadFailure('rule sets', sets.error)} onRetry={() => void sets.refetch()} />
      </Page>
    );
  return (
    <Page title="Rule Sets">
      {sets.data.map((set) => (
        <RuleSetPanel key={set.id} set={set} />
      ))}
    </Page>
  );
}
