// /all-email and the seven category lists differ only in data: this table of titles, the API's
// lists by name, filters and where a row's link goes.

import type { EmailListName } from '@ejdesk/api-client';
import type { FilterDef } from '@ejdesk/ui';

export interface EmailListConfig {
  path: string;
  title: string;
  /** Which of the API's email lists (the client knows its URL). */
  list: EmailListName;
  filters: readonly FilterDef[];
  /** Heading and label of the row link's column. */
  linkColumn: string;
  linkTo: (id: number) => string;
  /** /all-email heads the page with the total and has Reset Filters; '{n} per page' sizes. */
  variant: 'all-email' | 'category';
}

/** The dashboard's month (emails received in it): its counts open the lists with it. */
const receivedMonth: FilterDef = { name: 'month', label: 'Received In', type: 'month' };

const categoryFilters: readonly FilterDef[] = [
  { name: 'subject', label: 'Search Subject', type: 'text' },
  { name: 'date', label: 'Date', type: 'date' },
  receivedMonth,
];

const category = (path: string, title: string, list: EmailListName): EmailListConfig => ({
  path,
  title,
  list,
  filters: categoryFilters,
  linkColumn: 'Details',
  linkTo: (id) => `/email-details-data/${id}`,
  variant: 'category',
});

export const allEmailList: EmailListConfig = {
  path: '/all-email',
  title: 'All Email',
  list: 'all',
  filters: [
    { name: 'subject_name', label: 'Subject Name', type: 'text' },
    { name: 'email_from', label: 'Email From', type: 'text' },
    { name: 'create_at_after', label: 'Created After', type: 'date' },
    { name: 'create_at_before', label: 'Created Before', type: 'date' },
    receivedMonth,
  ],
  linkColumn: 'Get Data',
  linkTo: (id) => `/all-email/${id}`,
  variant: 'all-email',
};

export const categoryListConfigs: readonly EmailListConfig[] = [
  category('/ej-not-found', 'EJs not found Email', 'ej_not_found'),
  category('/same-subject', 'Mails having the same subject line', 'same_subject'),
  category('/same-subject-processing', 'Emails processed along with the subject line', 'same_subject_processing'),
  category('/email-ignored', 'Emails ignored', 'ignored'),
  category('/read-email', 'Read Email', 'read'),
  category('/unread-email', 'Unread Email', 'unread'),
  category('/get-all-email-data', 'Total Email', 'total'),
];
