import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';

export type Schema = z.ZodType;

export function json(schema: Schema) {
  return { content: { 'application/json': { schema } } };
}

export type ResponseDoc = ReturnType<typeof json> & { description: string };

/**
 * Registration helpers for one API generation: its security schemes, its error body, and the
 * JSON POST / GET shapes its paths share. Both generations document themselves through this.
 */
export function generationRegistrar(registry: OpenAPIRegistry, options: { security: Array<Record<string, string[]>>; errorSchema: Schema }) {
  const { security } = options;
  const error = (description: string): ResponseDoc => ({ description, ...json(options.errorSchema) });
  const errors = {
    400: error('INVALID_INPUT'),
    401: error('UNAUTHORIZED or EXPIRED_KEY'),
    403: error('FORBIDDEN'),
    429: error('RATE_LIMIT_EXCEEDED'),
    500: error('INTERNAL_ERROR'),
  };
  const ok = (response: Schema) => ({ 200: { description: 'OK', ...json(response) } });
  return {
    security,
    error,
    errors,
    ok,
    post: (path: string, summary: string, request: Schema, response: Schema, extra: Record<number, ResponseDoc> = {}): void => {
      registry.registerPath({ method: 'post', path, summary, security, request: { body: { ...json(request), required: true } }, responses: { ...ok(response), ...errors, ...extra } });
    },
    get: (path: string, summary: string, response: Schema): void => {
      registry.registerPath({ method: 'get', path, summary, security, responses: { ...ok(response), ...errors } });
    },
  };
}
