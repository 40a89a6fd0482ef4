// Which remote owns which top-level path, and the side navigation of SPEC.md section 2.

/** The role a section needs beyond signing in (the API enforces it; the shell hides the way in). */
export type RequiredRole = 'admin' | undefined;

export const remoteOfSegment: Record<string, { remote: string; section: string; role?: RequiredRole }> = {};

function own(remote: string, section: string, segments: string[], role?: RequiredRole) {
  for (const segment of segments) remoteOfSegment[segment] = { remote, section, role };
}
own('email', 'email monitoring', [
  'dashboard', 'all-email', 'data-email', 'ej-not-found', 'same-subject', 'same-subject-processing',
  'email-ignored', 'read-email', 'unread-email', 'get-all-email-data', 'email-details-data', 'mail-flow',
]);
own('ej', 'EJ data', ['email', 'overage', 'successing']);
own('files', 'file data', [
  'text-email-data', 'missing-data', 'missing-txn-data', 'between-successful-data',
  'excel-email-data', 'pdf-email-data', 'other-email-data',
]);
own('admin', 'admin lists', ['store-password-list', 'bank-msp-list', 'sender-mappings', 'ignore-rules', 'users', 'audit-log'], 'admin');

export const sideNavigation: readonly { label: string; to: string; role?: RequiredRole }[] = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Flow', to: '/mail-flow' },
  { label: 'Email', to: '/email' },
  { label: 'All Email', to: '/all-email' },
  { label: 'Missing Data', to: '/missing-data' },
  { label: 'Missing TXN Data', to: '/missing-txn-data' },
  { label: 'Between Successful Data', to: '/between-successful-data' },
  { label: 'Text Email Data', to: '/text-email-data' },
  { label: 'Excel Email Data', to: '/excel-email-data' },
  { label: 'PDF Email Data', to: '/pdf-email-data' },
  { label: 'Other Format Email Data', to: '/other-email-data' },
  { label: 'Password List', to: '/store-password-list', role: 'admin' },
  { label: 'Bank MSP List', to: '/bank-msp-list', role: 'admin' },
  { label: 'Sender Mappings', to: '/sender-mappings', role: 'admin' },
  { label: 'Ignore Rules', to: '/ignore-rules', role: 'admin' },
  { label: 'Users', to: '/users', role: 'admin' },
  { label: 'Audit Log', to: '/audit-log', role: 'admin' },
];
