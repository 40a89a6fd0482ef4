// The EJ table's columns, which the overage and succeeding lists show too.
export { ejTableColumns } from './columns.tsx';
