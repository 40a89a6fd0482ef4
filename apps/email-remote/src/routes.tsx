// The email remote's one exposed module: the screens for the paths it owns, each of the
// descriptor's screens with its component.
import type { ReactElement } from 'react';
import { Route, Routes, useParams } from 'react-router-dom';
import { getEmailJsonData, getEmailJsonDataById } from '@ejdesk/api-client';
import { screenTable } from './descriptor.ts';
import { DashboardPage } from './features/dashboard/DashboardPage.tsx';
import { EmailDetailsPage } from './features/email-details/EmailDetailsPage.tsx';
import { EmailListPage } from './features/email-lists/EmailListPage.tsx';
import { allEmailList, categoryListConfigs } from './features/email-lists/lists.ts';
import { JsonDataPage } from './features/json-data/JsonDataPage.tsx';
import { MailFlowPage } from './features/mail-flow/MailFlowPage.tsx';

function OneEmailJsonData() {
  const { id = '' } = useParams();
  return <JsonDataPage queryKey={['email-json', id]} load={() => getEmailJsonDataById(id)} />;
}

const pages: Record<keyof typeof screenTable, ReactElement> = {
  dashboard: <DashboardPage />,
  mailFlow: <MailFlowPage />,
  allEmail: <EmailListPage list={allEmailList} />,
  oneEmailData: <OneEmailJsonData />,
  emailData: <JsonDataPage queryKey={['email-json', 'all']} load={getEmailJsonData} note="The JSON data of the 1,000 newest emails." />,
  emailDetails: <EmailDetailsPage />,
};

export default function EmailRoutes() {
  return (
    <Routes>
      {Object.entries(screenTable).map(([name, screen]) => (
        <Route key={name} path={screen.path} element={pages[name as keyof typeof screenTable]} />
      ))}
      {categoryListConfigs.map((list) => (
        <Route key={list.path} path={list.path} element={<EmailListPage key={list.path} list={list} />} />
      ))}
    </Routes>
  );
}
