// One admin list screen: the table, an Add button and its modal. The modal closes and clears on
// Cancel or on success (the list then reloads) and stays open, with the reason, on failure.
import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorDetail, loadFailure } from '@ejdesk/api-client';
import { Button, Card, DataTable, FormModal, notify, Page, TextField, useColumnChoice } from '@ejdesk/ui';
import type { AdminListConfig } from './lists.tsx';
import styles from './admin-lists.module.css';

export function AdminListPage<Row, Field extends string>({ list }: { list: AdminListConfig<Row, Field> }) {
  const queryClient = useQueryClient();
  const rows = useQuery({ queryKey: list.queryKey, queryFn: list.list });
  const choice = useColumnChoice(list.queryKey.at(-1)!, list.columns);
  const empty = () => Object.fromEntries(list.fields.map((f) => [f.name, f.options?.[0]?.value ?? ''])) as Record<Field, string>;
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(empty);
  const create = useMutation({ mutationFn: list.create });

  const close = () => {
    setOpen(false);
    setValues(empty());
    create.reset();
  };
  const submit = () => {
    create.mutate(values, {
      onSuccess: () => {
        notify.success(list.createdMessage);
        close();
        void queryClient.invalidateQueries({ queryKey: list.queryKey });
      },
      onError: (error) => console.error(`${list.modalTitle} failed`, error),
    });
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
          columns={list.columns}
          rows={rows.data}
          loading={rows.isFetching}
          error={rows.isError ? loadFailure(list.title.toLowerCase(), rows.error) : null}
          onRetry={() => void rows.refetch()}
          choice={choice}
        />
      </Card>
      <FormModal
        open={open}
        title={list.modalTitle}
        onClose={close}
        onSubmit={submit}
        submitLabel="Submit"
        busy={create.isPending}
        error={create.isError ? (errorDetail(create.error) ?? 'Could not save. Please try again.') : null}
        className={styles.form}
      >
        {list.fields.map((field) =>
          field.options ? (
            <ChoiceField key={field.name} label={field.label} name={field.name} options={field.options} value={values[field.name]} onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))} />
          ) : (
            <TextField
              key={field.name}
              label={field.label}
              name={field.name}
              type={field.type ?? 'text'}
              autoComplete="off"
              value={values[field.name]}
              onChange={(e) => setValues((v) => ({ ...v, [field.name]: e.target.value }))}
            />
          ),
        )}
      </FormModal>
    </Page>
  );
}

/** A labelled native select, styled as the text inputs. */
function ChoiceField(props: { label: string; name: string; value: string; options: readonly { value: string; label: string }[]; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="ej-field">
      <label className="ej-field__label" htmlFor={id}>
        {props.label}
      </label>
      <select id={id} name={props.name} className="ej-input" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
