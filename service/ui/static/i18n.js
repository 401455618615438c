// Texts for people in the page's language. Every string a person reads goes through t("English text", {name: ...});
// a counted one through tn("{n} card", "{n} cards", n, {...}). `{name}` placeholders are filled from the params.
// The server renders the page's catalog (the `pages` gettext domain, service/translations/<lang>/LC_MESSAGES/
// pages.po) into the JSON block #i18n-catalog: messages by their English id, a list of plural forms for a counted
// one. A message the catalog lacks shows in English.

function readCatalog() {
  const block = typeof document === "undefined" ? null : document.getElementById("i18n-catalog");
  try { return block ? JSON.parse(block.textContent) : {}; } catch { return {}; }
}

const catalog = readCatalog();
const messages = catalog.messages || {};

/** The page's language as a BCP 47 tag (`en`, `vi`, `zh-Hant`, ...): also what the page asks the API for. */
export const lang = catalog.lang || "en";

// Which plural form a count takes: gettext's order of forms for each language (CLDR categories by Intl).
const FORMS = { uk: ["one", "few", "many"], it: ["one", "many", "other"], pt: ["one", "many", "other"], vi: ["other"], "zh-Hant": ["other"] };

function pluralIndex(n) {
  const order = FORMS[lang] || ["one", "other"];
  if (order.length === 1) return 0;
  const category = new Intl.PluralRules(lang).select(n);
  const found = order.indexOf(category);
  return found >= 0 ? found : order.length - 1;
}

function fill(message, params) {
  return message.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function t(message, params = {}) {
  const found = messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

export function tn(one, many, n, params = {}) {
  const forms = messages[one];
  const found = Array.isArray(forms) ? forms[pluralIndex(n)] : "";
  return fill(found || (n === 1 ? one : many), { n, ...params });
}

// The language switch (base.html): its links carry `?lang=`; here they also keep the rest of the address (the
// replay viewer's state is in its query and fragment), and a click remembers the choice in this browser (the
// cookie the server reads, and local storage). A `?lang=` in an address only shows that page in its language: a
// shared link may carry one, and the reader keeps the language they chose.
const STORE = "longcards.lang";
const COOKIE = "longcards_lang";
const YEAR = 365 * 24 * 3600;

const cookieLang = () => (/(?:^|;\s*)longcards_lang=([^;]*)/.exec(document.cookie) || [])[1] || null;

function remember(choice) {
  document.cookie = `${COOKIE}=${encodeURIComponent(choice)}; path=/; max-age=${YEAR}; samesite=lax`;
  try { localStorage.setItem(STORE, choice); } catch { /* storage may be off */ }
}

/** An address of this site for someone else: `href` without `lang` (the reader opens it in their own language). */
export function shareUrl(href = window.location.href) {
  const url = new URL(href, window.location.href);
  url.searchParams.delete("lang");
  return url.href;
}

function bindSwitch() {
  for (const link of document.querySelectorAll(".lang-list a[data-lang]")) {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", link.dataset.lang);
    link.href = url.pathname + url.search + url.hash;
    link.addEventListener("click", () => remember(link.dataset.lang));
  }
}

// A language chosen in this browser whose cookie is gone (cleared, expired): open the page in it again.
function restore() {
  let stored = null;
  try { stored = localStorage.getItem(STORE); } catch { return false; }
  const url = new URL(window.location.href);
  const offered = [...document.querySelectorAll(".lang-list a[data-lang]")].map((a) => a.dataset.lang);
  if (!stored || stored === lang || url.searchParams.has("lang") || !offered.includes(stored)
      || cookieLang()) return false;
  url.searchParams.set("lang", stored);
  window.location.replace(url.href);
  return true;
}

// The page opened on the switch's `?lang=` and the choice is remembered: the address drops it, so a copy of the
// address is the same page in the reader's own language.
function tidy() {
  const url = new URL(window.location.href);
  if (url.searchParams.get("lang") === lang && cookieLang() === lang) {
    history.replaceState(history.state, "", shareUrl(url.href));
  }
}

function start() {
  if (!restore()) { tidy(); bindSwitch(); }
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
