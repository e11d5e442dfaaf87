import type { z } from 'zod';
import { ServiceError } from '../../shared/errors.js';
import { fieldPath } from '../schemas/common.js';

/**
 * Validate with a zod schema (the single source of request validation and of the OpenAPI
 * document). The first problem becomes a 400 INVALID_INPUT whose message says what is wrong
 * and whose details name the field.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? fieldPath(issue.path) || 'body' : 'body';
  const message =
    issue?.code === 'invalid_type' && issue.path.length === 0 ? 'Request body must be a JSON object' : (issue?.message ?? 'Invalid input');
  throw new ServiceError('INVALID_INPUT', { message, details: `field: ${field}` });
}
