// One admin list screen: the table, an Add button and its modal, and (for lists that allow it) Edit
// and Delete on each row. The form modal closes and clears on Cancel or on success (the list then
// reloads) and stays open, with the reason, on failure; Delete asks first. A problem with one field
// (an empty one, or the server's word on it) is said in plain words under that field, which then
// has the cursor; the form is not sent with a required field empty.
import { useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorDetail, isRequestMade, loadFailure } from '@ejdesk/api-client';
import { Button, Card, ChoiceField, CopyableId, DataTable, FormModal, Modal, notify, Page, TextField, useColumnChoice, type ColumnDef } from '@ejdesk/ui';
import type { AdminListConfig } from './lists.tsx';
import styles from './admin-lists.module.css';

/** A choice among what another list holds, read when shown; the value kept is offered even if gone from it. */
function ListChoice({
  label,
  name,
  choices,
  value,
  onChange,
  problem,
}: {
  label: string;
  name: string;
  choices: NonNullable<AdminListConfig<unknown, string>['fields'][number]['choices']>;
  value: string;
  onChange: (value: string) => void;
  problem: string | undefined;
}) {
  const listed = useQuery({ queryKey: choices.queryKey, queryFn: choices.load });
  const options = listed.data ?? [];
  const kept = value && !options.some((o) => o.value === value) ? [{ value, label: value }] : [];
  const shown = [{ value: '', label: listed.isPending ? 'Loading…' : choices.none }, ...kept, ...options];
  return <ChoiceField label={label} name={name} value={value} options={shown} onChange={onChange} problem={problem} />;
}

/** A label as a sentence says it: its words before any bracket, lower-case but for acronyms (MSP, TAT). */
const inWords = (label: string) =>
  label
    .replace(/\s*\(.*$/, '')
    .split(' ')
    .map((word) => (/^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()))
    .join(' ');

/** The server's word on one field ("body 'bank_name': cannot be empty.", "body: 'msp' is required."): the field and the words. */
function fieldProblem(detail: string | null | undefined, names: readonly string[]): { field: string; words: string } | null {
  const match = /^body(?: '([^']+)')?: (?:'([^']+)' )?(.+?)\.?$/.exec(detail ?? '');
  const field = match?.[1] ?? match?.[2];
  if (!match || !field || !names.includes(field)) return null;
  const words = match[2] ? `${match[3]}` : match[3]!;
  return { field, words: `${words.charAt(0).toUpperCase()}${words.slice(1)}.` };
}

export function AdminListPage<Row extends { id: number }, Field extends string>({ list }: { list: AdminListConfig<Row, Field> }) {
  const queryClient = useQueryClient();
  const rows = useQuery({ queryKey: list.queryKey, queryFn: list.list });
  const empty = () => Object.fromEntries(list.fields.map((f) => [f.name, f.options?.[0]?.value ?? ''])) as Record<Field, string>;
  const [open, setOpen] = useState(false);
  /** The row the form changes; null while it adds one. */
  const [editing, setEditing] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [values, setValues] = useState(empty);
  const save = useMutation({
    mutationFn: (v: Record<Field, string>) => (editing && list.rows?.change ? list.rows.change.save(editing.id, v) : list.create(v)),
  });
  const remove = useMutation({ mutationFn: (row: Row) => list.rows!.remove.remove(row.id) });
  const reload = () => void queryClient.invalidateQueries({ queryKey: list.queryKey });

  const removeLabel = list.rows?.remove.label ?? 'Delete';
  /** What the last creation answered that is shown this once (a deploy token). */
  const [shown, setShown] = useState<ReturnType<NonNullable<typeof list.shownOnce>> | null>(null);
  const columns = useMemo((): ColumnDef<Row, unknown>[] => {
    const rowActions = list.rows;
    if (!rowActions) return list.columns;
    const actions: ColumnDef<Row, unknown> = {
      header: 'Actions',
      id: 'actions',
      cell: ({ row }) => (
        <span className={styles.actions}>
          {rowActions.change && (
            <Button
              size="small"
              // The name starts with the button's own word (WCAG 2.5.3), then whose row it is.
              aria-label={`Edit: ${rowActions.describe(row.original)}`}
              onClick={() => {
                setEditing(row.original);
                setValues(
                  rowActions.change!.fill?.(row.original) ??
                    (Object.fromEntries(list.fields.map((f) => [f.name, String((row.original as Record<string, unknown>)[f.name] ?? '')])) as Record<
                      Field,
                      string
                    >),
                );
                setOpen(true);
              }}
            >
              Edit
            </Button>
          )}
          <Button size="small" variant="ghost" aria-label={`${removeLabel}: ${rowActions.describe(row.original)}`} onClick={() => setDeleting(row.original)}>
            {removeLabel}
          </Button>
        </span>
      ),
    };
    return [...list.columns, actions];
  }, [list, removeLabel]);
  const choice = useColumnChoice(list.queryKey.at(-1)!, columns);

  // Problems found before sending (an empty required field), by field.
  const [missing, setMissing] = useState<Partial<Record<Field, string>>>({});
  const names = list.fields.map((f) => f.name as string);
  const serverProblem = save.isError ? fieldProblem(errorDetail(save.error), names) : null;
  const problemOf = (name: Field) => missing[name] ?? (serverProblem?.field === name ? serverProblem.words : undefined);
  const form = useRef<HTMLDivElement>(null);
  const focusField = (name: string) => requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus());

  /** A field's new value: its problem, if one was said, goes with the old value. */
  const setField = (name: Field) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setMissing((m) => ({ ...m, [name]: undefined }));
  };
  const close = () => {
    setOpen(false);
    setEditing(null);
    setValues(empty());
    setMissing({});
    save.reset();
  };
  /** Optional on edit: a field whose edit hint says it may stay empty (the stored password). */
  const required = (field: (typeof list.fields)[number]) => !field.optional && !(editing && field.hintOnEdit) && !field.options;
  const submit = () => {
    const empties = list.fields.filter((f) => required(f) && !values[f.name].trim());
    setMissing(Object.fromEntries(empties.map((f) => [f.name, `Enter the ${inWords(f.label)}.`])) as Partial<Record<Field, string>>);
    if (empties.length) {
      focusField(empties[0]!.name);
      return;
    }
    save.mutate(values, {
      onSuccess: (created) => {
        // Held by four eyes: nothing changed yet; a second admin approves it on Approvals.
        if (isRequestMade(created)) {
          notify.info(created.detail);
          close();
          return;
        }
        notify.success(editing ? list.rows!.change!.changedMessage : list.createdMessage);
        if (!editing && list.shownOnce) setShown(list.shownOnce(created as never));
        close();
        reload();
      },
      onError: (error) => {
        const onField = fieldProblem(errorDetail(error), names);
        if (onField) focusField(onField.field);
        else console.error(`${list.modalTitle} failed`, error);
      },
    });
  };
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  return (
    <Page
      title={list.title}
      actions={
        <Button variant="primary" onClick={() => setOpen(true)}>
          {list.addLabel}
        </Button>
      }
    >
      <Card>
        <DataTable
          caption={list.title}
          columns={columns}
          rows={rows.data}
          loading={rows.isFetching}
          error={rows.isError ? loadFailure(list.title.toLowerCase(), rows.error) : null}
          onRetry={() => void rows.refetch()}
          choice={choice}
        />
      </Card>
      <FormModal
        open={open}
        title={editing && list.rows?.change ? list.rows.change.modalTitle : list.modalTitle}
        onClose={close}
        onSubmit={submit}
        submitLabel={editing ? 'Save' : 'Submit'}
        busy={save.isPending}
        error={save.isError && !serverProblem ? (errorDetail(save.error) ?? 'Could not save. Please try again.') : null}
        className={styles.form}
      >
        <div ref={form} className={styles.fields}>
          {list.fields.map((field) =>
            field.choices ? (
              <ListChoice
                key={field.name}
                label={field.label}
                name={field.name}
                choices={field.choices}
                value={values[field.name]}
                onChange={setField(field.name)}
                problem={problemOf(field.name)}
              />
            ) : field.options ? (
              <ChoiceField
                key={field.name}
                label={field.label}
                name={field.name}
                options={field.options}
                value={values[field.name]}
                onChange={setField(field.name)}
                problem={problemOf(field.name)}
              />
            ) : (
              <TextField
                key={field.name}
                label={field.label}
                name={field.name}
                type={field.type ?? 'text'}
                autoComplete={field.type === 'password' ? 'new-password' : 'off'}
                value={values[field.name]}
                onChange={(e) => setField(field.name)(e.target.value)}
                hint={(editing && field.hintOnEdit) || field.hint}
                problem={problemOf(field.name)}
              />
            ),
          )}
        </div>
      </FormModal>
      {list.rows && (
        <FormModal
          open={deleting !== null}
          title={list.rows.remove.title}
          onClose={closeDelete}
          onSubmit={() =>
            remove.mutate(deleting!, {
              onSuccess: (removed) => {
                if (isRequestMade(removed)) notify.info(removed.detail);
                else notify.success(list.rows!.remove.removedMessage);
                closeDelete();
                reload();
              },
            })
          }
          submitLabel={removeLabel}
          busy={remove.isPending}
          error={remove.isError ? (errorDetail(remove.error) ?? `Could not ${removeLabel.toLowerCase()}. Please try again.`) : null}
        >
          <p>
            {deleting
              ? `${removeLabel} ${list.rows.describe(deleting)}? ${list.rows.remove.consequence ?? 'Mail processed after this no longer follows it.'}`
              : null}
          </p>
        </FormModal>
      )}
      <Modal
        open={shown !== null}
        title={shown?.title ?? ''}
        onClose={() => setShown(null)}
        footer={
          <Button variant="primary" onClick={() => setShown(null)}>
            Done
          </Button>
        }
      >
        {shown && (
          <>
            <p className={styles.shownOnce}>
              <CopyableId text={shown.secret} label={shown.label} />
            </p>
            <p>{shown.note}</p>
          </>
        )}
      </Modal>
    </Page>
  );
}
