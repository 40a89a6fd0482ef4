// apps/api/src/routes is a house by domain (routes/<domain>/, as packages/db has them): a domain's
// routes use another domain only through that domain's index.ts, never its inner files, and
// nothing but the routes imports a route (a CLI or a lib that needs what a route has takes it from
// lib/, or the db package). Written with import-x's no-restricted-paths under a name of its own
// ('api-routes/'): the folders' zones already set import-x/no-restricted-paths on these files, and
// a second setting of one rule would replace theirs.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const routes = join(import.meta.dirname, 'src/routes');
const domains = readdirSync(routes, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const why = "A route domain uses another only through that domain's index.ts.";

export default [
  {
    files: ['apps/api/src/**/*.ts'],
    plugins: { 'api-routes': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ conditionNames: ['import', 'default'] })] },
    rules: {
      'api-routes/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...domains.map((domain) => ({
              target: `./src/routes/${domain}`,
              from: './src/routes',
              except: [`./${domain}`, ...domains.filter((other) => other !== domain).map((other) => `./${other}/index.ts`)],
              message: why,
            })),
            {
              target: ['./src/cli', './src/lib', './src/plugins', './src/server.ts', './src/context.ts', './src/config.ts', './src/database.ts'],
              from: './src/routes',
              message: 'Only the app registers the routes; what a CLI or a lib shares with a route lives in lib/ or the db package.',
            },
            { target: './src/app.ts', from: './src/routes', except: ['./index.ts'], message: 'The app registers the routes through routes/index.ts.' },
          ],
        },
      ],
    },
  },
];
