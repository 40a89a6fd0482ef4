// One-line logs on stderr. Nothing here is ever handed a password: settings are logged by name.
export type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createLogger(level: Level): Logger {
  const threshold = order[level];
  const at = (l: Level) => (message: string) => {
    if (order[l] >= threshold) process.stderr.write(`${new Date().toISOString()} ${l.toUpperCase()} ingest: ${message}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
