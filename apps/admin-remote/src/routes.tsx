// The admin remote's one exposed module: the screens for the paths it owns.
import { Route, Routes } from 'react-router-dom';
import { AdminListPage } from './features/admin-lists/AdminListPage.tsx';
import { bankMspList, passwordList } from './features/admin-lists/lists.tsx';

export const adminLinks = [
  { label: 'Password List', to: '/store-password-list' },
  { label: 'Bank MSP List', to: '/bank-msp-list' },
] as const;

export default function AdminRoutes() {
  return (
    <Routes>
      <Route path="/store-password-list" element={<AdminListPage list={passwordList} />} />
      <Route path="/bank-msp-list" element={<AdminListPage list={bankMspList} />} />
    </Routes>
  );
}
