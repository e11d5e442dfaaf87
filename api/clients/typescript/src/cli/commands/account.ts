/** `usage` (GET /v1/usage) and `status` (GET /v1/status). */
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';

const unlimited = (n: number): string => (n === -1 ? 'unlimited' : n.toLocaleString('en-US'));

function refuseLocal(context: CliContext, command: string): void {
  if (context.local) throw new UsageError(`--local cannot be used with ${command}: it asks the service`);
}

export async function usageCommand(context: CliContext): Promise<ExitCode> {
  refuseLocal(context, 'usage');
  const usage = await context.client().v1.usage();
  if (context.json) {
    context.printJson(usage);
    return EXIT.ok;
  }
  const { tier, quota, rateLimit } = usage.account;
  context.out(`tier: ${tier}`);
  context.out(
    `quota: ${quota.used.toLocaleString('en-US')} used of ${unlimited(quota.daily)} today, ${unlimited(quota.remaining)} left (resets ${quota.resetTime})`,
  );
  context.out(
    `rate limit: ${unlimited(rateLimit.requestsPerSecond)} requests/s; largest file ${rateLimit.maxFileSize.toLocaleString('en-US')} bytes`,
  );
  return EXIT.ok;
}

export async function statusCommand(context: CliContext): Promise<ExitCode> {
  refuseLocal(context, 'status');
  const status = await context.client().v1.status();
  if (context.json) {
    context.printJson(status);
    return EXIT.ok;
  }
  context.out(`status: ${status.status} (API ${status.version})`);
  context.out(
    `rate limit: ${unlimited(status.rate_limit.remaining)} of ${unlimited(status.rate_limit.limit)} left this minute (resets ${status.rate_limit.reset})`,
  );
  context.out(
    `account: ${status.account.plan}, ${status.account.requests_today.toLocaleString('en-US')} requests today of ${unlimited(status.account.requests_quota)}`,
  );
  return EXIT.ok;
}
