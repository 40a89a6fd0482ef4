import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import { screenLinks } from '@ejdesk/ui/screens';
import { screenTable } from './descriptor.ts';
import AdminRoutes from './routes.tsx';

mountStandalone({ title: 'EJ Desk — admin lists', Routes: AdminRoutes, links: screenLinks(screenTable), ...standaloneSession });
