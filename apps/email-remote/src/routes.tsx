// The email remote's one exposed module: the screens for the paths it owns.
import { Route, Routes, useParams } from 'react-router-dom';
import { getEmailJsonData, getEmailJsonDataById } from '@ejdesk/api-client';
import { DashboardPage } from './features/dashboard/DashboardPage.tsx';
import { EmailDetailsPage } from './features/email-details/EmailDetailsPage.tsx';
import { EmailListPage } from './features/email-lists/EmailListPage.tsx';
import { allEmailList, categoryListConfigs } from './features/email-lists/lists.ts';
import { JsonDataPage } from './features/json-data/JsonDataPage.tsx';
import { MailFlowPage } from './features/mail-flow/MailFlowPage.tsx';

export const emailLinks = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Flow', to: '/mail-flow' },
  { label: 'All Email', to: '/all-email' },
  { label: 'Email Data', to: '/data-email' },
  ...categoryListConfigs.map((list) => ({ label: list.title, to: list.path })),
];

function OneEmailJsonData() {
  const { id = '' } = useParams();
  return <JsonDataPage queryKey={['email-json', id]} load={() => getEmailJsonDataById(id)} />;
}

export default function EmailRoutes() {
  return (
    <Routes>
      <Route path="/dashboard" element={<DashboardPage />} />
      <Route path="/all-email" element={<EmailListPage list={allEmailList} />} />
      <Route path="/all-email/:id" element={<OneEmailJsonData />} />
      <Route
        path="/data-email"
        element={<JsonDataPage queryKey={['email-json', 'all']} load={getEmailJsonData} note="The JSON data of the 1,000 newest emails." />}
      />
      {categoryListConfigs.map((list) => (
        <Route key={list.path} path={list.path} element={<EmailListPage key={list.path} list={list} />} />
      ))}
      <Route path="/email-details-data/:id" element={<EmailDetailsPage />} />
      <Route path="/mail-flow" element={<MailFlowPage />} />
    </Routes>
  );
}
