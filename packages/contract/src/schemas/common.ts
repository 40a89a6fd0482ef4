import { Type } from 'typebox';

export const Detail = Type.Object({ detail: Type.String(), code: Type.Optional(Type.String()) });

/** Common error answers, declared on every route so the contract is visible in one place. */
export const errorResponses = {
  400: Detail,
  401: Detail,
  403: Detail,
  404: Detail,
  429: Detail,
  503: Detail,
};

/** An answer that is a file or a stream, not JSON: its media types, for the OpenAPI document. */
export const FileAnswer = (...types: string[]) => ({
  description: 'The file, streamed as it is written.',
  content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }])),
});

/** A required text field: at least one non-blank character, at most max. */
export const RequiredText = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

/** A timestamp: a Date in handlers, an ISO 8601 string on the wire. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
