// The admin remote's one exposed module: the screens for the paths it owns.
import { Route, Routes } from 'react-router-dom';
import { AdminListPage } from './features/admin-lists/AdminListPage.tsx';
import { bankMspList, deployTokenList, ignoreRuleList, passwordList, senderMappingList, tatRuleList, userList } from './features/admin-lists/lists.tsx';
import { AuditLogPage } from './features/audit-log/AuditLogPage.tsx';
import { MailboxesPage } from './features/mailboxes/MailboxesPage.tsx';
import { ReleasesPage } from './features/releases/ReleasesPage.tsx';

export const adminLinks = [
  { label: 'Password List', to: '/store-password-list' },
  { label: 'Bank MSP List', to: '/bank-msp-list' },
  { label: 'Sender Mappings', to: '/sender-mappings' },
  { label: 'Ignore Rules', to: '/ignore-rules' },
  { label: 'TAT Rules', to: '/tat-rules' },
  { label: 'Mailboxes', to: '/mailboxes' },
  { label: 'Users', to: '/users' },
  { label: 'Releases', to: '/releases' },
  { label: 'Deploy Tokens', to: '/deploy-tokens' },
  { label: 'Audit Log', to: '/audit-log' },
] as const;

export default function AdminRoutes() {
  return (
    <Routes>
      <Route path="/store-password-list" element={<AdminListPage list={passwordList} />} />
      <Route path="/bank-msp-list" element={<AdminListPage list={bankMspList} />} />
      <Route path="/sender-mappings" element={<AdminListPage list={senderMappingList} />} />
      <Route path="/ignore-rules" element={<AdminListPage list={ignoreRuleList} />} />
      <Route path="/tat-rules" element={<AdminListPage list={tatRuleList} />} />
      <Route path="/mailboxes" element={<MailboxesPage />} />
      <Route path="/users" element={<AdminListPage list={userList} />} />
      <Route path="/releases" element={<ReleasesPage />} />
      <Route path="/deploy-tokens" element={<AdminListPage list={deployTokenList} />} />
      <Route path="/audit-log" element={<AuditLogPage />} />
    </Routes>
  );
}
