// The ej remote's one exposed module: the screens for the paths it owns.
import { Route, Routes } from 'react-router-dom';
import { DisputePage } from './features/disputes/DisputePage.tsx';
import { EjFileListPage } from './features/ej-file-lists/EjFileListPage.tsx';
import { EjTablePage } from './features/ej-table/EjTablePage.tsx';

export const ejLinks = [
  { label: 'Email', to: '/email' },
  { label: 'Overage', to: '/overage' },
  { label: 'Successing', to: '/successing' },
] as const;

export default function EjRoutes() {
  return (
    <Routes>
      <Route path="/email" element={<EjTablePage />} />
      <Route path="/disputes/:id" element={<DisputePage />} />
      <Route path="/overage" element={<EjFileListPage key="overage" kind="overage" title="Overage" />} />
      <Route path="/successing" element={<EjFileListPage key="succeeding" kind="succeeding" title="Successing" />} />
    </Routes>
  );
}
