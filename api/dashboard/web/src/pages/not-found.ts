/** What an address under /dashboard that names no page shows: the path asked for and the way back. */
import { h, replaceChildren } from '../dom.js';
import { pageHeader, section } from '../layout.js';
import { href } from '../router.js';

export function renderNotFound(main: HTMLElement): Promise<void> {
  replaceChildren(
    main,
    pageHeader('Page not found', `There is no dashboard page at ${location.pathname}.`),
    section(
      'Where to go',
      h(
        'ul',
        { class: 'features' },
        h('li', {}, h('a', { href: href('/') }, 'Overview')),
        h('li', {}, h('a', { href: href('/keys') }, 'API keys')),
        h('li', {}, h('a', { href: href('/usage') }, 'Usage')),
      ),
    ),
  );
  return Promise.resolve();
}
