/**
 * /docs/assets/reference.js: starts Swagger UI on the reference page. A file of its own, not an
 * inline script, so the page's Content-Security-Policy can refuse inline scripts. Plain ES2020 for
 * every current browser; `SwaggerUIBundle` is the global of swagger-ui-bundle.js, loaded before it.
 */
export const REFERENCE_SCRIPT = `'use strict';
(function () {
  var origin = window.location.origin;
  window.ui = window.SwaggerUIBundle({
    url: origin + '/openapi.json',
    dom_id: '#reference',
    layout: 'BaseLayout',
    presets: [window.SwaggerUIBundle.presets.apis],
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: false,
    persistAuthorization: false,
    tryItOutEnabled: false,
    // No call to the public validator (swagger.io): nothing leaves this origin.
    validatorUrl: null,
    oauth2RedirectUrl: origin + '/docs/oauth2-redirect.html',
  });
  // Swagger UI gives every field of the Authorize dialog autoFocus, so the last one rendered took
  // the focus and scrolled the dialog to its end. Once a dialog has fields, focus its first (the
  // X-API-Key value: the document lists that scheme first, api/docs/reader-order.ts) and show its top.
  new MutationObserver(function () {
    var dialog = document.querySelector('.dialog-ux');
    if (!dialog || dialog.hasAttribute('data-first-field')) return;
    var field = dialog.querySelector('.modal-ux-content input:not([type="hidden"]), .modal-ux-content select');
    if (!field) return;
    dialog.setAttribute('data-first-field', '');
    field.focus({ preventScroll: true });
    var content = dialog.querySelector('.modal-ux-content');
    if (content) content.scrollTop = 0;
  }).observe(document.body, { childList: true, subtree: true });
})();
`;
