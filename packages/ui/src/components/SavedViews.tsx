// The "Views" menu of a list: open a saved view (its filters, order, page size and columns), save
// the list as it is under a name, replace, rename or delete one's own views, choose the default
// the list opens with. A view is a link too (?query), so it can be opened in a new tab.
import { useEffect, useRef, useState } from 'react';
import { useMenu } from './menu.ts';
import { useSearchParams } from 'react-router-dom';
import type { ColumnChoiceState } from '../column-choice.ts';
import { useSavedViews, type SavedView, type SavedViewFields } from '../saved-views.ts';
import { CheckField, TextField } from './Field.tsx';
import { FormModal } from './Modal.tsx';
import { notify } from './Toaster.tsx';

export interface SavedViewsProps {
  /** The list's name, as its column choice names it ('email', 'text-email-data', ...). */
  list: string;
  /** The list's title, for labels ("Views of EJ error data"). */
  title: string;
  choice: ColumnChoiceState;
  /** The query parameters the list understands (its filters, 'ordering', 'page_size'). */
  params: readonly string[];
}

/** The list's query as a view keeps it: without the page, in a stable order. */
const viewQueryOf = (search: URLSearchParams) => {
  const kept = new URLSearchParams([...search].filter(([name]) => name !== 'page'));
  kept.sort();
  return kept.toString();
};

type Editing = { mode: 'save' } | { mode: 'rename'; view: SavedView } | { mode: 'delete'; view: SavedView } | null;

export function SavedViews({ list, title, choice, params }: SavedViewsProps) {
  const { store, views, change } = useSavedViews(list);
  const [search, setSearch] = useSearchParams();
  const [editing, setEditing] = useState<Editing>(null);
  // Held open while its dialog is in front.
  const { open, setOpen, root, button: toggleButton, buttonProps, panelProps } = useMenu(editing !== null);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [isDefault, setIsDefault] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // What opening a view left out because the list no longer has it.
  const [dropped, setDropped] = useState<string | null>(null);
  const current = viewQueryOf(search);
  const all = views.data ?? [];
  const showing = all.find((v) => viewQueryOf(new URLSearchParams(v.query)) === current && sameColumns(v, choice));

  const openView = (view: SavedView, replace = false) => {
    const query = new URLSearchParams(view.query);
    const gone = [...new Set([...query.keys()].filter((key) => !params.includes(key)))];
    for (const key of gone) query.delete(key);
    const known = new Set(choice.columns.map((c) => c.id));
    const goneColumns = view.columns ? view.columns.order.filter((id) => !known.has(id)) : [];
    if (view.columns) choice.choose(view.columns);
    else if (!choice.isDefault) choice.reset();
    setSearch(query, { replace });
    const parts = [...gone.map((key) => `the filter "${key}"`), ...goneColumns.map((id) => `the column "${id}"`)];
    setDropped(parts.length ? `“${view.name}” opened without ${parts.join(', ')}: the list no longer has ${parts.length > 1 ? 'them' : 'it'}.` : null);
    setOpen(false);
  };

  // The default view, when the list is opened without a query (once per visit: Reset stays reset).
  const openedFor = useRef<string | null>(null);
  const defaultView = all.find((v) => v.default);
  useEffect(() => {
    if (!views.isSuccess || openedFor.current === list) return;
    openedFor.current = list;
    // A navigation (the URL is the list's state), once, when the views first arrive for this list.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (defaultView && search.toString() === '') openView(defaultView, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [views.isSuccess, list]);

  if (!store) return null;

  /** The list as it is now, under the view's name and sharing. */
  const fieldsNow = (base: Pick<SavedViewFields, 'name' | 'shared' | 'default'>): SavedViewFields => ({
    ...base,
    query: current,
    columns: choice.isDefault
      ? null
      : {
          order: choice.columnOrder,
          hidden: choice.columns.filter((c) => !c.visible).map((c) => c.id),
          ...(Object.keys(choice.widths).length ? { widths: choice.widths } : {}),
        },
  });

  const begin = (next: Editing) => {
    setFailure(null);
    setName(next && next.mode !== 'save' ? next.view.name : '');
    setShared(next && next.mode !== 'save' ? next.view.shared : false);
    setIsDefault(next && next.mode !== 'save' ? next.view.default : false);
    setEditing(next);
  };
  // Done or cancelled: the menu closes too, and the focus goes back to its button.
  const close = () => {
    setEditing(null);
    setOpen(false);
    toggleButton.current?.focus();
  };
  const act = (c: Parameters<typeof change.mutate>[0], done: string, onDone?: () => void) =>
    change.mutate(c, {
      onSuccess: () => {
        notify.success(done);
        onDone?.();
      },
      onError: (error) => (editing ? setFailure(store.describe(error)) : notify.error(store.describe(error))),
    });

  const submit = () => {
    if (!editing) return;
    const trimmed = name.trim();
    if (editing.mode === 'save') {
      act({ kind: 'create', fields: fieldsNow({ name: trimmed, shared, default: isDefault }) }, `View “${trimmed}” saved.`, close);
    } else if (editing.mode === 'rename') {
      const { view } = editing;
      act(
        { kind: 'change', id: view.id, fields: { name: trimmed, query: view.query, columns: view.columns, shared: view.shared, default: view.default } },
        `View renamed “${trimmed}”.`,
        close,
      );
    } else {
      act({ kind: 'remove', id: editing.view.id }, `View “${editing.view.name}” deleted.`, close);
    }
  };
  const editable = (view: SavedView) => view.mine || (view.shared && store.canShare);

  return (
    <div className="ej-views" ref={root}>
      <button {...buttonProps}>{showing ? `View: ${showing.name}` : 'Views'}</button>
      {open && (
        <div {...panelProps} className="ej-views__panel" role="group" aria-label={`Saved views of ${title}`}>
          {views.isError && <p className="ej-state ej-state--error">The saved views could not be read.</p>}
          {views.isSuccess && all.length === 0 && <p className="ej-views__empty">No saved views yet: save the list as it is now to come back to it.</p>}
          {all.length > 0 && (
            <ul className="ej-views__list">
              {all.map((view) => (
                <li key={view.id} className="ej-views__item">
                  <a
                    className="ej-views__open"
                    href={`?${view.query}`}
                    aria-current={view === showing ? 'true' : undefined}
                    onClick={(event) => {
                      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                      event.preventDefault();
                      openView(view);
                    }}
                  >
                    {view.name}
                  </a>
                  <span className="ej-views__tags">
                    {view.default && <span className="ej-views__tag">Default</span>}
                    {view.shared && <span className="ej-views__tag">{view.mine ? 'Shared' : `Shared by ${view.owner}`}</span>}
                  </span>
                  <span className="ej-views__actions">
                    <button
                      type="button"
                      className="ej-button ej-button--ghost ej-button--small"
                      aria-label={view.default ? `Stop opening ${title} with ${view.name}` : `Open ${title} with ${view.name}`}
                      onClick={() =>
                        act(
                          { kind: 'default', id: view.id, on: !view.default },
                          view.default ? `${title} no longer opens with “${view.name}”.` : `${title} now opens with “${view.name}”.`,
                        )
                      }
                    >
                      {view.default ? 'Not default' : 'Make default'}
                    </button>
                    {editable(view) &&
                      (
                        [
                          [
                            'Replace',
                            `Replace ${view.name} with the list as it is now`,
                            () =>
                              act(
                                { kind: 'change', id: view.id, fields: fieldsNow({ name: view.name, shared: view.shared, default: view.default }) },
                                `View “${view.name}” replaced.`,
                              ),
                          ],
                          ['Rename', `Rename ${view.name}`, () => begin({ mode: 'rename', view })],
                          ['Delete', `Delete ${view.name}`, () => begin({ mode: 'delete', view })],
                        ] as const
                      ).map(([label, described, onClick]) => (
                        <button key={label} type="button" className="ej-button ej-button--ghost ej-button--small" aria-label={described} onClick={onClick}>
                          {label}
                        </button>
                      ))}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <div className="ej-views__footer">
            <button type="button" className="ej-button ej-button--primary ej-button--small" onClick={() => begin({ mode: 'save' })}>
              Save view…
            </button>
          </div>
        </div>
      )}
      {dropped && (
        <p className="ej-views__dropped" role="status">
          {dropped}{' '}
          <button type="button" className="ej-button ej-button--ghost ej-button--small" onClick={() => setDropped(null)}>
            Dismiss
          </button>
        </p>
      )}
      <FormModal
        open={editing !== null}
        title={
          editing?.mode === 'save'
            ? `Save a view of ${title}`
            : editing?.mode === 'rename'
              ? `Rename “${editing.view.name}”`
              : `Delete “${editing?.view.name ?? ''}”?`
        }
        onClose={close}
        onSubmit={submit}
        submitLabel={editing?.mode === 'save' ? 'Save view' : editing?.mode === 'rename' ? 'Rename' : 'Delete view'}
        busy={change.isPending}
        canSubmit={editing?.mode === 'delete' || name.trim() !== ''}
        error={failure}
        className="ej-views__form"
      >
        {editing?.mode === 'delete' ? (
          <p>
            “{editing.view.name}” is deleted for {editing.view.shared ? 'everyone it is shared with' : 'you'}. The list itself does not change.
          </p>
        ) : (
          <>
            <TextField label="Name" name="view-name" value={name} maxLength={80} required autoFocus onChange={(e) => setName(e.target.value)} />
            {editing?.mode === 'save' && (
              <>
                {store.canShare && <CheckField label="Shared with everyone" name="view-shared" checked={shared} onChange={setShared} />}
                <CheckField label={`Open ${title} with this view`} name="view-default" checked={isDefault} onChange={setIsDefault} />
              </>
            )}
          </>
        )}
      </FormModal>
    </div>
  );
}

/** The view's columns are the ones showing (null: the list's own). */
function sameColumns(view: SavedView, choice: ColumnChoiceState) {
  if (!view.columns) return choice.isDefault;
  const shown = choice.columns.filter((c) => c.visible).map((c) => c.id);
  const known = new Set(choice.columns.map((c) => c.id));
  const viewShown = view.columns.order.filter((id) => known.has(id) && !view.columns!.hidden.includes(id));
  return shown.join(',') === viewShown.join(',');
}
