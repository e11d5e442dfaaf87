/** A failure the user can fix by changing the command line: the admin CLI exits 2 (deploy/admin/cli.ts). */
export class UsageError extends Error {
  override name = 'UsageError';
}
