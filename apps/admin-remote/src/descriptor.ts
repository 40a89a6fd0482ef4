// What this remote owns and puts in the side nav (see RemoteDescriptor): the shell reads it from
// remotes.json; this remote's build writes it beside mf-manifest.json. Both come from its one table
// of screens (screenTable); routes.tsx gives each screen its component.
import type { RemoteDescriptor } from '@ejdesk/contract';
import { describeScreens, type Screens } from '@ejdesk/ui/screens';

export const screenTable = {
  passwordList: { path: '/store-password-list', label: 'Password List', nav: 110 },
  bankMspList: { path: '/bank-msp-list', label: 'Bank MSP List', nav: 120 },
  senderMappings: { path: '/sender-mappings', label: 'Sender Mappings', nav: 130 },
  ignoreRules: { path: '/ignore-rules', label: 'Ignore Rules', nav: 140 },
  tatRules: { path: '/tat-rules', label: 'TAT Rules', nav: 142 },
  ruleSets: { path: '/rule-sets', label: 'Rule Sets', nav: 143 },
  alertRules: { path: '/alert-rules', label: 'Alert Rules', nav: 144 },
  alertDeliveries: { path: '/alert-deliveries', label: 'Alert Deliveries', nav: 144.5 },
  fourEyes: { path: '/four-eyes', label: 'Four Eyes', nav: 144.7 },
  mailboxes: { path: '/mailboxes', label: 'Mailboxes', nav: 145 },
  users: { path: '/users', label: 'Users', nav: 150 },
  releases: { path: '/releases', label: 'Releases', nav: 153 },
  deployTokens: { path: '/deploy-tokens', label: 'Deploy Tokens', nav: 155 },
  auditLog: { path: '/audit-log', label: 'Audit Log', nav: 160 },
} as const satisfies Screens;

export default {
  name: 'admin',
  section: 'admin lists',
  role: 'admin',
  ...describeScreens(screenTable),
} satisfies RemoteDescriptor;
