// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json.
import type { RemoteDescriptor } from '@ejdesk/contract';
import { categoryListConfigs } from './features/email-lists/lists.ts';

export default {
  name: 'email',
  section: 'email monitoring',
  paths: ['dashboard', 'mail-flow', 'all-email', 'data-email', ...categoryListConfigs.map((list) => list.path.slice(1)), 'email-details-data'],
  nav: [
    { label: 'Dashboard', path: '/dashboard', order: 10 },
    { label: 'Mail Flow', path: '/mail-flow', order: 20 },
    { label: 'All Email', path: '/all-email', order: 40 },
  ],
  screens: { 'mail flow': '/mail-flow' },
} satisfies RemoteDescriptor;
