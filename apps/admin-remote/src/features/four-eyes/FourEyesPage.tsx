// /four-eyes: which dispute changes wait for a second person's approval (admins): a resolution
// with credit, one with rejection, and a status set on more than N disputes at once. Saved whole,
// audited; the requests are worked on Approvals.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorDetail, getFourEyes, loadFailure, setFourEyes, type FourEyesSetting } from '@ejdesk/api-client';
import { Button, ErrorState, LoadingState, notify, Page, Panel, TextField } from '@ejdesk/ui';
import styles from './four-eyes.module.css';

const labels: Record<FourEyesSetting['action'], string> = {
  resolve_credited: 'Resolving a dispute with the customer credited',
  resolve_rejected: 'Resolving a dispute with the claim rejected',
  bulk_status: 'Setting the status of many disputes at once',
  tat_rule: 'Adding, changing or deleting a TAT rule (approved by another admin)',
  bank_password: 'Storing, changing or deleting a bank password (approved by another admin)',
};

function FourEyesForm({ initial }: { initial: FourEyesSetting[] }) {
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const [threshold, setThreshold] = useState(String(initial.find((s) => s.action === 'bulk_status')?.threshold ?? 100));
  const save = useMutation({
    mutationFn: () => setFourEyes(settings.map((s) => (s.action === 'bulk_status' ? { ...s, threshold: Number(threshold) } : s))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'four-eyes'] });
      notify.success('Four eyes saved: these changes now wait for a second person.');
    },
    onError: (error) => notify.error(`Four eyes could not be saved: ${errorDetail(error) ?? 'the server did not answer'}.`),
  });
  const badThreshold = !/^\d{1,7}$/.test(threshold.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!badThreshold) save.mutate();
  };
  return (
    <form className={styles.form} aria-label="Four eyes" onSubmit={submit}>
      <fieldset className={styles.actions}>
        <legend>These changes wait for a second person, who approves or rejects them on Approvals:</legend>
        {settings.map((s) => (
          <label key={s.action} className={styles.action}>
            <input
              type="checkbox"
              checked={s.enabled}
              onChange={(e) => setSettings(settings.map((o) => (o.action === s.action ? { ...o, enabled: e.target.checked } : o)))}
            />
            {labels[s.action]}
          </label>
        ))}
      </fieldset>
      <TextField
        label="Many means more than (disputes)"
        name="threshold"
        inputMode="numeric"
        value={threshold}
        onChange={(e) => setThreshold(e.target.value)}
        problem={badThreshold ? 'A whole number of disputes, 0 or more.' : null}
      />
      <div>
        <Button type="submit" variant="primary" loading={save.isPending} disabled={badThreshold}>
          Save four eyes
        </Button>
      </div>
    </form>
  );
}

export function FourEyesPage() {
  const settings = useQuery({ queryKey: ['admin', 'four-eyes'], queryFn: getFourEyes });
  if (settings.isPending) return <LoadingState />;
  if (settings.isError)
    return (
      <Page title="Four Eyes">
        <ErrorState message={loadFailure('four eyes settings', settings.error)} onRetry={() => void settings.refetch()} />
      </Page>
    );
  return (
    <Page title="Four Eyes">
      <Panel title="Changes that need a second person">
        <FourEyesForm initial={settings.data} />
      </Panel>
    </Page>
  );
}
