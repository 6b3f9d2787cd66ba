/* global document, SwaggerUIBundle */
// Starts Swagger UI on the page's OpenAPI document (`data-openapi` of #docs); loaded after swagger-ui-bundle.js.
const root = document.getElementById('docs');
SwaggerUIBundle({
  url: root.dataset.openapi,
  domNode: root,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  // An operation's link (#/tag/operationId) opens it; the models list starts closed.
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  // Request and response bodies show their fields first; the example is the next tab.
  defaultModelRendering: 'model',
  defaultModelExpandDepth: 2,
  // `x-access` (who may call) and the other extensions, beside each operation.
  showExtensions: true,
  showCommonExtensions: true,
  // A box that narrows the list to the tags matching what is typed.
  filter: true,
  // Nothing leaves this origin: no online validator badge.
  validatorUrl: null,
});
