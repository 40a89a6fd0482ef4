// A schema-driven fuzzer nobody here wrote, over every operation of GET /api/openapi.json: Portman
// turns the document into a Postman collection (each operation, then its fuzz variations: required
// fields left out, numbers past their bounds, text past its lengths), Newman sends it over real HTTP,
// signed in as an admin and as an operator. Every answer is judged against the same document: no
// 5xx, its status documented for that operation, its JSON body valid by that status's schema.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import newman from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }>; security?: Record<string, unknown>[] };
type Document = { paths: Record<string, Record<string, Operation>> };
interface Exchange {
  method: string;
  path: string;
  status: number;
  type: string;
  body: string;
}

const portmanBin = createRequire(import.meta.url).resolve('@apideck/portman/bin/portman');
const configFile = join(import.meta.dirname, 'support/portman-config.json');
const seededRandom = pathToFileURL(join(import.meta.dirname, 'support/seeded-random.mjs')).href;

/** The collection Portman makes of the document (the live event stream left out: it never ends). */
async function collectionFor(doc: Document, dir: string): Promise<object> {
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  await promisify(execFile)(
    process.execPath,
    ['--import', seededRandom, portmanBin, '-l', join(dir, 'openapi.json'), '-b', 'http://127.0.0.1', '-c', configFile, '-o', join(dir, 'collection.json')],
    {
      cwd: dir,
      timeout: 120_000,
    },
  );
  const collection = JSON.parse(readFileSync(join(dir, 'collection.json'), 'utf8')) as { item: { name: string; item?: unknown[] }[] };
  const keep = (items: { name?: string; item?: unknown[]; request?: { url?: { path?: string[] } } }[]): unknown[] =>
    items.filter((i) => !(i.request?.url?.path ?? []).includes('events')).map((i) => (i.item ? { ...i, item: keep(i.item as never) } : i));
  return { ...collection, item: keep(collection.item as never) };
}

/** Every request Newman sent and what came back. */
function run(collection: object, baseUrl: string, token: string): Promise<Exchange[]> {
  return new Promise((resolve, reject) => {
    const exchanges: Exchange[] = [];
    newman
      .run({
        collection: collection as never,
        envVar: [
          { key: 'baseUrl', value: baseUrl },
          // Portman names the collection's bearer {{token}} and each operation's {{bearerToken}}.
          { key: 'token', value: token },
          { key: 'bearerToken', value: token },
        ],
        timeoutRequest: 15_000,
        reporters: [],
      })
      .on('request', (error, args) => {
        if (error) return reject(error);
        const url = args.request.url;
        exchanges.push({
          method: args.request.method,
          path: `/${url.path?.join('/') ?? ''}`,
          status: args.response.code,
          type: args.response.headers.get('content-type') ?? '',
          body: args.response.stream?.toString() ?? '',
        });
      })
      .on('done', (error) => (error ? reject(error) : resolve(exchanges)));
  });
}

describe.each(backends)('the OpenAPI document fuzzed by Portman and Newman on %s', (backend) => {
  let t: TestApp;
  let doc: Document;
  let collection: object;
  let baseUrl: string;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  beforeAll(async () => {
    t = await createTestApp(backend);
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    ajv.addSchema(doc as object, 'openapi');
    collection = await collectionFor(doc, mkdtempSync(join(tmpdir(), 'portman-')));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 180_000);
  afterAll(() => t.close());

  /**
   * The documented operation a request reached: its path template matched, and its method. A
   * static segment wins over a parameter, as in the router (/disputes/owners/ over /disputes/{id}/).
   */
  const operationOf = (method: string, path: string): [string, Operation] | undefined => {
    const params = (template: string) => (template.match(/\{/g) ?? []).length;
    for (const [template, operations] of Object.entries(doc.paths).sort(([a], [b]) => params(a) - params(b))) {
      const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      const op = operations[method.toLowerCase()];
      if (op && (pattern.test(path) || pattern.test(`${path}/`))) return [template, op];
    }
    return undefined;
  };

  const problemsWith = (exchanges: Exchange[]): string[] =>
    exchanges.flatMap((x) => {
      const where = `${x.method} ${x.path} -> ${x.status} ${x.body.slice(0, 160)}`;
      if (x.status >= 500) return [`${where}: a server error`];
      const found = operationOf(x.method, x.path);
      if (!found) return [`${where}: no documented operation`];
      const [template, op] = found;
      const answer = op.responses[String(x.status)];
      if (!answer) return [`${where}: status not documented (${Object.keys(op.responses).join(', ')})`];
      if (!/json/.test(x.type) || !answer.content?.['application/json']?.schema) return [];
      const pointer = `openapi#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${x.method.toLowerCase()}/responses/${x.status}/content/application~1json/schema`;
      const valid = ajv.validate({ $ref: pointer }, x.body === '' ? null : JSON.parse(x.body));
      return valid ? [] : [`${where}: body does not match its schema: ${ajv.errorsText()}`];
    });

  it.each([
    ['an admin', admin],
    ['an operator', operator],
  ])(
    'answers every operation and variation as %s within the document',
    async (_role, account) => {
      const { access } = await login(t.app, account);
      const exchanges = await run(collection, baseUrl, access);
      // Every documented operation was sent, and its fuzz variations too.
      const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
      expect(exchanges.length).toBeGreaterThan(operations + 100);
      // Signed in (few 401s where a user's token is what the operation takes: the deployers' ones
      // refuse it, once the admin's run has made a deploy token), answered (2xx with bodies to
      // check) and refused where fuzzed (400s).
      const takesUser = (x: Exchange) => !operationOf(x.method, x.path)?.[1].security?.some((s) => 'deployToken' in s);
      expect(exchanges.filter((x) => x.status === 401 && takesUser(x)).length).toBeLessThan(10);
      expect(exchanges.filter((x) => x.status < 300).length).toBeGreaterThan(25);
      expect(exchanges.filter((x) => x.status === 400).length).toBeGreaterThan(100);
      expect(problemsWith(exchanges)).toEqual([]);
    },
    300_000,
  );
});
