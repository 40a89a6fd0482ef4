import '@ejdesk/ui/tokens.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { registerRemotesFrom } from './features/remotes/remote-registry.ts';

/** The console: the router, the layout and the remotes. */
export function startApp(): void {
  const root = createRoot(document.getElementById('root')!);
  // remotes.json is read once at startup; a missing or broken file leaves every remote unavailable
  // (each shows its contained panel) but the shell itself still works.
  void registerRemotesFrom('/remotes.json').finally(() => root.render(<App />));
}
