import { pino, type Logger as PinoLogger } from 'pino';

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
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'sha224d' } };
  return destination ? pino(options, destination) : pino(options);
}
