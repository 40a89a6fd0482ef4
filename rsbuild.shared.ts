// One Rsbuild + Module Federation setup for the shell and the four remotes, so that the shared
// singletons and build settings can never drift between them.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type RsbuildConfig, type RsbuildPlugin } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import {
  apiContractVersion,
  defaultPorts,
  descriptorFile,
  remoteNames,
  type RegistryEntry,
  type RemoteDescriptor,
  type RemoteName,
} from './packages/contract/src/index.ts';
import { integer, readSettings, startingWith, text } from './packages/settings/src/index.ts';

const port = (fallback: number, description: string) => integer({ minimum: 1, maximum: 65535, default: fallback, description });

/**
 * What a build (and `pnpm dev`'s dev servers) reads from its environment: its own small schema, no
 * app's runtime settings. The dev servers' ports and API are those `pnpm start` would use.
 */
export const buildSettings = {
  SHELL_PORT: port(defaultPorts.shell, "Port of the shell's dev server (`pnpm dev`)."),
  ...(Object.fromEntries(
    remoteNames.map((name) => [`${name.toUpperCase()}_REMOTE_PORT`, port(defaultPorts[name], `Port of the ${name} remote's dev server (\`pnpm dev\`).`)]),
  ) as Record<`${Uppercase<RemoteName>}_REMOTE_PORT`, ReturnType<typeof port>>),
  API_PORT: port(8000, 'Port of the API the dev servers forward /api to, on this host, when API_URL is unset.'),
  API_URL: text({ pattern: '^https?://[^\\s]+$', accepts: 'an http(s):// URL', description: 'The API the dev servers forward /api to.' }),
  REMOTE_VERSION: text({
    pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$',
    accepts: 'a version (letters, digits, . + _ -)',
    description: 'The version a remote’s build records; unset, its package.json’s.',
  }),
};
const build = startingWith('EJ Desk', () => readSettings(buildSettings));
const remotePort = (name: RemoteName) => build[`${name.toUpperCase() as Uppercase<RemoteName>}_REMOTE_PORT`];
const shellPort = () => build.SHELL_PORT;

/** Workspace packages are shared with their real version: 'workspace:*' is not a valid range. */
const workspaceVersion = '0.1.0';

const sharedSingletons = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react/': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom/': { singleton: true, requiredVersion: '^19.0.0' },
  'react-router-dom': { singleton: true, requiredVersion: '^7.0.0' },
  zustand: { singleton: true, requiredVersion: '^5.0.0' },
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.0.0' },
  '@ejdesk/api-client': { singleton: true, version: workspaceVersion, requiredVersion: `^${workspaceVersion}` },
  '@ejdesk/ui': { singleton: true, version: workspaceVersion, requiredVersion: `^${workspaceVersion}` },
  '@ejdesk/export': { singleton: true, version: workspaceVersion, requiredVersion: `^${workspaceVersion}` },
};

const apiTarget = (build.API_URL ?? `http://127.0.0.1:${build.API_PORT}`).replace(/\/$/, '');

/** Text the browser loads or reads: worth compressing whatever its size. */
const compressible = /\.(js|mjs|css|html|json|svg|txt|map|xml)$/;

/**
 * Writes a .br and a .gz beside every text file of a production build, compressed once at the
 * highest levels, so the static servers (preCompressed) send them without compressing per request.
 * No size threshold: a small async chunk is compressed too; a copy is kept only when it is smaller
 * than the file (a few bytes of script can grow), else the file is sent as it is.
 */
export function pluginPrecompress(): RsbuildPlugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'ejdesk:precompress',
    setup(api) {
      api.onAfterBuild({
        // After the other plugins' own files (a remote's ejdesk-remote.json) are written.
        order: 'post',
        handler: async () => {
          const dist = api.context.distPath;
          const files = (await readdir(dist, { recursive: true })).filter((f) => compressible.test(f));
          await Promise.all(
            files.map(async (file) => {
              const bytes = await readFile(join(dist, file));
              const options = { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } };
              const [br, gz] = await Promise.all([brotli(bytes, options), gzipped(bytes, { level: 9 })]);
              if (br.length < bytes.length) await writeFile(join(dist, `${file}.br`), br);
              if (gz.length < bytes.length) await writeFile(join(dist, `${file}.gz`), gz);
            }),
          );
        },
      });
    },
  };
}

function base(port: number, title: string): RsbuildConfig {
  return {
    plugins: [pluginReact(), pluginPrecompress()],
    // One page template for all five apps (it declares the page language for screen readers).
    html: { title, template: fileURLToPath(new URL('./index.template.html', import.meta.url)) },
    server: { port, strictPort: true, proxy: { '/api': apiTarget } },
    dev: { writeToDisk: false },
    performance: { chunkSplit: { strategy: 'split-by-experience' } },
  };
}

/** Writes the remote's descriptor, with its version, beside mf-manifest.json (and serves it in dev). */
function pluginDescriptor(descriptor: RemoteDescriptor): RsbuildPlugin {
  const described = async (root: string) => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    return JSON.stringify({ ...descriptor, contract: apiContractVersion, version: build.REMOTE_VERSION ?? version }, null, 2);
  };
  return {
    name: 'ejdesk:descriptor',
    setup(api) {
      api.onAfterBuild(async () => writeFile(join(api.context.distPath, descriptorFile), await described(api.context.rootPath)));
      api.modifyRsbuildConfig((config) => {
        const setup = config.server?.setup;
        config.server = {
          ...config.server,
          setup: (context) => {
            context.server.middlewares.use(`/${descriptorFile}`, (_request, response) => {
              void described(api.context.rootPath).then((json) => {
                response.setHeader('content-type', 'application/json');
                response.setHeader('access-control-allow-origin', '*');
                response.end(json);
              });
            });
            return typeof setup === 'function' ? setup(context) : undefined;
          },
        };
      });
    },
  };
}

/** A remote: built and served on its own, exposing one module, ./routes, and its descriptor. */
export function defineRemote(descriptor: RemoteDescriptor) {
  const { name } = descriptor;
  const port = remotePort(name);
  const config = base(port, `EJ Desk — ${name} (standalone)`);
  return defineConfig({
    ...config,
    server: { ...config.server, headers: { 'Access-Control-Allow-Origin': '*' } },
    // Chunks load relative to the remote's own entry, from the remote's own origin.
    output: { assetPrefix: 'auto' },
    // The chunks' and stylesheets' SHA-384 go into the entry, which loads each with its integrity
    // (CORS mode): the entry is pinned by the registry, so every file of a release is.
    security: { sri: { enable: 'auto', algorithm: 'sha384' } },
    plugins: [
      ...(config.plugins ?? []),
      pluginDescriptor(descriptor),
      pluginModuleFederation({
        name,
        exposes: { './routes': './src/routes.tsx' },
        filename: 'remoteEntry.js',
        shared: sharedSingletons,
        dts: false,
      }),
    ],
  });
}

/** remotes.json for `pnpm dev`: each remote's dev server on its default port, with the descriptor it serves. */
async function devRegistry(): Promise<{ remotes: RegistryEntry[] }> {
  const entries = await Promise.all(
    remoteNames.map(async (n) => {
      const origin = `http://localhost:${remotePort(n)}`;
      try {
        const descriptor = (await (await fetch(`${origin}/${descriptorFile}`)).json()) as RemoteDescriptor & { version: string };
        return { ...descriptor, manifest: `${origin}/mf-manifest.json` };
      } catch {
        return null; // not started yet: its screens appear on the next load
      }
    }),
  );
  return { remotes: entries.filter((e): e is RegistryEntry => e !== null) };
}

/** The shell: a host with no remotes at build time; remotes.json names them at run time. */
export function defineShell() {
  const config = base(shellPort(), 'EJ Desk');
  return defineConfig({
    ...config,
    server: {
      ...config.server,
      historyApiFallback: true,
      setup: ({ server }) => {
        server.middlewares.use('/remotes.json', (_request, response) => {
          void devRegistry().then((registry) => {
            response.setHeader('content-type', 'application/json');
            response.end(JSON.stringify(registry));
          });
        });
      },
    },
    plugins: [...(config.plugins ?? []), pluginModuleFederation({ name: 'shell', remotes: {}, shared: sharedSingletons, dts: false })],
  });
}
