/** The key dialogs: create (the new secret shown once), edit, roll; and the key types in words. */
import type { ApiKeyView, CreateKeyRequest } from '../../../../management/schemas/keys.js';
import { call } from '../api.js';
import { formDialog } from '../components/dialog.js';
import { field, select } from '../components/forms.js';
import { secretBox } from '../components/secret.js';
import { h, lines } from '../dom.js';
import { roleAtLeast } from '../state.js';

export const TYPE_NAMES: Record<ApiKeyView['type'], string> = {
  production: 'Production',
  development: 'Development',
  read_only: 'Read-only',
  client: 'Client',
};
export const TYPE_HINTS: Record<ApiKeyView['type'], string> = {
  production: 'Full access, for servers. Never put it in browser code.',
  development: 'Full access at lower rate limits (the Overview lists them), for testing.',
  read_only: 'Usage, status and job results only, for monitoring.',
  client: 'Hash and verify only, from the web sites you list; safe in browser code.',
};

/** Types the person's role may create (the server's policy decides; this only trims the menu). */
export function creatableTypes(): Array<ApiKeyView['type']> {
  if (roleAtLeast('admin')) return ['production', 'development', 'read_only', 'client'];
  if (roleAtLeast('developer')) return ['development', 'client'];
  return [];
}

export function createDialog(accountId: string, done: () => void): void {
  formDialog('Create an API key', ({ error, showOutcome }) => {
    const types = creatableTypes();
    const type = select(
      'Type',
      'type',
      types.map((t) => [t, TYPE_NAMES[t]]),
      types[0],
    );
    const typeHint = h('p', { class: 'hint' }, TYPE_HINTS[types[0]!]);
    const description = field({ label: 'Description', name: 'description', required: true, hint: 'What uses it, e.g. "Build server".' });
    // Only Client keys have domains, and they need at least one (the server's rule, shared/keys/api-keys.ts).
    const domains = field({
      label: 'Allowed domains (required for Client keys)',
      name: 'domains',
      multiline: true,
      hint: 'The web sites that may use the key, one per line: app.example.com or *.example.com.',
    });
    const ips = field({
      label: 'Allowed IP addresses (optional)',
      name: 'ips',
      multiline: true,
      hint: 'One address or CIDR range per line; empty allows any. Pro and Enterprise plans.',
    });
    const expires = field({ label: 'Expires on (optional)', name: 'expires', type: 'date' });
    const syncType = () => {
      const t = type.input.value as ApiKeyView['type'];
      typeHint.textContent = TYPE_HINTS[t];
      domains.wrapper.hidden = t !== 'client';
      domains.input.required = t === 'client';
    };
    type.input.addEventListener('change', syncType);
    syncType();
    return {
      fields: [type.wrapper, typeHint, description.wrapper, domains.wrapper, ips.wrapper, expires.wrapper],
      submitLabel: 'Create key',
      submit: async () => {
        error.clear();
        const t = type.input.value as CreateKeyRequest['type'];
        const body = {
          type: t,
          description: description.input.value,
          allowedDomains: t === 'client' ? lines(domains.input.value) : [],
          allowedIps: lines(ips.input.value),
          expiresAt: expires.input.value ? new Date(`${expires.input.value}T23:59:59Z`).toISOString() : null,
        };
        const created = await call('createKey', { params: { accountId }, body });
        showOutcome(done, ...newSecret(created.secret, `${TYPE_NAMES[created.key.type]} key "${created.key.description}"`));
      },
    };
  });
}

/** The new secret, shown once: the dialog's Done removes it from the page. */
function newSecret(secret: string, what: string): Node[] {
  return [h('p', {}, `${what} is ready.`), secretBox('Your new key', secret)];
}

export function editDialog(accountId: string, key: ApiKeyView, done: () => void): void {
  formDialog(`Edit key ${key.prefix}…`, ({ close }) => {
    const description = field({ label: 'Description', name: 'description', value: key.description, required: true });
    const domains = field({
      label: 'Allowed domains (required for Client keys)',
      name: 'domains',
      multiline: true,
      value: key.allowedDomains.join('\n'),
      hint: 'One per line.',
      required: key.type === 'client',
    });
    domains.wrapper.hidden = key.type !== 'client';
    const ips = field({
      label: 'Allowed IP addresses',
      name: 'ips',
      multiline: true,
      value: key.allowedIps.join('\n'),
      hint: 'One address or CIDR range per line; empty allows any.',
    });
    return {
      fields: [description.wrapper, domains.wrapper, ips.wrapper],
      submitLabel: 'Save',
      submit: async () => {
        await call('updateKey', {
          params: { accountId, keyId: key.id },
          body: {
            description: description.input.value,
            allowedIps: lines(ips.input.value),
            ...(key.type === 'client' ? { allowedDomains: lines(domains.input.value) } : {}),
          },
        });
        close();
        done();
      },
    };
  });
}

export function rollDialog(accountId: string, key: ApiKeyView, done: () => void): void {
  formDialog(`Roll key ${key.prefix}…`, ({ showOutcome }) => {
    const grace = field({
      label: 'Keep the old key working for (hours)',
      name: 'grace',
      type: 'number',
      value: '24',
      hint: 'Both keys work until then, so you can switch your applications over. 0 stops the old key now.',
    });
    grace.input.setAttribute('min', '0');
    grace.input.setAttribute('max', '720');
    return {
      fields: [h('p', {}, 'A new key with the same type and settings replaces this one.'), grace.wrapper],
      submitLabel: 'Roll key',
      submit: async () => {
        const rolled = await call('rollKey', {
          params: { accountId, keyId: key.id },
          body: { gracePeriodHours: Number(grace.input.value || '0') },
        });
        showOutcome(done, ...newSecret(rolled.secret, `The replacement for ${key.prefix}…`));
      },
    };
  });
}
