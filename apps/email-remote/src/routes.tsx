// The email remote's one exposed module. Its screens arrive with their own issue; until then each
// path it owns says so.
import { NotBuiltYetRoutes } from '@ejdesk/ui';

const screens = [
  { title: 'Dashboard', path: '/dashboard' },
  { title: 'All Email', path: '/all-email' },
  { title: 'All Email data', path: '/all-email/:id' },
  { title: 'Email Data', path: '/data-email' },
  { title: 'EJs not found Email', path: '/ej-not-found' },
  { title: 'Same Subject', path: '/same-subject' },
  { title: 'Same Subject Processing', path: '/same-subject-processing' },
  { title: 'Emails Ignored', path: '/email-ignored' },
  { title: 'Read Email', path: '/read-email' },
  { title: 'Unread Email', path: '/unread-email' },
  { title: 'Total Email', path: '/get-all-email-data' },
  { title: 'Email Details', path: '/email-details-data/:id' },
] as const;

export const emailLinks = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'All Email', to: '/all-email' },
  { label: 'Email Data', to: '/data-email' },
  { label: 'EJs not found Email', to: '/ej-not-found' },
  { label: 'Same Subject', to: '/same-subject' },
  { label: 'Same Subject Processing', to: '/same-subject-processing' },
  { label: 'Emails Ignored', to: '/email-ignored' },
  { label: 'Read Email', to: '/read-email' },
  { label: 'Unread Email', to: '/unread-email' },
  { label: 'Total Email', to: '/get-all-email-data' },
] as const;

export default function EmailRoutes() {
  return <NotBuiltYetRoutes screens={screens} />;
}
