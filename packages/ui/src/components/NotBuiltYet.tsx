import { Route, Routes } from 'react-router-dom';
import { Card, Page } from './Page.tsx';

/** What a remote shows for a screen whose issue has not landed yet. */
export function NotBuiltYet({ title }: { title: string }) {
  return (
    <Page title={title}>
      <Card>
        <div className="ej-state">This section is not built yet.</div>
      </Card>
    </Page>
  );
}

/** A remote's routes while its screens are still to come: each path it owns says so. */
export function NotBuiltYetRoutes({ screens }: { screens: readonly { title: string; path: string }[] }) {
  return (
    <Routes>
      {screens.map((screen) => (
        <Route key={screen.path} path={screen.path} element={<NotBuiltYet title={screen.title} />} />
      ))}
    </Routes>
  );
}
