import { pino, type Logger as PinoLogger } from 'pino';
import { LineBatch } from './log-lines.js';

export type Logger = PinoLogger;

/**
 * Credentials never reach the logs (DEVELOPERS.md "Secrets"): headers are redacted by path, and
 * request URLs are logged without their query string by the request logger.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'apiKey',
  'api_key',
  'key',
  'secret',
  'token',
  'password',
  '*.apiKey',
  '*.api_key',
  '*.secret',
  '*.token',
  '*.password',
  // The dashboard: session cookies set in responses, passwords, shown-once secrets and links.
  'res.headers["set-cookie"]',
  'currentPassword',
  'newPassword',
  'clientSecret',
  'csrfToken',
  '*.currentPassword',
  '*.newPassword',
  '*.clientSecret',
  '*.csrfToken',
];

/**
 * Without a destination the logger writes to stdout asynchronously: a synchronous write per line
 * blocked the event loop for ~15% of a busy node's time. Lines are batched per event-loop turn
 * (shared/log-lines.ts). pino flushes what is pending when the process exits (also on an uncaught
 * exception), and so does the batch; only SIGKILL can lose the last lines.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'sha224d' } };
  return pino(options, destination ?? new LineBatch(pino.destination({ dest: 1, sync: false })));
}
