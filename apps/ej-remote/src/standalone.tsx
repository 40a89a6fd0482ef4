import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import { screenLinks } from '@ejdesk/ui/screens';
import { screenTable } from './descriptor.ts';
import EjRoutes from './routes.tsx';

mountStandalone({ title: 'EJ Desk — EJ data', Routes: EjRoutes, links: screenLinks(screenTable), ...standaloneSession });
