// Who a message is from, in the Bank MSP list's terms, and whether it is ignored. The rules are
// data (mail_senders, ignore_rules, bank_msps, bank_passwords), loaded from the database.
import type { IngestRules } from '@ejdesk/db';

interface Sender {
  /** The bank or MSP the address belongs to, or null when it is not a known sender. */
  organisation: string | null;
  /** The MSP the address belongs to (not a bank of the Bank MSP list), or null. */
  msp: string | null;
  /** The bank the rows belong to: the sender's own, or the one of its MSP's banks the subject names. */
  bankName: string;
  /** Stored passwords that may open the sender's protected files, its own bank's first. */
  passwords: string[];
  ignoredBecause: string | null;
}

export function identifySender(rules: IngestRules, address: string, subject: string): Sender {
  const domain = address.slice(address.lastIndexOf('@'));
  const organisation = rules.senders.get(address) ?? rules.senders.get(domain) ?? null;
  const banks = organisation ? (rules.banksOf.get(organisation.toLowerCase()) ?? []) : [];
  const lowerSubject = subject.toLowerCase();
  const senderRule = rules.ignore.sender.find((p) => address.includes(p));
  const subjectRule = rules.ignore.subject.find((p) => lowerSubject.includes(p));
  const ignoredBecause = senderRule
    ? `the sender matches the ignore rule "${senderRule}"`
    : subjectRule
      ? `the subject matches the ignore rule "${subjectRule}"`
      : !organisation
        ? 'the sender is not a known bank or MSP'
        : banks.length === 0
          ? `${organisation} is not in the Bank MSP list`
          : null;
  const named = banks.find((b) => lowerSubject.includes(b.toLowerCase()));
  const bankName = named ?? (banks.length === 1 ? banks[0]! : banks.includes(organisation ?? '') ? organisation! : '');
  const ordered = named ? [named, ...banks.filter((b) => b !== named)] : banks;
  const passwords = ordered.map((b) => rules.passwords.get(b.toLowerCase())).filter((p): p is string => p !== undefined);
  const msp = organisation && !banks.some((b) => b.toLowerCase() === organisation.toLowerCase()) ? organisation : null;
  return { organisation, msp, bankName, passwords: [...new Set(passwords)], ignoredBecause };
}
