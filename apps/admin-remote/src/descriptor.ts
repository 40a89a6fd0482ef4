// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json.
import type { RemoteDescriptor } from '@ejdesk/contract';

export default {
  name: 'admin',
  section: 'admin lists',
  role: 'admin',
  paths: [
    'store-password-list',
    'bank-msp-list',
    'sender-mappings',
    'ignore-rules',
    'tat-rules',
    'mailboxes',
    'users',
    'releases',
    'deploy-tokens',
    'audit-log',
  ],
  nav: [
    { label: 'Password List', path: '/store-password-list', order: 110 },
    { label: 'Bank MSP List', path: '/bank-msp-list', order: 120 },
    { label: 'Sender Mappings', path: '/sender-mappings', order: 130 },
    { label: 'Ignore Rules', path: '/ignore-rules', order: 140 },
    { label: 'TAT Rules', path: '/tat-rules', order: 142 },
    { label: 'Mailboxes', path: '/mailboxes', order: 145 },
    { label: 'Users', path: '/users', order: 150 },
    { label: 'Releases', path: '/releases', order: 153 },
    { label: 'Deploy Tokens', path: '/deploy-tokens', order: 155 },
    { label: 'Audit Log', path: '/audit-log', order: 160 },
  ],
} satisfies RemoteDescriptor;
