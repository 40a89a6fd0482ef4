import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import EmailRoutes, { emailLinks } from './routes.tsx';

mountStandalone({ title: 'EJ Desk — email monitoring', Routes: EmailRoutes, links: emailLinks, ...standaloneSession });
