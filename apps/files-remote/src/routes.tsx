// The files remote's one exposed module. Its screens arrive with their own issue; until then each
// path it owns says so.
import { NotBuiltYetRoutes } from '@ejdesk/ui';

const screens = [
  { title: 'Text Email Data', path: '/text-email-data' },
  { title: 'Text Email Data', path: '/text-email-data/:id' },
  { title: 'Missing Data', path: '/missing-data' },
  { title: 'Missing Data', path: '/missing-data/:id' },
  { title: 'Missing TXN Data', path: '/missing-txn-data' },
  { title: 'Missing TXN Data', path: '/missing-txn-data/:id' },
  { title: 'Between Successful Data', path: '/between-successful-data' },
  { title: 'Between Successful Data', path: '/between-successful-data/:id' },
  { title: 'Excel Email Data', path: '/excel-email-data' },
  { title: 'Excel Email Data', path: '/excel-email-data/:id' },
  { title: 'PDF Email Data', path: '/pdf-email-data' },
  { title: 'PDF Email Data', path: '/pdf-email-data/:id' },
  { title: 'Other Format Email Data', path: '/other-email-data' },
  { title: 'Other Format Email Data', path: '/other-email-data/:id' },
] as const;

export const filesLinks = [
  { label: 'Text Email Data', to: '/text-email-data' },
  { label: 'Missing Data', to: '/missing-data' },
  { label: 'Missing TXN Data', to: '/missing-txn-data' },
  { label: 'Between Successful Data', to: '/between-successful-data' },
  { label: 'Excel Email Data', to: '/excel-email-data' },
  { label: 'PDF Email Data', to: '/pdf-email-data' },
  { label: 'Other Format Email Data', to: '/other-email-data' },
] as const;

export default function FilesRoutes() {
  return <NotBuiltYetRoutes screens={screens} />;
}
