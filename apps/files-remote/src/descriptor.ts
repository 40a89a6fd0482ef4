// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json.
import type { RemoteDescriptor } from '@ejdesk/contract';
import { fileKinds } from './lib/kinds.ts';

export default {
  name: 'files',
  section: 'file data',
  paths: fileKinds.map((kind) => kind.path.slice(1)),
  // The original's side nav: the file kinds after All Email, in this order (Missing Data first).
  nav: ['/missing-data', '/missing-txn-data', '/between-successful-data', '/text-email-data', '/excel-email-data', '/pdf-email-data', '/other-email-data'].map(
    (path, i) => ({ label: fileKinds.find((kind) => kind.path === path)!.title, path, order: 50 + i }),
  ),
} satisfies RemoteDescriptor;
