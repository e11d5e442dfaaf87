import { describe, expect, it } from 'vitest';
import { startFailureText } from '../../shared/start-failure.js';

describe('startFailureText', () => {
  it('follows the cause chain, one message each', () => {
    const err = new Error('Migration failed', { cause: new Error('canceling statement due to statement timeout') });
    expect(startFailureText('sha224d api', err)).toBe(
      'sha224d api failed to start: Migration failed: canceling statement due to statement timeout\n',
    );
  });
  it('prints a non-Error as text and stops at a cycle', () => {
    expect(startFailureText('sha224d', 'boom')).toBe('sha224d failed to start: boom\n');
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(startFailureText('w', a)).toBe('w failed to start: a: b: a: b: a\n');
  });
  it('drops a cause its wrapper already quotes', () => {
    const inner = new Error('PORT: expected a number');
    expect(startFailureText('x', new Error('Invalid configuration: PORT: expected a number', { cause: inner }))).toBe(
      'x failed to start: Invalid configuration: PORT: expected a number\n',
    );
  });
});
