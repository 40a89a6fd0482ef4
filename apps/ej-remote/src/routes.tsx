// The ej remote's one exposed module. Its screens arrive with their own issue; until then each
// path it owns says so.
import { NotBuiltYetRoutes } from '@ejdesk/ui';

const screens = [
  { title: 'Email', path: '/email' },
  { title: 'Overage', path: '/overage' },
  { title: 'Successing', path: '/successing' },
] as const;

export const ejLinks = [
  { label: 'Email', to: '/email' },
  { label: 'Overage', to: '/overage' },
  { label: 'Successing', to: '/successing' },
] as const;

export default function EjRoutes() {
  return <NotBuiltYetRoutes screens={screens} />;
}
