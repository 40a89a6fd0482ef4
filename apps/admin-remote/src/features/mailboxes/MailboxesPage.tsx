// The Mailboxes screen: the mailboxes the ingester watches, each with its state from Mail Flow.
// Add and Edit share one form whose fields follow the sign-in method; Test connection tries the
// form as it stands (an edited mailbox's stored secrets fill what the form leaves empty, so a
// secret never travels back to the browser). Delete asks first.
import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  changeMailbox,
  createMailbox,
  deleteMailbox,
  errorDetail,
  getMailFlow,
  listMailboxes,
  loadFailure,
  testMailbox,
  type Mailbox,
  type MailboxFields,
} from '@ejdesk/api-client';
import {
  Button,
  Card,
  CheckField,
  ChoiceField,
  DataTable,
  formatDateTime,
  FormModal,
  notify,
  Page,
  TextField,
  useColumnChoice,
  type ColumnDef,
} from '@ejdesk/ui';
import styles from './mailboxes.module.css';

type Method = MailboxFields['auth_method'];

const methods: readonly { value: Method; label: string }[] = [
  { value: 'oauth2-client-credentials', label: 'OAuth2 app access (Microsoft 365)' },
  { value: 'oauth2-refresh-token', label: 'OAuth2 refresh token (Google Workspace)' },
  { value: 'password', label: 'Password' },
];
const methodLabel = (method: string) => methods.find((m) => m.value === method)?.label ?? method;

interface Form {
  auth_method: Method;
  host: string;
  port: string;
  tls: boolean;
  username: string;
  folder: string;
  token_url: string;
  client_id: string;
  scope: string;
  secret: string;
  refresh_token: string;
  enabled: boolean;
}

const blank: Form = {
  auth_method: 'oauth2-client-credentials',
  host: '',
  port: '993',
  tls: true,
  username: '',
  folder: 'INBOX',
  token_url: '',
  client_id: '',
  scope: '',
  secret: '',
  refresh_token: '',
  enabled: true,
};

const formOf = (m: Mailbox): Form => ({
  auth_method: m.auth_method,
  host: m.host,
  port: String(m.port),
  tls: m.tls,
  username: m.username,
  folder: m.folder,
  token_url: m.token_url ?? '',
  client_id: m.client_id ?? '',
  scope: m.scope ?? '',
  secret: '',
  refresh_token: '',
  enabled: m.enabled,
});

/** The form as the API takes it: an empty secret is left out, so a stored one is kept. */
function fieldsOf(form: Form): MailboxFields {
  const oauth = form.auth_method !== 'password';
  return {
    host: form.host.trim(),
    port: Number(form.port),
    tls: form.tls,
    username: form.username.trim(),
    folder: form.folder.trim() || 'INBOX',
    auth_method: form.auth_method,
    ...(oauth ? { token_url: form.token_url.trim() || null, client_id: form.client_id.trim() || null, scope: form.scope.trim() || null } : {}),
    ...(form.secret ? { secret: form.secret } : {}),
    ...(form.auth_method === 'oauth2-refresh-token' && form.refresh_token.trim() ? { refresh_token: form.refresh_token.trim() } : {}),
    enabled: form.enabled,
  };
}

const queryKey = ['admin', 'mailboxes'] as const;
/** A mailbox with its state in Mail Flow, as the table shows it. */
type Row = Mailbox & { state: string };

export function MailboxesPage() {
  const queryClient = useQueryClient();
  const rows = useQuery({ queryKey, queryFn: listMailboxes });
  // Each mailbox's state as Mail Flow has it (the ingester's own report).
  const flow = useQuery({ queryKey: [...queryKey, 'mail-flow'], queryFn: getMailFlow, refetchInterval: 5_000 });
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<Mailbox | null>(null);
  const [deleting, setDeleting] = useState<Mailbox | null>(null);
  const [form, setForm] = useState<Form>(blank);
  const save = useMutation({ mutationFn: (fields: MailboxFields) => (editing ? changeMailbox(editing.id, fields) : createMailbox(fields)) });
  const test = useMutation({ mutationFn: (fields: MailboxFields & { id?: number }) => testMailbox(fields) });
  const remove = useMutation({ mutationFn: (m: Mailbox) => deleteMailbox(m.id) });
  const reload = () => void queryClient.invalidateQueries({ queryKey });
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) => {
      setForm((f) => ({ ...f, [key]: value }));
      test.reset();
    };

  // The state goes into the rows (not a cell's closure): the table recomputes cells when its rows change.
  const listed = useMemo(
    () =>
      rows.data?.map((m): Row => {
        const watched = flow.data?.mailboxes.find((b) => b.source === m.source);
        const said = watched && watched.state.charAt(0).toUpperCase() + watched.state.slice(1);
        const state = !m.enabled ? 'Disabled' : !watched ? 'Not watched yet' : watched.last_error ? `${said}: ${watched.last_error}` : said!;
        return { ...m, state };
      }),
    [rows.data, flow.data],
  );
  const columns: ColumnDef<Row, unknown>[] = [
    { header: 'Mailbox', accessorKey: 'username' },
    { header: 'Server', id: 'server', accessorFn: (m) => `${m.host}:${m.port}${m.tls ? ' (TLS)' : ''}` },
    { header: 'Folder', accessorKey: 'folder' },
    { header: 'Sign-in', accessorKey: 'auth_method', cell: (c) => methodLabel(c.getValue() as string) },
    { header: 'State', accessorKey: 'state' },
    { header: 'Updated At', accessorKey: 'update_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
    {
      header: 'Actions',
      id: 'actions',
      cell: ({ row }) => (
        <span className={styles.actions}>
          <Button
            size="small"
            aria-label={`Edit: ${row.original.username}`}
            onClick={() => {
              setEditing(row.original);
              setForm(formOf(row.original));
              setOpen(true);
            }}
          >
            Edit
          </Button>
          <Button size="small" variant="ghost" aria-label={`Delete: ${row.original.username}`} onClick={() => setDeleting(row.original)}>
            Delete
          </Button>
        </span>
      ),
    },
  ];
  const choice = useColumnChoice('mailboxes', columns);

  const close = () => {
    setOpen(false);
    setEditing(null);
    setForm(blank);
    save.reset();
    test.reset();
  };
  const stored = (secret: 'has_secret' | 'has_refresh_token') => (editing?.[secret] ? 'Stored: leave empty to keep it' : undefined);
  const oauth = form.auth_method !== 'password';
  const outcome = test.data
    ? test.data.connected
      ? `Connected: ${test.data.messages} message${test.data.messages === 1 ? '' : 's'} in ${form.folder || 'INBOX'}.`
      : `Could not connect: ${test.data.detail}`
    : test.isError
      ? `Could not test: ${errorDetail(test.error) ?? 'please try again.'}`
      : '';

  return (
    <Page
      title="Mailboxes"
      actions={
        <Button variant="primary" onClick={() => setOpen(true)}>
          Add Mailbox
        </Button>
      }
    >
      <Card>
        <DataTable
          caption="Mailboxes"
          columns={columns}
          rows={listed}
          loading={rows.isFetching}
          error={rows.isError ? loadFailure('mailboxes', rows.error) : null}
          onRetry={() => void rows.refetch()}
          choice={choice}
        />
      </Card>
      <FormModal
        open={open}
        title={editing ? 'Edit Mailbox' : 'Add Mailbox'}
        onClose={close}
        onSubmit={() =>
          save.mutate(fieldsOf(form), {
            onSuccess: () => {
              notify.success(editing ? 'Mailbox changed' : 'Mailbox added');
              close();
              reload();
            },
          })
        }
        submitLabel={editing ? 'Save' : 'Add'}
        busy={save.isPending}
        error={save.isError ? (errorDetail(save.error) ?? 'Could not save. Please try again.') : null}
        className={styles.form}
      >
        <ChoiceField label="Sign-in" name="auth_method" options={methods} value={form.auth_method} onChange={(v) => set('auth_method')(v as Method)} />
        <div className={styles.row}>
          <TextField label="IMAP server" name="host" value={form.host} placeholder="outlook.office365.com" onChange={(e) => set('host')(e.target.value)} />
          <TextField label="Port" name="port" inputMode="numeric" value={form.port} onChange={(e) => set('port')(e.target.value)} className={styles.port} />
        </div>
        <CheckField label="TLS" name="tls" checked={form.tls} onChange={set('tls')} />
        <TextField
          label="Mailbox (user)"
          name="username"
          value={form.username}
          placeholder="disputes@bank.example"
          onChange={(e) => set('username')(e.target.value)}
        />
        <TextField label="Folder" name="folder" value={form.folder} onChange={(e) => set('folder')(e.target.value)} />
        {oauth && (
          <>
            <TextField
              label="Token endpoint"
              name="token_url"
              value={form.token_url}
              placeholder="https://login.microsoftonline.com/TENANT/oauth2/v2.0/token"
              onChange={(e) => set('token_url')(e.target.value)}
            />
            <div className={styles.pair}>
              <TextField label="Client ID" name="client_id" value={form.client_id} onChange={(e) => set('client_id')(e.target.value)} />
              <TextField
                label="Scope"
                name="scope"
                value={form.scope}
                placeholder={form.auth_method === 'oauth2-client-credentials' ? 'https://outlook.office365.com/.default' : 'optional'}
                onChange={(e) => set('scope')(e.target.value)}
              />
            </div>
          </>
        )}
        <TextField
          label={oauth ? 'Client secret' : 'Password'}
          name="secret"
          type="password"
          autoComplete="new-password"
          value={form.secret}
          placeholder={stored('has_secret')}
          onChange={(e) => set('secret')(e.target.value)}
        />
        {form.auth_method === 'oauth2-refresh-token' && (
          <TextField
            label="Refresh token"
            name="refresh_token"
            type="password"
            autoComplete="off"
            value={form.refresh_token}
            placeholder={stored('has_refresh_token')}
            onChange={(e) => set('refresh_token')(e.target.value)}
          />
        )}
        <CheckField label="Watch this mailbox" name="enabled" checked={form.enabled} onChange={set('enabled')} />
        <div className={styles.test}>
          <Button loading={test.isPending} onClick={() => test.mutate({ ...fieldsOf(form), ...(editing ? { id: editing.id } : {}) })}>
            Test connection
          </Button>
          <p role="status" className={test.data?.connected ? styles.ok : styles.failed}>
            {outcome}
          </p>
        </div>
      </FormModal>
      <FormModal
        open={deleting !== null}
        title="Delete Mailbox"
        onClose={() => (setDeleting(null), remove.reset())}
        onSubmit={() =>
          remove.mutate(deleting!, {
            onSuccess: () => {
              notify.success('Mailbox deleted');
              setDeleting(null);
              reload();
            },
          })
        }
        submitLabel="Delete"
        busy={remove.isPending}
        error={remove.isError ? (errorDetail(remove.error) ?? 'Could not delete. Please try again.') : null}
      >
        <p>{deleting ? `Delete ${deleting.username} at ${deleting.host}? Mail arriving there is no longer read; what was read stays.` : null}</p>
      </FormModal>
    </Page>
  );
}
