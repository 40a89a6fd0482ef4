// The two admin lists differ only in data: this table of columns, endpoints and form fields.
import {
  createBankMsp,
  createBankPassword,
  listBankMsps,
  listBankPasswords,
  type BankMsp,
  type BankPassword,
} from '@ejdesk/api-client';
import { formatDateTime, type ColumnDef } from '@ejdesk/ui';
import { RevealablePassword } from './RevealablePassword.tsx';

export interface AdminListConfig<Row, Field extends string> {
  title: string;
  queryKey: readonly string[];
  list: () => Promise<Row[]>;
  columns: ColumnDef<Row, unknown>[];
  addLabel: string;
  modalTitle: string;
  fields: readonly { name: Field; label: string; type?: 'text' | 'password' }[];
  create: (values: Record<Field, string>) => Promise<unknown>;
  createdMessage: string;
}

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
    { name: 'bank_name', label: 'Bank Name' },
    { name: 'bank_pass', label: 'Bank Password', type: 'password' },
  ],
  create: createBankPassword,
  createdMessage: 'Password saved',
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
};
