// The code another site pastes into its page to show an embed view of this service (/embed/...): the view's
// address, an iframe of it, and the host script's element (/embed/longcards.js turns it into an iframe that fits
// its content). The iframe is the one the oEmbed answer gives (service/ui/oembed.py `iframe`).
import { $, $$ } from "./common.js";
import { t } from "./i18n.js";

const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";

const attribute = (value) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The code of the embed view `view` (`hand`, `drill`) of `query`: {url, iframe, script}; `title` names the frame
 * for the host page's readers, `height` is its height before the host script (if any) fits it. */
export function embedCode(view, query, title, height = 600) {
  const origin = window.location.origin;
  const url = `${origin}/embed/${view}${query ? `?${query}` : ""}`;
  return { url, iframe: iframeCode(url, title, height), script: scriptCode(origin, view, query) };
}

/** An iframe of the embed view at `url`, named `title`, `height` pixels high (640 wide, never wider than its page). */
export function iframeCode(url, title, height = 600) {
  return `<iframe src="${attribute(url)}" width="640" height="${height}" title="${attribute(title)}" `
    + `style="border:0;max-width:100%" loading="lazy" referrerpolicy="strict-origin-when-cross-origin" sandbox="${SANDBOX}"></iframe>`;
}

/** The host script's element for the view `kind` (`share`, `hand`, `drill`: `data-longcards-<kind>`, holding the
 * stored game's id or the view's query), and the script from the service at `origin`. */
export function scriptCode(origin, kind, value) {
  return `<div data-longcards-${kind}="${attribute(value)}"></div>\n<script src="${origin}/embed/longcards.js" async></script>`;
}

/** Copy buttons: each `button[data-copy]` copies the field its value names (a selector), and says so in `status`;
 * without clipboard access it selects the field, to copy by hand. */
export function wireCopy(root, status) {
  for (const button of $$("button[data-copy]", root)) {
    button.addEventListener("click", async () => {
      const field = $(button.dataset.copy, root);
      try { await navigator.clipboard.writeText(field.value); status.textContent = t("copied"); } catch {
        field.select();
        status.textContent = t("selected: copy it with Ctrl+C");
      }
    });
  }
}
