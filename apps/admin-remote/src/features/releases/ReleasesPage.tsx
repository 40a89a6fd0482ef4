// Releases: each remote's current release and, while one runs, its canary (the share of operators
// it reaches), who deployed each and when, and how many operators each failed to load for. A canary
// past the failure threshold rolls back by itself; Promote and Roll back (here, or `pnpm remote
// promote` and `rollback`, by the same rules and audited alike) end one, and Roll back returns a
// remote to its previous good release.
// Below, the origins each remote's releases may come from: the configured ones (REMOTE_ORIGINS)
// and those an admin allows here; a release from anywhere else is refused and never served.
import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { remoteNames } from '@ejdesk/contract';
import { errorDetail, listRemoteSlots, loadFailure, switchRemote, type RemoteSlot } from '@ejdesk/api-client';
import {
  Button,
  Card,
  ChoiceField,
  DataTable,
  formatDateTime,
  FormModal,
  Note,
  notify,
  Page,
  Panel,
  TextField,
  useColumnChoice,
  type ColumnDef,
} from '@ejdesk/ui';
import { allowOrigin, listAllowedOrigins, removeAllowedOrigin, type AllowedOrigin } from './allowed-origins.ts';
import styles from './releases.module.css';

const columns: ColumnDef<RemoteSlot, unknown>[] = [
  { header: 'Remote', accessorKey: 'name' },
  { header: 'Current Release', id: 'current', accessorFn: (s) => s.current.version },
  { header: 'Deployed By', id: 'current_by', accessorFn: (s) => s.current.deployed_by },
  { header: 'Deployed At', id: 'current_at', accessorFn: (s) => formatDateTime(String(s.current.deployed_at)), meta: { nowrap: true } },
  { header: 'Load Failures', id: 'current_failures', accessorFn: (s) => s.current.load_failures, meta: { numeric: true } },
  { header: 'Canary', id: 'canary', accessorFn: (s) => (s.canary ? `${s.canary.version} for ${s.canary.percent}% of operators` : 'None') },
  { header: 'Canary By', id: 'canary_by', accessorFn: (s) => s.canary?.deployed_by ?? '' },
  { header: 'Canary Since', id: 'canary_since', accessorFn: (s) => (s.canary ? formatDateTime(String(s.canary.since)) : ''), meta: { nowrap: true } },
  { header: 'Canary Load Failures', id: 'canary_failures', accessorFn: (s) => s.canary?.load_failures ?? '', meta: { numeric: true } },
];

const remoteOptions = remoteNames.map((name) => ({ value: name, label: name }));
const originsKey = ['admin', 'releases', 'origins'] as const;

/** The allowed origins: listed, one allowed through a form, one an admin allowed removed after a confirmation. */
function AllowedOrigins() {
  const queryClient = useQueryClient();
  const origins = useQuery({ queryKey: originsKey, queryFn: listAllowedOrigins });
  const [adding, setAdding] = useState(false);
  const [form, setForm] = useState({ remote: remoteNames[0] as string, origin: '' });
  const [removing, setRemoving] = useState<AllowedOrigin | null>(null);
  const add = useMutation({ mutationFn: allowOrigin });
  const remove = useMutation({ mutationFn: (o: AllowedOrigin) => removeAllowedOrigin(o.id!) });
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'releases'] });
  const close = () => {
    setAdding(false);
    setForm({ remote: remoteNames[0], origin: '' });
    add.reset();
  };
  // Made once: a cell renderer made anew on each render would remount its button under the pointer.
  const originColumns = useMemo<ColumnDef<AllowedOrigin, unknown>[]>(
    () => [
      { header: 'Remote', accessorKey: 'remote' },
      { header: 'Origin', accessorKey: 'origin' },
      { header: 'Allowed By', id: 'allowed_by', accessorFn: (o) => (o.configured ? 'REMOTE_ORIGINS (configuration)' : (o.created_by ?? 'a removed user')) },
      { header: 'Allowed At', id: 'allowed_at', accessorFn: (o) => (o.create_at ? formatDateTime(String(o.create_at)) : ''), meta: { nowrap: true } },
      {
        header: 'Actions',
        id: 'actions',
        cell: ({ row }) =>
          row.original.configured ? (
            <Note inline>Changed in the configuration</Note>
          ) : (
            <Button
              size="small"
              variant="ghost"
              aria-label={`Remove: ${row.original.origin} for ${row.original.remote}`}
              onClick={() => setRemoving(row.original)}
            >
              Remove
            </Button>
          ),
      },
    ],
    [],
  );
  const choice = useColumnChoice('allowed-origins', originColumns);
  return (
    <Panel
      title="Allowed Origins"
      className={styles.origins}
      actions={
        <Button variant="primary" onClick={() => setAdding(true)}>
          Allow Origin
        </Button>
      }
    >
      <Note className={styles.note}>
        A remote’s releases are deployed and served only from these origins; the console’s content security policy names them and no other. A release elsewhere
        is refused, and one already recorded there is no longer served.
      </Note>
      <DataTable
        caption="Allowed Origins"
        columns={originColumns}
        rows={origins.data}
        loading={origins.isFetching}
        error={origins.isError ? loadFailure('allowed origins', origins.error) : null}
        onRetry={() => void origins.refetch()}
        choice={choice}
      />
      <FormModal
        open={adding}
        title="Allow Origin"
        onClose={close}
        onSubmit={() =>
          add.mutate(form, {
            onSuccess: (added) => {
              notify.success(`${added.origin} allowed for ${added.remote}`);
              close();
              reload();
            },
          })
        }
        submitLabel="Allow"
        busy={add.isPending}
        canSubmit={form.origin.trim() !== ''}
        error={add.isError ? (errorDetail(add.error) ?? 'Could not allow it. Please try again.') : null}
        className={styles.form}
      >
        <ChoiceField label="Remote" name="remote" options={remoteOptions} value={form.remote} onChange={(remote) => setForm((f) => ({ ...f, remote }))} />
        <TextField
          label="Origin (scheme, host and port)"
          name="origin"
          inputMode="url"
          autoComplete="off"
          placeholder="https://cdn.bank.example"
          aria-describedby="allowed-origin-hint"
          value={form.origin}
          onChange={(e) => setForm((f) => ({ ...f, origin: e.target.value }))}
        />
        <Note id="allowed-origin-hint">
          Where this remote’s team publishes its builds. Its code runs in every console, admins’ included: allow only an origin your bank controls.
        </Note>
      </FormModal>
      <FormModal
        open={removing !== null}
        title="Remove Allowed Origin"
        onClose={() => (setRemoving(null), remove.reset())}
        onSubmit={() =>
          remove.mutate(removing!, {
            onSuccess: () => {
              notify.success('Origin removed');
              setRemoving(null);
              reload();
            },
          })
        }
        submitLabel="Remove"
        busy={remove.isPending}
        error={remove.isError ? (errorDetail(remove.error) ?? 'Could not remove it. Please try again.') : null}
      >
        <p>
          {removing
            ? `Stop allowing ${removing.origin} for ${removing.remote}? Its releases there are refused at deploy and no longer served: if its current release is there, its screens are unavailable until a release from an allowed origin is deployed.`
            : null}
        </p>
      </FormModal>
    </Panel>
  );
}

type Asked = { slot: RemoteSlot; action: 'rollback' | 'promote' };

/** What a switch does, asked before it is done. */
const question = ({ slot, action }: Asked) =>
  action === 'promote'
    ? `Promote ${slot.name} ${slot.canary?.version ?? ''} to every operator? ${slot.current.version} is no longer served.`
    : slot.canary
      ? `Roll back the canary ${slot.canary.version} of ${slot.name}? Every operator gets ${slot.current.version} again.`
      : `Roll back ${slot.name} ${slot.current.version} to its previous good release, for every operator?`;

export function ReleasesPage() {
  const queryClient = useQueryClient();
  const slots = useQuery({ queryKey: ['admin', 'releases'], queryFn: listRemoteSlots });
  const [asked, setAsked] = useState<Asked | null>(null);
  const switching = useMutation({ mutationFn: ({ slot, action }: Asked) => switchRemote(slot.name, action) });
  // Made once: a cell renderer made anew on each render would remount its buttons under the pointer.
  const withActions = useMemo<ColumnDef<RemoteSlot, unknown>[]>(
    () => [
      ...columns,
      {
        header: 'Actions',
        id: 'actions',
        cell: ({ row }) => (
          <span className={styles.actions}>
            {row.original.canary && (
              <Button
                size="small"
                aria-label={`Promote: ${row.original.name} ${row.original.canary.version}`}
                onClick={() => setAsked({ slot: row.original, action: 'promote' })}
              >
                Promote
              </Button>
            )}
            <Button
              size="small"
              variant="ghost"
              aria-label={`Roll back: ${row.original.name}`}
              onClick={() => setAsked({ slot: row.original, action: 'rollback' })}
            >
              Roll back
            </Button>
          </span>
        ),
      },
    ],
    [],
  );
  const choice = useColumnChoice('releases', withActions);
  const close = () => {
    setAsked(null);
    switching.reset();
  };
  return (
    <Page title="Releases">
      <FormModal
        open={asked !== null}
        title={asked?.action === 'promote' ? 'Promote the Canary' : 'Roll Back'}
        onClose={close}
        onSubmit={() =>
          switching.mutate(asked!, {
            onSuccess: ({ name, from, to }) => {
              notify.success(`${name}: ${from ?? 'none'} → ${to}.`);
              close();
              void queryClient.invalidateQueries({ queryKey: ['admin', 'releases'] });
            },
          })
        }
        submitLabel={asked?.action === 'promote' ? 'Promote' : 'Roll back'}
        busy={switching.isPending}
        error={switching.isError ? (errorDetail(switching.error) ?? 'It could not be done. Please try again.') : null}
      >
        <p>{asked ? question(asked) : null}</p>
      </FormModal>
      <Card>
        <DataTable
          caption="Releases"
          columns={withActions}
          rows={slots.data}
          loading={slots.isFetching}
          error={slots.isError ? loadFailure('releases', slots.error) : null}
          onRetry={() => void slots.refetch()}
          choice={choice}
        />
      </Card>
      <AllowedOrigins />
    </Page>
  );
}
