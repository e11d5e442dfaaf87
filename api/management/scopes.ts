/**
 * The OAuth scopes in words, as the consent page and the authorized-applications page say them
 * (scope names: docs/auth.md). Plain data with no imports, so browser code can use it too.
 */
export const SCOPE_WORDS: Readonly<Record<string, string>> = {
  'hash:create': 'Compute SHA-224 hashes and HMACs of data it sends, counted against your daily quota',
  'hash:verify': 'Check data against SHA-224 hashes',
  'usage:read': 'See your plan, your usage and your limits',
  'jobs:read': 'Read the results of the jobs it started',
};

export function scopeInWords(scope: string): string {
  return SCOPE_WORDS[scope] ?? scope;
}
