// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json. Both come from its one table
// of screens (screenTable, and the category lists' own table); routes.tsx gives each its component.
import type { RemoteDescriptor } from '@ejdesk/contract';
import { describeScreens, type Screens } from '@ejdesk/ui/screens';
import { categoryListConfigs } from './features/email-lists/lists.ts';

export const screenTable = {
  dashboard: { path: '/dashboard', label: 'Dashboard', nav: 10 },
  mailFlow: { path: '/mail-flow', label: 'Mail Flow', nav: 20 },
  allEmail: { path: '/all-email', label: 'All Email', nav: 40 },
  oneEmailData: { path: '/all-email/:id', label: 'One Email Data' },
  emailData: { path: '/data-email', label: 'Email Data' },
  emailDetails: { path: '/email-details-data/:id', label: 'Email Details' },
} as const satisfies Screens;

/** The seven category lists, one screen each, named as their table names them. */
export const categoryScreens: Screens = Object.fromEntries(categoryListConfigs.map((list) => [list.list, { path: list.path, label: list.title }]));

export default {
  name: 'email',
  section: 'email monitoring',
  ...describeScreens({ ...screenTable, ...categoryScreens }),
  screens: { 'mail flow': screenTable.mailFlow.path },
} satisfies RemoteDescriptor;
