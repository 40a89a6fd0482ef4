// The export of an EJ list to CSV or Excel, for the lists' screens.
export { ExportButtons } from './ExportButtons.tsx';
