// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json.
import type { RemoteDescriptor } from '@ejdesk/contract';

export default {
  name: 'ej',
  section: 'EJ data',
  paths: ['email', 'overage', 'successing', 'disputes'],
  nav: [{ label: 'Email', path: '/email', order: 30 }],
} satisfies RemoteDescriptor;
