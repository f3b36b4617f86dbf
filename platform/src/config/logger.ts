/**
 * Structured one-line JSON logs. Callers pass facts, never secrets: `redact` masks the usual suspects
 * in case one slips into a context object.
 */
export interface Logger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

const SECRET_KEYS = /pass(word)?|secret|token|authorization|hash|key$/i;

function redact(context: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(context).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : v]));
}

export function createLogger(service: string, options: { silent?: boolean } = {}): Logger {
  const write = (level: string, message: string, context?: Record<string, unknown>) => {
    if (options.silent) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, service, message, ...redact(context) });
    (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    info: (m, c) => write('info', m, c),
    warn: (m, c) => write('warn', m, c),
    error: (m, c) => write('error', m, c),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
