import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import EjRoutes, { ejLinks } from './routes.tsx';

mountStandalone({ title: 'EJ Desk — EJ data', Routes: EjRoutes, links: ejLinks, ...standaloneSession });
