/** Sign in with email and password; afterwards back to where the person was going (same origin only). */
import { call } from '../api.js';
import { busy, errorLine, field } from '../components/forms.js';
import { h, replaceChildren } from '../dom.js';
import { BASE, go } from '../router.js';
import { setSession } from '../state.js';

/** Only a path on this origin below /dashboard or the OAuth authorization endpoint: never an open redirect. */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return `${BASE}/`;
  const url = new URL(value, location.origin);
  if (url.origin !== location.origin) return `${BASE}/`;
  return url.pathname.startsWith(`${BASE}/`) || url.pathname === '/oauth/authorize' ? url.pathname + url.search : `${BASE}/`;
}

export async function renderSignIn(main: HTMLElement): Promise<void> {
  const email = field({ label: 'Email', name: 'email', type: 'email', autocomplete: 'username', required: true });
  const password = field({ label: 'Password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const error = errorLine();
  const submit = h('button', { type: 'submit', class: 'primary wide' }, 'Sign in');
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      on: {
        submit: (e) => {
          e.preventDefault();
          error.clear();
          void busy(submit, async () => {
            try {
              const session = await call('signIn', { body: { email: email.input.value, password: password.input.value } });
              setSession(session);
              const target = safeReturnTo(new URLSearchParams(location.search).get('returnTo'));
              if (target.startsWith(BASE)) go(target, true);
              else location.assign(target);
            } catch (err) {
              error.show(err);
              password.input.value = '';
              password.input.focus();
            }
          });
        },
      },
    },
    email.wrapper,
    password.wrapper,
    error.el,
    submit,
  );
  replaceChildren(
    main,
    h(
      'div',
      { class: 'card narrow' },
      h('p', { class: 'brand' }, 'sha224d'),
      h('h1', { tabindex: '-1' }, 'Sign in'),
      form,
      h(
        'p',
        { class: 'hint' },
        'Forgot your password? Ask an admin of your account for a reset link, or your operator: npm run admin -- users reset-link.',
      ),
    ),
  );
  await Promise.resolve();
}
