// "Set the status of all N matching": the server applies the change to every dispute the table's
// filters match (whatever page the browser holds), with one note, one audit entry, and a history
// event per dispute. The dialog says how many records match and what the filters are.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setDisputesStatus, type QueryParams, type StatusChange } from '@ejdesk/api-client';
import { Button, Modal, notify } from '@ejdesk/ui';
import { StatusForm } from './StatusForm.tsx';

/** The table's filters as the API's bulk body takes them: ages as numbers, the empty ones left out. */
function bodyFilters(filters: Record<string, string>): QueryParams {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => [name, name === 'age_from' || name === 'age_to' ? Number(value) : value]),
  );
}

/** `described`: the applied filters in words, or null when none is applied. */
export function BulkStatus({ filters, count, described }: { filters: Record<string, string>; count: number | undefined; described: string | null }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: StatusChange) => setDisputesStatus({ ...change, filters: bodyFilters(filters) }),
    onSuccess: ({ updated }, change) => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
      notify.success(`Status set to ${change.status.replace('_', ' ')} for ${updated.toLocaleString('en-US')} disputes.`);
    },
  });
  const n = count ?? 0;
  const close = () => {
    setOpen(false);
    save.reset();
  };
  return (
    <>
      <Button disabled={!n} onClick={() => setOpen(true)}>
        Set status of all {n.toLocaleString('en-US')} matching…
      </Button>
      <Modal open={open} title={`Set the status of all ${n.toLocaleString('en-US')} matching`} onClose={close} footer={<Button onClick={close}>Cancel</Button>}>
        <p>
          {described
            ? `Every dispute of the ${n.toLocaleString('en-US')} records matching ${described} gets this status and note, not only the rows on this page.`
            : `No filter is applied: every dispute of all ${n.toLocaleString('en-US')} records gets this status and note, not only the rows on this page.`}
        </p>
        <StatusForm initial="resolved" submitLabel="Set the status" busy={save.isPending} error={save.error} onSubmit={(change) => save.mutate(change)} />
      </Modal>
    </>
  );
}
