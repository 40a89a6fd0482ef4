// The admin lists (bank passwords, bank -> MSP, users, sender mappings, ignore rules, TAT rules, alert rules) differ only in
// data: this table of columns, endpoints and form fields.
import {
  changeIgnoreRule,
  changeSenderMapping,
  createIgnoreRule,
  createSenderMapping,
  deleteIgnoreRule,
  deleteSenderMapping,
  listIgnoreRules,
  listSenderMappings,
  type IgnoreRule,
  type SenderMapping,
  createAccount,
  changeBankMsp,
  changeBankPassword,
  createBankMsp,
  createBankPassword,
  deleteBankMsp,
  deleteBankPassword,
  listAccounts,
  listBankMsps,
  listBankPasswords,
  type Account,
  type BankMsp,
  type BankPassword,
  changeTatRule,
  createDeployToken,
  listDeployTokens,
  revokeDeployToken,
  type CreatedDeployToken,
  type DeployToken,
  createTatRule,
  deleteTatRule,
  listTatRules,
  type TatRule,
  alertRuleFields,
  changeAlertRule,
  createAlertRule,
  deleteAlertRule,
  listAlertRules,
  weekdayChoices,
  type AlertRule,
  type AlertRuleFields,
} from '@ejdesk/api-client';
import { remoteNames } from '@ejdesk/contract';
import { formatDateTime, type ColumnDef } from '@ejdesk/ui';
import { AccountActions, accountsQueryKey } from './AccountActions.tsx';
import { RevealablePassword } from './RevealablePassword.tsx';

export interface AdminListConfig<Row, Field extends string> {
  title: string;
  queryKey: readonly string[];
  list: () => Promise<Row[]>;
  columns: ColumnDef<Row, unknown>[];
  addLabel: string;
  modalTitle: string;
  /**
   * Text inputs, or a choice when options are given (the first is the default). `hint`: what the
   * field takes, in plain words beside it; `hintOnEdit`: the hint when a row is edited.
   */
  fields: readonly {
    name: Field;
    label: string;
    type?: 'text' | 'password';
    options?: readonly { value: string; label: string }[];
    hint?: string;
    hintOnEdit?: string;
    /** May be left empty (else the form says so and is not sent). */
    optional?: boolean;
    /** A choice among what another list holds (the banks and MSPs, the remotes), read when the form opens. */
    choices?: { queryKey: readonly string[]; load: () => Promise<{ value: string; label: string }[]>; none: string };
  }[];
  create: (values: Record<Field, string>) => Promise<unknown>;
  createdMessage: string;
  /** A secret the creation answers with, shown this once in a dialog (a deploy token). */
  shownOnce?: (created: never) => { title: string; label: string; secret: string; note: string };
  /** Lists whose rows can be removed, and perhaps changed, each from its row's buttons. */
  rows?: {
    /** The row in a few words, for the buttons' names and the removal question. */
    describe: (row: Row) => string;
    /** The form again, filled with the row (its fields are the row's own). */
    change?: {
      save: (id: number, values: Record<Field, string>) => Promise<unknown>;
      modalTitle: string;
      changedMessage: string;
      /** The form's values for the row (else the row's own fields). */
      fill?: (row: Row) => Record<Field, string>;
    };
    remove: {
      remove: (id: number) => Promise<unknown>;
      /** The button's and the dialog's word (Delete unless given: Revoke). */
      label?: string;
      title: string;
      removedMessage: string;
      /** What removing a row changes, said in the question (mail processed afterwards, unless given). */
      consequence?: string;
    };
  };
}

/** The banks and MSPs the Bank MSP list holds, each once, in order. */
const organisations = {
  // Under the Bank MSP list's key, so a change there is seen here too.
  queryKey: ['admin', 'bank-msps', 'choices'],
  load: async () => {
    const rows = await listBankMsps();
    const names = [...new Set(rows.flatMap((r) => [r.bank_name, r.msp]))].sort((a, b) => a.localeCompare(b));
    return names.map((name) => ({ value: name, label: name }));
  },
  none: 'Choose a bank or MSP…',
};

/** The console's remotes (deployed or not yet: a token is made before the first deploy). */
const remotes = {
  queryKey: ['admin', 'remote-names'],
  load: async () => remoteNames.map((name) => ({ value: name, label: name })),
  none: 'Choose a remote…',
};

const timestamps = <Row extends { create_at: string; update_at: string }>(): ColumnDef<Row, unknown>[] => [
  { header: 'Created At', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
  { header: 'Updated At', accessorKey: 'update_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
];

export const passwordList: AdminListConfig<BankPassword, 'bank_name' | 'bank_pass'> = {
  title: 'Password List',
  queryKey: ['admin', 'bank-passwords'],
  list: listBankPasswords,
  columns: [
    { header: 'Bank Name', accessorKey: 'bank_name' },
    { header: 'Password', id: 'bank_pass', cell: ({ row }) => <RevealablePassword row={row.original} /> },
    ...timestamps<BankPassword>(),
  ],
  addLabel: 'Add Password',
  modalTitle: 'Add New Password',
  fields: [
    { name: 'bank_name', label: 'Bank Name', hint: 'As the bank names itself in its mail' },
    { name: 'bank_pass', label: 'Bank Password', type: 'password', hintOnEdit: 'Leave empty to keep the stored password' },
  ],
  create: createBankPassword,
  createdMessage: 'Password saved',
  rows: {
    describe: (row) => `the password of ${row.bank_name}`,
    change: {
      save: changeBankPassword,
      modalTitle: 'Edit Password',
      changedMessage: 'Password saved',
      // The stored password is never sent to the browser: the field starts empty.
      fill: (row) => ({ bank_name: row.bank_name, bank_pass: '' }),
    },
    remove: {
      remove: deleteBankPassword,
      title: 'Delete Password',
      removedMessage: 'Password deleted',
      consequence: "Its bank's protected files can no longer be opened.",
    },
  },
};

export const bankMspList: AdminListConfig<BankMsp, 'msp' | 'bank_name'> = {
  title: 'Bank MSP List',
  queryKey: ['admin', 'bank-msps'],
  list: listBankMsps,
  columns: [{ header: 'MSP', accessorKey: 'msp' }, { header: 'Bank Name', accessorKey: 'bank_name' }, ...timestamps<BankMsp>()],
  addLabel: 'Add Bank MSP',
  modalTitle: 'Add New Bank MSP',
  fields: [
    { name: 'msp', label: 'MSP' },
    { name: 'bank_name', label: 'Bank Name' },
  ],
  create: createBankMsp,
  createdMessage: 'Bank MSP saved',
  rows: {
    describe: (row) => `${row.bank_name} and ${row.msp}`,
    change: { save: changeBankMsp, modalTitle: 'Edit Bank MSP', changedMessage: 'Bank MSP saved' },
    remove: { remove: deleteBankMsp, title: 'Delete Bank MSP', removedMessage: 'Bank MSP deleted' },
  },
};

export const userList: AdminListConfig<Account, 'email' | 'password' | 'role'> = {
  title: 'Users',
  queryKey: accountsQueryKey,
  list: listAccounts,
  columns: [
    { header: 'Email', accessorKey: 'email' },
    { header: 'Role', accessorKey: 'role', cell: (c) => (c.getValue() === 'admin' ? 'Admin' : 'Operator') },
    {
      header: 'Status',
      id: 'status',
      accessorFn: (row) => (row.is_active ? 'Active' : 'Disabled') + (row.must_change_password ? ', new password due' : ''),
    },
    { header: 'Last Login', accessorKey: 'last_login', cell: (c) => (c.getValue() ? formatDateTime(c.getValue() as string) : 'Never'), meta: { nowrap: true } },
    { header: 'Created At', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
    { header: 'Actions', id: 'actions', cell: ({ row }) => <AccountActions account={row.original} /> },
  ],
  addLabel: 'Add User',
  modalTitle: 'Add New User',
  fields: [
    { name: 'email', label: 'Email' },
    { name: 'password', label: 'Password (at least 10 characters)', type: 'password' },
    {
      name: 'role',
      label: 'Role',
      options: [
        { value: 'operator', label: 'Operator' },
        { value: 'admin', label: 'Admin' },
      ],
    },
  ],
  create: createAccount,
  createdMessage: 'User created',
};

export const senderMappingList: AdminListConfig<SenderMapping, 'sender' | 'organisation'> = {
  title: 'Sender Mappings',
  queryKey: ['admin', 'sender-mappings'],
  list: listSenderMappings,
  columns: [{ header: 'Sender', accessorKey: 'sender' }, { header: 'Bank or MSP', accessorKey: 'organisation' }, ...timestamps<SenderMapping>()],
  addLabel: 'Add Sender Mapping',
  modalTitle: 'Add New Sender Mapping',
  fields: [
    { name: 'sender', label: 'Sender (name@bank.example, or @bank.example for the whole domain)' },
    { name: 'organisation', label: 'Bank or MSP (as in the Bank MSP list)', choices: organisations },
  ],
  create: createSenderMapping,
  createdMessage: 'Sender mapping saved',
  rows: {
    describe: (row) => `${row.sender} to ${row.organisation}`,
    change: { save: changeSenderMapping, modalTitle: 'Edit Sender Mapping', changedMessage: 'Sender mapping changed' },
    remove: {
      remove: deleteSenderMapping,
      title: 'Delete Sender Mapping',
      removedMessage: 'Sender mapping deleted',
    },
  },
};

export const ignoreRuleList: AdminListConfig<IgnoreRule, 'field' | 'pattern'> = {
  title: 'Ignore Rules',
  queryKey: ['admin', 'ignore-rules'],
  list: listIgnoreRules,
  columns: [
    { header: 'Ignore Mail Whose', accessorKey: 'field', cell: (c) => (c.getValue() === 'sender' ? 'Sender' : 'Subject') },
    { header: 'Contains', accessorKey: 'pattern' },
    ...timestamps<IgnoreRule>(),
  ],
  addLabel: 'Add Ignore Rule',
  modalTitle: 'Add New Ignore Rule',
  fields: [
    {
      name: 'field',
      label: 'Ignore mail whose',
      options: [
        { value: 'subject', label: 'Subject' },
        { value: 'sender', label: 'Sender' },
      ],
    },
    { name: 'pattern', label: 'Contains (any case)' },
  ],
  create: createIgnoreRule,
  createdMessage: 'Ignore rule saved',
  rows: {
    describe: (row) => `${row.field} contains "${row.pattern}"`,
    change: { save: changeIgnoreRule, modalTitle: 'Edit Ignore Rule', changedMessage: 'Ignore rule changed' },
    remove: {
      remove: deleteIgnoreRule,
      title: 'Delete Ignore Rule',
      removedMessage: 'Ignore rule deleted',
    },
  },
};

const scopeLabels: Record<string, string> = { all: 'All disputes', bank: 'A bank', msp: 'An MSP' };
const clockStartLabels: Record<string, string> = { transaction_date: 'Transaction date', complaint_date: 'Complaint date' };

/** The turnaround rules: a change applies to the open disputes at once (the server moves them). */
export const tatRuleList: AdminListConfig<
  TatRule,
  'name' | 'scope' | 'scope_value' | 'clock_start' | 'days' | 'day_kind' | 'holidays' | 'penalty_per_day' | 'currency'
> = {
  title: 'TAT Rules',
  queryKey: ['admin', 'tat-rules'],
  list: listTatRules,
  columns: [
    { header: 'Name', accessorKey: 'name' },
    { header: 'Covers', id: 'covers', accessorFn: (r) => (r.scope === 'all' ? 'All disputes' : `${r.scope === 'bank' ? 'Bank' : 'MSP'}: ${r.scope_value}`) },
    { header: 'Clock Starts', id: 'clock_start', accessorFn: (r) => clockStartLabels[r.clock_start] ?? r.clock_start },
    { header: 'Days Allowed', id: 'days', accessorFn: (r) => `${r.days} ${r.day_kind} day${r.days === 1 ? '' : 's'}`, meta: { nowrap: true } },
    { header: 'Holidays', id: 'holidays', accessorFn: (r) => (r.holidays.length ? r.holidays.length : ''), meta: { numeric: true } },
    { header: 'Penalty per Day', id: 'penalty', accessorFn: (r) => `${r.penalty_per_day} ${r.currency}`, meta: { numeric: true, nowrap: true } },
    ...timestamps<TatRule>(),
  ],
  addLabel: 'Add TAT Rule',
  modalTitle: 'Add TAT Rule',
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'scope', label: 'Covers', options: Object.entries(scopeLabels).map(([value, label]) => ({ value, label })) },
    { name: 'scope_value', label: 'Bank or MSP (none for all disputes)', choices: { ...organisations, none: 'None: all disputes' }, optional: true },
    { name: 'clock_start', label: 'Clock starts on', options: Object.entries(clockStartLabels).map(([value, label]) => ({ value, label })) },
    { name: 'days', label: 'Days allowed' },
    {
      name: 'day_kind',
      label: 'Counted in',
      options: [
        { value: 'calendar', label: 'Calendar days' },
        { value: 'working', label: 'Working days (not weekends or holidays)' },
      ],
    },
    { name: 'holidays', label: 'Holidays (YYYY-MM-DD, separated by commas)', optional: true },
    { name: 'penalty_per_day', label: 'Penalty per day after the due date' },
    { name: 'currency', label: 'Currency (e.g. INR)' },
  ],
  create: createTatRule,
  createdMessage: 'TAT rule saved; the open disputes follow it now',
  rows: {
    describe: (r) => r.name,
    change: { save: changeTatRule, modalTitle: 'Change TAT Rule', changedMessage: 'TAT rule changed; the open disputes follow it now' },
    remove: {
      remove: deleteTatRule,
      title: 'Delete TAT Rule',
      removedMessage: 'TAT rule deleted; its open disputes follow the next rule that covers them',
      consequence: 'Its open disputes follow the next rule that covers them at once.',
    },
  },
};

/**
 * The deploy tokens: each lets a team's `pnpm remote` deploy and roll back its own remote. The
 * token is shown once, when created; the configured REMOTE_DEPLOY_TOKEN (every remote) is listed too.
 */
export const deployTokenList: AdminListConfig<DeployToken, 'remote' | 'name'> = {
  title: 'Deploy Tokens',
  queryKey: ['admin', 'deploy-tokens'],
  list: listDeployTokens,
  columns: [
    { header: 'Name', accessorKey: 'name' },
    { header: 'Deploys', id: 'remote', accessorFn: (r) => (r.remote === null ? 'Every remote (from the configuration)' : r.remote) },
    { header: 'Created By', id: 'created_by', accessorFn: (r) => r.created_by ?? '' },
    { header: 'Created At', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
  ],
  addLabel: 'New Deploy Token',
  modalTitle: 'New Deploy Token',
  fields: [
    { name: 'remote', label: 'Remote it deploys', choices: remotes },
    { name: 'name', label: 'Token name (the team; the audit log shows it)', hint: 'Any name, up to 60 characters: Email team' },
  ],
  create: createDeployToken,
  createdMessage: 'Deploy token created',
  shownOnce: (created: CreatedDeployToken) => ({
    title: `Deploy token “${created.name}”`,
    label: 'token',
    secret: created.token,
    note: `Give it to the ${created.remote ?? ''} team now, as REMOTE_DEPLOY_TOKEN for pnpm remote: it is not shown again. It deploys and rolls back ${created.remote ?? 'every remote'} only.`,
  }),
  rows: {
    describe: (r) => `the token ${r.name}`,
    remove: {
      remove: revokeDeployToken,
      label: 'Revoke',
      title: 'Revoke Deploy Token',
      removedMessage: 'Deploy token revoked',
      consequence: 'Deploys and rollbacks with it are refused at once.',
    },
  },
};

/**
 * The alert rules: which clocks, how many days before their due date, to whom (the owner, a team's
 * addresses) or to which webhook, and in which working hours. The webhook's key is write-only.
 */
export const alertRuleList: AdminListConfig<AlertRule, keyof AlertRuleFields> = {
  title: 'Alert Rules',
  queryKey: ['admin', 'alert-rules'],
  list: listAlertRules,
  columns: [
    { header: 'Name', accessorKey: 'name' },
    { header: 'Clocks', id: 'clocks', accessorFn: (r) => (r.clocks.length ? r.clocks.join(', ') : 'Every clock') },
    {
      header: 'Warns',
      id: 'days_before',
      accessorFn: (r) => (r.days_before === 0 ? 'On the last day' : `${r.days_before} days before`),
      meta: { nowrap: true },
    },
    {
      header: 'To',
      id: 'to',
      accessorFn: (r) =>
        r.channel === 'webhook'
          ? `Webhook ${r.webhook_url}${r.has_webhook_secret ? ' (signed)' : ''}`
          : [r.to_owner ? 'The owner' : '', ...r.to_addresses].filter(Boolean).join(', '),
    },
    {
      header: 'Working Hours',
      id: 'hours',
      accessorFn: (r) =>
        `${Object.entries(weekdayChoices).find(([, days]) => days.join() === r.weekdays.join())?.[0] ?? r.weekdays.join(', ')}, ${r.hours_from}-${r.hours_to} h (${r.time_zone})`,
    },
  ],
  addLabel: 'Add Alert Rule',
  modalTitle: 'Add Alert Rule',
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'clocks', label: 'Clocks', optional: true, hint: 'Keys such as tat, nfs.representment, separated by commas; none: every clock' },
    { name: 'days_before', label: 'Days before the due date', hint: '0: on the last day' },
    {
      name: 'channel',
      label: 'Sent by',
      options: [
        { value: 'email', label: 'Email (through the SMTP relay)' },
        { value: 'webhook', label: 'Webhook (a signed POST)' },
      ],
    },
    {
      name: 'to_owner',
      label: 'To the dispute’s owner',
      options: [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
      ],
    },
    { name: 'to_addresses', label: 'Also to (email addresses)', optional: true, hint: 'A team’s addresses, separated by commas' },
    { name: 'webhook_url', label: 'Webhook address', optional: true, hint: 'https:// only' },
    {
      name: 'webhook_secret',
      label: 'Webhook key',
      type: 'password',
      optional: true,
      hint: 'At least 16 characters; it signs each call',
      hintOnEdit: 'Left empty, the stored key stays',
    },
    { name: 'hours', label: 'Working hours', hint: 'From-to, whole hours: 9-18' },
    { name: 'weekdays', label: 'Working days', options: Object.keys(weekdayChoices).map((value) => ({ value, label: value })) },
    { name: 'time_zone', label: 'Time zone', hint: 'Such as Asia/Kolkata' },
  ],
  create: createAlertRule,
  createdMessage: 'Alert rule saved; the workers warn by it from their next round',
  rows: {
    describe: (r) => r.name,
    change: { save: changeAlertRule, modalTitle: 'Change Alert Rule', changedMessage: 'Alert rule changed', fill: alertRuleFields },
    remove: {
      remove: deleteAlertRule,
      title: 'Delete Alert Rule',
      removedMessage: 'Alert rule deleted',
      consequence: 'No warning is made by it any more; what it sent stays in the deliveries.',
    },
  },
};
