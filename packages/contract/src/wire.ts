// What the browser receives for a schema: the API's values after JSON (a Date is sent as its ISO
// string). The client's types are these, derived from the schemas the API validates with, so the
// two sides cannot drift; type-only, so nothing of TypeBox reaches the browser.
import type { Static, TSchema } from 'typebox';

export type Wire<T> = T extends Date ? string : T extends (infer Item)[] ? Wire<Item>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

/** The answer to a request whose response the schema describes, as the client reads it. */
export type Answer<S extends TSchema> = Wire<Static<S>>;

/** A request body the schema describes, as the client sends it. */
export type RequestBody<S extends TSchema> = Static<S>;
