/**
 * Set a password from a one-time link (/dashboard/set-password#token=…). The token is read from the
 * fragment, which browsers never send to servers, and removed from the address bar at once; it is
 * posted once, with the new password.
 */
import { call } from '../api.js';
import { busy, errorLine, field } from '../components/forms.js';
import { h, replaceChildren } from '../dom.js';
import { BASE, go } from '../router.js';
import { setSession } from '../state.js';

let pendingToken: string | undefined;

export async function renderSetPassword(main: HTMLElement): Promise<void> {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    pendingToken = fromHash;
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = pendingToken;
  const card = h('div', { class: 'card narrow' }, h('p', { class: 'brand' }, 'sha224d'));
  replaceChildren(main, card);
  if (!token) {
    card.append(
      h('h1', { tabindex: '-1' }, 'This link is incomplete'),
      h('p', {}, 'Open the whole link you were given, or ask for a new one.'),
    );
    return;
  }
  let info: { email: string; purpose: 'setup' | 'reset' };
  try {
    info = await call('linkInfo', { body: { token } });
  } catch (err) {
    card.append(
      h('h1', { tabindex: '-1' }, 'This link cannot be used'),
      h('p', {}, err instanceof Error ? err.message : 'Ask for a new link.'),
    );
    return;
  }
  const password = field({
    label: 'New password',
    name: 'password',
    type: 'password',
    autocomplete: 'new-password',
    required: true,
    hint: 'At least 12 characters. A few unrelated words make a good one.',
  });
  const again = field({ label: 'New password, again', name: 'password2', type: 'password', autocomplete: 'new-password', required: true });
  const error = errorLine();
  const submit = h(
    'button',
    { type: 'submit', class: 'primary wide' },
    info.purpose === 'setup' ? 'Set password and sign in' : 'Reset password and sign in',
  );
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      on: {
        submit: (e) => {
          e.preventDefault();
          error.clear();
          if (password.input.value !== again.input.value) {
            error.el.textContent = 'The two passwords differ';
            again.input.focus();
            return;
          }
          void busy(submit, async () => {
            try {
              setSession(await call('setPassword', { body: { token, password: password.input.value } }));
              pendingToken = undefined;
              go(`${BASE}/`, true);
            } catch (err) {
              error.show(err);
            }
          });
        },
      },
    },
    h('input', { type: 'email', name: 'username', autocomplete: 'username', value: info.email, hidden: true, readonly: true }),
    password.wrapper,
    again.wrapper,
    error.el,
    submit,
  );
  card.append(
    h('h1', { tabindex: '-1' }, info.purpose === 'setup' ? 'Choose your password' : 'Choose a new password'),
    h('p', {}, 'For ', h('strong', {}, info.email), info.purpose === 'reset' ? '. Every other session of yours will be signed out.' : '.'),
    form,
  );
}
