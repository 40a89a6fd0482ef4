// One paginated email list: the shared list page, configured by a row of lists.ts.
import { useMemo } from 'react';
import { getEmailPage, isNotFound, loadFailure, type EmailListRow } from '@ejdesk/api-client';
import { formatDateTime, PaginatedListPage, TextLink, type ColumnDef } from '@ejdesk/ui';
import { toApiMonth } from '../../lib/month.ts';
import type { EmailListConfig } from './lists.ts';

/** The URL keeps the picker's 2026-11; the API takes the dashboard's 2026-Nov. */
function withApiMonth(params: Record<string, string | number>): Record<string, string | number> {
  if (typeof params.month !== 'string' || !params.month) return params;
  return { ...params, month: toApiMonth(params.month) ?? params.month };
}

export function EmailListPage({ list }: { list: EmailListConfig }) {
  const columns = useMemo<ColumnDef<EmailListRow, unknown>[]>(
    () => [
      { header: 'Email From', accessorKey: 'email_from' },
      { header: 'Email Subject', accessorKey: 'subject_name' },
      { header: 'Data Creation', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true, sortKey: 'create_at' } },
      { header: 'Last Update', accessorKey: 'update_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true, sortKey: 'update_at' } },
      {
        header: list.linkColumn,
        id: 'link',
        cell: ({ row }) => (
          <TextLink to={list.linkTo(row.original.id)} aria-label={`Show Data: ${row.original.subject_name}`}>
            Show Data
          </TextLink>
        ),
      },
    ],
    [list],
  );
  const allEmail = list.variant === 'all-email';
  return (
    <PaginatedListPage
      title={list.title}
      table={list.path.slice(1)}
      queryKey={`emails/${list.list}`}
      filters={list.filters}
      columns={columns}
      load={(params, signal) => getEmailPage(list.list, withApiMonth(params), signal)}
      total={allEmail ? 'heading' : 'inline'}
      resetButton={allEmail}
      sizeLabel={allEmail ? (n) => `${n} per page` : undefined}
      describeFailure={(error) => loadFailure('list', error)}
      isNotFound={isNotFound}
      defaultOrdering="-create_at"
      live
    />
  );
}
