// Two validators: query strings and path params are text on the wire, so they are coerced to the
// declared number types; bodies are validated strictly (a number sent for a text field is an error,
// unknown fields are an error, nothing is silently dropped). Before either, a NUL character anywhere
// is refused: PostgreSQL cannot store it in text and would answer with an error.
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply } from 'fastify';

const common: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };

/** A calendar day PostgreSQL and JavaScript both handle, with room for the day after: 0001-01-01..9998-12-31. */
function isSupportedDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || year > 9998 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.getUTCDate() === day;
}

const withFormats = (ajv: Ajv) => addFormats.default(ajv).addFormat('date', { type: 'string', validate: isSupportedDay });

/** Deeper than any form the API takes: refused before anything walks it. */
const maxDepth = 32;

/**
 * The first path (a.b.0) at which a string or key holds a NUL character, 'too deep' for a value
 * nested past maxDepth, or undefined. Iterative: a hostile body nested thousands deep must not
 * exhaust the stack.
 */
function nulAt(value: unknown): string | undefined {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length > 0) {
    const [item, path, depth] = stack.pop()!;
    // An uploaded file's bytes are the route's to judge, not text.
    if (item instanceof Uint8Array) continue;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (item && typeof item === 'object') {
      if (depth >= maxDepth) return 'too deep';
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return childPath.replaceAll('\u0000', '\\0');
        stack.push([child, childPath, depth + 1]);
      }
    }
  }
  return undefined;
}

const refuseNul = (reply: FastifyReply, where: string, field: string) =>
  reply.code(400).send({ detail: `${where}${field ? ` '${field}'` : ''}: must not contain a NUL character.` });

export function registerValidation(app: FastifyInstance): void {
  const strict = withFormats(new Ajv({ ...common, coerceTypes: false }));
  const coercing = withFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  app.addHook('preValidation', async (request, reply) => {
    for (const [where, part] of [
      ['query', request.query],
      ['path', request.params],
      ['body', request.body],
    ] as const) {
      const field = nulAt(part);
      if (field === 'too deep') return reply.code(400).send({ detail: `${where}: nested too deeply.` });
      if (field !== undefined) return refuseNul(reply, where, field);
    }
    // The original client sends empty filters as empty strings: an empty value means "no filter".
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    for (const [key, value] of Object.entries(query)) if (value === '') delete query[key];
  });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
