// Who works a dispute and when they look at it again: the owner chosen from the active accounts
// (the operator's own first), the follow-up day typed DD/MM/YYYY. On a dispute's page for that
// dispute; on the EJ table for the ticked rows at once.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorDetail, failureReason, getDisputeOwners, setFollowUp, useSession, type FollowUpChange } from '@ejdesk/api-client';
import { Button, CheckField, ChoiceField, DateField, Modal, notify } from '@ejdesk/ui';
import styles from './disputes.module.css';

const nobody = '';

/** The accounts to choose from: "Me" first, then the others by email, and Nobody. */
function useOwnerChoices() {
  const me = useSession((s) => s.userId);
  const owners = useQuery({ queryKey: ['dispute-owners'], queryFn: ({ signal }) => getDisputeOwners(signal), staleTime: 60_000 });
  const list = owners.data ?? [];
  const mine = list.find((o) => o.id === me);
  return [
    { value: nobody, label: 'Nobody' },
    ...(mine ? [{ value: String(mine.id), label: `Me (${mine.email})` }] : []),
    ...list.filter((o) => o.id !== me).map((o) => ({ value: String(o.id), label: o.email })),
  ];
}

/** The bulk form's "leave each one's own" choice. */
const keep = 'keep';

/**
 * `many`: for several disputes at once: each field starts as "keep each one's own", and only what
 * the operator changes is sent (a day chosen alone leaves every owner as it was).
 */
export function FollowUpForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  many = false,
}: {
  initial: { ownerId: number | null; followUpOn: string | null };
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (change: FollowUpChange) => void;
  many?: boolean;
}) {
  const choices = useOwnerChoices();
  const [owner, setOwner] = useState(many ? keep : initial.ownerId === null ? nobody : String(initial.ownerId));
  const [day, setDay] = useState(initial.followUpOn ?? '');
  const [clearDay, setClearDay] = useState(false);
  const problem = error ? (errorDetail(error) ?? failureReason(error)) : null;
  const change: FollowUpChange = many
    ? {
        ...(owner === keep ? {} : { owner_id: owner === nobody ? null : Number(owner) }),
        ...(clearDay ? { follow_up_on: null } : day ? { follow_up_on: day } : {}),
      }
    : { owner_id: owner === nobody ? null : Number(owner), follow_up_on: day || null };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(change).length) onSubmit(change);
  };
  return (
    <form className={styles.statusForm} aria-label="Owner and follow-up" onSubmit={submit}>
      <ChoiceField
        label="Owner"
        name="owner"
        value={owner}
        options={many ? [{ value: keep, label: 'Keep each one’s owner' }, ...choices] : choices}
        onChange={setOwner}
      />
      {!(many && clearDay) && <DateField label="Follow up on" name="follow_up_on" value={day} onChange={setDay} />}
      {many && <CheckField label="Clear the follow-up day" name="clear_day" checked={clearDay} onChange={setClearDay} />}
      {problem && (
        <p className="ej-form-error" role="alert">
          {problem}
        </p>
      )}
      <Button type="submit" variant="primary" loading={busy} disabled={Object.keys(change).length === 0}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** The ticked rows' owner and follow-up day, set together. */
export function BulkFollowUp({ selected }: { selected: number[] }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: FollowUpChange) => setFollowUp({ ...change, ids: selected }),
    onSuccess: ({ updated }) => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      notify.success(`Owner and follow-up set for ${updated.toLocaleString('en-US')} ${updated === 1 ? 'dispute' : 'disputes'}.`);
    },
  });
  if (selected.length === 0) return null;
  const n = selected.length.toLocaleString('en-US');
  const close = () => {
    setOpen(false);
    save.reset();
  };
  return (
    <>
      <Button onClick={() => setOpen(true)}>Owner and follow-up of {n} selected…</Button>
      <Modal open={open} title={`Owner and follow-up of ${n} selected`} onClose={close} footer={<Button onClick={close}>Cancel</Button>}>
        <p>
          The {n} {selected.length === 1 ? 'dispute' : 'disputes'} ticked in the table get what you choose here; what you leave as it is stays each one’s own.
        </p>
        <FollowUpForm
          many
          initial={{ ownerId: null, followUpOn: null }}
          submitLabel={`Set for ${n} ${selected.length === 1 ? 'dispute' : 'disputes'}`}
          busy={save.isPending}
          error={save.error}
          onSubmit={(change) => save.mutate(change)}
        />
      </Modal>
    </>
  );
}
