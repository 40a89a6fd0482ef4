// One lint setup for the whole workspace: typescript-eslint, the rules of hooks, jsx-a11y, and the
// dependency rules between the folders (import zones), so a forbidden import is an error, not a
// sentence in the docs.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import dbDomainZones from './packages/db/lint-zones.js';
import apiRouteZones from './apps/api/lint-zones.js';

// The dependency rules. Each folder below may import none of what its entry forbids, whether by
// package name (@ejdesk/db) or by path (../../shell/src/...): import-x resolves paths, and a
// package name is refused as written, so an import that does not even resolve is still caught.
const apps = ['shell', 'email-remote', 'ej-remote', 'files-remote', 'admin-remote', 'api', 'ingest', 'edge', 'supervisor', 'release-cli'];
const remotes = apps.filter((a) => a.endsWith('-remote'));
const serverPackages = ['db', 'settings', 'http', 'mailbox', 'journal'];
const allPackages = ['contract', 'api-client', 'ui', 'export', ...serverPackages];
const browserApps = ['shell', ...remotes];

/** folder -> what it may not import: other apps, packages (by their folder name), Node built-ins. */
const rules = {
  ...Object.fromEntries(
    apps.map((app) => [
      `apps/${app}/src`,
      {
        apps: apps.filter((other) => other !== app),
        packages: browserApps.includes(app) ? serverPackages : [],
        node: browserApps.includes(app),
        why: browserApps.includes(app)
          ? 'An app imports packages, never another app; browser code no server package.'
          : 'An app imports packages, never another app.',
      },
    ]),
  ),
  'packages/ui/src': { apps, packages: ['api-client', ...serverPackages], node: true, why: 'ui never imports api-client, an app or a server package.' },
  'packages/export/src': { apps, packages: ['api-client', ...serverPackages], node: true, why: 'export never imports api-client, an app or a server package.' },
  'packages/api-client/src': { apps, packages: serverPackages, node: true, why: 'Browser code imports no app and no server package.' },
  'packages/contract/src': { apps, packages: allPackages.filter((p) => p !== 'contract'), node: true, why: 'contract imports nothing of ours.' },
  ...Object.fromEntries(
    serverPackages.map((p) => [
      `packages/${p}/src`,
      { apps, packages: ['api-client', 'ui', 'export'], node: false, why: 'A server package imports no app and no browser package.' },
    ]),
  ),
  // Pure parsing: the db package imports it, it imports nothing of ours.
  'packages/journal/src': {
    apps,
    packages: allPackages.filter((p) => p !== 'journal'),
    node: false,
    why: 'journal imports nothing of ours: it is pure parsing.',
  },
};
/**
 * The features of an app (apps/<app>/src/features/<feature>/): rooms that meet only at each
 * other's index.ts, so a feature's inner files can change without another feature noticing.
 */
const featuresOf = (app) => {
  try {
    return readdirSync(`${import.meta.dirname}/apps/${app}/src/features`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
};
const featureZones = (folder) => {
  const app = /^apps\/([^/]+)\/src$/.exec(folder)?.[1];
  const features = app ? featuresOf(app) : [];
  return features.flatMap((feature) =>
    features
      .filter((other) => other !== feature)
      .map((other) => ({
        target: `./apps/${app}/src/features/${feature}`,
        from: `./apps/${app}/src/features/${other}`,
        except: ['./index.ts'],
        message: `A feature uses another only through its index: import from features/${other}/index.ts (or move what both need to the app's lib/ or a package).`,
      })),
  );
};

/** Node-only entries of the export package (its streamed server exports). */
const nodeEntries = ['packages/export/src/server.ts', 'packages/export/src/xlsx-stream.ts'];

const boundaries = Object.entries(rules).map(([folder, rule]) => ({
  files: [`${folder}/**/*.{ts,tsx}`],
  plugins: { 'import-x': importX },
  settings: { 'import-x/resolver-next': [createNodeResolver({ conditionNames: ['import', 'default'] })] },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          { target: `./${folder}`, from: [...rule.apps.map((a) => `./apps/${a}`), ...rule.packages.map((p) => `./packages/${p}`)], message: rule.why },
          ...featureZones(folder),
        ],
      },
    ],
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...(rule.apps.length ? [{ group: rule.apps.map((a) => `@ejdesk/${a}`).flatMap((n) => [n, `${n}/*`]), message: rule.why }] : []),
          ...(rule.packages.length ? [{ group: rule.packages.map((p) => `@ejdesk/${p}`).flatMap((n) => [n, `${n}/*`]), message: rule.why }] : []),
          ...(rule.node ? [{ regex: '^node:', message: 'Browser code imports no Node built-in.' }] : []),
        ],
      },
    ],
  },
}));

/**
 * An app's benches and test support use no other app's source: each app is built, deployed and scaled
 * alone, so what two need lives in a package (or the other app is run: its CLI, its HTTP API). A
 * test helper another app publishes for its tests (@ejdesk/api/test-helpers) is not its source.
 */
const supportBoundaries = apps.map((app) => {
  const others = apps.filter((other) => other !== app);
  const why = "An app's benches and test support import no other app's source: share through a package, or run the app.";
  return {
    files: [`apps/${app}/bench/**/*.{ts,tsx,js,mjs}`, `apps/${app}/test/support/**/*.{ts,tsx,js,mjs}`, `apps/${app}/test/helpers.ts`],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ conditionNames: ['import', 'default'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [{ target: `./apps/${app}`, from: others.map((other) => `./apps/${other}/src`), message: why }] },
      ],
      'no-restricted-imports': ['error', { paths: others.map((other) => ({ name: `@ejdesk/${other}`, message: why })) }],
    },
  };
});

/** The root's build files (rsbuild.shared.ts) set up every app's build: they import no app. */
const rootBuildFiles = {
  files: ['*.{ts,js,mjs}'],
  ignores: ['eslint.config.js'],
  plugins: { 'import-x': importX },
  settings: { 'import-x/resolver-next': [createNodeResolver({ conditionNames: ['import', 'default'] })] },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [{ target: './', from: './apps', message: 'A root build file imports no app: give it what it needs as build-time values.' }],
      },
    ],
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: apps.flatMap((a) => [`@ejdesk/${a}`, `@ejdesk/${a}/*`]), message: 'A root build file imports no app.' }] },
    ],
  },
};

/**
 * No import cycles in the workspace's source: a cycle makes load order decide what is undefined at
 * start. Followed 6 imports deep, external packages not at all. Its cost on the whole tree
 * (`TIMING=20 npx eslint .`): about 2 s at depth 3, 4-5 s at 6 and the same unlimited (the source's
 * import chains are short), of a lint that takes about 21 s of CPU without it.
 */
const noCycles = {
  files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: {
    'import-x/resolver-next': [createNodeResolver({ conditionNames: ['import', 'default'] })],
    // Follow TypeScript files: read them with the TypeScript parser.
    'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
    'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
  },
  rules: { 'import-x/no-cycle': ['error', { maxDepth: 6, ignoreExternal: true }] },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.artifacts/**', '.data/**', '**/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  ...boundaries,
  ...dbDomainZones,
  ...apiRouteZones,
  ...supportBoundaries,
  rootBuildFiles,
  noCycles,
  {
    // Settings are read once per process through its schema; nothing else reads the environment.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}', 'rsbuild.shared.ts'],
    ignores: ['packages/settings/src/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through @ejdesk/settings: one schema per process.' }],
    },
  },
  {
    files: nodeEntries,
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // A Testing Library query that finds nothing already throws: wrapping it in an assertion that
    // cannot fail only hides that the query is the check.
    files: ['**/test/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['', 'AwaitExpression > '].map((awaited) => ({
          selector: `CallExpression[callee.property.name=/^(toBeTruthy|toBeDefined|toBeInTheDocument)$/] > MemberExpression > CallExpression[callee.name='expect'] > ${awaited}CallExpression[callee.property.name=/^(get|find)(All)?By/]`,
          message: 'A getBy/findBy query already fails when nothing matches: call it alone, or assert something it could lack.',
        })),
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Focus on open is what an operator expects of the login screen and of a modal's first field.
      'jsx-a11y/no-autofocus': 'off',
      // We do not use the React Compiler; its notes on TanStack Table are noise here.
      'react-hooks/incompatible-library': 'off',
    },
  },
);
