// The journal's word on all N disputes the EJ table's filters match (whatever page the browser
// holds): apply the suggestion each one's verdict makes (a status an operator set is kept; the
// dialog says so before, the toast what changed after), and one ZIP of their evidence packs.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applySuggestions, downloadEvidenceZip, failureReason, isNotFound } from '@ejdesk/api-client';
import { saveFile } from '@ejdesk/export';
import { Button, Modal, notify } from '@ejdesk/ui';
import { bodyFilters } from './BulkStatus.tsx';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function BulkEvidence({ filters, count, described }: { filters: Record<string, string>; count: number | undefined; described: string | null }) {
  const [open, setOpen] = useState(false);
  const [zipping, setZipping] = useState(false);
  const queryClient = useQueryClient();
  const n = count ?? 0;
  const shown = n.toLocaleString('en-US');
  const apply = useMutation({
    mutationFn: () => applySuggestions({ filters: bodyFilters(filters) }),
    onSuccess: (result) => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
      const kept = [
        result.skipped_operator ? `${plural(result.skipped_operator, 'kept its', 'kept their')} operator's status` : '',
        result.skipped_no_suggestion ? `${plural(result.skipped_no_suggestion, 'has', 'have')} no suggestion` : '',
        result.skipped_unchanged ? `${plural(result.skipped_unchanged, 'was', 'were')} already so` : '',
      ].filter(Boolean);
      notify.success(`The suggestion is applied to ${plural(result.updated, 'dispute', 'disputes')}${kept.length ? `; ${kept.join(', ')}` : ''}.`);
    },
  });
  const close = () => {
    setOpen(false);
    apply.reset();
  };
  const zip = async () => {
    setZipping(true);
    try {
      const { file, fileName } = await downloadEvidenceZip({ filters: bodyFilters(filters) });
      saveFile(fileName, file, 'application/zip');
    } catch (error) {
      notify.error(isNotFound(error) ? 'None of these disputes has journal evidence yet.' : `The evidence could not be made: ${failureReason(error)}.`);
    } finally {
      setZipping(false);
    }
  };
  const which = described ? `the ${shown} records matching ${described}` : `all ${shown} records (no filter is applied)`;
  return (
    <>
      <Button disabled={!n} onClick={() => setOpen(true)}>
        Apply the suggestion to all {shown} matching…
      </Button>
      <Button disabled={!n} loading={zipping} onClick={() => void zip()}>
        Download evidence (ZIP)
      </Button>
      <Modal
        open={open}
        title={`Apply the suggestion to all ${shown} matching`}
        onClose={close}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="primary" loading={apply.isPending} onClick={() => apply.mutate()}>
              Apply the suggestion
            </Button>
          </>
        }
      >
        <p>
          Every dispute of {which} whose journal gives a verdict gets the status it suggests: not dispensed, retracted or partly dispensed: resolved (credited);
          dispensed: resolved (rejected); reversed: resolved (other). A status an operator set is kept, and a dispute the journal cannot judge is left for a
          person. Each change is audited with the journal named.
        </p>
        {apply.isError && (
          <p className="ej-form-error" role="alert">
            The suggestion could not be applied: {failureReason(apply.error)}.
          </p>
        )}
      </Modal>
    </>
  );
}
