/**
 * A secret shown once (a new API key, a client secret, a one-time link): a read-only field with a
 * copy button and a plain warning. When the dialog holding it closes, the element is removed from
 * the page, so the secret is nowhere in the document afterwards.
 */
import { h, uid } from '../dom.js';

export function secretBox(
  label: string,
  secret: string,
  note = 'Copy it now: it is shown only once and cannot be shown again.',
  options: { multiline?: boolean } = {},
): HTMLElement {
  const id = uid('secret');
  const attrs = { id, class: 'secret mono', readonly: true, spellcheck: 'false', autocomplete: 'off' };
  // Long values (a command, a link) wrap in a text area instead of scrolling out of sight.
  const input = options.multiline ? h('textarea', { ...attrs, rows: 3 }, secret) : h('input', { ...attrs, type: 'text', value: secret });
  const status = h('span', { class: 'copy-status', role: 'status' });
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'primary',
      on: {
        click: () => {
          input.select();
          navigator.clipboard.writeText(secret).then(
            () => (status.textContent = 'Copied'),
            () => (status.textContent = 'Select the text and copy it with your keyboard'),
          );
        },
      },
    },
    'Copy',
  );
  return h(
    'div',
    { class: 'secret-box' },
    h('label', { for: id }, label),
    h('div', { class: 'secret-row' }, input, copy),
    status,
    h('p', { class: 'warning' }, note),
  );
}
