// The admin remote's one exposed module: the screens for the paths it owns, each of the
// descriptor's screens with its component.
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { screenTable } from './descriptor.ts';
import { AdminListPage } from './features/admin-lists/AdminListPage.tsx';
import {
  alertRuleList,
  bankMspList,
  deployTokenList,
  ignoreRuleList,
  passwordList,
  senderMappingList,
  tatRuleList,
  userList,
} from './features/admin-lists/lists.tsx';
import { AuditLogPage } from './features/audit-log/AuditLogPage.tsx';
import { DeliveriesPage } from './features/alerts/DeliveriesPage.tsx';
import { FourEyesPage } from './features/four-eyes/FourEyesPage.tsx';
import { MailboxesPage } from './features/mailboxes/MailboxesPage.tsx';
import { ReleasesPage } from './features/releases/ReleasesPage.tsx';
import { RuleSetsPage } from './features/rule-sets/RuleSetsPage.tsx';

const pages: Record<keyof typeof screenTable, ReactElement> = {
  passwordList: <AdminListPage list={passwordList} />,
  bankMspList: <AdminListPage list={bankMspList} />,
  senderMappings: <AdminListPage list={senderMappingList} />,
  ignoreRules: <AdminListPage list={ignoreRuleList} />,
  tatRules: <AdminListPage list={tatRuleList} />,
  ruleSets: <RuleSetsPage />,
  alertRules: <AdminListPage list={alertRuleList} />,
  alertDeliveries: <DeliveriesPage />,
  fourEyes: <FourEyesPage />,
  mailboxes: <MailboxesPage />,
  users: <AdminListPage list={userList} />,
  releases: <ReleasesPage />,
  deployTokens: <AdminListPage list={deployTokenList} />,
  auditLog: <AuditLogPage />,
};

export default function AdminRoutes() {
  return (
    <Routes>
      {Object.entries(screenTable).map(([name, screen]) => (
        <Route key={name} path={screen.path} element={pages[name as keyof typeof screenTable]} />
      ))}
    </Routes>
  );
}
