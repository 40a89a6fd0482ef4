// The last status change made from this tab, undoable for as long as the server allows (ten
// minutes): from the toast's Undo for its ten seconds, and after that from the EJ table's "Undo
// last change" button or its `u` key. The server refuses an undo once any of its disputes has
// changed since; that refusal is said as it is given.
import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { errorDetail, failureReason, undoStatusChange } from '@ejdesk/api-client';
import { Button, notify } from '@ejdesk/ui';

/** As the server's undo window (packages/db undoMinutes). */
const undoWindowMs = 10 * 60_000;

interface LastChange {
  id: number;
  /** What was done, in words ("Status set to resolved for 3 disputes."). */
  said: string;
}

const useLastChangeStore = create<{ last: LastChange | null }>(() => ({ last: null }));

/** Keeps a change as the one Undo takes back, and says it with Undo beside it. */
export function useKeepChange() {
  const undo = useUndo();
  return useCallback(
    (id: number | null, said: string) => {
      if (id === null) {
        notify.success(said);
        return;
      }
      useLastChangeStore.setState({ last: { id, said } });
      // Past the server's window the change can no longer be undone: the button goes.
      setTimeout(() => {
        if (useLastChangeStore.getState().last?.id === id) useLastChangeStore.setState({ last: null });
      }, undoWindowMs);
      notify.undoable(said, () => undo.mutate(id));
    },
    [undo],
  );
}

function useUndo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoStatusChange,
    onSuccess: ({ restored }, id) => {
      if (useLastChangeStore.getState().last?.id === id) useLastChangeStore.setState({ last: null });
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute'] });
      notify.success(`Undone: ${restored.toLocaleString('en-US')} ${restored === 1 ? 'dispute has' : 'disputes have'} the status they had.`);
    },
    onError: (error) => notify.error(`Not undone: ${errorDetail(error) ?? failureReason(error)}`),
  });
}

/** The change Undo would take back now (none once the window has passed), and the undo itself. */
export function useLastChange() {
  const last = useLastChangeStore((s) => s.last);
  const undo = useUndo();
  return { last, undo: () => last && undo.mutate(last.id), busy: undo.isPending };
}

export function UndoLastChange() {
  const { last, undo, busy } = useLastChange();
  if (!last) return null;
  return (
    <Button aria-keyshortcuts="u" title={`Undo: ${last.said}`} loading={busy} onClick={undo}>
      Undo last change
    </Button>
  );
}
