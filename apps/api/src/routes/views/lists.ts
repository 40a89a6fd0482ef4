// The console's lists an operator may keep views of, by the name the console gives each: its
// screen's path (as the list's column choice is named, `columns.<list>`). A view of any other list
// would be stored for nothing to open it.
export const viewLists = [
  // EJ records: the EJ error table, overage and succeeding.
  'email',
  'overage',
  'successing',
  // Emails: All Email and the seven category lists.
  'all-email',
  'ej-not-found',
  'same-subject',
  'same-subject-processing',
  'email-ignored',
  'read-email',
  'unread-email',
  'get-all-email-data',
  // The data files of each kind.
  'text-email-data',
  'missing-data',
  'missing-txn-data',
  'between-successful-data',
  'excel-email-data',
  'pdf-email-data',
  'other-email-data',
  // The admins' audit log and alert deliveries.
  'audit-log',
  'alert-deliveries',
  // The changes waiting for a second person.
  'approvals',
  // The journals received.
  'journals',
] as const;

export const isViewList = (list: string): boolean => (viewLists as readonly string[]).includes(list);
