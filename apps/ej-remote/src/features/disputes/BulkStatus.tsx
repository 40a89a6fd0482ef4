// A status for many disputes at once, with one note, one audit entry, and a history event per
// dispute: the rows the operator ticked, or "all N matching", which the server applies to every
// dispute the table's filters match (whatever page the browser holds). The dialog says which,
// chooses nothing for the operator, and names the count on its button; the change can be undone
// from its message for ten seconds (the server gives each dispute back its status).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isRequestMade, setDisputesStatus, type QueryParams, type StatusChange } from '@ejdesk/api-client';
import { Button, Modal, notify } from '@ejdesk/ui';
import { useKeepChange } from './LastChange.tsx';
import { StatusForm } from './StatusForm.tsx';

/** The table's filters as the API's bulk body takes them: ages as numbers, the empty ones left out. */
export function bodyFilters(filters: Record<string, string>): QueryParams {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => [name, name === 'age_from' || name === 'age_to' ? Number(value) : value]),
  );
}

/**
 * What a bulk change applies to: the disputes ticked (or the focused row's, asked by a key: no
 * button then), or every one the filters match.
 */
type Target =
  { selected: number[]; hidden?: boolean } | { filters: Record<string, string>; count: number | undefined; described: string | null; hidden?: never };

function BulkStatusAction({
  target,
  onDone,
  asked = false,
  onAsked,
}: {
  target: Target;
  onDone?: () => void;
  /** Opened by a key (`s`) rather than its button; `onAsked` when it closes. */
  asked?: boolean;
  onAsked?: () => void;
}) {
  const [clicked, setClicked] = useState(false);
  const open = clicked || asked;
  const setOpen = (on: boolean) => {
    setClicked(on);
    if (!on) onAsked?.();
  };
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
    void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
  };
  const selected = 'selected' in target;
  const keepChange = useKeepChange();
  const save = useMutation({
    mutationFn: (change: StatusChange) =>
      setDisputesStatus(selected ? { ...change, ids: target.selected } : { ...change, filters: bodyFilters(target.filters) }),
    onSuccess: (answer, change) => {
      setOpen(false);
      onDone?.();
      // Held by four eyes: nothing changed yet; a second person approves it on Approvals.
      if (isRequestMade(answer)) return notify.info(answer.detail);
      refresh();
      keepChange(answer.change_id, `Status set to ${change.status.replace('_', ' ')} for ${answer.updated.toLocaleString('en-US')} disputes.`);
    },
  });
  const n = selected ? target.selected.length : (target.count ?? 0);
  const shown = n.toLocaleString('en-US');
  const close = () => {
    setOpen(false);
    save.reset();
  };
  const title = selected ? `Set the status of ${shown} selected ${n === 1 ? 'dispute' : 'disputes'}` : `Set the status of all ${shown} matching`;
  let explained: string;
  if (selected) explained = `The ${shown} ${n === 1 ? 'dispute' : 'disputes'} ticked in the table ${n === 1 ? 'gets' : 'get'} this status and note.`;
  else if (target.described)
    explained = `Every dispute of the ${shown} records matching ${target.described} gets this status and note, not only the rows on this page.`;
  else explained = `No filter is applied: every dispute of all ${shown} records gets this status and note, not only the rows on this page.`;
  return (
    <>
      {!target.hidden && (
        <Button disabled={!n} onClick={() => setOpen(true)}>
          {selected ? `Set status of ${shown} selected…` : `Set status of all ${shown} matching…`}
        </Button>
      )}
      <Modal open={open} title={title} onClose={close} footer={<Button onClick={close}>Cancel</Button>}>
        <p>{explained}</p>
        <StatusForm
          initial={null}
          count={n}
          submitLabel={selected ? `Set the status of ${shown} ${n === 1 ? 'dispute' : 'disputes'}` : `Set the status of all ${shown} matching`}
          busy={save.isPending}
          error={save.error}
          onSubmit={(change) => save.mutate(change)}
        />
      </Modal>
    </>
  );
}

/**
 * `described`: the applied filters in words, or null when none is applied. `selected`: the disputes
 * ticked. `asked`: the disputes a key asked to set (`s`: the ticked ones, else the focused row's).
 */
export function BulkStatus({
  filters,
  count,
  described,
  selected,
  onClearSelection,
  asked,
  onAsked,
}: {
  filters: Record<string, string>;
  count: number | undefined;
  described: string | null;
  selected: number[];
  onClearSelection: () => void;
  asked: number[] | null;
  onAsked: () => void;
}) {
  const askedTicked = asked !== null && selected.length > 0 && asked.length === selected.length && asked.every((id) => selected.includes(id));
  return (
    <>
      {selected.length > 0 && <BulkStatusAction target={{ selected }} onDone={onClearSelection} asked={askedTicked} onAsked={onAsked} />}
      {asked !== null && !askedTicked && <BulkStatusAction target={{ selected: asked, hidden: true }} asked onAsked={onAsked} />}
      <BulkStatusAction target={{ filters, count, described }} />
    </>
  );
}
