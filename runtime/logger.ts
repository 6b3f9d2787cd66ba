import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** JSON logs on stdout; secrets that may reach a log line are redacted at the source. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'qantara', ...bindings },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-admin-token"]', '*.key', '*.password'],
      censor: '[redacted]',
    },
  });
}
