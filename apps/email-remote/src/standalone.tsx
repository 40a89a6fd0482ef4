import { standaloneSession } from '@ejdesk/api-client';
import { mountStandalone } from '@ejdesk/ui/standalone';
import { screenLinks } from '@ejdesk/ui/screens';
import { categoryScreens, screenTable } from './descriptor.ts';
import EmailRoutes from './routes.tsx';

mountStandalone({ title: 'EJ Desk — email monitoring', Routes: EmailRoutes, links: screenLinks({ ...screenTable, ...categoryScreens }), ...standaloneSession });
