// The ej remote's one exposed module: the screens for the paths it owns, each of the descriptor's
// screens with its component.
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { screenTable } from './descriptor.ts';
import { DisputePage } from './features/disputes/DisputePage.tsx';
import { ApprovalPage, ApprovalsPage } from './features/approvals/ApprovalsPage.tsx';
import { EjFileListPage } from './features/ej-file-lists/EjFileListPage.tsx';
import { EjTablePage } from './features/ej-table/EjTablePage.tsx';
import { JournalsPage } from './features/journals/JournalsPage.tsx';
import { JournalViewer } from './features/journals/JournalViewer.tsx';

const pages: Record<keyof typeof screenTable, ReactElement> = {
  ejTable: <EjTablePage />,
  overage: <EjFileListPage key="overage" kind="overage" title={screenTable.overage.label} />,
  successing: <EjFileListPage key="succeeding" kind="succeeding" title={screenTable.successing.label} />,
  dispute: <DisputePage />,
  approvals: <ApprovalsPage />,
  approval: <ApprovalPage />,
  journals: <JournalsPage />,
  journal: <JournalViewer />,
};

export default function EjRoutes() {
  return (
    <Routes>
      {Object.entries(screenTable).map(([name, screen]) => (
        <Route key={name} path={screen.path} element={pages[name as keyof typeof screenTable]} />
      ))}
    </Routes>
  );
}
