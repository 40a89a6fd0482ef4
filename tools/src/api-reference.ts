// docs/api-reference.md: the OpenAPI document (GET /api/openapi.json) rendered for reading, one
// section per route with its credential, parameters, body fields and answers. Written by
// `pnpm docs:write`; a test fails when it and the API disagree.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { openDatabase } from '../../packages/db/src/index.ts';

export const apiReferenceDoc = join(import.meta.dirname, '../../docs/api-reference.md');

type Schema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};
type Operation = {
  tags?: string[];
  security?: Record<string, unknown>[];
  'x-required-role'?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};

/** A schema in a few words: its type and the limits a caller must keep. */
function brief(s: Schema | undefined): string {
  if (!s) return '';
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.anyOf) return s.anyOf.map(brief).join(' or ');
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(', ');
  const type = [s.type].flat().filter(Boolean).join(' or ') || 'any';
  const limits = [
    s.format,
    s.pattern && `pattern \`${s.pattern.replaceAll('|', '\\|')}\``,
    s.minimum !== undefined && `≥ ${s.minimum}`,
    s.maximum !== undefined && `≤ ${s.maximum}`,
    s.minLength !== undefined && `length ≥ ${s.minLength}`,
    s.maxLength !== undefined && `length ≤ ${s.maxLength}`,
  ].filter(Boolean);
  const inner = s.type === 'array' && s.items ? ` of ${brief(s.items)}` : s.properties ? ` {${Object.keys(s.properties).join(', ')}}` : '';
  return `${type}${inner}${limits.length ? ` (${limits.join(', ')})` : ''}`;
}

const credential = (security: Operation['security']) =>
  !security?.length
    ? 'none'
    : security
        .map(
          (s) => ({ jwt: 'an access token', deployToken: 'the deployers’ token', metricsToken: 'the metrics token' })[Object.keys(s)[0]!] ?? Object.keys(s)[0],
        )
        .join(' or ');

/** The reference, from the document the API serves. */
export async function apiReference(): Promise<string> {
  const database = await openDatabase();
  const app = await buildApp({ database, config: loadConfig({}), secrets: { jwtSecret: randomBytes(32).toString('hex'), bankPassKey: randomBytes(32) } });
  const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    info: { version: string };
    paths: Record<string, Record<string, Operation>>;
  };
  await app.close();
  await database.close();
  const out = [
    '# API reference',
    '',
    `Rendered from \`GET /api/openapi.json\` (OpenAPI 3.1, contract version ${doc.info.version}) by \`pnpm docs:write\`. Every error answer is`,
    '`{"detail": "..."}`; bodies are accepted as JSON, form or multipart alike. [api.md](api.md) explains the API in prose.',
  ];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      out.push(
        '',
        `## ${method.toUpperCase()} \`${path}\``,
        '',
        `Credential: ${credential(op.security)}${op['x-required-role'] ? ` of an ${op['x-required-role']}` : ''}.`,
      );
      const params = op.parameters ?? [];
      if (params.length) {
        out.push('', '| parameter | in | required | accepts |', '| --- | --- | --- | --- |');
        for (const p of params) out.push(`| \`${p.name}\` | ${p.in} | ${p.required ? 'yes' : 'no'} | ${brief(p.schema)} |`);
      }
      const body = Object.values(op.requestBody?.content ?? {})[0]?.schema;
      if (body?.properties) {
        out.push('', '| body field | required | accepts |', '| --- | --- | --- |');
        for (const [name, s] of Object.entries(body.properties)) out.push(`| \`${name}\` | ${body.required?.includes(name) ? 'yes' : 'no'} | ${brief(s)} |`);
      }
      out.push('', '| answer | body |', '| --- | --- |');
      for (const [status, answer] of Object.entries(op.responses)) {
        const [type, content] = Object.entries(answer.content ?? {})[0] ?? [];
        out.push(`| ${status} | ${type && type !== 'application/json' ? `\`${type}\`` : brief(content?.schema) || answer.description || ''} |`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}
