import { inspect } from 'node:util';

/**
 * The one line a process prints when it cannot start: the error's message followed by each
 * `cause`'s, so an operator sees why (a migration that failed because a statement timed out says
 * so) without a stack trace. Messages only: a driver's error text names a table or a timeout, not
 * a connection string.
 */
export function startFailureText(process: string, err: unknown): string {
  const messages: string[] = [];
  let current: unknown = err;
  // Bounded: a cause chain is short, and a cycle must not loop.
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const message = current instanceof Error ? current.message : typeof current === 'string' ? current : inspect(current, { depth: 1 });
    // A wrapper that already quotes its cause ("Invalid configuration: …") is not repeated.
    if (message !== '' && !(messages.at(-1)?.includes(message) ?? false)) messages.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return `${process} failed to start: ${messages.join(': ')}\n`;
}
