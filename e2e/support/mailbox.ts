// The e2e run's mailbox (support/mailbox-server.ts): a real Dovecot on a fixed port that `pnpm
// start` watches, and the control server through which the tests deliver mail and cause an outage.
export const mailbox = { imapPort: 3143, controlPort: 3198, user: 'ejdesk', password: 'e2e-imap-password' };
export const mailboxControl = `http://127.0.0.1:${mailbox.controlPort}`;
