// Two validators: query strings and path params are text on the wire, so they are coerced to the
// declared number types; bodies are validated strictly (a number sent for a text field is an error,
// unknown fields are an error, nothing is silently dropped).
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

const common: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };

export function registerValidation(app: FastifyInstance): void {
  const strict = addFormats.default(new Ajv({ ...common, coerceTypes: false }));
  const coercing = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));
  // The original client sends empty filters as empty strings: an empty value means "no filter".
  app.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    for (const [key, value] of Object.entries(query)) if (value === '') delete query[key];
  });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema),
  );
}
