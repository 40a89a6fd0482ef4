import './ui.css';

export * from './components/Button.tsx';
export * from './components/Field.tsx';
export * from './components/States.tsx';
export * from './components/Page.tsx';
export * from './components/DataTable.tsx';
export * from './components/Pager.tsx';
export * from './components/Modal.tsx';
export * from './components/Toaster.tsx';
export * from './components/FilterInput.tsx';
export * from './components/FilterChips.tsx';
export * from './components/CellText.tsx';
export * from './components/VirtualTable.tsx';
export * from './components/PaginatedListPage.tsx';
export * from './format.ts';
export * from './list-state.ts';
export * from './sorting.ts';
export type { ColumnDef } from '@tanstack/react-table';
