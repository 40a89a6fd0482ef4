// The audit log's hash chain, for an admin: walked by the server on demand ("Verify the chain"),
// and downloaded as the signed file an auditor checks without EJ Desk (docs/disputes.md).
import { useState } from 'react';
import { downloadAuditChain, errorDetail, verifyAuditChain, type AuditChainReport } from '@ejdesk/api-client';
import { saveFile } from '@ejdesk/export';
import { Button, formatCount, notify } from '@ejdesk/ui';

const reportWords = (report: AuditChainReport) =>
  report.ok
    ? `The chain holds: ${formatCount(report.entries)} entries, none changed, removed or inserted.`
    : `The chain is broken. ${report.first?.detail ?? ''}${report.problems.length > 1 ? ` (${report.problems.length} problems in all.)` : ''}`;

export function ChainCheck({ applied }: { applied: Record<string, string> }) {
  const [checking, setChecking] = useState(false);
  const [saving, setSaving] = useState(false);
  const [report, setReport] = useState<AuditChainReport | null>(null);
  const verify = async () => {
    setChecking(true);
    try {
      setReport(await verifyAuditChain());
    } catch (error) {
      notify.error(`The chain could not be verified: ${errorDetail(error) ?? 'the server did not answer'}.`);
    } finally {
      setChecking(false);
    }
  };
  const range = { from: applied.from, to: applied.to };
  const save = async () => {
    setSaving(true);
    try {
      const name = `audit_log_chain${range.from ? `_from_${range.from}` : ''}${range.to ? `_to_${range.to}` : ''}.jsonl`;
      saveFile(name, await downloadAuditChain(range), 'application/x-ndjson');
    } catch (error) {
      notify.error(`The signed chain could not be downloaded: ${errorDetail(error) ?? 'the server did not answer'}.`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button onClick={() => void verify()} loading={checking}>
        Verify the chain
      </Button>
      <Button onClick={() => void save()} loading={saving} title="Every entry of the From-To days with its hashes, signed (who and what filters do not apply)">
        Download signed chain
      </Button>
      <p role="status" className={report && !report.ok ? 'ej-field__problem' : 'ej-field__hint'} data-testid="chain-report">
        {report ? reportWords(report) : ''}
      </p>
    </>
  );
}
