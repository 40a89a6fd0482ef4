// Each process reads its environment once, at start, through one schema: every variable it knows,
// what it accepts, its default and what it does. A missing required value or a malformed one stops
// the process with exit 1 and one line naming the variable, what it got and what it accepts, so a
// typo never silently becomes a default. The same schemas write the settings table of the docs.
// This is the one module that reads process.env (lint refuses it elsewhere).
import { Type, type TSchema } from 'typebox';
import { Check } from 'typebox/value';

interface About {
  /** What the setting does, in the deployers' words (the docs' table shows it). */
  description: string;
  /** A secret: its value is never printed, not even in a refusal. */
  secret?: boolean;
  /** Required: the process refuses to start without it. */
  required?: boolean;
}

/** One variable: its TypeBox schema, how text becomes a value, and what it accepts in words. */
export interface Setting<V, Defined extends boolean> extends About {
  schema: TSchema;
  accepts: string;
  parse(raw: string): unknown;
  default: V | undefined;
  /** Type-only: the value's type, and whether it always has one. */
  readonly _value?: V;
  readonly _defined?: Defined;
}

type Options<V> = About & { default?: V };
type Defined<O> = O extends { default: unknown } ? true : O extends { required: true } ? true : false;

function define<V, O extends Options<V>>(o: O, schema: TSchema, accepts: string, parse: (raw: string) => unknown): Setting<V, Defined<O>> {
  return { ...o, schema, accepts, parse, default: o.default };
}

/** A whole number in [minimum, maximum]. */
export const integer = <O extends Options<number> & { minimum: number; maximum: number }>(o: O) =>
  define<number, O>(o, Type.Integer({ minimum: o.minimum, maximum: o.maximum }), `a whole number from ${o.minimum} to ${o.maximum}`, (raw) =>
    /^[+-]?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw,
  );

/** Text; a pattern, when given, is described by `accepts`. */
export const text = <O extends Options<string> & { pattern?: string; accepts?: string }>(o: O) =>
  define<string, O>(o, Type.String({ minLength: 1, ...(o.pattern && { pattern: o.pattern }) }), o.accepts ?? 'text', (raw) => raw);

/** One of a few words. */
export const oneOf = <const V extends string, O extends Options<V>>(values: readonly V[], o: O) =>
  define<V, O>(o, Type.Union(values.map((v) => Type.Literal(v))), `one of: ${values.join(', ')}`, (raw) => raw.trim());

/** A comma-separated list. */
export const list = <O extends Options<string[]>>(o: O) =>
  define<string[], O>(o, Type.Array(Type.String({ minLength: 1 })), 'a comma-separated list', (raw) =>
    raw
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  );

/** true or false (1 or 0). */
export const flag = <O extends Options<boolean>>(o: O) =>
  define<boolean, O>(o, Type.Boolean(), 'true or false', (raw) => ({ true: true, false: false, 1: true, 0: false })[raw.trim().toLowerCase()] ?? raw);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, Setting<any, boolean>>;
export type Settings<T extends Schema> = {
  [K in keyof T]: T[K] extends Setting<infer V, infer D> ? (D extends true ? V : V | undefined) : never;
};

/** Why a process refused its environment, in one line. */
export class SettingError extends Error {}

/** The settings in `env` (the process's own by default) by `schema`; throws a SettingError naming the first bad variable. */
export function readSettings<T extends Schema>(schema: T, env: Record<string, string | undefined> = process.env): Settings<T> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(schema)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') {
      if (s.required) throw new SettingError(`${name} is not set; it is required: ${s.description}`);
      out[name] = s.default;
      continue;
    }
    const value = s.parse(raw);
    if (!Check(s.schema, value)) {
      const got = s.secret ? 'set to a value that' : `"${raw.length > 60 ? `${raw.slice(0, 60)}…` : raw}", which`;
      throw new SettingError(`${name} is ${got} is not accepted; it accepts ${s.accepts}.`);
    }
    out[name] = value;
  }
  return out as Settings<T>;
}

/**
 * A process starting: `configure` reads its settings (and checks what spans several of them); a
 * SettingError ends the process with exit 1 and its one line, prefixed with the process's name.
 */
export function startingWith<C>(processName: string, configure: () => C): C {
  try {
    return configure();
  } catch (err) {
    if (!(err instanceof SettingError)) throw err;
    process.stderr.write(`${processName}: ${err.message}\n`);
    process.exit(1);
  }
}

/** The environment a child process inherits, with these values added or replaced. */
export const childEnv = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => ({ ...process.env, ...extra });

/** The settings table of the docs: one row per variable. */
export function settingsTable(schema: Schema): string {
  const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = Object.entries(schema).map(([name, s]) => {
    const shown = Array.isArray(s.default) ? s.default.join(',') : s.default;
    const fallback = s.required ? 'required' : shown === undefined ? '' : `\`${String(shown)}\``;
    return `| \`${name}\` | ${fallback} | ${cell(s.accepts)} | ${cell(s.description)} |`;
  });
  return ['| Variable | Default | Accepts | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
