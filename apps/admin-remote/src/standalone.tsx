import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import AdminRoutes, { adminLinks } from './routes.tsx';

mountStandalone({ title: 'EJ Desk — admin lists', Routes: AdminRoutes, links: adminLinks, ...standaloneSession });
