// The API docs page: Swagger UI (its two bundles load before this file), set up from the page's JSON block, since
// the page runs no inline script (its Content-Security-Policy allows none).
const settings = JSON.parse(document.getElementById("docs-settings").textContent);
window.ui = SwaggerUIBundle({
  ...settings,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
});
