import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import FilesRoutes, { filesLinks } from './routes.tsx';

mountStandalone({ title: 'EJ Desk — file data', Routes: FilesRoutes, links: filesLinks, ...standaloneSession });
