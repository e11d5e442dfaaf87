/**
 * `webhooks list` and `webhooks deliveries`: an operator's view of webhook endpoints and their
 * deliveries, read from the SQL store (no secret is read, so no SECRETS_KEY is needed). A failed
 * delivery is replayed from the dashboard's API, which keeps its webhook-id (docs/webhooks.md).
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../../shared/config.js';
import { KyselyWebhookStore, type DeliveryStatus } from '../../shared/store/kysely-webhooks.js';
import { deliveryFields, endpointFields } from '../../shared/webhooks/views.js';
import { reportingAction, table } from './output.js';
import { openAdminStore } from './with-store.js';

function parseLimit(value: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw new InvalidArgumentError('expected 1 to 1000');
  return Number(value);
}

async function withWebhookStore<T>(fn: (store: KyselyWebhookStore) => Promise<T>): Promise<T> {
  const store = await openAdminStore(loadConfig());
  try {
    return await fn(new KyselyWebhookStore(store.db));
  } finally {
    await store.close();
  }
}

function listCommand(): Command {
  const command = new Command('list').description('webhook endpoints').option('--account <id>', 'only this account').exitOverride();
  return reportingAction(command, async (opts: { account?: string }) => {
    const endpoints = await withWebhookStore((s) => s.endpoints(opts.account));
    // The account first after the id, as the list's columns read.
    const data = endpoints.map((e) => {
      const { id, ...fields } = endpointFields(e);
      return { id, accountId: e.accountId, ...fields };
    });
    return {
      data: { endpoints: data },
      text: () =>
        table(
          ['ID', 'ACCOUNT', 'URL', 'ENABLED', 'EVENTS', 'FAILING SINCE'],
          data.map((e) => [
            e.id,
            e.accountId,
            e.url,
            e.enabled ? 'yes' : `no (${e.disabledReason ?? ''})`,
            e.eventTypes.join(',') || 'all',
            e.failingSince ?? '',
          ]),
        ),
    };
  });
}

function deliveriesCommand(): Command {
  const command = new Command('deliveries')
    .description('recent webhook deliveries, newest first')
    .option('--account <id>', 'only this account')
    .option('--endpoint <id>', 'only this endpoint')
    .option('--failed', 'only deliveries that failed for good')
    .option('--pending', 'only deliveries still being attempted')
    .option('--limit <n>', 'at most this many (1-1000)', parseLimit, 50)
    .exitOverride();
  return reportingAction(
    command,
    async (opts: { account?: string; endpoint?: string; failed?: boolean; pending?: boolean; limit: number }) => {
      if (opts.failed === true && opts.pending === true) throw new InvalidArgumentError('--failed and --pending exclude each other');
      const status: DeliveryStatus | undefined = opts.failed === true ? 'failed' : opts.pending === true ? 'pending' : undefined;
      const rows = await withWebhookStore((s) =>
        s.deliveries({
          limit: opts.limit,
          ...(opts.account === undefined ? {} : { accountId: opts.account }),
          ...(opts.endpoint === undefined ? {} : { endpointId: opts.endpoint }),
          ...(status === undefined ? {} : { status }),
        }),
      );
      const data = rows.map((d) => ({ ...deliveryFields(d), accountId: d.accountId }));
      return {
        data: { deliveries: data },
        text: () =>
          table(
            ['ID', 'ENDPOINT', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'UPDATED'],
            data.map((d) => [
              d.id,
              d.endpointId,
              d.eventType,
              d.status,
              String(d.attempts),
              d.lastStatusCode === null ? (d.lastError ?? '') : String(d.lastStatusCode),
              d.updatedAt ?? '',
            ]),
          ),
      };
    },
  );
}

export function webhooksCommand(): Command {
  return new Command('webhooks').description('webhook endpoints and deliveries').addCommand(listCommand()).addCommand(deliveriesCommand());
}
