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
})();
`;
