// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json. Both come from its one table
// of screens (screenTable); routes.tsx gives each screen its component.
import type { RemoteDescriptor } from '@ejdesk/contract';
import { describeScreens, type Screens } from '@ejdesk/ui/screens';

export const screenTable = {
  ejTable: { path: '/email', label: 'Email', nav: 30 },
  overage: { path: '/overage', label: 'Overage' },
  successing: { path: '/successing', label: 'Successing' },
  dispute: { path: '/disputes/:id', label: 'Dispute' },
  // After Journals: the changes waiting for a second person.
  approvals: { path: '/approvals', label: 'Approvals', nav: 46 },
  approval: { path: '/approvals/:id', label: 'Approval' },
  // After All Email: the EJ data's journals, before the file kinds.
  journals: { path: '/journals', label: 'Journals', nav: 45 },
  journal: { path: '/journals/:id', label: 'Journal' },
} as const satisfies Screens;

export default {
  name: 'ej',
  section: 'EJ data',
  ...describeScreens(screenTable),
} satisfies RemoteDescriptor;
