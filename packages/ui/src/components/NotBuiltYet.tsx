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
