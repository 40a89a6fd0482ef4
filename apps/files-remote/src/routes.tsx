// The files remote's one exposed module: a list and a detail screen for each file kind.
import { Route, Routes } from 'react-router-dom';
import { FileDetailPage } from './features/file-detail/FileDetailPage.tsx';
import { FileListPage } from './features/file-lists/FileListPage.tsx';
import { fileKinds } from './lib/kinds.ts';

export const filesLinks = fileKinds.map((kind) => ({ label: kind.title, to: kind.path }));

export default function FilesRoutes() {
  return (
    <Routes>
      {fileKinds.map((kind) => (
        <Route key={kind.path} path={kind.path} element={<FileListPage key={kind.path} kind={kind} />} />
      ))}
      {fileKinds.map((kind) => (
        <Route key={`${kind.path}/:id`} path={`${kind.path}/:id`} element={<FileDetailPage key={kind.path} kind={kind} />} />
      ))}
    </Routes>
  );
}
